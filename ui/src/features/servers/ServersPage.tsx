// The Servers page: loading, error, empty and list states of the configured servers.
import PageHeader from "../../shell/PageHeader";
import ConfigPath from "./ConfigPath";
import ServersEmpty from "./ServersEmpty";
import ServersError from "./ServersError";
import ServerTable from "./ServerTable";
import { useServers } from "./useServers";

export default function ServersPage() {
  const query = useServers();

  return (
    <>
      <PageHeader title="Servers" />
      {query.isPending ? (
        <p role="status" className="text-muted">
          Loading servers…
        </p>
      ) : query.isError ? (
        <ServersError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : query.data.servers.length === 0 ? (
        <ServersEmpty configPath={query.data.configPath} />
      ) : (
        <>
          <ServerTable servers={query.data.servers} />
          <ConfigPath path={query.data.configPath} className="mt-3" />
        </>
      )}
    </>
  );
}
