// Tests for the wizard's last step: what the import did.
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { cursorFile, plan, summary } from "../../test/importFixtures";
import SummaryStep from "./SummaryStep";

describe("SummaryStep", () => {
  // Pins: every kind of result has a count, with names where there are some; failures carry their reason.
  it("summarises added, overwritten, renamed, skipped, identical and failed", () => {
    const unreadable = cursorFile({ path: "/x/mcp.json", error: "not JSON", entries: [] });
    render(
      <SummaryStep
        plan={plan([cursorFile(), unreadable])}
        summary={summary({
          added: ["github"],
          overwritten: ["a"],
          renamed: [["linear", "linear-2"]],
          skipped: ["b", "c"],
          identical: 1,
          invalid: 1,
          fileErrors: 1,
          secretsMoved: 1,
        })}
      />,
    );
    const row = (label: string) => screen.getByText(label, { selector: "dt" }).parentElement!;
    expect(row("Added")).toHaveTextContent("Added1github");
    expect(row("Overwritten")).toHaveTextContent("Overwritten1a");
    expect(row("Kept both, renamed")).toHaveTextContent("linear → linear-2");
    expect(row("Skipped")).toHaveTextContent("Skipped2bc");
    expect(row("Already there")).toHaveTextContent("Already there1");
    const failed = within(row("Failed")).getAllByRole("listitem").map((li) => li.textContent);
    expect(failed).toEqual(["broken: command: a stdio server needs a command", "/x/mcp.json: not JSON"]);
    expect(screen.getByText(/1 secret moved to the keychain/)).toBeInTheDocument();
  });

  // Pins: with no secrets moved there is no keychain line, and empty kinds show 0.
  it("shows zeros and no keychain line when nothing moved", () => {
    render(<SummaryStep plan={plan([])} summary={summary()} />);
    expect(screen.getByText("Added", { selector: "dt" }).parentElement).toHaveTextContent("Added0");
    expect(screen.queryByText(/keychain/)).not.toBeInTheDocument();
  });
});
