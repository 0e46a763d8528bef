// Tests for an entry's details in the review table: differences, reasons, secrets moved and notes.
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { entry, launching } from "../../test/importFixtures";
import EntryDetails from "./EntryDetails";

describe("EntryDetails", () => {
  // Pins: a conflict lists each differing field with Plugboard's value and the client's, labelled; "(none)" reads "not set".
  it("shows a conflict's differences readably", () => {
    const conflict = entry({
      name: "linear",
      outcome: { kind: "conflict", differences: ['url: "https://a/sse" → "https://a/mcp"', 'timeoutMs: (none) → 5000'] },
    });
    render(<EntryDetails entry={conflict} clientLabel="Cursor" writes={false} />);
    const list = screen.getByRole("list", { name: "Differences for linear" });
    const [url, timeout] = within(list).getAllByRole("listitem");
    expect(url).toHaveTextContent('url−Plugboard has "https://a/sse"+Cursor has "https://a/mcp"');
    expect(timeout).toHaveTextContent("Plugboard has not set+Cursor has 5000");
  });

  // Pins: an invalid entry shows its reason; secrets of an entry that is written are listed by where they are (never
  // with a value) as moving later, not as moved.
  it("shows the reason and the secrets moved", () => {
    const { rerender } = render(
      <EntryDetails entry={entry({ name: "x", outcome: { kind: "invalid", reason: "command: missing" } })} clientLabel="Cursor" writes={false} />,
    );
    expect(screen.getByText("command: missing")).toBeInTheDocument();
    rerender(
      <EntryDetails
        entry={entry({ name: "gh", outcome: { kind: "new" }, secretsMoved: ["env.GITHUB_TOKEN", "headers.Authorization"], notes: ["dropped envFile"] })}
        clientLabel="Cursor"
        writes
      />,
    );
    expect(screen.getByText("Will move to keychain: env.GITHUB_TOKEN, headers.Authorization")).toBeInTheDocument();
    expect(screen.getByText("dropped envFile")).toBeInTheDocument();
  });

  // Pins: an entry that is not written (identical, skipped, left out) says nothing about the keychain: nothing moves.
  it("names no secret for an entry that is not written", () => {
    render(
      <EntryDetails entry={entry({ name: "files", outcome: { kind: "identical" }, secretsMoved: ["env.KEY"] })} clientLabel="Cursor" writes={false} />,
    );
    expect(screen.queryByText(/keychain/i)).not.toBeInTheDocument();
  });

  // Pins: the command line (with its arguments) or the URL is shown with its transport, as inert text.
  it("shows what the entry runs", () => {
    const { rerender } = render(
      <EntryDetails
        entry={launching(entry({ name: "gh", outcome: { kind: "new" } }), "stdio", "npx -y @modelcontextprotocol/server-github <b>x</b>")}
        clientLabel="Cursor"
        writes
      />,
    );
    expect(screen.getByText("stdio")).toBeInTheDocument();
    expect(screen.getByText("npx -y @modelcontextprotocol/server-github <b>x</b>").tagName).toBe("CODE");
    expect(document.querySelector("b")).toBeNull();
    rerender(
      <EntryDetails entry={launching(entry({ name: "sentry", outcome: { kind: "new" } }), "streamableHttp", "https://mcp.sentry.dev/mcp")} clientLabel="Cursor" writes />,
    );
    expect(screen.getByText("Streamable HTTP")).toBeInTheDocument();
    expect(screen.getByText("https://mcp.sentry.dev/mcp")).toBeInTheDocument();
  });

  // Pins: markup in a reason or a difference stays text.
  it("renders server text inert", () => {
    render(
      <EntryDetails
        entry={entry({ name: "x", outcome: { kind: "conflict", differences: ['url: "<img src=x onerror=alert(1)>" → "b"'] } })}
        clientLabel="Cursor"
        writes={false}
      />,
    );
    expect(screen.getByText('"<img src=x onerror=alert(1)>"')).toBeInTheDocument();
    expect(document.querySelector("img")).toBeNull();
  });
});
