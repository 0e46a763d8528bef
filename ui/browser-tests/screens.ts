// Every screen of the app as the accessibility and layout tests visit it: its route, the fixtures it needs beyond
// fixtures.ts, the steps that bring it on screen and what shows it is ready. One entry per screen (or per step of a
// wizard); add yours here when you add a screen (see README.md).
import type { Locator, Page } from "@playwright/test";
import type { MockIpc } from "./ipc";

/** One screen (or one state of a screen) to check. */
export type Screen = {
  /** Unique name, used in the test titles. */
  name: string;
  /** The hash route it starts from, e.g. "/servers". */
  route: string;
  /** Answers it needs beyond fixtures.ts's defaults. */
  prepare?: (ipc: MockIpc) => void;
  /** What to do after opening the route to reach this state (e.g. press Next in a wizard). */
  reach?: (page: Page) => Promise<void>;
  /** Visible once the screen has its data and is settled. */
  ready: (page: Page) => Locator;
};

const h1 = (page: Page, name: string) => page.getByRole("heading", { level: 1, name });

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
  { name: "presets", route: "/presets", ready: (page) => h1(page, "Presets") },
  { name: "console", route: "/console", ready: (page) => h1(page, "Console") },
];
