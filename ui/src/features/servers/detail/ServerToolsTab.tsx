// The Tools tab of a server's page: loads the allowlist view and hands it to the editor, or says why it cannot.
import { revealHidden } from "../revealHidden";
import AllowlistEditor from "./AllowlistEditor";
import { useAllowlist } from "./useAllowlist";

/** Props for {@link ServerToolsTab}. */
type ServerToolsTabProps = {
  /** The server's name in servers.json. */
  server: string;
  /** Whether the server is ready (its tool list is current). */
  ready: boolean;
};

export default function ServerToolsTab({ server, ready }: ServerToolsTabProps) {
  const allowlist = useAllowlist(server);
  if (allowlist.isPending) {
    return (
      <p role="status" className="text-muted">
        Loading tools…
      </p>
    );
  }
  if (allowlist.isError) {
    return (
      <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 wrap-anywhere">
        Couldn't load the tools: {revealHidden(allowlist.error.message)}
      </p>
    );
  }
  return <AllowlistEditor server={server} view={allowlist.data} ready={ready} />;
}
