// Tests for the Servers page's triage: status groups and their counts, the failed servers, search, filter and sort.
import { describe, expect, it } from "vitest";
import type { ServerStatus, ServerSummary } from "../../ipc/bindings";
import { countGroups, failedServers, groupOf, matchesQuery, visibleServers } from "./triage";

/** An enabled stdio server running `npx <name>-mcp`, unless `fields` says otherwise. */
function server(name: string, fields: Partial<ServerSummary> = {}): ServerSummary {
  return { name, transport: "stdio", target: `npx -y ${name}-mcp`, enabled: true, origin: null, oauth: false, notes: [], ...fields };
}

const READY: ServerStatus = { state: "ready", tools: 1, protocolVersion: "2025-06-18", serverName: null };
const FAILED: ServerStatus = { state: "failed", error: "exited with status 1", stderrTail: null };

const SERVERS = [
  server("files"),
  server("github", { transport: "streamableHttp", target: "https://api.githubcopilot.com/mcp/" }),
  server("weather"),
  server("Linear", { transport: "sse", target: "https://mcp.linear.app/sse" }),
  server("notes-10"),
  server("notes-2"),
  server("new"),
];
const STATUSES = new Map<string, ServerStatus>([
  ["files", READY],
  ["github", { state: "needsLogin", hint: "Log in" }],
  ["weather", FAILED],
  ["Linear", { state: "reconnecting", attempt: 2, nextTryMs: 1000, reason: "timeout" }],
  ["notes-10", FAILED],
  ["notes-2", { state: "disabled" }],
  // "new" has no status yet.
]);

describe("triage", () => {
  // Pins: reconnecting counts as connecting, every other state is its own group, no status is no group.
  it("groups statuses", () => {
    expect(groupOf({ state: "reconnecting", attempt: 1, nextTryMs: 0, reason: "" })).toBe("connecting");
    expect(groupOf({ state: "connecting" })).toBe("connecting");
    expect(groupOf(FAILED)).toBe("failed");
    expect(groupOf(undefined)).toBeNull();
  });

  // Pins: the summary counts configured servers per group; a status of a server not in the list is not counted.
  it("counts each group", () => {
    const statuses = new Map(STATUSES).set("removed-meanwhile", FAILED);
    expect(countGroups(SERVERS, statuses)).toEqual({
      failed: 2,
      needsApproval: 0,
      needsLogin: 1,
      keychainLocked: 0,
      connecting: 1,
      stopped: 0,
      ready: 1,
      disabled: 1,
    });
    expect(countGroups(SERVERS, undefined).failed).toBe(0);
  });

  // Pins: "Retry all failed" gets exactly the configured servers whose status is failed.
  it("lists the failed servers", () => {
    expect(failedServers(SERVERS, STATUSES)).toEqual(["weather", "notes-10"]);
  });

  // Pins: the search looks in the name and the command/URL, ignoring case, and every word must match.
  it("searches names and commands or URLs", () => {
    expect(matchesQuery(SERVERS[1]!, "GITHUBCOPILOT")).toBe(true);
    expect(matchesQuery(SERVERS[0]!, "npx files")).toBe(true);
    expect(matchesQuery(SERVERS[0]!, "npx linear")).toBe(false);
    expect(matchesQuery(SERVERS[0]!, "  ")).toBe(true);
  });

  // Pins: name order reads numbers as numbers and ignores case; status order puts failed first, no status last.
  it("sorts by name or by status", () => {
    const names = (sort: "name" | "status") =>
      visibleServers(SERVERS, STATUSES, { query: "", show: "all", sort }).map((entry) => entry.name);
    expect(names("name")).toEqual(["files", "github", "Linear", "new", "notes-2", "notes-10", "weather"]);
    expect(names("status")).toEqual(["notes-10", "weather", "github", "Linear", "files", "notes-2", "new"]);
  });

  // Pins: the filter keeps one group and combines with the search.
  it("filters by group and search together", () => {
    const shown = (show: "failed" | "connecting", query: string) =>
      visibleServers(SERVERS, STATUSES, { query, show, sort: "name" }).map((entry) => entry.name);
    expect(shown("failed", "")).toEqual(["notes-10", "weather"]);
    expect(shown("failed", "notes")).toEqual(["notes-10"]);
    expect(shown("connecting", "")).toEqual(["Linear"]);
    expect(shown("failed", "github")).toEqual([]);
  });
});
