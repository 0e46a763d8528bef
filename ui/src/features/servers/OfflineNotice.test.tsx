// Tests for the offline notice: many servers whose names did not resolve are one problem, said once; a few, or
// other failures, are not.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ServerStatus } from "../../ipc/bindings";
import OfflineNotice from "./OfflineNotice";
import { DNS_FAILURE_PREFIX } from "./offline";

const dns = (host: string): ServerStatus => ({
  state: "reconnecting",
  attempt: 2,
  nextTryMs: 1000,
  reason: `${DNS_FAILURE_PREFIX}${host}: failed to lookup address information`,
});

describe("OfflineNotice", () => {
  // Eleven lookups failing at once: the page says the machine looks offline, with the count.
  it("says the computer looks offline when many names did not resolve", () => {
    const statuses = new Map<string, ServerStatus>(
      Array.from({ length: 11 }, (_, i) => [`remote-${i}`, dns(`host${i}.example`)] as const),
    );
    statuses.set("local", { state: "failed", error: "Could not start `uvx`", stderrTail: null });
    render(<OfflineNotice statuses={statuses} />);
    expect(screen.getByRole("status")).toHaveTextContent("This computer looks offline");
    expect(screen.getByRole("status")).toHaveTextContent("11 remote servers could not look up their addresses");
  });

  // Two lookups failing may be two wrong addresses: no notice.
  it("stays away for a couple of failed lookups", () => {
    const statuses = new Map<string, ServerStatus>([
      ["a", dns("a.example")],
      ["b", { state: "failed", error: `It failed 5 times within a minute; last error: ${DNS_FAILURE_PREFIX}b.example`, stderrTail: null }],
      ["c", { state: "failed", error: "cannot reach http://127.0.0.1:9/mcp: Connection refused", stderrTail: null }],
    ]);
    const { container } = render(<OfflineNotice statuses={statuses} />);
    expect(container).toBeEmptyDOMElement();
  });
});
