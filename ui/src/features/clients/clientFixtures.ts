// Test data for the Clients screen: a ClientStatus and a ChangePreview with sensible defaults, overridable per test.
import type { ChangePreview, ClientStatus, ToolBudget } from "../../ipc/bindings";

/** A budget: `tools` through Plugboard against `limit` (documented), with the options given. */
export function budget(overrides: Partial<ToolBudget> = {}): ToolBudget {
  const tools = overrides.current?.tools ?? 12;
  const limit = overrides.limit === undefined ? 40 : overrides.limit;
  return {
    limit,
    limitFrom: limit === null ? "none" : "documented",
    documented: 40,
    documentedSays: "Cursor's MCP documentation says it sends only the first 40 tools to the Agent",
    documentedSource: "https://docs.cursor.com/context/model-context-protocol",
    current: { profile: null, search: false, tools, unknownServers: [] },
    over: limit !== null && tools > limit,
    options: [
      { profile: null, search: false, tools, unknownServers: [] },
      { profile: "coding", search: false, tools: 5, unknownServers: [] },
    ],
    trims: [],
    ...overrides,
  };
}

/** Cursor, found and not connected, 12 tools under its 40. */
export function clientStatus(overrides: Partial<ClientStatus> = {}): ClientStatus {
  return {
    client: "cursor",
    label: "Cursor",
    file: "/home/ada/.cursor/mcp.json",
    lookedAt: [{ path: "/home/ada/.cursor/mcp.json", found: true }],
    connection: { state: "notConnected" },
    duplicates: [],
    problem: null,
    hasBackup: false,
    budget: budget(),
    ...overrides,
  };
}

/** The diff of connecting Cursor. */
export const CONNECT_DIFF = `--- /home/ada/.cursor/mcp.json
+++ /home/ada/.cursor/mcp.json
@@ -1,4 +1,8 @@
 {
   "mcpServers": {
-    "docs": { "url": "https://docs.example/mcp" }
+    "docs": { "url": "https://docs.example/mcp" },
+    "plugboard": {
+      "command": "/usr/bin/plugboard",
+      "args": ["serve", "--stdio"]
+    }
   }
 }
`;

/** The preview of connecting Cursor. */
export function preview(overrides: Partial<ChangePreview> = {}): ChangePreview {
  return {
    client: "cursor",
    label: "Cursor",
    kind: "connect",
    path: "/home/ada/.cursor/mcp.json",
    diff: CONNECT_DIFF,
    moved: [],
    noop: false,
    creates: false,
    removes: false,
    digest: "d1",
    nextStep: "open Cursor's Settings → MCP and turn the plugboard server on (or restart Cursor)",
    ...overrides,
  };
}
