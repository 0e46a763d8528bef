// Tests for revealHidden: invisible and reordering characters become visible escapes; ordinary text is untouched.
import { describe, expect, it } from "vitest";
import { revealHidden } from "./revealHidden";

describe("revealHidden", () => {
  // Pins: a zero-width space shows as \u{200b} instead of vanishing.
  it("reveals zero-width characters", () => {
    expect(revealHidden("api\u200bkey")).toBe("api\\u{200b}key");
    expect(revealHidden("\ufeffstart\u2060")).toBe("\\u{feff}start\\u{2060}");
  });

  // Pins: a right-to-left override (the "trojan source" trick) and bidi isolates show as escapes, not as reordering.
  it("reveals bidi controls", () => {
    expect(revealHidden("file\u202etxt.exe")).toBe("file\\u{202e}txt.exe");
    expect(revealHidden("\u2066a\u2069\u200f")).toBe("\\u{2066}a\\u{2069}\\u{200f}");
  });

  // Pins: terminal escape codes and lone carriage returns in stderr become visible; tabs and newlines keep the layout.
  it("reveals control characters but keeps tabs and line breaks", () => {
    expect(revealHidden("\u001b[31merror\u001b[0m")).toBe("\\u{1b}[31merror\\u{1b}[0m");
    expect(revealHidden("50%\r100%")).toBe("50%\\u{d}100%");
    expect(revealHidden("a\tb\nc\r\nd")).toBe("a\tb\nc\r\nd");
  });

  // Pins: ordinary text, including non-Latin scripts and emoji, passes through unchanged.
  it("leaves visible text alone", () => {
    const text = "spawn npx ENOENT — Ünïcödé 日本語 🚀 <img src=x>";
    expect(revealHidden(text)).toBe(text);
  });
});
