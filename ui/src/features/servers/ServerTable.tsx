// The configured servers as a table with each one's live status and action. Every cell renders server-supplied text as plain text.
import { ChevronRight } from "lucide-react";
import { Fragment, useId, useState } from "react";
import { Link } from "react-router";
import type { ServerStatus, ServerSummary } from "../../ipc/bindings";
import LoginPanel from "../auth/LoginPanel";
import { useLogin } from "../auth/useLogin";
import FailureDetails from "./FailureDetails";
import { originLabel } from "./originLabel";
import RemoveServerAction from "./RemoveServerAction";
import ServerActions from "./ServerActions";
import ServerStatusBadge from "./ServerStatusBadge";
import { transportLabel } from "./transportLabel";

/** Number of columns, so a details row can span them all. */
const COLUMNS = 5;

/** Props for {@link ServerTable}. */
type ServerTableProps = {
  /** The servers to list, in config order. */
  servers: ServerSummary[];
  /** Live status by server name; undefined while loading (or when unavailable), and a server may have none yet. */
  statuses: ReadonlyMap<string, ServerStatus> | undefined;
};

export default function ServerTable({ servers, statuses }: ServerTableProps) {
  return (
    <div className="overflow-hidden rounded-lg border border-line bg-surface">
      <table className="w-full table-fixed border-collapse text-left text-sm">
        <caption className="sr-only">Configured servers</caption>
        {/* The connection (command or URL) takes what is left: it is the longest text and wraps anywhere. */}
        <colgroup>
          <col className="w-[15%]" />
          <col />
          <col className="w-28" />
          <col className="w-52" />
          <col className="w-36" />
        </colgroup>
        <thead className="border-b border-line text-xs font-medium text-muted">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">Name</th>
            <th scope="col" className="px-4 py-2 font-medium">Connection</th>
            <th scope="col" className="px-4 py-2 font-medium">Origin</th>
            <th scope="col" className="px-4 py-2 font-medium">Status</th>
            <th scope="col" className="px-4 py-2 font-medium">Actions</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((server) => (
            <ServerRow key={server.name} server={server} status={statuses?.get(server.name)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Props for {@link ServerRow}. */
type ServerRowProps = {
  /** The configured server. */
  server: ServerSummary;
  /** Its live status, if the backend has reported one. */
  status: ServerStatus | undefined;
};

/**
 * One server's row; for a failed server, a details row that its disclosure button opens; for a login waiting for the
 * browser (or failed), a row with its progress.
 */
function ServerRow({ server, status }: ServerRowProps) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const failed = status?.state === "failed" ? status : null;
  // The login lives with the row, so its progress survives the status changes it causes.
  const login = useLogin(server.name);
  // Waiting is shown only while the server still needs the login: once the redirect arrived it is connecting.
  const loginShown =
    (login.phase === "waiting" && status?.state === "needsLogin") || login.phase === "failed";
  const belowRow = (failed !== null && open) || loginShown;

  return (
    <Fragment>
      {/* An open details row belongs to this row, so no rule between them. */}
      <tr className={`align-top ${belowRow ? "" : "border-b border-line last:border-b-0"}`}>
        <th scope="row" className="px-4 py-2.5 font-medium wrap-anywhere">
          {/* The server's own page (status, tools and allowlist, config); a link, so Tab and Enter reach it. */}
          <Link to={`/servers/${encodeURIComponent(server.name)}`} className="rounded text-accent hover:underline">
            {server.name}
          </Link>
        </th>
        <td className="px-4 py-2.5">
          <span className="block text-xs text-muted">{transportLabel(server.transport)}</span>
          <code className="font-mono text-[13px] wrap-anywhere">{server.target}</code>
        </td>
        <td className="px-4 py-2.5 wrap-anywhere">
          <Origin origin={server.origin} />
        </td>
        <td className="px-4 py-2.5">
          <ServerStatusBadge status={status} />
          {failed !== null && (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={detailsId}
              onClick={() => setOpen(!open)}
              className="mt-0.5 flex items-center gap-1 rounded text-xs text-muted hover:text-fg"
            >
              <ChevronRight size={12} aria-hidden="true" className={open ? "rotate-90" : undefined} />
              Details{" "}
              <span className="sr-only">for {server.name}</span>
            </button>
          )}
        </td>
        <td className="px-4 py-2.5">
          <ServerActions server={server.name} status={status} oauth={server.oauth} login={login} />
          <RemoveServerAction server={server.name} />
        </td>
      </tr>
      {failed !== null && open && (
        <tr id={detailsId} className="border-b border-line last:border-b-0">
          <td colSpan={COLUMNS} className="px-4 pt-0 pb-3">
            <FailureDetails server={server.name} error={failed.error} stderrTail={failed.stderrTail} />
          </td>
        </tr>
      )}
      {loginShown && (
        <tr className="border-b border-line last:border-b-0">
          <td colSpan={COLUMNS} className="px-4 pt-0 pb-3">
            <LoginPanel server={server.name} login={login} />
          </td>
        </tr>
      )}
    </Fragment>
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
