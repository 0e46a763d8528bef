// Tests for the Servers page's four states, against a mocked list_servers command.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, type ServerList } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import ServersPage from "./ServersPage";

vi.mock("../../ipc/bindings", () => ({
  commands: { listServers: vi.fn() },
}));

const listServers = vi.mocked(commands.listServers);
const CONFIG_PATH = "/home/ada/.config/plugboard/servers.json";

function ok(data: ServerList) {
  return Promise.resolve({ status: "ok" as const, data });
}

describe("ServersPage", () => {
  beforeEach(() => {
    listServers.mockReset();
  });

  // Pins: the page always has the "Servers" h1, and says it is loading until the command answers.
  it("shows a loading state first", async () => {
    listServers.mockReturnValue(ok({ configPath: CONFIG_PATH, servers: [] }));
    renderWithProviders(<ServersPage />);

    expect(screen.getByRole("heading", { level: 1, name: "Servers" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Loading servers…");
    await screen.findByRole("heading", { name: "No servers yet" });
  });

  // Pins: an empty list shows "No servers yet", how servers get added, and the config path in a <code>.
  it("shows the empty state with the config file path", async () => {
    listServers.mockReturnValue(ok({ configPath: CONFIG_PATH, servers: [] }));
    renderWithProviders(<ServersPage />);

    const heading = await screen.findByRole("heading", { level: 2, name: "No servers yet" });
    const region = screen.getByRole("region", { name: "No servers yet" });
    expect(region).toContainElement(heading);
    expect(region).toHaveTextContent(
      "Servers are added by import (coming in a later release) or by editing the config file.",
    );
    const path = within(region).getByText(CONFIG_PATH);
    expect(path.tagName).toBe("CODE");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  // Pins: each server is a row with its name, human transport label, target and enabled state.
  it("lists servers with transport labels", async () => {
    listServers.mockReturnValue(
      ok({
        configPath: CONFIG_PATH,
        servers: [
          { name: "files", transport: "stdio", target: "npx -y @mcp/files /tmp", enabled: true },
          { name: "remote", transport: "streamableHttp", target: "https://mcp.example.test/mcp", enabled: true },
          { name: "legacy", transport: "sse", target: "http://127.0.0.1:9000/sse", enabled: false },
          { name: "guess", transport: "probe", target: "http://localhost:8080", enabled: true },
        ],
      }),
    );
    renderWithProviders(<ServersPage />);

    const table = await screen.findByRole("table", { name: "Configured servers" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getByRole("rowheader").textContent)).toEqual([
      "files",
      "remote",
      "legacy",
      "guess",
    ]);
    expect(rows[0]).toHaveTextContent("stdio");
    expect(rows[0]).toHaveTextContent("npx -y @mcp/files /tmp");
    expect(rows[1]).toHaveTextContent("Streamable HTTP");
    expect(rows[2]).toHaveTextContent("SSE");
    expect(rows[2]).toHaveTextContent("Disabled");
    expect(rows[3]).toHaveTextContent("HTTP (auto-detect)");
    expect(rows[3]).toHaveTextContent("Enabled");
    expect(screen.queryByText("No servers yet")).not.toBeInTheDocument();
  });

  // Pins: server-supplied strings that look like HTML are shown literally and never become elements.
  it("renders markup in server fields as inert text", async () => {
    const hostile = "<img src=x onerror=alert(1)>";
    listServers.mockReturnValue(
      ok({
        configPath: CONFIG_PATH,
        servers: [{ name: hostile, transport: "stdio", target: `<b>${hostile}</b>`, enabled: true }],
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
      .mockReturnValue(ok({ configPath: CONFIG_PATH, servers: [] }));
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
});
