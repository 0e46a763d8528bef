// Human names for the client ids a server can be imported from; unknown ids pass through as text.
/** Known client ids (as the importer reports them) and how people name those clients. */
const CLIENT_NAMES = new Map<string, string>([
  ["claude-desktop", "Claude Desktop"],
  ["claude-code", "Claude Code"],
  ["cursor", "Cursor"],
  ["vscode", "VS Code"],
  ["windsurf", "Windsurf"],
  ["cline", "Cline"],
  ["roo", "Roo Code"],
  ["gemini", "Gemini CLI"],
  ["zed", "Zed"],
  ["continue", "Continue"],
  ["codex", "Codex"],
]);

/**
 * "Imported from Cursor" for `cursor`; an unknown id is named verbatim ("Imported from my-client");
 * `null` (not imported) gives `null` so the caller decides how to show "nothing".
 */
export function originLabel(origin: string | null): string | null {
  if (origin === null) return null;
  // A Map, not an object: an id such as "constructor" must not find a prototype property.
  return `Imported from ${CLIENT_NAMES.get(origin) ?? origin}`;
}
