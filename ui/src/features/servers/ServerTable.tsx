// The configured servers as a table. Every cell renders server-supplied text as plain text.
import type { ServerSummary } from "../../ipc/bindings";
import { originLabel } from "./originLabel";
import { transportLabel } from "./transportLabel";

/** Props for {@link ServerTable}. */
type ServerTableProps = {
  /** The servers to list, in config order. */
  servers: ServerSummary[];
};

export default function ServerTable({ servers }: ServerTableProps) {
  return (
    <div className="overflow-hidden rounded-lg border border-line bg-surface">
      <table className="w-full table-fixed border-collapse text-left text-sm">
        <caption className="sr-only">Configured servers</caption>
        <colgroup>
          <col className="w-[22%]" />
          <col className="w-44" />
          <col />
          <col className="w-48" />
          <col className="w-30" />
        </colgroup>
        <thead className="border-b border-line text-xs font-medium text-muted">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">Name</th>
            <th scope="col" className="px-4 py-2 font-medium">Transport</th>
            <th scope="col" className="px-4 py-2 font-medium">Target</th>
            <th scope="col" className="px-4 py-2 font-medium">Origin</th>
            <th scope="col" className="px-4 py-2 font-medium">Status</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((server) => (
            <tr key={server.name} className="border-b border-line last:border-b-0 align-top">
              <th scope="row" className="px-4 py-2.5 font-medium wrap-anywhere">{server.name}</th>
              <td className="px-4 py-2.5">{transportLabel(server.transport)}</td>
              <td className="px-4 py-2.5">
                <code className="font-mono text-[13px] wrap-anywhere text-muted">{server.target}</code>
              </td>
              <td className="px-4 py-2.5 wrap-anywhere">
                <Origin origin={server.origin} />
              </td>
              <td className="px-4 py-2.5">
                <EnabledBadge enabled={server.enabled} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Props for {@link Origin}. */
type OriginProps = {
  /** The client id the server was imported from, or null when it was not imported. */
  origin: string | null;
};

/** "Imported from Cursor", or a dash (named "Not imported" for screen readers) when there is no origin. */
function Origin({ origin }: OriginProps) {
  const label = originLabel(origin);
  if (label !== null) return <>{label}</>;
  return (
    <span className="text-muted">
      <span aria-hidden="true">—</span>
      <span className="sr-only">Not imported</span>
    </span>
  );
}

/** Props for {@link EnabledBadge}. */
type EnabledBadgeProps = {
  /** Whether the config enables this server. */
  enabled: boolean;
};

/** "Enabled" / "Disabled" as words (not colour alone), with a status dot. */
function EnabledBadge({ enabled }: EnabledBadgeProps) {
  return (
    <span className={`inline-flex items-center gap-1.5 whitespace-nowrap ${enabled ? "text-ok" : "text-muted"}`}>
      <span aria-hidden="true" className={`size-1.5 rounded-full ${enabled ? "bg-ok" : "bg-muted"}`} />
      {enabled ? "Enabled" : "Disabled"}
    </span>
  );
}
