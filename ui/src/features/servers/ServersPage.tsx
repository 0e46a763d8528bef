// The Servers page: loading, error, empty and list states of the configured servers with their live status and
// triage (summary, search, filter, sort, retry all failed), one notice when the computer looks offline, plus what
// needs fixing and how keys from other clients were read.
import PageHeader from "../../shell/PageHeader";
import { PAINT_MARKS, usePaintMark } from "../../shell/usePaintMark";
import AddServerButton from "./add/AddServerButton";
import ConfigFileProblem from "./ConfigFileProblem";
import ConfigPath from "./ConfigPath";
import EntryNotes from "./EntryNotes";
import NeedsFixing from "./NeedsFixing";
import OfflineNotice from "./OfflineNotice";
import ServersEmpty from "./ServersEmpty";
import ServersError from "./ServersError";
import TriagedServers from "./TriagedServers";
import { useServers } from "./useServers";
import { useServerStatuses } from "./useServerStatuses";

export default function ServersPage() {
  const query = useServers();
  const statuses = useServerStatuses();
  // The window's cold start ends here: the configured servers (or the empty state) are on screen.
  usePaintMark(PAINT_MARKS.serversPainted, query.isSuccess);

  return (
    <>
      <PageHeader title="Servers" actions={<AddServerButton />} />
      {query.isPending ? (
        <p role="status" className="text-muted">
          Loading servers…
        </p>
      ) : query.isError ? (
        <ServersError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : (
        <>
          {query.data.fileProblem !== null && <ConfigFileProblem problem={query.data.fileProblem} />}
          {query.data.servers.length > 0 && (
            <>
              {statuses.isError && (
                // Plain status text, not an alert: the list itself is fine, only the live column is missing.
                <p role="status" className="mb-3 text-sm text-muted wrap-anywhere">
                  Live status is unavailable: {statuses.error.message}
                </p>
              )}
              {statuses.data !== undefined && <OfflineNotice statuses={statuses.data} />}
              <TriagedServers servers={query.data.servers} statuses={statuses.data} />
            </>
          )}
          {query.data.invalid.length > 0 && <NeedsFixing invalid={query.data.invalid} />}
          <EntryNotes servers={query.data.servers} />
          {/* "No servers yet" would be wrong while entries exist that only need fixing. */}
          {query.data.servers.length === 0 && query.data.invalid.length === 0 ? (
            <ServersEmpty configPath={query.data.configPath} />
          ) : (
            <ConfigPath path={query.data.configPath} className="mt-3" />
          )}
        </>
      )}
    </>
  );
}
