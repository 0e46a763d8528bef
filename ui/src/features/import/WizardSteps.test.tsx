// Tests for the wizard's step indicator.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import WizardSteps from "./WizardSteps";

describe("WizardSteps", () => {
  // Pins: the three steps are listed in order, the current one carries aria-current="step", earlier ones say done.
  it("marks the current step and the done ones", () => {
    render(<WizardSteps current="review" />);
    const nav = screen.getByRole("navigation", { name: "Import steps" });
    const items = screen.getAllByRole("listitem");
    expect(nav).toContainElement(items[0] ?? null);
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent("Find configs (done)");
    expect(items[1]).toHaveTextContent("Review");
    expect(items[2]).toHaveTextContent("Done");
    expect(items[1]).toHaveAttribute("aria-current", "step");
    expect(items[0]).not.toHaveAttribute("aria-current");
  });
});
