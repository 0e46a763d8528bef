// Tests for the wizard's first step: the configs found, their server counts, and the clients not found.
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { CLAUDE_PATH, CURSOR_PATH, cursorFile, sources } from "../../test/importFixtures";
import SourcesStep from "./SourcesStep";

describe("SourcesStep", () => {
  // Pins: each found file shows its client, its full path and how many servers it holds.
  it("lists found files with their paths and counts", () => {
    render(<SourcesStep sources={sources()} files={[cursorFile()]} />);
    const list = screen.getByRole("list", { name: "Configs found" });
    const item = within(list).getByRole("listitem");
    expect(item).toHaveTextContent("Cursor");
    expect(within(item).getByText(CURSOR_PATH).tagName).toBe("CODE");
    expect(item).toHaveTextContent("4 servers");
  });

  // Pins: a file that cannot be read says so with the reason instead of a count.
  it("says why a file cannot be read", () => {
    render(<SourcesStep sources={sources()} files={[cursorFile({ error: "expected `}` (line 3, column 1)", entries: [] })]} />);
    expect(screen.getByText(/Can't be read: expected `}` \(line 3, column 1\)/)).toBeInTheDocument();
  });

  // Pins: the clients not found are named, and opening the disclosure shows where they were looked for.
  it("names the clients not found and where it looked", async () => {
    const user = userEvent.setup();
    render(<SourcesStep sources={sources()} files={undefined} />);
    const summary = screen.getByText("Not found here: Claude Desktop, Zed");
    expect(screen.getByText(CLAUDE_PATH)).not.toBeVisible();
    await user.click(summary);
    expect(screen.getByText(CLAUDE_PATH)).toBeVisible();
  });

  // Pins: with nothing found the step says there is nothing to import (no empty list).
  it("says when nothing was found", () => {
    render(<SourcesStep sources={sources({ found: [] })} files={[]} />);
    expect(screen.getByText(/No other MCP client's config was found/)).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Configs found" })).not.toBeInTheDocument();
  });

  // Pins: a path with markup and hidden characters is shown as text with the hidden character revealed.
  it("renders paths inert", () => {
    const hostile = "/tmp/<img src=x onerror=alert(1)>\u202e/mcp.json";
    render(<SourcesStep sources={sources({ found: [{ client: "cursor", clientLabel: "Cursor", path: hostile }] })} files={undefined} />);
    expect(screen.getByText("/tmp/<img src=x onerror=alert(1)>\\u{202e}/mcp.json")).toBeInTheDocument();
    expect(document.querySelector("img")).toBeNull();
  });
});
