// Runs axe-core in the page and returns its violations in a readable form. Injects axe through the DevTools protocol
// (page.evaluate), so the page's own scripts and CSP are untouched; never allowlists a rule without a written reason.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Rules switched off for every screen, each with the reason. Empty on purpose: add one only with a reason a reviewer
 * accepts (a false positive of axe, never "we have not fixed it yet").
 */
const DISABLED_RULES: Record<string, string> = {};

/** One violation as a line per offending node: rule, impact, help, and the node's selector and summary. */
function describe(results: AxeResults): string[] {
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? "?"}): ${violation.help}\n    at ${node.target.join(" ")}\n    ${node.failureSummary?.replaceAll("\n", "\n    ") ?? ""}`,
    ),
  );
}

/** axe-core's violations on the page as it is now (every rule, WCAG 2.x A/AA and best practices). */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const options: RunOptions = {
    resultTypes: ["violations"],
    rules: Object.fromEntries(Object.keys(DISABLED_RULES).map((rule) => [rule, { enabled: false }])),
  };
  const results = await page.evaluate(
    (runOptions) => (window as unknown as { axe: { run: (c: Document, o: RunOptions) => Promise<AxeResults> } }).axe.run(document, runOptions),
    options,
  );
  return describe(results);
}
