// Test data for the import wizard: a detection result and a plan with one entry of every outcome.
import type { EntryPlan, FilePlan, ImportPlan, ImportSources, ImportSummary } from "../ipc/bindings";

export const CURSOR_PATH = "/home/ada/.cursor/mcp.json";
export const CLAUDE_PATH = "/home/ada/.config/Claude/claude_desktop_config.json";

/** Cursor's file found; Claude Desktop and Zed not. */
export function sources(fields: Partial<ImportSources> = {}): ImportSources {
  return {
    found: [{ client: "cursor", clientLabel: "Cursor", path: CURSOR_PATH }],
    notFound: [
      { client: "claude-desktop", clientLabel: "Claude Desktop", lookedIn: [CLAUDE_PATH] },
      { client: "zed", clientLabel: "Zed", lookedIn: ["/home/ada/.config/zed/settings.json"] },
    ],
    ...fields,
  };
}

/** An entry with no notes, no secrets and the same name as in the source, unless `fields` says otherwise. */
export function entry(fields: Partial<EntryPlan> & Pick<EntryPlan, "name" | "outcome">): EntryPlan {
  return { sourceName: fields.name, scope: null, notes: [], secretsMoved: [], ...fields };
}

/** Cursor's file: new (with a secret moved), identical, conflict and invalid entries. */
export function cursorFile(fields: Partial<FilePlan> = {}): FilePlan {
  return {
    client: "cursor",
    clientLabel: "Cursor",
    path: CURSOR_PATH,
    error: null,
    entries: [
      entry({ name: "github", outcome: { kind: "new" }, secretsMoved: ["env.GITHUB_TOKEN"] }),
      entry({ name: "files", outcome: { kind: "identical" } }),
      entry({
        name: "linear",
        outcome: { kind: "conflict", differences: ['url: "https://mcp.linear.app/sse" → "https://mcp.linear.app/mcp"'] },
      }),
      entry({ name: "broken", outcome: { kind: "invalid", reason: "command: a stdio server needs a command" } }),
    ],
    ...fields,
  };
}

/** A plan over `files` (Cursor's by default). */
export function plan(files: FilePlan[] = [cursorFile()]): ImportPlan {
  return { files };
}

/** What apply_import reports, nothing done unless `fields` says otherwise. */
export function summary(fields: Partial<ImportSummary> = {}): ImportSummary {
  return {
    added: [],
    overwritten: [],
    renamed: [],
    skipped: [],
    identical: 0,
    invalid: 0,
    fileErrors: 0,
    secretsMoved: 0,
    ...fields,
  };
}

/** A command's successful answer. */
export function ok<T>(data: T) {
  return Promise.resolve({ status: "ok" as const, data });
}
