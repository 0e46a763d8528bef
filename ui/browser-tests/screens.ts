// Every screen of the app as the accessibility and layout tests visit it: its route, the fixtures it needs beyond
// fixtures.ts, the steps that bring it on screen and what shows it is ready. One entry per screen (or per step of a
// wizard); add yours here when you add a screen (see README.md).
import type { Locator, Page } from "@playwright/test";
import { ELICITATION, ROOTS, SAMPLING, server } from "./fixtures";
import type { MockIpc } from "./ipc";

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
    name: "import, summary",
    route: "/import",
    reach: async (page) => {
      await page.getByRole("button", { name: "Review 4 entries" }).click();
      await page.getByRole("button", { name: "Import 1 server" }).click();
    },
    ready: (page) => page.getByRole("link", { name: "Go to Servers" }),
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
    prepare: (ipc) =>
      ipc.respond({
        listServers: {
          configPath: "/home/ada/.config/plugboard/servers.json",
          servers: [server({ name: "linear", transport: "streamableHttp", target: "https://mcp.linear.app/mcp", oauth: true })],
          invalid: [],
          fileProblem: null,
        },
        serverStatuses: [{ server: "linear", status: { state: "ready", tools: 0, protocolVersion: "2025-06-18", serverName: "linear" } }],
        serverLoginState: {
          loggedIn: true,
          issuer: "https://linear.app",
          scopes: ["read", "write"],
          expiresAtMs: Date.now() + 40 * 60_000,
          renewsByItself: true,
          clientId: "plugboard-client",
        },
      }),
    ready: (page) => page.getByText("https://linear.app"),
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
    name: "console, history entry selected",
    route: "/console",
    reach: async (page) => {
      await page.getByRole("list", { name: "Calls" }).getByRole("button").first().click();
    },
    ready: (page) => page.getByRole("button", { name: "Re-run" }),
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
