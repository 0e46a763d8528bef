// Tests for the event stream: events in arrival order with inert server text, the latest progress as a bar, and a
// 1,000-event stream rendering only a window of rows.
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CallEvent } from "../../ipc/bindings";
import { renderWithProviders } from "../../test/render";
import { stubLayout } from "../../test/layoutStubs";
import EventStream from "./EventStream";

stubLayout(600, 24);

describe("EventStream", () => {
  // Pins: progress and log events appear in the order they came; the bar shows the newest progress and message.
  it("shows events in order and the latest progress", () => {
    const events: CallEvent[] = [
      { kind: "progress", progress: 1, total: 4, message: "starting" },
      { kind: "log", level: "info", logger: "worker", message: "<script>alert(1)</script>\u202e" },
      { kind: "progress", progress: 3, total: 4, message: "almost" },
    ];
    const { container } = renderWithProviders(<EventStream events={events} />);

    const rows = within(screen.getByRole("list", { name: "Notifications" })).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      "progress 1/4 starting",
      "info [worker] <script>alert(1)</script>\\u{202e}",
      "progress 3/4 almost",
    ]);
    const bar = screen.getByRole("progressbar", { name: "Progress" });
    expect(bar).toHaveAttribute("value", "3");
    expect(bar).toHaveAttribute("max", "4");
    expect(screen.getByText("3 of 4 · almost")).toBeInTheDocument();
    expect(container.querySelector("script")).toBeNull();
  });

  // Pins: 1,000 events render only the rows in view (plus overscan), the first ones first.
  it("renders a window of a 1,000-event stream", () => {
    const events: CallEvent[] = Array.from({ length: 1000 }, (_, index) => ({
      kind: "log",
      level: "debug",
      logger: null,
      message: `line ${index}`,
    }));
    renderWithProviders(<EventStream events={events} />);

    const rows = within(screen.getByRole("list", { name: "Notifications" })).getAllByRole("listitem");
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(rows[0]).toHaveTextContent("debug line 0");
    expect(rows[0]).toHaveAttribute("aria-setsize", "1000");
  });

  // Pins: nothing is shown before a call sends anything.
  it("is empty without events", () => {
    const { container } = renderWithProviders(<EventStream events={[]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
