// A call history of any length for the console bench, served a page at a time as the backend serves it
// (plugboard-core console/history.rs `page`): newest first, the rows below `beforeId`, at most `limit` (capped at the
// backend's 500), and `total` counting every match. It answers in memory and never starts the real backend.
import type { HistoryPage, HistorySummary } from "../../src/ipc/bindings";
import { CALLED_AT, historyEntry, historySummary } from "../fixtures";
import type { MockIpc } from "../ipc";

/** The backend's cap on one page (history.rs MAX_PAGE). */
const MAX_PAGE = 500;

const SERVERS = ["files", "github", "postgres", "slack", "linear"];
const TOOLS = ["read_file", "search_issues", "query", "post_message", "list_projects"];
const CLIENTS = [null, "cursor", "claude-ai", null];

/** The arguments of call `id`; its file name is unique, so a row can be found by it. */
export function historyArguments(id: number): string {
  return JSON.stringify({ path: `/var/log/app/app-${String(id).padStart(5, "0")}.log`, lines: id % 50 });
}

/** `count` recorded calls, ids count…1 (newest first), a minute apart, of mixed servers, outcomes and clients. */
export function generatedHistory(count: number): HistorySummary[] {
  return Array.from({ length: count }, (_, index) => {
    const id = count - index;
    const outcome =
      id % 13 === 0
        ? { kind: "failed" as const, message: "the server did not answer within 60 s" }
        : id % 29 === 0
          ? { kind: "cancelled" as const }
          : { kind: "result" as const, isError: id % 7 === 0, result: "", truncated: false };
    return historySummary(
      historyEntry({
        id,
        server: SERVERS[id % SERVERS.length] ?? "files",
        tool: TOOLS[id % TOOLS.length] ?? "read_file",
        arguments: historyArguments(id),
        startedAtMs: CALLED_AT - index * 60_000,
        durationMs: 5 + ((id * 37) % 2_000),
        outcome,
        origin: CLIENTS[id % CLIENTS.length] ?? null,
      }),
    );
  });
}

/** Answers call_history from `rows` (newest first) as the backend pages it. */
export function serveHistory(ipc: MockIpc, rows: HistorySummary[]) {
  ipc.respond({
    callHistory: (query, beforeId, limit): HistoryPage => {
      const needle = query.toLowerCase();
      const matching = rows.filter((row) =>
        `${row.server}\n${row.tool}\n${row.argumentsPreview}\n${row.origin ?? ""}`.toLowerCase().includes(needle),
      );
      const older = beforeId === null ? matching : matching.filter((row) => row.id < beforeId);
      return { entries: older.slice(0, Math.min(limit, MAX_PAGE)), total: matching.length };
    },
  });
}
