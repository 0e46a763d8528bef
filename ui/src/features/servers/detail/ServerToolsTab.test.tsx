// Tests for the Tools tab: it loads the allowlist view, shows load errors, and keeps the last tools on screen
// while the server restarts (as it does after every save).
import { act, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events, type AllowlistView, type ToolsChanged } from "../../../ipc/bindings";
import { renderWithProviders } from "../../../test/render";
import ServerToolsTab from "./ServerToolsTab";

vi.mock("../../../ipc/bindings", () => ({
  commands: { serverAllowlist: vi.fn(), setServerTools: vi.fn() },
  events: {
    configChanged: { listen: vi.fn() },
    serverStatusChanged: { listen: vi.fn() },
    toolsChanged: { listen: vi.fn() },
  },
}));

const serverAllowlist = vi.mocked(commands.serverAllowlist);
const WITH_TOOLS: AllowlistView = {
  entries: ["echo"],
  tools: [{ name: "echo", exposedName: "mcp__s__echo", title: null, description: null, allowed: true, withheld: null, hiddenContent: [], inputSchema: "{}" }],
  unknownEntries: [],
  withheldBesidesTools: [],
};
let emitToolsChanged: (payload: ToolsChanged) => void;

describe("ServerToolsTab", () => {
  beforeEach(() => {
    serverAllowlist.mockReset();
    vi.mocked(events.configChanged.listen).mockResolvedValue(vi.fn());
    vi.mocked(events.serverStatusChanged.listen).mockResolvedValue(vi.fn());
    vi.mocked(events.toolsChanged.listen).mockImplementation((callback) => {
      emitToolsChanged = (payload) => callback({ event: "tools-changed", id: 1, payload });
      return Promise.resolve(vi.fn());
    });
  });

  // Pins: a failure to load is shown as an alert with the backend's message as text.
  it("shows a load error", async () => {
    serverAllowlist.mockResolvedValue({ status: "error", error: { code: "NotFound", message: "no server <b>s</b>" } });
    renderWithProviders(<ServerToolsTab server="s" ready={false} />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't load the tools: no server <b>s</b>");
  });

  // Pins: when the server's tools are refetched empty while it is not ready (a restart), the last list stays,
  // with a note, instead of the "tools appear once ready" placeholder; only this server's events refetch.
  it("keeps the last tools while the server restarts", async () => {
    serverAllowlist.mockResolvedValue({ status: "ok", data: WITH_TOOLS });
    const { rerender } = renderWithProviders(<ServerToolsTab server="s" ready />);
    expect(await screen.findByText("1 of 1 allowed")).toBeInTheDocument();

    serverAllowlist.mockResolvedValue({ status: "ok", data: { ...WITH_TOOLS, tools: [] } });
    act(() => emitToolsChanged({ server: "other" }));
    expect(serverAllowlist).toHaveBeenCalledTimes(1);
    act(() => emitToolsChanged({ server: "s" }));
    await vi.waitFor(() => expect(serverAllowlist).toHaveBeenCalledTimes(2));
    rerender(<ServerToolsTab server="s" ready={false} />);
    expect(await screen.findByText("Waiting for the server's tools; they are shown as last seen.")).toBeInTheDocument();
    expect(screen.getByText("1 of 1 allowed")).toBeInTheDocument();
    expect(screen.queryByText(/appear here once it is connected/)).not.toBeInTheDocument();
  });
});
