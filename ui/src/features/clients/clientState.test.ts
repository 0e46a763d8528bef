// Tests for the client state words: each ClientStatus maps to exactly one state, an unreadable file first.
import { describe, expect, it } from "vitest";
import { clientState, connectedProfile, toolCount } from "./clientState";
import { clientStatus } from "./clientFixtures";

describe("clientState", () => {
  // Pins: no file anywhere is "notFound", a file without our entry "found", our entry current or stale as sent.
  it("follows the connection and the files looked at", () => {
    expect(clientState(clientStatus({ lookedAt: [{ path: "/h/a", found: false }] }))).toBe("notFound");
    expect(clientState(clientStatus({ lookedAt: [{ path: "/h/a", found: true }] }))).toBe("found");
    const connected = clientStatus({ connection: { state: "current", profile: "coding" } });
    expect(clientState(connected)).toBe("connected");
    expect(connectedProfile(connected)).toBe("coding");
    expect(clientState(clientStatus({ connection: { state: "stale", reason: "another binary" } }))).toBe("stale");
  });

  // Pins: a file that cannot be read wins over everything else, even an entry that looked current.
  it("puts a problem first", () => {
    const broken = clientStatus({ problem: "does not parse", connection: { state: "current", profile: null } });
    expect(clientState(broken)).toBe("error");
  });

  // Pins: one tool is singular.
  it("counts tools in words", () => {
    expect(toolCount(1)).toBe("1 tool");
    expect(toolCount(40)).toBe("40 tools");
  });
});
