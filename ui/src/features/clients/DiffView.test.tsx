// Tests for the diff view: added and removed lines are marked, and file text is shown as text, never as HTML.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CONNECT_DIFF } from "./clientFixtures";
import DiffView from "./DiffView";

describe("DiffView", () => {
  // Pins: each line keeps its kind; the added entry's lines are marked added, the replaced line removed.
  it("marks added and removed lines", () => {
    const { container } = render(<DiffView diff={CONNECT_DIFF} />);
    const added = [...container.querySelectorAll('[data-kind="added"]')].map((line) => line.textContent);
    expect(added).toContain('+    "plugboard": {');
    expect(container.querySelectorAll('[data-kind="removed"]')).toHaveLength(1);
    expect(container.querySelectorAll('[data-kind="header"]')).toHaveLength(2);
  });

  // Pins: markup in a client's file (a comment with a tag) is shown as the characters it is; no element is made.
  it("shows file text as inert text", () => {
    const hostile = '+  // <img src=x onerror="alert(1)"> <b>bold</b>\n';
    const { container } = render(<DiffView diff={hostile} />);
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("b")).toBeNull();
    expect(screen.getByText(/<img src=x onerror="alert\(1\)">/)).toBeInTheDocument();
  });
});
