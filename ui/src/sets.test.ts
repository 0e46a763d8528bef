// Tests for the set helpers React state uses.
import { describe, expect, it } from "vitest";
import { toggled } from "./sets";

describe("toggled", () => {
  // Pins: a change gives a new set (React sees it), no change gives the same set (no re-render), the input is untouched.
  it("adds or removes an item without changing the set it was given", () => {
    const set: ReadonlySet<string> = new Set(["a"]);
    expect([...toggled(set, "b", true)]).toEqual(["a", "b"]);
    expect([...toggled(set, "a", false)]).toEqual([]);
    expect(toggled(set, "a", true)).toBe(set);
    expect(toggled(set, "b", false)).toBe(set);
    expect([...set]).toEqual(["a"]);
  });
});
