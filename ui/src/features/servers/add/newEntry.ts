// Turns the Add server form into a servers.json entry (the same shape a person would write by hand) and the secrets
// that go to the keychain with it. A value marked secret never enters the entry: only its `${secret:NAME}` does.

/** One environment variable (local) or header (remote) the person typed. */
export type NamedValue = {
  name: string;
  value: string;
  /** Kept in the keychain; the entry refers to it as `${secret:NAME}`. */
  secret: boolean;
};

/** What the Add server form holds. */
export type NewServerForm = {
  /** `command`: a local program over stdio; `url`: a remote server. */
  kind: "command" | "url";
  /** The program to start (no arguments). */
  command: string;
  /** Its arguments, one per line, taken literally (no shell: quotes and spaces stay as typed). */
  argumentLines: string;
  /** Environment variables of a local server. */
  env: NamedValue[];
  /** The remote server's URL. */
  url: string;
  /** How to talk to the URL: `detect` tries Streamable HTTP and falls back to legacy SSE. */
  transport: "detect" | "http" | "sse";
  /** HTTP headers sent to a remote server (an API key, a team id). */
  headers: NamedValue[];
  /** Whether the remote server logs in with OAuth (an `oauth` section). */
  oauth: boolean;
};

export const EMPTY_FORM: NewServerForm = {
  kind: "command",
  command: "",
  argumentLines: "",
  env: [],
  url: "",
  transport: "detect",
  headers: [],
  oauth: false,
};

/** A secret to store with the new server. */
export type NewSecret = { name: string; value: string };

/** The keychain name of a secret header or variable: the header `Authorization` becomes `AUTHORIZATION`. */
export function secretName(name: string): string {
  return name.trim().replace(/[^A-Za-z0-9_]+/g, "_").toUpperCase();
}

/** The rows the person filled in (a row without a name is a row not used yet). */
function usedRows(rows: NamedValue[]): NamedValue[] {
  return rows.filter((row) => row.name.trim() !== "");
}

/** `{NAME: value}` for the entry: a secret row becomes its reference. */
function valuesOf(rows: NamedValue[]): Record<string, string> {
  return Object.fromEntries(
    usedRows(rows).map((row) => [row.name.trim(), row.secret ? `\${secret:${secretName(row.name)}}` : row.value]),
  );
}

/** The entry as pretty JSON text: what is checked by the core, shown to the person, and saved. */
export function entryText(form: NewServerForm): string {
  if (form.kind === "command") {
    // One argument per line; blank lines are dropped so a trailing newline adds nothing.
    const args = form.argumentLines.split("\n").filter((line) => line.trim() !== "");
    const env = valuesOf(form.env);
    const entry = {
      command: form.command.trim(),
      ...(args.length > 0 && { args }),
      ...(Object.keys(env).length > 0 && { env }),
    };
    return JSON.stringify(entry, null, 2);
  }
  const headers = valuesOf(form.headers);
  const entry = {
    ...(form.transport !== "detect" && { type: form.transport }),
    url: form.url.trim(),
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(form.oauth && { oauth: {} }),
  };
  return JSON.stringify(entry, null, 2);
}

/** The secret values to store with the entry, under the names its references use. */
export function entrySecrets(form: NewServerForm): NewSecret[] {
  const rows = form.kind === "command" ? form.env : form.headers;
  return usedRows(rows)
    .filter((row) => row.secret)
    .map((row) => ({ name: secretName(row.name), value: row.value }));
}
