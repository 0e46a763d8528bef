// Tests for the status summary: a count per state, each a toggle button that sets the table's filter.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import StatusSummary from "./StatusSummary";

const COUNTS = {
  failed: 17,
  needsApproval: 0,
  needsLogin: 1,
  keychainLocked: 0,
  connecting: 0,
  stopped: 0,
  ready: 5,
  disabled: 0,
};

describe("StatusSummary", () => {
  // Pins: every state is counted by name and number (words, not colour alone), the filter's own count pressed.
  it("names each count and marks the filter in force", () => {
    render(<StatusSummary counts={COUNTS} show="failed" onShow={vi.fn()} />);
    const names = screen.getAllByRole("button").map((button) => [button.textContent, button.getAttribute("aria-pressed")]);
    expect(names).toEqual([
      ["Failed 17", "true"],
      ["Needs approval 0", "false"],
      ["Needs login 1", "false"],
      ["Keychain locked 0", "false"],
      ["Connecting 0", "false"],
      ["Stopped 0", "false"],
      ["Ready 5", "false"],
      ["Disabled 0", "false"],
    ]);
  });

  // Pins: pressing a count filters to it, pressing the pressed one shows every server again.
  it("sets and clears the filter", async () => {
    const user = userEvent.setup();
    const onShow = vi.fn();
    const { rerender } = render(<StatusSummary counts={COUNTS} show="all" onShow={onShow} />);
    await user.click(screen.getByRole("button", { name: "Needs login 1" }));
    expect(onShow).toHaveBeenLastCalledWith("needsLogin");

    rerender(<StatusSummary counts={COUNTS} show="needsLogin" onShow={onShow} />);
    await user.click(screen.getByRole("button", { name: "Needs login 1" }));
    expect(onShow).toHaveBeenLastCalledWith("all");
  });
});
