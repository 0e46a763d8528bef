// Tests for the app's text search.
import { describe, expect, it } from "vitest";
import { hasEveryWord } from "./textSearch";

describe("hasEveryWord", () => {
  // Pins: every word must appear (in any text, any case, any order); an empty or blank query matches everything.
  it("matches when every word appears", () => {
    expect(hasEveryWord(["files", "npx -y Files-MCP"], "mcp FILES")).toBe(true);
    expect(hasEveryWord(["files", "npx -y files-mcp"], "files linear")).toBe(false);
    expect(hasEveryWord(["files"], "  ")).toBe(true);
  });

  // Pins: a word never matches across two texts.
  it("does not match across texts", () => {
    expect(hasEveryWord(["ab", "cd"], "bc")).toBe(false);
  });
});
