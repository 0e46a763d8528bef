// Tests for the outcome label of a review row.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import OutcomeBadge from "./OutcomeBadge";

describe("OutcomeBadge", () => {
  // Pins: each outcome kind reads as its word (colour is never the only signal).
  it.each([
    ["new", "New"],
    ["identical", "Identical"],
    ["conflict", "Conflict"],
    ["invalid", "Invalid"],
  ] as const)("names %s as %s", (kind, label) => {
    render(<OutcomeBadge kind={kind} />);
    expect(screen.getByText(label)).toBeInTheDocument();
  });
});
