// Tests for the live side of the Servers page: status badges, event updates, Connect/Disconnect/Retry and failure details.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  commands,
  events,
  type ServerList,
  type ServerStatus,
  type ServerStatusChanged,
  type ServerStatusEntry,
} from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import ServersPage from "./ServersPage";

vi.mock("../../ipc/bindings", () => ({
  commands: { listServers: vi.fn(), serverStatuses: vi.fn(), connectServer: vi.fn(), disconnectServer: vi.fn() },
  events: { configChanged: { listen: vi.fn() }, serverStatusChanged: { listen: vi.fn() },
    // Each row follows its login's progress (features/auth has the login tests).
    loginStarted: { listen: vi.fn(() => Promise.resolve(() => {})) },
  },
}));

const listServers = vi.mocked(commands.listServers);
const serverStatuses = vi.mocked(commands.serverStatuses);
const connectServer = vi.mocked(commands.connectServer);
const disconnectServer = vi.mocked(commands.disconnectServer);
const listenConfigChanged = vi.mocked(events.configChanged.listen);
const listenStatusChanged = vi.mocked(events.serverStatusChanged.listen);

/** What the page handed to `events.serverStatusChanged.listen`, so a test can fire the event. */
let emitStatusChanged: (payload: ServerStatusChanged) => void;

/** Serves a config listing `names` (enabled stdio servers) and these live statuses. */
function serve(names: string[], statuses: ServerStatusEntry[]) {
  const data: ServerList = {
    configPath: "/home/ada/.config/plugboard/servers.json",
    servers: names.map((name) => ({ name, transport: "stdio", target: `npx ${name}`, enabled: true, origin: null, oauth: false, notes: [] })),
    invalid: [],
    fileProblem: null,
  };
  listServers.mockResolvedValue({ status: "ok", data });
  serverStatuses.mockResolvedValue({ status: "ok", data: statuses });
}

/** The table row whose row header is `name`. */
async function rowOf(name: string) {
  const header = await screen.findByRole("rowheader", { name });
  return header.closest("tr")!;
}

/** The Status cell of `name`'s row (the third data cell: connection, origin, status). */
async function statusCellOf(name: string) {
  return within(await rowOf(name)).getAllByRole("cell")[2]!;
}

