// The backend every browser test starts from: three servers (ready, stopped, failed), their tools, an OS keychain and
// Cursor's config found for import. A test changes only what its flow is about, with `ipc.respond`.
import type { ServerStatusEntry, ServerSummary, ToolInfo } from "../src/ipc/bindings";
import { cursorFile, plan, sources, summary } from "../src/test/importFixtures";
import type { Responses } from "./ipc";

export const CONFIG_PATH = "/home/ada/.config/plugboard/servers.json";

/** A server as `list_servers` reports it (stdio, enabled, hand-written unless `fields` says otherwise). */
export function server(fields: Partial<ServerSummary> & Pick<ServerSummary, "name">): ServerSummary {
  return { transport: "stdio", target: `npx -y ${fields.name}-mcp`, enabled: true, origin: null, oauth: false, ...fields };
}

/** A tool of server `of`, allowed unless `fields` says otherwise. */
export function tool(of: string, fields: Partial<ToolInfo> & Pick<ToolInfo, "name">): ToolInfo {
  return {
    exposedName: `mcp__${of}__${fields.name}`,
    title: null,
    description: `Does ${fields.name}.`,
    allowed: true,
    inputSchema: '{"type":"object"}',
    ...fields,
  };
}

export const SERVERS: ServerSummary[] = [
  server({ name: "files", origin: "cursor" }),
  server({ name: "github", transport: "streamableHttp", target: "https://api.githubcopilot.com/mcp/" }),
  server({ name: "weather", target: "uvx weather-mcp --units metric" }),
];

export const STATUSES: ServerStatusEntry[] = [
  { server: "files", status: { state: "ready", tools: 3, protocolVersion: "2025-06-18", serverName: "files" } },
  { server: "github", status: { state: "stopped" } },
  { server: "weather", status: { state: "failed", error: "exited with status 1", stderrTail: "ModuleNotFoundError: httpx" } },
];

export const FILES_TOOLS: ToolInfo[] = [
  tool("files", { name: "read_file", description: "Reads a file." }),
  tool("files", { name: "write_file", description: "Writes a file." }),
  tool("files", { name: "list_dir", description: "Lists a folder." }),
];

export const FILES_ENTRY = JSON.stringify({ command: "npx", args: ["-y", "files-mcp"] }, null, 2);

/** Answers for every command the existing screens call. New screens add theirs here. */
export function defaultResponses(): Responses {
  return {
    listServers: { configPath: CONFIG_PATH, servers: SERVERS, invalid: [], fileProblem: null },
    serverStatuses: STATUSES,
    connectServer: null,
    disconnectServer: null,
    removeServer: 0,
    serverAllowlist: (name) => ({ entries: null, tools: name === "files" ? FILES_TOOLS : [], unknownEntries: [] }),
    serverTools: (name) => (name === "files" ? FILES_TOOLS : []),
    setServerTools: null,
    getServer: () => FILES_ENTRY,
    checkServerEntry: null,
    updateServer: null,
    serverLoginState: null,
    vaultStatus: {
      backend: "keychain",
      persists: true,
      summary: "Secrets are kept in the OS keychain.",
      keychainUnavailableReason: null,
      whatToDo: null,
      insecureFilePath: null,
    },
    appPaths: {
      configFile: CONFIG_PATH,
      dataDir: "/home/ada/.local/share/plugboard",
      logDir: "/home/ada/.local/state/plugboard/logs",
      version: "0.1.0",
    },
    detectImportSources: sources(),
    planImport: plan([cursorFile()]),
    applyImport: summary({ added: ["github"], renamed: [["linear", "linear-2"]], secretsMoved: 1, identical: 1, invalid: 1 }),
    missedDeepLinkRejections: [],
  };
}
