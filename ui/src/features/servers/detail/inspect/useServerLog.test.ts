// Tests for merging a live log line into the history: appended when new, ignored when known, a refetch when the
// numbering restarted, and the on-screen cap.
import { describe, expect, it } from "vitest";
import type { ServerLogEntry } from "../../../../ipc/bindings";
import { MAX_LOG_LINES, withLine } from "./useServerLog";

const entry = (seq: number): ServerLogEntry => ({ seq, atMs: seq, level: "info", logger: null, message: `m${seq}` });

describe("withLine", () => {
  // Pins: a newer line is appended; a known one leaves the list as it is; an unknown older one asks for a refetch.
  it("appends new lines once", () => {
    const lines = [entry(4), entry(5)];
    expect(withLine(lines, { server: "s", ...entry(6) })?.map((l) => l.seq)).toEqual([4, 5, 6]);
    expect(withLine(lines, { server: "s", ...entry(5) })).toBe(lines);
    expect(withLine(lines, { server: "s", ...entry(0) })).toBeNull();
    expect(withLine([], { server: "s", ...entry(0) })?.map((l) => l.seq)).toEqual([0]);
  });

  // Pins: past the cap the oldest lines drop off.
  it("keeps at most MAX_LOG_LINES", () => {
    const lines = Array.from({ length: MAX_LOG_LINES }, (_, i) => entry(i));
    const merged = withLine(lines, { server: "s", ...entry(MAX_LOG_LINES) });
    expect(merged).toHaveLength(MAX_LOG_LINES);
    expect(merged?.[0]?.seq).toBe(1);
  });
});
