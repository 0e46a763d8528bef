// Tests for an entry's details in the review table: differences, reasons, secrets moved and notes.
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { entry } from "../../test/importFixtures";
import EntryDetails from "./EntryDetails";

describe("EntryDetails", () => {
  // Pins: a conflict lists each differing field with Plugboard's value and the client's, labelled; "(none)" reads "not set".
  it("shows a conflict's differences readably", () => {
    const conflict = entry({
      name: "linear",
      outcome: { kind: "conflict", differences: ['url: "https://a/sse" → "https://a/mcp"', 'timeoutMs: (none) → 5000'] },
    });
    render(<EntryDetails entry={conflict} clientLabel="Cursor" />);
    const list = screen.getByRole("list", { name: "Differences for linear" });
    const [url, timeout] = within(list).getAllByRole("listitem");
    expect(url).toHaveTextContent('url−Plugboard has "https://a/sse"+Cursor has "https://a/mcp"');
    expect(timeout).toHaveTextContent("Plugboard has not set+Cursor has 5000");
  });

  // Pins: an invalid entry shows its reason; secrets are listed by where they were, never with a value.
  it("shows the reason and the secrets moved", () => {
    const { rerender } = render(
      <EntryDetails entry={entry({ name: "x", outcome: { kind: "invalid", reason: "command: missing" } })} clientLabel="Cursor" />,
    );
    expect(screen.getByText("command: missing")).toBeInTheDocument();
    rerender(
      <EntryDetails
        entry={entry({ name: "gh", outcome: { kind: "new" }, secretsMoved: ["env.GITHUB_TOKEN", "headers.Authorization"], notes: ["dropped envFile"] })}
        clientLabel="Cursor"
      />,
    );
    expect(screen.getByText("Moved to keychain: env.GITHUB_TOKEN, headers.Authorization")).toBeInTheDocument();
    expect(screen.getByText("dropped envFile")).toBeInTheDocument();
  });

  // Pins: markup in a reason or a difference stays text.
  it("renders server text inert", () => {
    render(
      <EntryDetails
        entry={entry({ name: "x", outcome: { kind: "conflict", differences: ['url: "<img src=x onerror=alert(1)>" → "b"'] } })}
        clientLabel="Cursor"
      />,
    );
    expect(screen.getByText('"<img src=x onerror=alert(1)>"')).toBeInTheDocument();
    expect(document.querySelector("img")).toBeNull();
  });
});
