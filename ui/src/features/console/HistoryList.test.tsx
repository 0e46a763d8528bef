// Tests for the history list and panel: rows with time, server, tool, status, duration and preview; 10,000 rows
// rendered as a window; the next page asks beforeId of the last row; the search is debounced; Clear is confirmed.
import { act, fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { commands, type HistorySummary } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import { stubLayout } from "../../test/layoutStubs";
import { HISTORY_PAGE_SIZE } from "./consoleQueries";
import HistoryList from "./HistoryList";
import HistoryPanel, { SEARCH_DELAY_MS } from "./HistoryPanel";

vi.mock("../../ipc/bindings", () => ({
  commands: { callHistory: vi.fn(), historyEntry: vi.fn(), clearCallHistory: vi.fn() },
}));

const callHistory = vi.mocked(commands.callHistory);
const clearCallHistory = vi.mocked(commands.clearCallHistory);

stubLayout(320, 52);

function summary(id: number, fields: Partial<HistorySummary> = {}): HistorySummary {
  return {
    id,
    server: "everything",
    tool: "echo",
    argumentsPreview: `{"message":"call ${id}"}`,
    startedAtMs: Date.now(),
    durationMs: 42,
    status: "ok",
    origin: null,
    ...fields,
  };
}

/** callHistory over `total` calls with ids total..1, paged by beforeId like the backend. */
function serveHistory(total: number) {
  callHistory.mockImplementation((_query, beforeId, limit) => {
    const top = beforeId === null ? total : beforeId - 1;
    const entries = Array.from({ length: Math.max(0, Math.min(limit, top)) }, (_, index) => summary(top - index));
    return Promise.resolve({ status: "ok", data: { entries, total } });
  });
}

describe("HistoryList", () => {
  beforeEach(() => {
    callHistory.mockReset();
    clearCallHistory.mockReset();
  });
  afterEach(() => vi.useRealTimers());

  // Pins: a row shows server, tool, status, duration and the arguments preview, inert; selecting reports its id.
  it("shows each call's summary and selects it", async () => {
    callHistory.mockResolvedValue({
      status: "ok",
      data: { entries: [summary(7, { status: "toolError", argumentsPreview: "<img src=x onerror=alert(1)>", durationMs: 1500 })], total: 1 },
    });
    const onSelect = vi.fn();
    const { container } = renderWithProviders(<HistoryList query="" selectedId={null} onSelect={onSelect} />);

    const row = await screen.findByRole("button", { name: /everything · echo/ });
    expect(row).toHaveTextContent("Tool error");
    expect(row).toHaveTextContent("1.5 s");
    expect(row).toHaveTextContent("<img src=x onerror=alert(1)>");
    expect(container.querySelector("img")).toBeNull();
    await userEvent.click(row);
    expect(onSelect).toHaveBeenCalledWith(7);
    expect(callHistory).toHaveBeenCalledWith("", null, HISTORY_PAGE_SIZE);
  });

  // Pins: a call made through the gateway says which client made it (client text, inert); Plugboard's own do not.
  it("names the client of a gateway call", async () => {
    callHistory.mockResolvedValue({
      status: "ok",
      data: { entries: [summary(8, { origin: "Claude <b>Desktop</b>" }), summary(9)], total: 2 },
    });
    const { container } = renderWithProviders(<HistoryList query="" selectedId={null} onSelect={vi.fn()} />);

    const rows = await screen.findAllByRole("button", { name: /everything · echo/ });
    expect(rows[0]).toHaveTextContent("via Claude <b>Desktop</b>");
    expect(rows[1]).not.toHaveTextContent("via");
    expect(container.querySelector("b")).toBeNull();
  });

  // Pins: with 10,000 calls only a window of rows is in the DOM; scrolling to the end asks beforeId of the last row.
  it("renders a window of 10,000 calls and pages with beforeId", async () => {
    serveHistory(10_000);
    renderWithProviders(<HistoryList query="" selectedId={null} onSelect={vi.fn()} />);

    const list = await screen.findByRole("list", { name: "Calls" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]).toHaveAttribute("aria-setsize", "10000");
    expect(screen.getByText("10000 calls")).toBeInTheDocument();

    const scroller = list.parentElement!;
    act(() => {
      scroller.scrollTop = HISTORY_PAGE_SIZE * 52;
      fireEvent.scroll(scroller);
    });
    const lastLoaded = 10_000 - HISTORY_PAGE_SIZE + 1;
    await vi.waitFor(() => expect(callHistory).toHaveBeenCalledWith("", lastLoaded, HISTORY_PAGE_SIZE));
    expect(within(list).getAllByRole("listitem").length).toBeLessThan(40);
  });

  // Pins: even with all 10,000 calls loaded at once, only a window of rows is in the DOM.
  it("renders a window of 10,000 loaded calls", async () => {
    const entries = Array.from({ length: 10_000 }, (_, index) => summary(10_000 - index));
    callHistory.mockResolvedValueOnce({ status: "ok", data: { entries, total: 10_000 } });
    callHistory.mockResolvedValue({ status: "ok", data: { entries: [], total: 10_000 } });
    renderWithProviders(<HistoryList query="" selectedId={null} onSelect={vi.fn()} />);

    const rows = within(await screen.findByRole("list", { name: "Calls" })).getAllByRole("listitem");
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]).toHaveTextContent("call 10000");
  });

  // Pins: typing in the search asks the history once, after the pause, with the whole search.
  it("debounces the search", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serveHistory(3);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithProviders(<HistoryPanel onRerun={vi.fn()} />);
    await screen.findByRole("list", { name: "Calls" });
    callHistory.mockClear();

    await user.type(screen.getByRole("searchbox", { name: "Search history" }), "echo");
    expect(callHistory).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS + 50));
    await vi.waitFor(() => expect(callHistory).toHaveBeenCalledTimes(1));
    expect(callHistory).toHaveBeenCalledWith("echo", null, HISTORY_PAGE_SIZE);
  });

  // Pins: Clear history asks first (Keep takes the focus); confirming clears and refetches.
  it("clears the history after confirmation", async () => {
    serveHistory(3);
    clearCallHistory.mockResolvedValue({ status: "ok", data: null });
    const user = userEvent.setup();
    renderWithProviders(<HistoryPanel onRerun={vi.fn()} />);
    await screen.findByRole("list", { name: "Calls" });

    await user.click(screen.getByRole("button", { name: "Clear history" }));
    expect(screen.getByRole("button", { name: "Keep" })).toHaveFocus();
    expect(clearCallHistory).not.toHaveBeenCalled();
    serveHistory(0);
    await user.click(screen.getByRole("button", { name: "Delete all" }));
    expect(clearCallHistory).toHaveBeenCalledTimes(1);
    expect(await screen.findByText("No calls yet.")).toBeInTheDocument();
  });
});
