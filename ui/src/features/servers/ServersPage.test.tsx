// Tests for the Servers page: its states, file problems, entries needing fixes, origins and event-driven refresh (live status: ServerStatus.test.tsx).
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events, type ConfigChanged, type ServerList, type ServerSummary } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import ServersPage from "./ServersPage";

vi.mock("../../ipc/bindings", () => ({
  commands: { listServers: vi.fn(), serverStatuses: vi.fn() },
  events: { configChanged: { listen: vi.fn() }, serverStatusChanged: { listen: vi.fn() },
    // Each row follows its login's progress (features/auth has the login tests).
    loginStarted: { listen: vi.fn(() => Promise.resolve(() => {})) },
  },
}));

const listServers = vi.mocked(commands.listServers);
const serverStatuses = vi.mocked(commands.serverStatuses);
const listenConfigChanged = vi.mocked(events.configChanged.listen);
const listenStatusChanged = vi.mocked(events.serverStatusChanged.listen);
const CONFIG_PATH = "/home/ada/.config/plugboard/servers.json";
const HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(1)>";

/** A list_servers answer: no servers, nothing invalid, file fine, unless `fields` says otherwise. */
function ok(fields: Partial<ServerList> = {}) {
  const data: ServerList = { configPath: CONFIG_PATH, servers: [], invalid: [], fileProblem: null, ...fields };
  return Promise.resolve({ status: "ok" as const, data });
}

/** An enabled stdio server that was not imported, unless `fields` says otherwise. */
function server(fields: Partial<ServerSummary> & { name: string }): ServerSummary {
  return { transport: "stdio", target: "npx -y @mcp/files", enabled: true, origin: null, oauth: false, notes: [], ...fields };
}

/** What the page handed to `events.configChanged.listen`, so a test can fire the event. */
let emitConfigChanged: (payload: ConfigChanged) => void;
const unlisten = vi.fn();
const unlistenStatus = vi.fn();

