// Tests of revealing a schema's shown text: titles, descriptions and enumNames at any depth, while the values sent
// back (enum, const, default) and property names stay exactly as written.
import { describe, expect, it } from "vitest";
import { revealSchemaText } from "./revealSchemaText";

describe("revealSchemaText", () => {
  // Pins: hidden characters in every label are shown, also in a property named like a keyword; values stay raw.
  it("reveals labels and leaves values alone", () => {
    const schema = {
      title: "Root\u202e",
      properties: {
        default: { type: "string", title: "Named default\u200b", default: "raw\u200b" },
        pick: {
          enum: ["a\u202e"],
          enumNames: ["A\u202e"],
          items: { anyOf: [{ const: "c\u202e", title: "C\u202e" }] },
        },
      },
    };
    expect(revealSchemaText(schema)).toEqual({
      title: "Root\\u{202e}",
      properties: {
        default: { type: "string", title: "Named default\\u{200b}", default: "raw\u200b" },
        pick: {
          enum: ["a\u202e"],
          enumNames: ["A\\u{202e}"],
          items: { anyOf: [{ const: "c\u202e", title: "C\\u{202e}" }] },
        },
      },
    });
  });
});
