import { describe, expect, it } from "vitest";

import { protocolLabel } from "./protocol";

describe("protocolLabel", () => {
  it("names 2026-07-28 and later stateless, and earlier versions as opening a session", () => {
    expect(protocolLabel("2026-07-28")).toBe("MCP 2026-07-28 (stateless)");
    expect(protocolLabel("2027-03-01")).toBe("MCP 2027-03-01 (stateless)");
    expect(protocolLabel("2025-11-25")).toBe("MCP 2025-11-25 (with session)");
    expect(protocolLabel("2024-11-05")).toBe("MCP 2024-11-05 (with session)");
  });
});
