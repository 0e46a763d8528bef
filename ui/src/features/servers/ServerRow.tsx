// One server in the Servers table, as its own row group: the server's row and, under it, a failed server's details
// or a login's progress. Every cell renders server-supplied text as plain text.
import { ChevronRight } from "lucide-react";
import { memo, type Ref, useEffect, useId } from "react";
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
export const COLUMNS = 5;

/** Props for {@link ServerRow}. */
type ServerRowProps = {
  /** The configured server. */
  server: ServerSummary;
  /** Its live status, if the backend has reported one. */
  status: ServerStatus | undefined;
  /** Whether a failed server's details are open (kept by the table, so they survive the row scrolling away). */
  detailsOpen: boolean;
  /** Opens or closes the named server's details (one callback for every row, so rows that did not change skip
   * rendering as the list scrolls). */
  onToggleDetails: (server: string) => void;
  /** Told while the row shows a login, so the table keeps the row (and the login's state) mounted. */
  onKeep: (server: string, keep: boolean) => void;
  /** The virtualiser's measuring ref and the row's place in the list (`data-index`). */
  measureRef: Ref<HTMLTableSectionElement>;
  index: number;
};

// Memoised: the virtualiser re-renders the table on every scroll event, and a row whose props did not change (most of
// them) must not re-render with all its hooks each time.
const ServerRow = memo(function ServerRow({
  server,
  status,
  detailsOpen,
  onToggleDetails,
  onKeep,
  measureRef,
  index,
}: ServerRowProps) {
  const detailsId = useId();
  const failed = status?.state === "failed" ? status : null;
  // The login lives with the row, so its progress survives the status changes it causes.
  const login = useLogin(server.name);
  // Waiting is shown only while the server still needs the login: once the redirect arrived it is connecting.
  const loginShown =
    (login.phase === "waiting" && status?.state === "needsLogin") || login.phase === "failed";
  const open = failed !== null && detailsOpen;
  const belowRow = open || loginShown;

  useEffect(() => {
    if (!loginShown) return;
    onKeep(server.name, true);
    return () => onKeep(server.name, false);
  }, [loginShown, onKeep, server.name]);

  return (
    <tbody ref={measureRef} data-index={index} data-server={server.name}>
      {/* An open details row belongs to this row, so no rule between them. */}
      <tr className={`align-top ${belowRow ? "" : "border-b border-line"}`}>
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
              onClick={() => onToggleDetails(server.name)}
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
        <tr id={detailsId} className="border-b border-line">
          <td colSpan={COLUMNS} className="px-4 pt-0 pb-3">
            <FailureDetails server={server.name} error={failed.error} stderrTail={failed.stderrTail} />
          </td>
        </tr>
      )}
      {loginShown && (
        <tr className="border-b border-line">
          <td colSpan={COLUMNS} className="px-4 pt-0 pb-3">
            <LoginPanel server={server.name} login={login} />
          </td>
        </tr>
      )}
    </tbody>
  );
});

export default ServerRow;

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
