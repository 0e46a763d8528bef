// Tests for the Servers page's triage over the whole page: summary counts as filters, search, filter, sort, the empty
// result and its way back, the triage kept across a visit to a server's page, "Retry all failed", and 200 servers
// searched and filtered.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, type ServerStatus, type ServerStatusEntry, type ServerSummary } from "../../ipc/bindings";
import { stubLayout } from "../../test/layoutStubs";
import { renderRoutes, renderWithProviders } from "../../test/render";
import ServersPage from "./ServersPage";

vi.mock("../../ipc/bindings", () => ({
  commands: { listServers: vi.fn(), serverStatuses: vi.fn(), connectServer: vi.fn() },
  events: {
    configChanged: { listen: vi.fn(() => Promise.resolve(() => {})) },
    serverStatusChanged: { listen: vi.fn(() => Promise.resolve(() => {})) },
    loginStarted: { listen: vi.fn(() => Promise.resolve(() => {})) },
  },
}));

const listServers = vi.mocked(commands.listServers);
const serverStatuses = vi.mocked(commands.serverStatuses);
const connectServer = vi.mocked(commands.connectServer);

const READY: ServerStatus = { state: "ready", tools: 2, protocolVersion: "2025-06-18", serverName: null };
const FAILED: ServerStatus = { state: "failed", error: "exited with status 1", stderrTail: null };

// A 600 px scroller with 40 px rows: about 15 rows in view, plus the overscan.
stubLayout(600, 40);

/** Serves these servers (stdio, `npx <name>-mcp` unless a target is given) with these statuses. */
function serve(servers: (Partial<ServerSummary> & { name: string; status?: ServerStatus })[]) {
  const summaries = servers.map(({ status, ...fields }) => {
    void status;
    return { transport: "stdio" as const, target: `npx -y ${fields.name}-mcp`, enabled: true, origin: null, oauth: false, notes: [], ...fields };
  });
  const statuses: ServerStatusEntry[] = servers.flatMap(({ name, status }) => (status ? [{ server: name, status }] : []));
  listServers.mockResolvedValue({
    status: "ok",
    data: { configPath: "/home/ada/.config/plugboard/servers.json", servers: summaries, invalid: [], fileProblem: null },
  });
  serverStatuses.mockResolvedValue({ status: "ok", data: statuses });
}

/** The names of the rows the table shows, in order. */
function shownNames(): string[] {
  const table = screen.getByRole("table", { name: "Configured servers" });
  return within(table).getAllByRole("rowheader").map((cell) => cell.textContent ?? "");
}

/** The summary's button of one group, e.g. "Failed 2". */
function summaryButton(label: string) {
  return within(screen.getByRole("group", { name: "Servers by status" })).getByRole("button", { name: new RegExp(`^${label} \\d+$`) });
}

