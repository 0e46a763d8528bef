// Tests of how a schema's fixed choices are read: enum (with and without enumNames), titled oneOf/anyOf consts, and
// schemas that are no fixed list; and the hint a pick-several list shows for minItems/maxItems.
import { describe, expect, it } from "vitest";
import { choicesOf, countHint } from "./choices";

describe("choicesOf", () => {
  // Pins: enumNames label their values by position; a missing name falls back to the value itself.
  it("labels an enum by its enumNames, else by the value", () => {
    expect(choicesOf({ enum: ["a", "b", 3], enumNames: ["Alpha"] })).toEqual([
      { value: "a", label: "Alpha" },
      { value: "b", label: "b" },
      { value: 3, label: "3" },
    ]);
  });

  // Pins: oneOf or anyOf of consts are choices labelled by title; one option that is not a const makes no list.
  it("reads titled consts and refuses mixed alternatives", () => {
    expect(choicesOf({ anyOf: [{ const: "x", title: "Ex" }, { const: "y" }] })).toEqual([
      { value: "x", label: "Ex" },
      { value: "y", label: "y" },
    ]);
    expect(choicesOf({ oneOf: [{ const: "x" }, { type: "string" }] })).toBeNull();
    expect(choicesOf({ type: "string" })).toBeNull();
  });
});

describe("countHint", () => {
  // Pins: the hint says how many to choose, in words, and nothing when the schema sets no bounds.
  it("words minItems and maxItems", () => {
    expect(countHint({ minItems: 1, maxItems: 3 })).toBe("Choose 1 to 3.");
    expect(countHint({ minItems: 2, maxItems: 2 })).toBe("Choose 2.");
    expect(countHint({ minItems: 1 })).toBe("Choose at least 1.");
    expect(countHint({ maxItems: 2 })).toBe("Choose up to 2.");
    expect(countHint({ minItems: 0 })).toBeNull();
  });
});
