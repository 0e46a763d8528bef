// Turns the Add server form into a servers.json entry (the same shape a person would write by hand).

/** What the Add server form holds. */
export type NewServerForm = {
  /** `command`: a local program over stdio; `url`: a remote server. */
  kind: "command" | "url";
  /** The program to start (no arguments). */
  command: string;
  /** Its arguments, one per line, taken literally (no shell: quotes and spaces stay as typed). */
  argumentLines: string;
  /** The remote server's URL. */
  url: string;
  /** How to talk to the URL: `detect` tries Streamable HTTP and falls back to legacy SSE. */
  transport: "detect" | "http" | "sse";
};

export const EMPTY_FORM: NewServerForm = { kind: "command", command: "", argumentLines: "", url: "", transport: "detect" };

/** The entry as pretty JSON text: what is checked by the core, shown to the person, and saved. */
export function entryText(form: NewServerForm): string {
  if (form.kind === "command") {
    // One argument per line; blank lines are dropped so a trailing newline adds nothing.
    const args = form.argumentLines.split("\n").filter((line) => line.trim() !== "");
    const entry = args.length > 0 ? { command: form.command.trim(), args } : { command: form.command.trim() };
    return JSON.stringify(entry, null, 2);
  }
  const url = form.url.trim();
  const entry = form.transport === "detect" ? { url } : { type: form.transport, url };
  return JSON.stringify(entry, null, 2);
}
