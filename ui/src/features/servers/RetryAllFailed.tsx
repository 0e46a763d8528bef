// "Retry all failed": connects every failed server again (connect_server for each) and says how many it retried and
// which of them the backend refused, with the refusal as inert text.
import { useMutation } from "@tanstack/react-query";
import { LoaderCircle, RotateCw } from "lucide-react";
import { commands } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { revealHidden } from "./revealHidden";
import { sentenceStart } from "./sentenceStart";

/** Props for {@link RetryAllFailed}. */
type RetryAllFailedProps = {
  /** The servers whose live status is failed, all of them (whatever the table's filter shows). */
  failed: string[];
};

/** What one press did: how many servers it asked to connect and the ones whose connect_server failed. */
type Outcome = { tried: number; refused: { server: string; message: string }[] };

/** "1 failed server" / "17 failed servers". */
function failedServersText(n: number): string {
  return n === 1 ? "1 failed server" : `${n} failed servers`;
}

export default function RetryAllFailed({ failed }: RetryAllFailedProps) {
  // No cache update on success: each server's status events bring it to connecting and on.
  const retry = useMutation({
    mutationFn: async (servers: string[]): Promise<Outcome> => {
      // connect_server only hands the server's actor a command, so asking for all of them at once is cheap.
      const results = await Promise.allSettled(servers.map((server) => call(commands.connectServer(server))));
      const refused = results.flatMap((result, index) =>
        result.status === "rejected"
          ? [{ server: servers[index] ?? "", message: result.reason instanceof Error ? result.reason.message : String(result.reason) }]
          : [],
      );
      return { tried: servers.length, refused };
    },
  });
  // Stays in place (marked unavailable) when nothing failed, so focus is not lost as the retried servers recover.
  const unavailable = failed.length === 0 || retry.isPending;

  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        onClick={unavailable ? undefined : () => retry.mutate(failed)}
        aria-disabled={unavailable}
        className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-3 py-1 text-sm whitespace-nowrap hover:bg-canvas aria-disabled:opacity-60"
      >
        {retry.isPending ? (
          <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />
        ) : (
          <RotateCw size={14} aria-hidden="true" />
        )}
        Retry all failed{failed.length > 0 && ` (${failed.length})`}
      </button>
      {/* Always in the DOM, so screen readers hear what a press did when its words arrive. */}
      <div role="status" className="max-w-md text-right text-xs text-muted wrap-anywhere">
        {retry.isPending && `Retrying ${failedServersText(retry.variables.length)}…`}
        {retry.isSuccess && <OutcomeText outcome={retry.data} />}
      </div>
    </div>
  );
}

/** "Retried 17 failed servers.", or "Retried 15 of 17 failed servers" and each refused one with why. */
function OutcomeText({ outcome }: { outcome: Outcome }) {
  const { tried, refused } = outcome;
  if (refused.length === 0) return <>Retried {failedServersText(tried)}.</>;
  return (
    <>
      Retried {tried - refused.length} of {failedServersText(tried)}; not retried:
      <ul className="text-danger">
        {refused.map(({ server, message }) => (
          <li key={server}>
            {revealHidden(server)}: {revealHidden(sentenceStart(message))}
          </li>
        ))}
      </ul>
    </>
  );
}
