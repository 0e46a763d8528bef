// The Tools tab of a server's page: loads the allowlist view and hands it to the editor, or says why it cannot.
// While the server restarts (a save restarts it), the tools as last seen stay on screen instead of vanishing.
import { useState } from "react";
import type { AllowlistView } from "../../../ipc/bindings";
import { revealHidden } from "../revealHidden";
import ToolChangesPanel from "../../trust/ToolChangesPanel";
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
  const [lastSeen, setLastSeen] = useState<AllowlistView | null>(null);
  const data = allowlist.data;
  if (data !== undefined && data.tools.length > 0 && data !== lastSeen) setLastSeen(data);

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
  // A restarting server has no tools until it is ready again (and its tools are fetched once more); its last list
  // is a better picture than none meanwhile.
  const stale = allowlist.data.tools.length === 0 && lastSeen !== null && (!ready || allowlist.isFetching);
  const withheld = [
    ...allowlist.data.tools.filter((tool) => tool.withheld !== null).map((tool) => tool.name),
    ...allowlist.data.withheldBesidesTools,
  ];
  return (
    <>
      {withheld.length > 0 && <ToolChangesPanel server={server} withheld={withheld} />}
      {stale && (
        <p role="status" className="mb-3 text-sm text-muted">
          Waiting for the server's tools; they are shown as last seen.
        </p>
      )}
      <AllowlistEditor server={server} view={stale ? lastSeen : allowlist.data} ready={ready} />
    </>
  );
}
