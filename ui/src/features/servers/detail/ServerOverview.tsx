// What a server is and how it is doing: status, transport and target, origin, and what it said about itself
// (protocol, name and version here; capabilities and instructions from ServerInfoFacts).
import type { ServerStatus, ServerSummary } from "../../../ipc/bindings";
import { originLabel } from "../originLabel";
import { protocolLabel } from "../protocol";
import { revealHidden } from "../revealHidden";
import ServerStatusBadge from "../ServerStatusBadge";
import { transportLabel } from "../transportLabel";
import ServerInfoFacts from "./inspect/ServerInfoFacts";

/** Props for {@link ServerOverview}. */
type ServerOverviewProps = {
  /** The server as servers.json configures it. */
  summary: ServerSummary;
  /** Its live status, or undefined while none has been reported. */
  status: ServerStatus | undefined;
};

export default function ServerOverview({ summary, status }: ServerOverviewProps) {
  const ready = status?.state === "ready" ? status : null;
  return (
    // Two facts a row, so the tool list stays in view at 1024×768; the command or URL gets a row of its own.
    <div className="rounded-lg border border-line bg-surface px-5 py-3">
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)_max-content_minmax(0,1fr)] gap-x-6 gap-y-1.5 text-sm">
      <dt className="text-muted">Status</dt>
      <dd>
        <ServerStatusBadge status={status} />
      </dd>
      <dt className="text-muted">Transport</dt>
      <dd>{transportLabel(summary.transport)}</dd>
      <dt className="text-muted">Protocol</dt>
      <dd>{ready === null ? <NotReady /> : protocolLabel(revealHidden(ready.protocolVersion))}</dd>
      <dt className="text-muted">Server</dt>
      <dd className="wrap-anywhere">
        {ready === null ? <NotReady /> : ready.serverName === null ? "Did not say" : revealHidden(ready.serverName)}
      </dd>
      <dt className="text-muted">Origin</dt>
      <dd className="col-span-3 wrap-anywhere">{originLabel(summary.origin) ?? "Added in Plugboard"}</dd>
      <dt className="text-muted">{summary.transport === "stdio" ? "Command" : "URL"}</dt>
      <dd className="col-span-3">
        <code className="font-mono text-[13px] wrap-anywhere">{summary.target}</code>
      </dd>
    </dl>
    <ServerInfoFacts server={summary.name} status={status} />
    </div>
  );
}

/** A dash, named for screen readers, for facts only a ready server reports. */
function NotReady() {
  return (
    <span className="text-muted">
      <span aria-hidden="true">—</span>
      <span className="sr-only">Known once the server is ready</span>
    </span>
  );
}
