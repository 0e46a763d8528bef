// Every screen of the app as the accessibility and layout tests visit it: its route, the fixtures it needs beyond
// fixtures.ts, the steps that bring it on screen and what shows it is ready. One entry per screen (or per step of a
// wizard); add yours here when you add a screen (see README.md).
import type { Locator, Page } from "@playwright/test";
import { launchingFiles, plan, PROJECT_PATH } from "../src/test/importFixtures";
import {
  ELICITATION,
  EVERY_SHAPE_ELICITATION,
  historyEntry,
  LONG_ELICITATION,
  PINNED_APPROVAL,
  RISKY_APPROVAL,
  ROOTS,
  SAMPLING,
  server,
} from "./fixtures";
import type { MockIpc } from "./ipc";
import { generated, IMPORTED, serveMany } from "./manyServers";

/** A 1×1 PNG, for an image block in a tool's result. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** A result with every kind of content block the console renders, and structured content. */
const RICH_RESULT = JSON.stringify({
  content: [
    { type: "text", text: "Two files found." },
    { type: "image", data: PIXEL, mimeType: "image/png" },
    { type: "resource_link", uri: "file:///etc/hosts", name: "hosts", description: "Static host names." },
    { type: "resource", resource: { uri: "file:///etc/motd", mimeType: "text/plain", text: "Welcome." } },
    { type: "future_kind", payload: 1 },
  ],
  structuredContent: { count: 2 },
  isError: false,
});

/** An OAuth server (linear) as the only server, in `status`, with the login `loggedIn` says. */
function oauthServer(ipc: MockIpc, ready: boolean) {
  ipc.respond({
    listServers: {
      configPath: "/home/ada/.config/plugboard/servers.json",
      servers: [server({ name: "linear", transport: "streamableHttp", target: "https://mcp.linear.app/mcp", oauth: true })],
      invalid: [],
      fileProblem: null,
    },
    serverStatuses: [
      {
        server: "linear",
        status: ready
          ? { state: "ready", tools: 0, protocolVersion: "2025-06-18", serverName: "linear" }
          : { state: "needsLogin", hint: "Log in to linear to use it." },
      },
    ],
    serverLoginState: ready
      ? {
          loggedIn: true,
          issuer: "https://linear.app",
          scopes: ["read", "write"],
          expiresAtMs: Date.now() + 40 * 60_000,
          renewsByItself: true,
          clientId: "plugboard-client",
          boundToKey: true,
        }
      : {
          loggedIn: false,
          issuer: null,
          scopes: [],
          expiresAtMs: null,
          renewsByItself: false,
          clientId: null,
          boundToKey: false,
        },
  });
}

/** One screen (or one state of a screen) to check. */
export type Screen = {
  /** Unique name, used in the test titles. */
  name: string;
  /** The hash route it starts from, e.g. "/servers". */
  route: string;
  /** Answers it needs beyond fixtures.ts's defaults. */
  prepare?: (ipc: MockIpc) => void;
  /** What to do after opening the route to reach this state (e.g. press Next in a wizard, emit an event). */
  reach?: (page: Page, ipc: MockIpc) => Promise<void>;
  /** Visible once the screen has its data and is settled. */
  ready: (page: Page) => Locator;
};

