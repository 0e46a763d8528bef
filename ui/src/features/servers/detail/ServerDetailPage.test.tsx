// Tests for a server's page: reached from the Servers table by link, its overview, tabs by keyboard, and the
// states for a server that is not there or cannot be used as written.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events, type ServerList } from "../../../ipc/bindings";
import { renderWithProviders } from "../../../test/render";
import ServersPage from "../ServersPage";
import ServerDetailPage from "./ServerDetailPage";

vi.mock("../../../ipc/bindings", () => ({
  commands: {
    listServers: vi.fn(),
    serverStatuses: vi.fn(),
    serverAllowlist: vi.fn(),
    getServer: vi.fn(),
    checkServerEntry: vi.fn(),
    serverInfo: vi.fn(),
    serverResources: vi.fn(),
    serverResourceTemplates: vi.fn(),
    serverSecrets: vi.fn(),
  },
  events: {
    configChanged: { listen: vi.fn() },
    serverStatusChanged: { listen: vi.fn() },
    toolsChanged: { listen: vi.fn() },
    resourcesChanged: { listen: vi.fn(() => Promise.resolve(vi.fn())) },
    promptsChanged: { listen: vi.fn(() => Promise.resolve(vi.fn())) },
    loginStarted: { listen: vi.fn(() => Promise.resolve(() => {})) },
  },
}));

const LIST: ServerList = {
  configPath: "/home/ada/.config/plugboard/servers.json",
  servers: [{ name: "everything", transport: "stdio", target: "mcp-server-everything stdio", enabled: true, origin: "cursor", oauth: false, notes: [] }],
  invalid: [{ name: "broken", field: "url", message: "the ftp: scheme is not allowed" }],
  fileProblem: null,
};

/** The app's server routes, opened at `path`. */
function renderAt(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/servers" element={<ServersPage />} />
      <Route path="/servers/:name" element={<ServerDetailPage />} />
    </Routes>,
    path,
  );
}

