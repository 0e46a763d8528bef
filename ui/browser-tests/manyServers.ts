// Backends with many servers for the Servers page's triage: the 23 servers a new user imported (17 fail offline, with
// the lower-case messages the backend gives) and a generated list of any length (every third one failed).
import type { ServerList, ServerStatus, ServerStatusEntry, ServerSummary } from "../src/ipc/bindings";
import { CONFIG_PATH, server } from "./fixtures";
import type { MockIpc } from "./ipc";

const READY = (tools: number): ServerStatus => ({ state: "ready", tools, protocolVersion: "2025-06-18", serverName: null });
const OFFLINE: ServerStatus = {
  state: "failed",
  error: "exited with status 1 before it answered initialize",
  stderrTail: "npm error code EAI_AGAIN\nnpm error request to https://registry.npmjs.org/ failed: getaddrinfo EAI_AGAIN",
};
/** A remote server whose host name never resolved, in the core's words (supervisor/connector.rs, actor.rs). */
const UNREACHABLE = (url: string): ServerStatus => ({
  state: "failed",
  error: `It failed 5 times within a minute, so Plugboard stopped retrying; last error: Could not look up ${new URL(url).host}: failed to lookup address information: Temporary failure in name resolution. Check the address, or whether this computer is online; Plugboard retries by itself.`,
  stderrTail: null,
});

/** The 23 servers imported from Cursor and Claude Desktop, each with its status: 17 failed, 5 ready, 1 needs a login. */
export const IMPORTED: { summary: ServerSummary; status: ServerStatus }[] = [
  ...["brave-search", "everart", "fetch", "gdrive", "git", "google-maps", "memory", "postgres", "puppeteer", "redis", "sequential-thinking", "slack", "sqlite", "aws-kb-retrieval"].map((name) => ({
    summary: server({ name, target: `npx -y @modelcontextprotocol/server-${name}`, origin: "cursor" }),
    status: OFFLINE,
  })),
  ...[
    ["sentry", "https://mcp.sentry.dev/mcp"],
    ["notion", "https://mcp.notion.com/mcp"],
    ["stripe", "https://mcp.stripe.com"],
  ].map(([name = "", url = ""]) => ({
    summary: server({ name, transport: "streamableHttp", target: url, origin: "claude-desktop" }),
    status: UNREACHABLE(url),
  })),
  ...["filesystem", "time", "everything", "context7", "playwright"].map((name, index) => ({
    summary: server({ name, target: `npx -y ${name}-mcp`, origin: "cursor" }),
    status: READY(index + 3),
  })),
  {
    summary: server({ name: "linear", transport: "sse", target: "https://mcp.linear.app/sse", origin: "claude-desktop", oauth: true }),
    status: { state: "needsLogin", hint: "Log in to linear to use it." },
  },
];

/** `count` generated servers named server-000…, every third one failed, the others ready. */
export function generated(count: number): { summary: ServerSummary; status: ServerStatus }[] {
  return Array.from({ length: count }, (_, index) => {
    const name = `server-${String(index).padStart(3, "0")}`;
    return { summary: server({ name, target: `npx -y ${name}-mcp --port ${3000 + index}` }), status: index % 3 === 0 ? OFFLINE : READY(2) };
  });
}

/** Answers list_servers and server_statuses with these servers (names sorted, as the backend's BTreeMap gives them). */
export function serveMany(ipc: MockIpc, entries: { summary: ServerSummary; status: ServerStatus }[]) {
  const sorted = [...entries].sort((a, b) => (a.summary.name < b.summary.name ? -1 : 1));
  const list: ServerList = { configPath: CONFIG_PATH, servers: sorted.map((entry) => entry.summary), invalid: [], fileProblem: null };
  const statuses: ServerStatusEntry[] = sorted.map((entry) => ({ server: entry.summary.name, status: entry.status }));
  ipc.respond({ listServers: list, serverStatuses: statuses });
}
