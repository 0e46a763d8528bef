// Test data for the import wizard: a detection result, a plan with one entry of every outcome, and entries that say
// what they run (EntryPlan's transport and target).
import type { EntryPlan, FilePlan, ImportPlan, ImportSources, ImportSummary, TransportKind } from "../ipc/bindings";

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
  return { sourceName: fields.name, scope: null, notes: [], secretsMoved: [], transport: null, target: null, ...fields };
}

/** `entry` as a plan that says what it runs: a command line (stdio) or a URL, with its transport. */
export function launching(entry: EntryPlan, transport: TransportKind, target: string): EntryPlan {
  return { ...entry, transport, target };
}

export const PROJECT_PATH = "/home/ada/app/.cursor/mcp.json";

/**
 * Two files whose entries say what they run: Cursor's (a new local one with a secret, a new remote one, a remote
 * conflict, an identical local one) and a project's (a new local one, a new remote one with a secret).
 */
export function launchingFiles(): FilePlan[] {
  return [
    cursorFile({
      entries: [
        launching(entry({ name: "github", outcome: { kind: "new" }, secretsMoved: ["env.GITHUB_TOKEN"] }), "stdio", "npx -y @modelcontextprotocol/server-github"),
        launching(entry({ name: "sentry", outcome: { kind: "new" } }), "streamableHttp", "https://mcp.sentry.dev/mcp"),
        launching(
          entry({ name: "linear", outcome: { kind: "conflict", differences: ['url: "https://mcp.linear.app/sse" → "https://mcp.linear.app/mcp"'] } }),
          "probe",
          "https://mcp.linear.app/mcp",
        ),
        launching(entry({ name: "files", outcome: { kind: "identical" }, secretsMoved: ["env.FILES_KEY"] }), "stdio", "npx -y files-mcp /home/ada"),
      ],
    }),
    cursorFile({
      path: PROJECT_PATH,
      entries: [
        launching(entry({ name: "sqlite", outcome: { kind: "new" } }), "stdio", "uvx mcp-server-sqlite --db-path /home/ada/app/db.sqlite"),
        launching(entry({ name: "notion", outcome: { kind: "new" }, secretsMoved: ["headers.Authorization"] }), "sse", "https://mcp.notion.com/sse"),
      ],
    }),
  ];
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