describe("ServerDetailPage", () => {
  beforeEach(() => {
    vi.mocked(commands.listServers).mockResolvedValue({ status: "ok", data: LIST });
    vi.mocked(commands.serverStatuses).mockResolvedValue({
      status: "ok",
      data: [
        {
          server: "everything",
          status: { state: "ready", tools: 1, protocolVersion: "2025-06-18", serverName: "mcp-servers/<b>everything</b>" },
        },
      ],
    });
    vi.mocked(commands.serverAllowlist).mockResolvedValue({
      status: "ok",
      data: {
        entries: null,
        tools: [
          { name: "echo", exposedName: "mcp__everything__echo", title: null, description: "Echoes", allowed: true, withheld: null, hiddenContent: [], inputSchema: "{}" },
        ],
        unknownEntries: [],
        withheldBesidesTools: [],
      },
    });
    vi.mocked(commands.getServer).mockResolvedValue({ status: "ok", data: '{\n  "command": "x"\n}' });
    vi.mocked(commands.checkServerEntry).mockResolvedValue({ status: "ok", data: null });
    vi.mocked(commands.serverSecrets).mockResolvedValue({ status: "ok", data: [] });
    vi.mocked(commands.serverInfo).mockResolvedValue({
      status: "ok",
      data: {
        protocolVersion: "2025-06-18",
        name: "mcp-servers/everything",
        title: null,
        version: "2.0.0",
        description: null,
        websiteUrl: null,
        capabilities: ["tools (announces list changes)", "logging"],
        instructions: "Use <img src=x onerror=alert(1)> wisely\u200b",
      },
    });
    vi.mocked(commands.serverResources).mockResolvedValue({ status: "ok", data: [] });
    vi.mocked(commands.serverResourceTemplates).mockResolvedValue({ status: "ok", data: [] });
    for (const event of [events.configChanged, events.serverStatusChanged, events.toolsChanged]) {
      vi.mocked(event.listen).mockResolvedValue(vi.fn());
    }
  });

  // Pins: the server's name in the table is a link (keyboard: Tab + Enter) to its page.
  it("opens from the Servers table", async () => {
    const user = userEvent.setup();
    renderAt("/servers");

    const link = await screen.findByRole("link", { name: "everything" });
    link.focus();
    await user.keyboard("{Enter}");
    expect(await screen.findByRole("heading", { level: 1, name: "everything" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Servers" })).toHaveAttribute("href", "/servers");
  });

  // Pins: the overview shows status, transport, command, origin, protocol and server info (as text).
  it("shows what the server is and how it is doing", async () => {
    renderAt("/servers/everything");

    const overview = await screen.findByText("Transport");
    const list = overview.closest("dl");
    expect(list).not.toBeNull();
    const facts = within(list as HTMLElement);
    expect(await facts.findByText("Ready · 1 tool")).toBeInTheDocument();
    expect(facts.getByText("stdio")).toBeInTheDocument();
    expect(facts.getByText("mcp-server-everything stdio")).toBeInTheDocument();
    expect(facts.getByText("Imported from Cursor")).toBeInTheDocument();
    expect(facts.getByText("MCP 2025-06-18 (with session)")).toBeInTheDocument();
    expect(facts.getByText("mcp-servers/<b>everything</b>")).toBeInTheDocument();
    expect(document.querySelector("b")).toBeNull();
    // What initialize said: identity, capabilities in words, and instructions as inert text.
    expect(await screen.findByText("mcp-servers/everything, version 2.0.0")).toBeInTheDocument();
    expect(screen.getByText("tools (announces list changes), logging")).toBeInTheDocument();
    expect(screen.getByText("Use <img src=x onerror=alert(1)> wisely\\u{200b}")).toBeInTheDocument();
    expect(document.querySelector("img")).toBeNull();
    // The Tools tab holds the allowlist editor (its rows need layout: AllowlistEditor.test.tsx covers them).
    expect(await screen.findByRole("radio", { name: /All tools/ })).toBeChecked();
    // A ready server can be tried straight away.
    expect(screen.getByRole("link", { name: "Try in console" })).toHaveAttribute("href", "/console?server=everything");
  });

  // Pins: a failed server's page shows the same cause and stderr tail, in the same red box, as its row; and the
  // Diagnose panel is offered.
  it("shows why a failed server failed, with its stderr", async () => {
    vi.mocked(commands.serverStatuses).mockResolvedValue({
      status: "ok",
      data: [
        {
          server: "everything",
          status: { state: "failed", error: "Could not start `uvx`: it is not installed.", stderrTail: "boom: <b>bad</b>" },
        },
      ],
    });
    renderAt("/servers/everything");
    expect(await screen.findByText("Could not start `uvx`: it is not installed.")).toBeInTheDocument();
    expect(screen.getByLabelText("stderr of everything")).toHaveTextContent("boom: <b>bad</b>");
    expect(document.querySelector("b")).toBeNull();
    expect(screen.getByRole("heading", { name: "Diagnose" })).toBeInTheDocument();
  });

  // Pins: Tools, Resources, Prompts, Log and Config are tabs; arrow keys move between them, Resources opens on its
  // lists, and the config editor is in the Config panel.
  it("switches tabs with the keyboard", async () => {
    const user = userEvent.setup();
    renderAt("/servers/everything");

    const tools = await screen.findByRole("tab", { name: "Tools" });
    expect(tools).toHaveAttribute("aria-selected", "true");
    tools.focus();
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("tab", { name: "Resources" })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByText("The server lists no resources.")).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual(["Tools", "Resources", "Prompts", "Log", "Config"]);
    await user.keyboard("{End}");
    expect(screen.getByRole("tab", { name: "Config" })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByRole("textbox", { name: "Entry of everything as JSON" })).toBeVisible();
  });

  // Pins: a name that is not in servers.json says so and links back.
  it("says when there is no such server", async () => {
    renderAt("/servers/nope");
    expect(await screen.findByRole("heading", { name: "No server named “nope”" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to all servers" })).toBeInTheDocument();
  });

  // Pins: an entry that cannot be used shows why, and opens on its config so it can be fixed.
  it("offers the config of an entry that needs fixing", async () => {
    renderAt("/servers/broken");
    expect(await screen.findByText(/This entry cannot be used as written: url: the ftp: scheme/)).toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "Tools" })).not.toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Config" })).toHaveAttribute("aria-selected", "true");
  });
});
