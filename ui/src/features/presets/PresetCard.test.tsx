// Tests for a preset's card: the "Added as" badge names every server (inert text) and Add reports its own button.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import PresetCard from "./PresetCard";
import { GITHUB } from "./presetFixtures";

describe("PresetCard", () => {
  // Pins: a long "Added as" keeps every name (hidden characters shown) in a badge whose text may wrap inside the card.
  it("names every server it was added as", () => {
    const names = ["github", "github-work-enterprise-account", "github-2", "gh\u202ex"];
    render(<PresetCard listing={{ ...GITHUB, addedAs: names }} onAdd={vi.fn()} />);
    const badge = screen.getByText(/^Added as /);
    expect(badge).toHaveTextContent("Added as github, github-work-enterprise-account, github-2, gh\\u{202e}x");
    // The badge's text is allowed to break anywhere (its layout is checked at 1024 px and narrower in presets.browser.ts).
    expect(badge).toHaveClass("min-w-0", "wrap-anywhere");
  });

  // Pins: Add hands its own button to the page, so focus can go back to it when the dialog closes.
  it("reports the Add button as the dialog's opener", async () => {
    const onAdd = vi.fn();
    render(<PresetCard listing={GITHUB} onAdd={onAdd} />);
    const button = screen.getByRole("button", { name: "Add another GitHub" });
    await userEvent.click(button);
    expect(onAdd).toHaveBeenCalledWith(button);
  });
});