describe("Servers page live status", () => {
  beforeEach(() => {
    for (const mock of [listServers, serverStatuses, connectServer, disconnectServer, listenConfigChanged]) {
      mock.mockReset();
    }
    listenConfigChanged.mockResolvedValue(() => {});
    listenStatusChanged.mockReset();
    listenStatusChanged.mockImplementation((callback) => {
      emitStatusChanged = (payload) => callback({ event: "server-status-changed", id: 1, payload });
      return Promise.resolve(() => {});
    });
  });

  // Pins: every state's badge says what it is in words, and a server without a status entry shows a dash.
  it("shows a badge with words for each state", async () => {
    const states: [string, ServerStatus, string][] = [
      ["off", { state: "disabled" }, "Disabled"],
      ["halted", { state: "stopped" }, "Stopped"],
      ["starting", { state: "connecting" }, "Connecting…"],
      ["github", { state: "needsLogin", hint: "Sign in with GitHub in your browser" }, "Needs login"],
      ["files", { state: "ready", tools: 13, protocolVersion: "2025-06-18", serverName: "files-mcp" }, "Ready · 13 tools"],
      ["one", { state: "ready", tools: 1, protocolVersion: "2025-06-18", serverName: null }, "Ready · 1 tool"],
      [
        "flaky",
        { state: "reconnecting", attempt: 2, nextTryMs: 1000, reason: "connection refused" },
        "Reconnecting (attempt 2) · next try in 1.0 s",
      ],
      ["broken", { state: "failed", error: "spawn ENOENT", stderrTail: null }, "Failed"],
    ];
    serve(
      [...states.map(([name]) => name), "fresh"],
      states.map(([server, status]) => ({ server, status })),
    );
    renderWithProviders(<ServersPage />);

    for (const [name, , text] of states) {
      await waitFor(async () => expect(await statusCellOf(name)).toHaveTextContent(text));
    }
    expect(within(await statusCellOf("fresh")).getByText("—")).toBeInTheDocument();
    expect(within(await statusCellOf("starting")).getByRole("status")).toHaveTextContent("Connecting…");
    const login = within(await statusCellOf("github")).getByText("Needs login").parentElement!;
    expect(login).toHaveAttribute("title", "Sign in with GitHub in your browser");
    expect(login).toHaveAccessibleDescription("Sign in with GitHub in your browser");
  });

  // Pins: why a server is reconnecting is shown under its badge as a sentence (capital first letter), as inert text.
  it("shows the reason for reconnecting as a sentence", async () => {
    serve(["flaky"], [{ server: "flaky", status: { state: "reconnecting", attempt: 2, nextTryMs: 1000, reason: "connection refused <b>x</b>" } }]);
    renderWithProviders(<ServersPage />);
    const badge = within(await statusCellOf("flaky")).getByText(/^Reconnecting/).parentElement!;
    expect(badge).toHaveAccessibleDescription("Connection refused <b>x</b>");
    expect(document.querySelector("b")).toBeNull();
  });

  // Pins: a server waiting for a locked keychain says so in words, with what to do under it, and offers Retry.
  it("shows a locked keychain with what to do and a Retry", async () => {
    const hint = "The secret \"token\" could not be read: the OS keychain is locked. Unlock the OS keychain";
    serve(["vaulted"], [{ server: "vaulted", status: { state: "keychainLocked", hint } }]);
    connectServer.mockResolvedValue({ status: "ok", data: null });
    renderWithProviders(<ServersPage />);
    const badge = within(await statusCellOf("vaulted")).getByText("Keychain locked").parentElement!;
    expect(badge).toHaveAccessibleDescription(hint);
    await userEvent.click(screen.getByRole("button", { name: "Retry vaulted" }));
    expect(connectServer).toHaveBeenCalledWith("vaulted");
  });

  // Pins: a serverStatusChanged event rewrites that server's row from the cache, without refetching either list.
  it("updates one row from an event without refetching", async () => {
    serve(
      ["files", "other"],
      [
        { server: "files", status: { state: "connecting" } },
        { server: "other", status: { state: "stopped" } },
      ],
    );
    renderWithProviders(<ServersPage />);
    await waitFor(async () => expect(await statusCellOf("files")).toHaveTextContent("Connecting…"));
    await waitFor(() => expect(listenStatusChanged).toHaveBeenCalledTimes(1));

    emitStatusChanged({
      server: "files",
      status: { state: "ready", tools: 3, protocolVersion: "2025-06-18", serverName: null },
    });

    await waitFor(async () => expect(await statusCellOf("files")).toHaveTextContent("Ready · 3 tools"));
    expect(await statusCellOf("other")).toHaveTextContent("Stopped");
    expect(serverStatuses).toHaveBeenCalledTimes(1);
    expect(listServers).toHaveBeenCalledTimes(1);
  });

  // Pins: Connect, Disconnect and Retry call connect_server / disconnect_server with the row's server name.
  it("connects, disconnects and retries by server name", async () => {
    serve(
      ["files", "remote", "broken", "off"],
      [
        { server: "files", status: { state: "stopped" } },
        { server: "remote", status: { state: "ready", tools: 2, protocolVersion: "2025-06-18", serverName: null } },
        { server: "broken", status: { state: "failed", error: "exit code 1", stderrTail: null } },
        { server: "off", status: { state: "disabled" } },
      ],
    );
    connectServer.mockResolvedValue({ status: "ok", data: null });
    disconnectServer.mockResolvedValue({ status: "ok", data: null });
    renderWithProviders(<ServersPage />);

    await userEvent.click(await screen.findByRole("button", { name: "Connect files" }));
    expect(connectServer).toHaveBeenCalledWith("files");

    await userEvent.click(screen.getByRole("button", { name: "Disconnect remote" }));
    expect(disconnectServer).toHaveBeenCalledWith("remote");

    await userEvent.click(screen.getByRole("button", { name: "Retry broken" }));
    expect(connectServer).toHaveBeenLastCalledWith("broken");
    expect(connectServer).toHaveBeenCalledTimes(2);
    expect(disconnectServer).toHaveBeenCalledTimes(1);
    // A disabled server has no connection action (only Remove).
    expect(within(await rowOf("off")).queryByRole("button", { name: /^(Connect|Disconnect|Retry)/ })).not.toBeInTheDocument();
  });

  // Pins: while a command runs its button is marked busy and ignores presses; a failure shows inline, never as an alert.
  it("shows the pending state and the error inline", async () => {
    serve(["files"], [{ server: "files", status: { state: "stopped" } }]);
    let answer: (value: Awaited<ReturnType<typeof commands.connectServer>>) => void = () => {};
    connectServer.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    renderWithProviders(<ServersPage />);

    const button = await screen.findByRole("button", { name: "Connect files" });
    await userEvent.click(button);
    await waitFor(() => expect(button).toHaveAttribute("aria-disabled", "true"));
    await userEvent.click(button);
    expect(connectServer).toHaveBeenCalledTimes(1);

    answer({ status: "error", error: { code: "NotFound", message: "no server named files" } });

    const row = await rowOf("files");
    expect(await within(row).findByRole("status")).toHaveTextContent("Couldn't connect: no server named files");
    expect(button).toHaveAttribute("aria-disabled", "false");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  // Pins: a failed server's details show the error and stderr tail as literal text: markup makes no element, hidden characters show.
  it("shows failure details as inert text", async () => {
    const payload = "<img src=x onerror=alert(1)>";
    serve(
      ["files"],
      [{ server: "files", status: { state: "failed", error: `boom ${payload}`, stderrTail: `line 1\n${payload}\u202e` } }],
    );
    const { container } = renderWithProviders(<ServersPage />);

    const toggle = await screen.findByRole("button", { name: "Details for files" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByText(`Boom ${payload}`)).not.toBeInTheDocument();

    await userEvent.click(toggle);

    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const details = document.getElementById(toggle.getAttribute("aria-controls")!)!;
    expect(within(details).getByText(`Boom ${payload}`)).toBeInTheDocument();
    const stderr = within(details).getByLabelText("stderr of files");
    expect(stderr.tagName).toBe("PRE");
    expect(stderr.textContent).toBe(`line 1\n${payload}\\u{202e}`);
    expect(container.querySelector("img")).toBeNull();
    // Row headers stay exactly the server names: the details row adds none.
    expect(screen.getAllByRole("rowheader").map((cell) => cell.textContent)).toEqual(["files"]);
  });
});
