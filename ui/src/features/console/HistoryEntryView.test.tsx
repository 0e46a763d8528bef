// Tests for one saved call: its arguments and result, Re-run handing the entry back, and Copy as CLI through the
// clipboard or, when the clipboard is refused, a selected read-only field.
import { fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { commands, type HistoryEntry } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import HistoryEntryView from "./HistoryEntryView";

vi.mock("../../ipc/bindings", () => ({ commands: { historyEntry: vi.fn() } }));

const historyEntry = vi.mocked(commands.historyEntry);
const CLI = "plugboard call everything echo --args '{\"message\":\"it'\\''s\"}'";
const ENTRY: HistoryEntry = {
  id: 9,
  server: "everything",
  tool: "echo",
  arguments: '{"message":"<b>x</b>"}',
  startedAtMs: Date.now(),
  durationMs: 7,
  outcome: { kind: "result", isError: true, result: JSON.stringify({ content: [{ type: "text", text: "nope" }], isError: true }), truncated: false },
  cliCommand: CLI,
  origin: null,
  unrecorded: null,
};

function setClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: vi.fn(writeText) } });
  return navigator.clipboard.writeText as ReturnType<typeof vi.fn>;
}

describe("HistoryEntryView", () => {
  beforeEach(() => historyEntry.mockResolvedValue({ status: "ok", data: ENTRY }));
  afterEach(() => Reflect.deleteProperty(navigator, "clipboard"));

  // Pins: the call's arguments (inert) and its result (a tool error, announced) show; Re-run hands back the entry.
  it("shows the saved call and re-runs it", async () => {
    const onRerun = vi.fn();
    const { container } = renderWithProviders(<HistoryEntryView id={9} onRerun={onRerun} />);

    expect(await screen.findByRole("heading", { name: "everything · echo" })).toBeInTheDocument();
    expect(screen.getByLabelText("Arguments")).toHaveTextContent('{"message":"<b>x</b>"}');
    expect(container.querySelector("b")).toBeNull();
    expect(screen.getByRole("alert")).toHaveTextContent("The tool reported an error");
    fireEvent.click(screen.getByRole("button", { name: "Re-run" }));
    expect(onRerun).toHaveBeenCalledWith(ENTRY);
  });

  // Pins: Copy as CLI writes exactly the backend's command to the clipboard.
  it("copies the CLI command", async () => {
    const writeText = setClipboard(() => Promise.resolve());
    renderWithProviders(<HistoryEntryView id={9} onRerun={vi.fn()} />);

    fireEvent.click(await screen.findByRole("button", { name: "Copy as CLI" }));
    expect(writeText).toHaveBeenCalledWith(CLI);
    expect(await screen.findByRole("button", { name: "Copied" })).toBeInTheDocument();
    // "Copied" goes after two seconds, so the next copy is confirmed afresh.
    expect(await screen.findByRole("button", { name: "Copy as CLI" }, { timeout: 3000 })).toBeInTheDocument();
  });

  // Pins: a refused clipboard shows the command in a read-only field, selected for copying by hand.
  it("falls back to a selected field when the clipboard is refused", async () => {
    setClipboard(() => Promise.reject(new Error("denied")));
    renderWithProviders(<HistoryEntryView id={9} onRerun={vi.fn()} />);

    fireEvent.click(await screen.findByRole("button", { name: "Copy as CLI" }));
    const field = await screen.findByRole("textbox", { name: /clipboard was refused/ });
    expect(field).toHaveValue(CLI);
    expect(field).toHaveAttribute("readonly");
    await vi.waitFor(() => {
      const input = field as HTMLInputElement;
      expect([input.selectionStart, input.selectionEnd]).toEqual([0, CLI.length]);
    });
  });
});
