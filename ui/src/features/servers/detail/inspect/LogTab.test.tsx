// Tests for the Log tab: the kept history first, then this server's live lines appended once each, filtering by
// level, following new lines until the person scrolls up, server text inert, and a not-ready server explained.
import { act, fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands, events, type ServerLogEntry, type ServerMessaged, type ServerStatus } from "../../../../ipc/bindings";
import { fakeLayoutForFile } from "../../../../test/layout";
import { renderWithProviders } from "../../../../test/render";
import LogTab from "./LogTab";

vi.mock("../../../../ipc/bindings", () => ({
  commands: { serverLog: vi.fn() },
  events: { serverMessaged: { listen: vi.fn() } },
}));

const READY: ServerStatus = { state: "ready", tools: 3, protocolVersion: "2025-06-18", serverName: null };
const line = (seq: number, level: string, message: string, logger: string | null = null): ServerLogEntry => ({
  seq,
  atMs: Date.UTC(2026, 0, 1, 12, 0, seq),
  level,
  logger,
  message,
});
const HISTORY = [
  line(0, "plugboard-warning", "s: the allowlist entry nosuch matches no tool"),
  line(1, "debug", "Debug-level message"),
  line(2, "error", '<img src=x onerror="window.pwned=1">', "net"),
];
let emit: (payload: ServerMessaged) => void;

fakeLayoutForFile(28);

describe("LogTab", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.mocked(commands.serverLog).mockResolvedValue({ status: "ok", data: HISTORY });
    vi.mocked(events.serverMessaged.listen).mockImplementation((callback) => {
      emit = (payload) => callback({ event: "server-messaged", id: 1, payload });
      return Promise.resolve(vi.fn());
    });
  });

  // Pins: the history shows first (with Plugboard's warnings named as such and markup as text); a live line for
  // this server is appended, a repeat of a line already shown is not, and another server's line is ignored.
  it("shows the history, then live lines", async () => {
    renderWithProviders(<LogTab server="s" status={READY} />);
    const list = await screen.findByRole("list", { name: "Log lines" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(3);
    expect(within(list).getByText("plugboard")).toBeInTheDocument();
    expect(within(list).getByText('<img src=x onerror="window.pwned=1">')).toBeInTheDocument();
    expect(within(list).getByText("[net]")).toBeInTheDocument();
    expect(document.querySelector("img")).toBeNull();

    act(() => emit({ server: "s", ...line(3, "info", "Info-level message") }));
    act(() => emit({ server: "s", ...line(2, "error", "a repeat") }));
    act(() => emit({ server: "other", ...line(4, "info", "not ours") }));
    expect(await within(list).findByText("Info-level message")).toBeInTheDocument();
    expect(within(list).getAllByRole("listitem")).toHaveLength(4);
    expect(screen.queryByText("not ours")).not.toBeInTheDocument();
    expect(screen.getByText("4 of 4 lines")).toBeInTheDocument();
  });

  // Pins: the level filter keeps the chosen level and above; Plugboard's warnings count as warnings.
  it("filters by level", async () => {
    const user = userEvent.setup();
    renderWithProviders(<LogTab server="s" status={READY} />);
    await screen.findByRole("list", { name: "Log lines" });
    await user.selectOptions(screen.getByLabelText("Show"), "warning and above");
    expect(screen.getByText("2 of 3 lines")).toBeInTheDocument();
    expect(screen.queryByText("Debug-level message")).not.toBeInTheDocument();
    expect(screen.getByText("s: the allowlist entry nosuch matches no tool")).toBeInTheDocument();
  });

  // Pins: scrolling up stops following and offers to follow again; following again brings the newest line in view.
  it("stops following when the person scrolls up", async () => {
    const user = userEvent.setup();
    renderWithProviders(<LogTab server="s" status={READY} />);
    const scroller = await screen.findByLabelText("Log lines (scrollable)");
    expect(screen.queryByRole("button", { name: /Follow new lines/ })).not.toBeInTheDocument();
    Object.defineProperty(scroller, "scrollHeight", { configurable: true, value: 5000 });
    scroller.scrollTop = 0;
    fireEvent.scroll(scroller);
    const follow = await screen.findByRole("button", { name: /Follow new lines/ });
    await user.click(follow);
    expect(screen.queryByRole("button", { name: /Follow new lines/ })).not.toBeInTheDocument();
  });

  // Pins: a stopped server still shows its history, with a note that new lines come once it is ready.
  it("keeps the history of a server that is not ready", async () => {
    renderWithProviders(<LogTab server="s" status={{ state: "stopped" }} />);
    expect(await screen.findByText("The server is disconnected. Connect it to see its new log lines.")).toHaveRole("status");
    expect(screen.getByRole("list", { name: "Log lines" })).toBeInTheDocument();
  });
});
