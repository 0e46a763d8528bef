// The app's Content Security Policy as a header value, read from tauri.conf.json (app.security.csp) so the browser
// tests serve the UI under exactly the policy the real window enforces, and the two can never drift apart.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const TAURI_CONF = resolve(import.meta.dirname, "../../tauri.conf.json");

/** `directive value; …` from the config's csp (Tauri accepts an object of directives or one string). */
export function appCsp(): string {
  const config = JSON.parse(readFileSync(TAURI_CONF, "utf8")) as { app?: { security?: { csp?: unknown } } };
  const csp = config.app?.security?.csp;
  if (typeof csp === "string") return csp;
  if (typeof csp !== "object" || csp === null) throw new Error(`${TAURI_CONF} has no app.security.csp`);
  return Object.entries(csp as Record<string, string | string[]>)
    .map(([directive, value]) => `${directive} ${Array.isArray(value) ? value.join(" ") : value}`)
    .join("; ");
}
