// Tests for the URI template filler: variable names and expansion for the operators servers use.
import { describe, expect, it } from "vitest";
import { expandTemplate, templateVariables } from "./uriTemplate";

describe("uriTemplate", () => {
  // Pins: names come out once each, in order, without explode or prefix modifiers.
  it("lists the variables", () => {
    expect(templateVariables("demo://r/{id}/{+path}{?q,page*}{&q}")).toEqual(["id", "path", "q", "page"]);
    expect(templateVariables("file:///fixed")).toEqual([]);
  });

  // Pins: simple values are percent-encoded, reserved ones keep slashes, query and path operators add their
  // prefixes, and empty values drop out.
  it("expands the operators", () => {
    expect(expandTemplate("demo://resource/dynamic/text/{resourceId}", { resourceId: "3" })).toBe(
      "demo://resource/dynamic/text/3",
    );
    expect(expandTemplate("x://{a}", { a: "a b/c" })).toBe("x://a%20b%2Fc");
    expect(expandTemplate("x://{+a}", { a: "a b/c" })).toBe("x://a%20b/c");
    expect(expandTemplate("x://s{/a,b}", { a: "1", b: "2" })).toBe("x://s/1/2");
    expect(expandTemplate("x://s{?q,page}", { q: "hi there", page: "" })).toBe("x://s?q=hi%20there");
    expect(expandTemplate("x://s{?q}", {})).toBe("x://s");
  });
});