export const SCREENS: Screen[] = [
  {
    name: "servers",
    route: "/servers",
    ready: (page) => page.getByRole("row", { name: /files/ }).getByText("Ready · 3 tools"),
  },
  {
    name: "servers, failure details open",
    route: "/servers",
    reach: async (page) => {
      await page.getByRole("row", { name: /weather/ }).getByRole("button", { expanded: false }).click();
    },
    ready: (page) => page.getByText("ModuleNotFoundError: httpx"),
  },
  {
    name: "servers, confirming a removal",
    route: "/servers",
    reach: async (page) => {
      await page.getByRole("button", { name: "Remove github" }).click();
    },
    ready: (page) => page.getByRole("group", { name: "Confirm removing github" }),
  },
  {
    name: "servers, 23 imported, failed ones shown by status with details open",
    route: "/servers",
    prepare: (ipc) => serveMany(ipc, IMPORTED),
    reach: async (page) => {
      await page.getByRole("button", { name: "Failed 17" }).click();
      await page.getByRole("combobox", { name: "Sort by" }).selectOption("status");
      await page.getByRole("searchbox", { name: "Search servers" }).fill("npx");
      await page.getByRole("button", { name: "Details for brave-search" }).click();
    },
    ready: (page) => page.getByText("Showing 14 of 23 servers"),
  },
  {
    name: "servers, a search that matches nothing",
    route: "/servers",
    prepare: (ipc) => serveMany(ipc, IMPORTED),
    reach: async (page) => {
      await page.getByRole("button", { name: "Needs login 1" }).click();
      await page.getByRole("searchbox", { name: "Search servers" }).fill("postgres");
    },
    ready: (page) => page.getByRole("button", { name: "Show all servers" }),
  },
  {
    name: "servers, 200 of them",
    route: "/servers",
    prepare: (ipc) => serveMany(ipc, generated(200)),
    ready: (page) => page.getByRole("row", { name: /server-000/ }).getByText("Failed"),
  },
  {
    name: "first run, import offered",
    route: "/servers",
    prepare: (ipc) =>
      ipc.respond({ listServers: { configPath: "/home/ada/.config/plugboard/servers.json", servers: [], invalid: [], fileProblem: null } }),
    ready: (page) => page.getByRole("link", { name: "Import from Cursor" }),
  },
  {
    name: "server detail, tools",
    route: "/servers/files",
    ready: (page) => page.getByRole("checkbox", { name: "read_file" }),
  },
  {
    name: "server detail, config",
    route: "/servers/files",
    reach: async (page) => {
      await page.getByRole("tab", { name: "Config" }).click();
    },
    ready: (page) => page.getByRole("textbox", { name: "Entry of files as JSON" }),
  },
  {
    // A failed server's page: the same red box as its row, a missing secret to set, and a diagnosis run.
    name: "server detail, failed with a missing secret, diagnosed",
    route: "/servers/weather",
    prepare: (ipc) => ipc.respond({ serverSecrets: [{ name: "WEATHER_KEY", stored: false }, { name: "UNITS", stored: true }] }),
    reach: async (page) => {
      await page.getByRole("button", { name: "Run diagnosis" }).click();
    },
    ready: (page) => page.getByRole("list", { name: "Diagnosis" }),
  },
  {
    name: "server detail, rename",
    route: "/servers/files",
    reach: async (page) => {
      await page.getByRole("button", { name: "Rename" }).click();
    },
    ready: (page) => page.getByRole("textbox", { name: "New name" }),
  },
  {
    name: "import, sources",
    route: "/import",
    ready: (page) => page.getByRole("button", { name: "Review 4 entries" }),
  },
  {
    name: "import, review",
    route: "/import",
    reach: async (page) => {
      await page.getByRole("button", { name: "Review 4 entries" }).click();
    },
    ready: (page) => page.getByRole("combobox", { name: "What to do with linear" }),
  },
  {
    name: "import, review with a file and an entry left out, Local only on",
    route: "/import",
    prepare: (ipc) => ipc.respond({ planImport: plan(launchingFiles()) }),
    reach: async (page) => {
      await page.getByRole("button", { name: "Review 6 entries" }).click();
      await page.getByRole("checkbox", { name: `Import this file ${PROJECT_PATH}` }).uncheck();
      await page.getByRole("checkbox", { name: "Add github" }).uncheck();
      await page.getByRole("checkbox", { name: /^Local only/ }).check();
    },
    ready: (page) => page.getByRole("button", { name: "Nothing to import" }),
  },
  {
    name: "import, summary",
    route: "/import",
    reach: async (page) => {
      await page.getByRole("button", { name: "Review 4 entries" }).click();
      await page.getByRole("button", { name: "Import 1 server" }).click();
    },
    ready: (page) => page.getByRole("link", { name: "Go to Servers" }),
  },
  {
    name: "clients",
    route: "/clients",
    ready: (page) => page.getByRole("button", { name: "Connect with profile coding (5 tools)" }),
  },
  {
    name: "clients, the change shown before connecting",
    route: "/clients",
    reach: async (page) => {
      await page.getByRole("button", { name: "Connect Cursor" }).click();
    },
    ready: (page) => page.getByRole("dialog", { name: "Connect Cursor" }).getByRole("button", { name: "Write this change" }),
  },
  {
    name: "settings",
    route: "/settings",
    ready: (page) => page.getByText("Secrets are kept in the OS keychain."),
  },
  {
    name: "settings, keychain unavailable",
    route: "/settings",
    prepare: (ipc) =>
      ipc.respond({
        vaultStatus: {
          backend: "memoryOnly",
          persists: false,
          summary: "Secrets are kept in memory only and are lost when Plugboard quits.",
          keychainUnavailableReason: "No Secret Service provider is running.",
          whatToDo: "Install and start gnome-keyring, then restart Plugboard.",
          insecureFilePath: null,
        },
      }),
    ready: (page) => page.getByText("Install and start gnome-keyring"),
  },
  {
    name: "server detail, resources with one read",
    route: "/servers/files",
    reach: async (page) => {
      await page.getByRole("tab", { name: "Resources" }).click();
      await page.getByRole("button", { name: "Read hosts" }).click();
    },
    ready: (page) => page.getByText("contents of file:///etc/hosts", { exact: true }),
  },
  {
    name: "server detail, prompt got",
    route: "/servers/files",
    reach: async (page) => {
      await page.getByRole("tab", { name: "Prompts" }).click();
      await page.getByRole("button", { name: /Summarise a file/ }).click();
      await page.getByRole("textbox", { name: /path/ }).fill("/etc/hosts");
      await page.getByRole("button", { name: "Get prompt" }).click();
    },
    ready: (page) => page.getByText("summarise /etc/hosts", { exact: true }),
  },
  {
    name: "server detail, log",
    route: "/servers/files",
    reach: async (page) => {
      await page.getByRole("tab", { name: "Log" }).click();
    },
    ready: (page) => page.getByText("cannot read /root"),
  },
  {
    name: "server detail, OAuth login facts",
    route: "/servers/linear",
    prepare: (ipc) => oauthServer(ipc, true),
    ready: (page) => page.getByText("https://linear.app"),
  },
  {
    name: "server detail, OAuth server needing a login",
    route: "/servers/linear",
    prepare: (ipc) => oauthServer(ipc, false),
    ready: (page) => page.getByText(/Not logged in/),
  },
  {
    name: "servers, add server dialog",
    route: "/servers",
    reach: async (page) => {
      await page.getByRole("button", { name: "Add server" }).click();
      await page.getByRole("textbox", { name: "Name" }).fill("everything");
      await page.getByRole("textbox", { name: "Program" }).fill("npx");
    },
    ready: (page) => page.getByRole("region", { name: "The entry that will be saved" }).getByText('"command": "npx"'),
  },
  {
    name: "presets",
    route: "/presets",
    ready: (page) => page.getByRole("button", { name: "Add Filesystem" }),
  },
  {
    name: "presets, add dialog",
    route: "/presets",
    reach: async (page) => {
      await page.getByRole("button", { name: "Add Filesystem" }).click();
      await page.getByRole("textbox", { name: /allowed_folder/ }).fill("/home/ada");
    },
    ready: (page) => page.getByText("npx -y @modelcontextprotocol/server-filesystem@2026.8.31 /home/ada"),
  },
  {
    name: "presets, MCP Registry results",
    route: "/presets",
    reach: async (page) => {
      await page.getByRole("tab", { name: "MCP Registry" }).click();
      await page.getByRole("searchbox", { name: "Search the registry" }).fill("files");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByText("1 entry left out").click();
    },
    ready: (page) => page.getByRole("button", { name: "More from Official MCP Registry" }),
  },
  {
    name: "console, tool picker open",
    route: "/console?server=files",
    reach: async (page) => {
      await page.getByRole("button", { name: /^Tool/ }).click();
    },
    ready: (page) => page.getByRole("option", { name: /write_file/ }),
  },
  { name: "console, nothing picked", route: "/console", ready: (page) => page.getByText("Pick a server and a tool.") },
  {
    name: "console, a result",
    route: "/console?server=files&tool=read_file",
    reach: async (page) => {
      await page.getByRole("textbox", { name: /path/ }).fill("/etc/hosts");
      await page.getByRole("button", { name: "Run", exact: true }).click();
    },
    ready: (page) => page.getByText("hello from the tool"),
  },
  {
    name: "console, every kind of content in a result",
    route: "/console?server=files&tool=read_file",
    prepare: (ipc) =>
      ipc.respond({
        runToolCall: (_callId, server, tool, args) =>
          historyEntry({ id: 3, server, tool, arguments: args, outcome: { kind: "result", isError: false, result: RICH_RESULT, truncated: false } }),
      }),
    reach: async (page) => {
      await page.getByRole("textbox", { name: /path/ }).fill("/etc");
      await page.getByRole("button", { name: "Run", exact: true }).click();
    },
    ready: (page) => page.getByRole("region", { name: "Structured content" }),
  },
  {
    name: "console, a tool error",
    route: "/console?server=files&tool=read_file",
    prepare: (ipc) =>
      ipc.respond({
        runToolCall: (_callId, server, tool, args) =>
          historyEntry({
            id: 3,
            server,
            tool,
            arguments: args,
            outcome: { kind: "result", isError: true, result: JSON.stringify({ content: [{ type: "text", text: "ENOENT" }], isError: true }), truncated: false },
          }),
      }),
    reach: async (page) => {
      await page.getByRole("textbox", { name: /path/ }).fill("/nope");
      await page.getByRole("button", { name: "Run", exact: true }).click();
    },
    ready: (page) => page.getByText("ENOENT"),
  },
  {
    name: "console, arguments as JSON",
    route: "/console?server=files&tool=read_file",
    reach: async (page) => {
      await page.getByRole("tab", { name: "JSON" }).click();
    },
    ready: (page) => page.getByRole("textbox", { name: "Arguments of read_file as JSON" }),
  },
  {
    name: "console, history entry selected",
    route: "/console",
    prepare: (ipc) =>
      ipc.respond({
        historyEntry: (id) => historyEntry({ id, outcome: { kind: "result", isError: false, result: RICH_RESULT, truncated: false } }),
      }),
    reach: async (page) => {
      await page.getByRole("list", { name: "Calls" }).getByRole("button").first().click();
    },
    ready: (page) => page.getByRole("article").getByRole("region", { name: "Structured content" }),
  },
  {
    name: "approval of two servers, one with flags",
    route: "/servers",
    prepare: (ipc) => ipc.respond({ pendingApprovals: [RISKY_APPROVAL, PINNED_APPROVAL] }),
    ready: (page) => page.getByRole("dialog", { name: "Approve what these 2 servers run?" }).getByRole("button", { name: "Approve all 2" }),
  },
  {
    name: "pending elicitation with every shape of the 2025-11-25 spec",
    route: "/servers",
    reach: async (_page, ipc) => {
      await ipc.emitWhenHeard("pendingRequestArrived", { request: EVERY_SHAPE_ELICITATION });
    },
    ready: (page) => page.getByRole("dialog", { name: "files asks for information" }).getByRole("group", { name: "Fruit" }),
  },
  {
    name: "pending elicitation, a form longer than the window",
    route: "/servers",
    reach: async (_page, ipc) => {
      await ipc.emitWhenHeard("pendingRequestArrived", { request: LONG_ELICITATION });
    },
    ready: (page) => page.getByRole("dialog", { name: "files asks for information" }).getByRole("button", { name: "Accept" }),
  },
  ...[ELICITATION, SAMPLING, ROOTS].map(
    (request): Screen => ({
      name: `pending ${request.ask.kind} request dialog`,
      route: "/servers",
      reach: async (_page, ipc) => {
        await ipc.emitWhenHeard("pendingRequestArrived", { request });
      },
      ready: (page) => page.getByRole("dialog", { name: /^files asks/ }),
    }),
  ),
];
