// The configured servers with their triage: the status summary, search, filter, sort and "Retry all failed" above
// the (virtualised) table, or what to do when nothing matches. The triage is remembered for the app's session (in
// memory, never on disk), so a visit to a server's page and back finds the same search, filter and order.
import type { ServerSummary } from "../../ipc/bindings";
import type { MemorySlot } from "../../shell/sessionMemory";
import { useRememberedState } from "../../shell/useRememberedState";
import NoMatches from "./NoMatches";
import RetryAllFailed from "./RetryAllFailed";
import ServerTable from "./ServerTable";
import StatusSummary from "./StatusSummary";
import { countGroups, failedServers, type Statuses, type Triage, visibleServers } from "./triage";
import TriageBar from "./TriageBar";

/** Props for {@link TriagedServers}. */
type TriagedServersProps = {
  /** Every configured server (non-empty), as list_servers gives them. */
  servers: ServerSummary[];
  /** Their live status by name; undefined while it loads or when it is unavailable. */
  statuses: Statuses;
};

/** The triage last on screen; everything shown, by name, until the person changes it. */
const TRIAGE: MemorySlot<Triage> = {
  name: "servers triage",
  initial: () => ({ query: "", show: "all", sort: "name" }),
};

export default function TriagedServers({ servers, statuses }: TriagedServersProps) {
  const [triage, setTriage] = useRememberedState(TRIAGE);
  const change = (next: Partial<Triage>) => setTriage((now) => ({ ...now, ...next }));
  // The order stays: it hides no server.
  const clear = () => change({ query: "", show: "all" });
  const shown = visibleServers(servers, statuses, triage);
  const narrowed = shown.length < servers.length;

  return (
    <div className="flex flex-col gap-3">
      <StatusSummary counts={countGroups(servers, statuses)} show={triage.show} onShow={(show) => change({ show })} />
      <TriageBar triage={triage} onChange={change} />
      <div className="flex items-start justify-between gap-3">
        {/* Announced as the search and filter change, so a screen reader hears what the table now holds. */}
        <p role="status" className="pt-1 text-xs text-muted">
          {narrowed ? `Showing ${shown.length} of ${servers.length} servers` : `${servers.length} ${servers.length === 1 ? "server" : "servers"}`}
        </p>
        <RetryAllFailed failed={failedServers(servers, statuses)} />
      </div>
      {shown.length === 0 ? <NoMatches triage={triage} onClear={clear} /> : <ServerTable servers={shown} statuses={statuses} />}
    </div>
  );
}