describe("Servers triage", () => {
  beforeEach(() => {
    for (const mock of [listServers, serverStatuses, connectServer]) mock.mockReset();
    connectServer.mockResolvedValue({ status: "ok", data: null });
    serve([
      { name: "weather", status: FAILED },
      { name: "files", status: READY },
      { name: "github", transport: "streamableHttp", target: "https://api.githubcopilot.com/mcp/", status: { state: "needsLogin", hint: "Log in" } },
      { name: "browser", status: FAILED },
      { name: "legacy", enabled: false, status: { state: "disabled" } },
      { name: "slack", status: { state: "connecting" } },
    ]);
  });

  // Pins: the summary counts each state, and pressing a count filters the table to it (pressed), again shows all.
  it("counts every state and filters by a count", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ServersPage />);
    await waitFor(() => expect(summaryButton("Failed")).toHaveAccessibleName("Failed 2"));
    expect(summaryButton("Ready")).toHaveAccessibleName("Ready 1");
    expect(summaryButton("Needs login")).toHaveAccessibleName("Needs login 1");
    expect(summaryButton("Connecting")).toHaveAccessibleName("Connecting 1");
    expect(summaryButton("Disabled")).toHaveAccessibleName("Disabled 1");

    await user.click(summaryButton("Failed"));
    expect(summaryButton("Failed")).toHaveAttribute("aria-pressed", "true");
    expect(shownNames()).toEqual(["browser", "weather"]);
    expect(screen.getByRole("combobox", { name: "Show" })).toHaveValue("failed");
    expect(screen.getByText("Showing 2 of 6 servers")).toBeInTheDocument();

    await user.click(summaryButton("Failed"));
    expect(shownNames()).toHaveLength(6);
    expect(summaryButton("Failed")).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByRole("combobox", { name: "Show" })).toHaveValue("all");
  });

  // Pins: the search matches names and commands/URLs; the Show filter narrows it further.
  it("searches by name, command or URL and filters", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ServersPage />);
    const search = await screen.findByRole("searchbox", { name: "Search servers" });

    await user.type(search, "githubcopilot");
    expect(shownNames()).toEqual(["github"]);
    await user.clear(search);
    await user.type(search, "npx");
    expect(shownNames()).toEqual(["browser", "files", "legacy", "slack", "weather"]);
    await user.selectOptions(screen.getByRole("combobox", { name: "Show" }), "Failed");
    expect(shownNames()).toEqual(["browser", "weather"]);
  });

  // Pins: names sort alphabetically by default; sorting by status puts failed servers at the top.
  it("sorts by name or by status", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ServersPage />);
    await waitFor(() => expect(summaryButton("Failed")).toHaveAccessibleName("Failed 2"));
    expect(shownNames()).toEqual(["browser", "files", "github", "legacy", "slack", "weather"]);

    await user.selectOptions(screen.getByRole("combobox", { name: "Sort by" }), "Status");
    expect(shownNames()).toEqual(["browser", "weather", "github", "slack", "files", "legacy"]);
  });

  // Pins: a search that matches nothing says so (the search as inert text) and "Show all servers" clears it all.
  it("says when nothing matches and clears the search and filter", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ServersPage />);
    await user.click(await screen.findByRole("button", { name: /^Failed \d+$/ }));
    await user.type(screen.getByRole("searchbox", { name: "Search servers" }), "<b>nope</b>");

    expect(screen.getByText("No failed server matches “<b>nope</b>”.")).toBeInTheDocument();
    expect(document.querySelector("b")).toBeNull();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show all servers" }));

    expect(shownNames()).toHaveLength(6);
    expect(screen.getByRole("searchbox", { name: "Search servers" })).toHaveValue("");
    expect(screen.getByRole("combobox", { name: "Show" })).toHaveValue("all");
  });

  // Pins: the search, filter and sort outlive a visit to a server's page (the Servers page unmounts, the app shell's
  // session memory stays), and "Show all servers" still clears the remembered search and filter, for good.
  it("keeps the search, filter and sort across a visit to a server's page", async () => {
    const user = userEvent.setup();
    renderRoutes({ "/servers": <ServersPage />, "/servers/:name": <h1>Server page</h1> }, "/servers", {
      "Back to servers": "/servers",
    });
    /** Leaves the Servers page for weather's page (unmounting it) and comes back by a plain link. */
    const visitWeather = async () => {
      await user.click(screen.getByRole("link", { name: "weather" }));
      expect(await screen.findByRole("heading", { name: "Server page" })).toBeInTheDocument();
      expect(screen.queryByRole("searchbox")).not.toBeInTheDocument();
      await user.click(screen.getByRole("link", { name: "Back to servers" }));
      await screen.findByRole("searchbox", { name: "Search servers" });
    };
    await user.type(await screen.findByRole("searchbox", { name: "Search servers" }), "npx");
    await user.selectOptions(screen.getByRole("combobox", { name: "Show" }), "Failed");
    await user.selectOptions(screen.getByRole("combobox", { name: "Sort by" }), "Status");
    expect(shownNames()).toEqual(["browser", "weather"]);

    await visitWeather();

    expect(screen.getByRole("searchbox", { name: "Search servers" })).toHaveValue("npx");
    expect(screen.getByRole("combobox", { name: "Show" })).toHaveValue("failed");
    expect(screen.getByRole("combobox", { name: "Sort by" })).toHaveValue("status");
    expect(summaryButton("Failed")).toHaveAttribute("aria-pressed", "true");
    expect(shownNames()).toEqual(["browser", "weather"]);
    expect(screen.getByText("Showing 2 of 6 servers")).toBeInTheDocument();
    // Unfiltered, the remembered sort by status still orders the rows: failed first.
    await user.click(summaryButton("Failed"));
    expect(shownNames()).toEqual(["browser", "weather", "slack", "files", "legacy"]);

    await user.selectOptions(screen.getByRole("combobox", { name: "Show" }), "Ready");
    await user.type(screen.getByRole("searchbox", { name: "Search servers" }), " nope");
    await user.click(screen.getByRole("button", { name: "Show all servers" }));
    expect(screen.getByRole("searchbox", { name: "Search servers" })).toHaveValue("");
    expect(screen.getByRole("combobox", { name: "Show" })).toHaveValue("all");
    await visitWeather();

    expect(screen.getByRole("searchbox", { name: "Search servers" })).toHaveValue("");
    expect(screen.getByRole("combobox", { name: "Show" })).toHaveValue("all");
    expect(screen.getByRole("combobox", { name: "Sort by" })).toHaveValue("status");
    expect(shownNames()).toEqual(["browser", "weather", "github", "slack", "files", "legacy"]);
  });

  // Pins: "Retry all failed" connects exactly the failed servers (whatever the filter shows) and says how many.
  it("retries every failed server and says how many", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ServersPage />);
    await user.click(await screen.findByRole("button", { name: /^Ready \d+$/ }));
    await user.click(screen.getByRole("button", { name: "Retry all failed (2)" }));

    await waitFor(() => expect(screen.getByText("Retried 2 failed servers.")).toBeInTheDocument());
    expect(connectServer.mock.calls.map(([name]) => name).sort()).toEqual(["browser", "weather"]);
  });

  // Pins: a refused retry is named with its (capitalised, inert) reason, the others still counted.
  it("names the servers whose retry was refused", async () => {
    const user = userEvent.setup();
    connectServer.mockImplementation((name) =>
      Promise.resolve(
        name === "weather"
          ? { status: "error", error: { code: "NotFound", message: "no server named <i>weather</i>" } }
          : { status: "ok", data: null },
      ),
    );
    renderWithProviders(<ServersPage />);
    await user.click(await screen.findByRole("button", { name: "Retry all failed (2)" }));

    expect(await screen.findByText(/Retried 1 of 2 failed servers; not retried:/)).toBeInTheDocument();
    expect(screen.getByText("weather: No server named <i>weather</i>")).toBeInTheDocument();
    expect(document.querySelector("i")).toBeNull();
  });

  // Pins: with nothing failed the button stays (focus is not lost) but is marked unavailable and calls nothing.
  it("keeps Retry all failed in place when nothing failed", async () => {
    const user = userEvent.setup();
    serve([{ name: "files", status: READY }]);
    renderWithProviders(<ServersPage />);
    const button = await screen.findByRole("button", { name: "Retry all failed" });
    expect(button).toHaveAttribute("aria-disabled", "true");
    await user.click(button);
    expect(connectServer).not.toHaveBeenCalled();
  });

  // Pins: 200 servers render only a window of rows, and search and filter reach servers far out of view.
  it("stays light with 200 servers and finds any of them", async () => {
    const user = userEvent.setup();
    serve(
      Array.from({ length: 200 }, (_, index) => {
        const name = `server-${String(index).padStart(3, "0")}`;
        return { name, status: index % 3 === 0 ? FAILED : READY };
      }),
    );
    renderWithProviders(<ServersPage />);
    await waitFor(() => expect(summaryButton("Failed")).toHaveAccessibleName("Failed 67"));
    expect(screen.getByText("200 servers")).toBeInTheDocument();
    const rendered = shownNames().length;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(40);
    expect(screen.queryByRole("rowheader", { name: "server-199" })).not.toBeInTheDocument();

    await user.type(screen.getByRole("searchbox", { name: "Search servers" }), "server-19");
    expect(shownNames()).toEqual(Array.from({ length: 10 }, (_, i) => `server-19${i}`));

    await user.click(summaryButton("Failed"));
    expect(shownNames()).toEqual(["server-192", "server-195", "server-198"]);
    expect(screen.getByText("Showing 3 of 200 servers")).toBeInTheDocument();
  });
});
