// Collects every Content Security Policy violation a page reports: the DOM's `securitypolicyviolation` events (from
// an init script, so none is missed before the app starts) and the "Refused to …" errors Chromium logs for them.
import type { Page } from "@playwright/test";

/** Starts watching `page`; the returned list fills with one line per violation. */
export async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeBinding("__plugboardCspViolation", (_source, line: string) => void violations.push(line));
  await page.addInitScript(() => {
    const report = (window as unknown as { __plugboardCspViolation: (line: string) => void }).__plugboardCspViolation;
    document.addEventListener("securitypolicyviolation", (event) => {
      const where = `${event.sourceFile}:${event.lineNumber}`;
      report(`${event.effectiveDirective} blocked ${event.blockedURI || "inline code"} (${where})`);
    });
  });
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}
