// Tests for the virtualised Servers table: only rows in view are rendered, scrolling brings the others, and a row
// holding state (open details) stays mounted while it is out of view.
import { act, fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { ServerStatus, ServerSummary } from "../../ipc/bindings";
import { stubLayout } from "../../test/layoutStubs";
import { renderWithProviders } from "../../test/render";
import ServerTable from "./ServerTable";

vi.mock("../../ipc/bindings", () => ({
  commands: {},
  events: { loginStarted: { listen: vi.fn(() => Promise.resolve(() => {})) } },
}));

// A 600 px scroller with 40 px rows.
stubLayout(600, 40);

const SERVERS: ServerSummary[] = Array.from({ length: 200 }, (_, index) => ({
  name: `server-${String(index).padStart(3, "0")}`,
  transport: "stdio",
  target: `npx server-${index}`,
  enabled: true,
  origin: null,
  oauth: false,
  notes: [],
}));
const FAILED: ServerStatus = { state: "failed", error: "exited with status 1", stderrTail: null };
const STATUSES = new Map(SERVERS.map((server) => [server.name, FAILED]));

/** The row headers in the DOM, in order. */
function rendered(): string[] {
  return screen.getAllByRole("rowheader").map((cell) => cell.textContent ?? "");
}

/** Scrolls the table's scroller to `px` from its top (rows not yet measured count at their estimated height). */
function scrollTo(px: number) {
  const scroller = screen.getByRole("table").parentElement!;
  act(() => {
    scroller.scrollTop = px;
    fireEvent.scroll(scroller);
  });
}

describe("ServerTable", () => {
  // Pins: of 200 servers only the window in view (and its overscan) is in the DOM; scrolling to the end brings the last ones.
  it("renders only the rows in view", async () => {
    renderWithProviders(<ServerTable servers={SERVERS} statuses={STATUSES} />);
    expect(rendered()[0]).toBe("server-000");
    expect(rendered().length).toBeLessThan(40);
    expect(screen.queryByRole("rowheader", { name: "server-150" })).not.toBeInTheDocument();

    scrollTo(1_000_000);
    expect(await screen.findByRole("rowheader", { name: "server-199" })).toBeInTheDocument();
    expect(screen.queryByRole("rowheader", { name: "server-000" })).not.toBeInTheDocument();
  });

  // Pins: a row with its details open stays mounted (details still open) when it scrolls out of view.
  it("keeps a row with open details while it is out of view", async () => {
    const user = userEvent.setup();
    renderWithProviders(<ServerTable servers={SERVERS} statuses={STATUSES} />);
    await user.click(screen.getByRole("button", { name: "Details for server-001" }));
    // The focus leaves the row, so only the open details keep it.
    (document.activeElement as HTMLElement).blur();

    scrollTo(1_000_000);
    await screen.findByRole("rowheader", { name: "server-199" });
    expect(rendered()).toContain("server-001");
    expect(rendered()).not.toContain("server-000");
    const kept = screen.getByRole("rowheader", { name: "server-001" }).closest("tbody")!;
    expect(within(kept).getByRole("button", { name: "Details for server-001" })).toHaveAttribute("aria-expanded", "true");
  });
});
