// Tests for the colour tokens in index.css: every text colour reads on every background, in both themes (WCAG AA).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Read from disk: Vitest hands CSS imports (even ?raw) to the test as empty strings, and under jsdom
// import.meta.url is not a file URL. Vitest runs from ui/.
const CSS = readFileSync(join(process.cwd(), "src/index.css"), "utf8");
const TEXT = ["text", "muted", "accent", "danger", "ok", "warn"];
const BACKGROUNDS = ["canvas", "surface", "sidebar", "accent-soft", "danger-soft", "warn-soft"];

/** The token's [light, dark] colours as index.css declares them. */
function token(name: string): [string, string] {
  const match = new RegExp(`--pb-${name}: light-dark\\((#[0-9a-f]{6}), (#[0-9a-f]{6})\\);`).exec(CSS);
  if (match?.[1] === undefined || match[2] === undefined) throw new Error(`no light-dark() token --pb-${name}`);
  return [match[1], match[2]];
}

/** WCAG 2 relative luminance of "#rrggbb". */
function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe("colour tokens", () => {
  // Pins: any text token on any background token is at least 4.5:1 in light and in dark (axe checks only what the
  // browser tests put on screen; this covers the pairs they do not). The light accent and ok were darkened for it.
  it("every text colour has 4.5:1 on every background in both themes", () => {
    const failures = TEXT.flatMap((text) =>
      BACKGROUNDS.flatMap((background) =>
        [0, 1].flatMap((theme) => {
          const ratio = contrast(token(text)[theme] ?? "", token(background)[theme] ?? "");
          return ratio < 4.5 ? [`${theme === 0 ? "light" : "dark"} ${text} on ${background}: ${ratio.toFixed(2)}`] : [];
        }),
      ),
    );
    expect(failures).toEqual([]);
  });

  // Pins: the label on an accent button (on-accent on accent) reads in both themes.
  it("text on the accent colour has 4.5:1 in both themes", () => {
    for (const theme of [0, 1]) {
      expect(contrast(token("on-accent")[theme] ?? "", token("accent")[theme] ?? "")).toBeGreaterThanOrEqual(4.5);
    }
  });
});