describe("ServersPage", () => {
  beforeEach(() => {
    listServers.mockReset();
    unlisten.mockReset();
    listenConfigChanged.mockReset();
    listenConfigChanged.mockImplementation((callback) => {
      emitConfigChanged = (payload) => callback({ event: "config-changed", id: 1, payload });
      return Promise.resolve(unlisten);
    });
    serverStatuses.mockReset();
    serverStatuses.mockResolvedValue({ status: "ok", data: [] });
    unlistenStatus.mockReset();
    listenStatusChanged.mockReset();
    listenStatusChanged.mockResolvedValue(unlistenStatus);
  });

  // Pins: the page always has the "Servers" h1, and says it is loading until the command answers.
  it("shows a loading state first", async () => {
    listServers.mockReturnValue(ok());
    renderWithProviders(<ServersPage />);

    expect(screen.getByRole("heading", { level: 1, name: "Servers" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Loading servers…");
    await screen.findByRole("heading", { name: "No servers yet" });
  });

  // Pins: an empty list shows "No servers yet", how servers get added, and the config path in a <code>.
  it("shows the empty state with the config file path", async () => {
    listServers.mockReturnValue(ok());
    renderWithProviders(<ServersPage />);

    const heading = await screen.findByRole("heading", { level: 2, name: "No servers yet" });
    const region = screen.getByRole("region", { name: "No servers yet" });
    expect(region).toContainElement(heading);
    // Detection is not mocked here (ServersEmpty.test.tsx covers it), so the how-to text stands in.
    expect(await within(region).findByText(/add a server by writing it into the config file below/)).toBeInTheDocument();
    const path = within(region).getByText(CONFIG_PATH);
    expect(path.tagName).toBe("CODE");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  // Pins: each server is a row with its name, human transport label, target and live status, ordered by name.
  it("lists servers with transport labels", async () => {
    serverStatuses.mockResolvedValue({
      status: "ok",
      data: [
        { server: "legacy", status: { state: "disabled" } },
        { server: "guess", status: { state: "stopped" } },
      ],
    });
    listServers.mockReturnValue(
      ok({
        servers: [
          server({ name: "files", target: "npx -y @mcp/files /tmp" }),
          server({ name: "remote", transport: "streamableHttp", target: "https://mcp.example.test/mcp" }),
          server({ name: "legacy", transport: "sse", target: "http://127.0.0.1:9000/sse", enabled: false }),
          server({ name: "guess", transport: "probe", target: "http://localhost:8080" }),
        ],
      }),
    );
    renderWithProviders(<ServersPage />);

    const table = await screen.findByRole("table", { name: "Configured servers" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getByRole("rowheader").textContent)).toEqual([
      "files",
      "guess",
      "legacy",
      "remote",
    ]);
    expect(rows[0]).toHaveTextContent("stdio");
    expect(rows[0]).toHaveTextContent("npx -y @mcp/files /tmp");
    expect(rows[3]).toHaveTextContent("Streamable HTTP");
    expect(rows[2]).toHaveTextContent("SSE");
    expect(rows[2]).toHaveTextContent("Disabled");
    expect(rows[1]).toHaveTextContent("HTTP (auto-detect)");
    expect(rows[1]).toHaveTextContent("Stopped");
    expect(screen.queryByText("No servers yet")).not.toBeInTheDocument();
  });

  // Pins: server-supplied strings that look like HTML are shown literally and never become elements.
  it("renders markup in server fields as inert text", async () => {
    const hostile = "<img src=x onerror=alert(1)>";
    listServers.mockReturnValue(
      ok({
        servers: [server({ name: hostile, target: `<b>${hostile}</b>` })],
      }),
    );
    const { container } = renderWithProviders(<ServersPage />);

    expect(await screen.findByText(hostile)).toBeInTheDocument();
    expect(screen.getByText(`<b>${hostile}</b>`)).toBeInTheDocument();
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("b")).toBeNull();
  });

  // Pins: a failed command shows its IpcError message, and Retry calls the command again and recovers.
  it("shows the error message and retries", async () => {
    listServers
      .mockReturnValueOnce(
        Promise.resolve({
          status: "error" as const,
          error: { code: "InvalidConfig" as const, field: "servers", message: "servers.json: expected an object" },
        }),
      )
      .mockReturnValue(ok());
    renderWithProviders(<ServersPage />);

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Couldn't load servers");
    expect(alert).toHaveTextContent("servers.json: expected an object");
    expect(listServers).toHaveBeenCalledTimes(1);

    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));

    await screen.findByRole("heading", { name: "No servers yet" });
    expect(listServers).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.queryByRole("alert")).not.toBeInTheDocument());
  });

  // Pins: a fileProblem shows the "cannot be read" alert with the problem text, while the last good list stays visible.
  it("shows a banner when servers.json cannot be read", async () => {
    listServers.mockReturnValue(
      ok({ servers: [server({ name: "files" })], fileProblem: "expected `,` or `}` at line 4 column 3" }),
    );
    renderWithProviders(<ServersPage />);

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByRole("heading", { level: 2, name: "servers.json cannot be read" })).toBeInTheDocument();
    expect(alert).toHaveTextContent("expected `,` or `}` at line 4 column 3");
    expect(alert).toHaveTextContent(
      "Plugboard keeps using the last version it could read; fix the file and it reloads by itself.",
    );
    expect(within(screen.getByRole("table")).getByRole("rowheader", { name: "files" })).toBeInTheDocument();
  });

  // Pins: with nothing listed, the fileProblem banner and the "No servers yet" empty state show together.
  it("shows the banner together with the empty state", async () => {
    listServers.mockReturnValue(ok({ fileProblem: "EOF while parsing" }));
    renderWithProviders(<ServersPage />);

    expect(await screen.findByRole("alert")).toHaveTextContent("EOF while parsing");
    expect(screen.getByRole("region", { name: "No servers yet" })).toBeInTheDocument();
  });

  // Pins: a problem string that looks like HTML is shown literally in the banner and creates no element.
  it("renders markup in the file problem as inert text", async () => {
    listServers.mockReturnValue(ok({ fileProblem: HOSTILE }));
    const { container } = renderWithProviders(<ServersPage />);

    expect(await screen.findByRole("alert")).toHaveTextContent(HOSTILE);
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("img")).toBeNull();
  });

  // Pins: invalid entries are listed under "Needs fixing" with name, field and message, and replace the empty state.
  it("lists entries that need fixing instead of the empty state", async () => {
    listServers.mockReturnValue(
      ok({
        invalid: [
          { name: "broken", field: "mcpServers.broken.url", message: "relative URL without a base" },
          { name: "nocmd", field: "mcpServers.nocmd", message: "needs either `command` or `url`" },
        ],
      }),
    );
    renderWithProviders(<ServersPage />);

    const section = await screen.findByRole("region", { name: "Needs fixing" });
    expect(within(section).getByRole("heading", { level: 2, name: "Needs fixing" })).toBeInTheDocument();
    const items = within(section).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("broken");
    expect(items[0]).toHaveTextContent("mcpServers.broken.url");
    // The message reads as a sentence: its first letter is capitalised on display.
    expect(items[0]).toHaveTextContent("Relative URL without a base");
    expect(items[1]).toHaveTextContent("nocmd");
    expect(items[1]).toHaveTextContent("Needs either `command` or `url`");
    // Each can be fixed in its server's page (the config editor).
    expect(within(items[0]!).getByRole("link", { name: "Edit the entry broken" })).toHaveAttribute("href", "/servers/broken");
    expect(screen.queryByText("No servers yet")).not.toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.getByText(CONFIG_PATH).tagName).toBe("CODE");
  });

  // Pins: how other clients' keys were read is listed per server under its own heading, as sentences.
  it("lists the notes on entries", async () => {
    listServers.mockReturnValue(
      ok({ servers: [server({ name: "files", notes: ['"disabled": true is read as "enabled": false'] }), server({ name: "quiet" })] }),
    );
    renderWithProviders(<ServersPage />);

    const section = await screen.findByRole("region", { name: "Notes on the config file" });
    const items = within(section).getAllByRole("listitem");
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('files · "disabled": true is read as "enabled": false');
  });

  // Pins: no notes, no section.
  it("shows no notes section when no entry has notes", async () => {
    listServers.mockReturnValue(ok({ servers: [server({ name: "files" })] }));
    renderWithProviders(<ServersPage />);

    expect(await screen.findByRole("table")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Notes on the config file" })).not.toBeInTheDocument();
  });

  // Pins: <script>/<img onerror> in an invalid entry's name, field or message stays literal text, never an element.
  it("renders markup in invalid entries as inert text", async () => {
    listServers.mockReturnValue(
      ok({
        servers: [server({ name: "files" })],
        invalid: [{ name: HOSTILE, field: `<b>${HOSTILE}</b>`, message: HOSTILE }],
      }),
    );
    const { container } = renderWithProviders(<ServersPage />);

    const section = await screen.findByRole("region", { name: "Needs fixing" });
    expect(within(section).getByRole("listitem")).toHaveTextContent(`${HOSTILE} · <b>${HOSTILE}</b>${HOSTILE}`);
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("b")).toBeNull();
    expect(screen.getByRole("table")).toBeInTheDocument();
  });

  // Pins: the Origin column names known clients, passes unknown ids through as text, and shows a dash for none.
  it("shows where each server was imported from", async () => {
    listServers.mockReturnValue(
      ok({
        servers: [
          server({ name: "a", origin: "cursor" }),
          server({ name: "b", origin: "claude-desktop" }),
          server({ name: "c", origin: "vscode" }),
          server({ name: "d", origin: "roo" }),
          server({ name: "e", origin: "gemini" }),
          server({ name: "f", origin: "my-editor" }),
          server({ name: "g", origin: "constructor" }),
          server({ name: "h", origin: null }),
        ],
      }),
    );
    renderWithProviders(<ServersPage />);

    const table = await screen.findByRole("table", { name: "Configured servers" });
    const headers = within(table).getAllByRole("columnheader").map((cell) => cell.textContent);
    expect(headers).toEqual(["Name", "Connection", "Origin", "Status", "Actions"]);
    const origins = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => within(row).getAllByRole("cell")[1]?.textContent);
    expect(origins).toEqual([
      "Imported from Cursor",
      "Imported from Claude Desktop",
      "Imported from VS Code",
      "Imported from Roo Code",
      "Imported from Gemini CLI",
      "Imported from my-editor",
      "Imported from constructor",
      "—Not imported",
    ]);
  });

  // Pins: a configChanged event refetches list_servers and the page shows the new list, with no polling in between.
  it("refetches when the config changes", async () => {
    listServers.mockReturnValueOnce(ok()).mockReturnValue(ok({ servers: [server({ name: "added-elsewhere" })] }));
    renderWithProviders(<ServersPage />);

    await screen.findByRole("heading", { name: "No servers yet" });
    await waitFor(() => expect(listenConfigChanged).toHaveBeenCalledTimes(1));
    expect(listServers).toHaveBeenCalledTimes(1);

    emitConfigChanged({ kind: "reloaded", problem: null });

    expect(await screen.findByRole("rowheader", { name: "added-elsewhere" })).toBeInTheDocument();
    expect(listServers).toHaveBeenCalledTimes(2);
  });

  // Pins: a brokenOnDisk event refetches too, so the banner appears without the person doing anything.
  it("shows the banner after a brokenOnDisk event", async () => {
    listServers.mockReturnValueOnce(ok()).mockReturnValue(ok({ fileProblem: "trailing comma at line 2" }));
    renderWithProviders(<ServersPage />);

    await screen.findByRole("heading", { name: "No servers yet" });
    await waitFor(() => expect(listenConfigChanged).toHaveBeenCalledTimes(1));
    emitConfigChanged({ kind: "brokenOnDisk", problem: "trailing comma at line 2" });

    expect(await screen.findByRole("alert")).toHaveTextContent("trailing comma at line 2");
  });

  // Pins: the page subscribes once to each event (config, live status) and unsubscribes from both when it unmounts.
  it("unsubscribes on unmount", async () => {
    listServers.mockReturnValue(ok());
    const { unmount } = renderWithProviders(<ServersPage />);

    await screen.findByRole("heading", { name: "No servers yet" });
    expect(listenConfigChanged).toHaveBeenCalledTimes(1);
    expect(listenStatusChanged).toHaveBeenCalledTimes(1);
    expect(unlisten).not.toHaveBeenCalled();
    expect(unlistenStatus).not.toHaveBeenCalled();

    unmount();

    expect(unlisten).toHaveBeenCalledTimes(1);
    expect(unlistenStatus).toHaveBeenCalledTimes(1);
  });
});
