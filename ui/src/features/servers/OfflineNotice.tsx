// One notice for many servers that cannot look their hosts up: the computer looks offline. Said once, above the
// table, instead of the same cause on every row.
import { WifiOff } from "lucide-react";
import type { ServerStatus } from "../../ipc/bindings";
import { OFFLINE_THRESHOLD, dnsFailures } from "./offline";

/** Props for {@link OfflineNotice}. */
type OfflineNoticeProps = {
  /** Every server's live status, by name. */
  statuses: ReadonlyMap<string, ServerStatus>;
};

export default function OfflineNotice({ statuses }: OfflineNoticeProps) {
  const failing = dnsFailures(statuses);
  if (failing.length < OFFLINE_THRESHOLD) return null;
  return (
    <section
      role="status"
      aria-labelledby="offline-title"
      className="mb-4 flex gap-3 rounded-md border border-warn/50 bg-warn-soft px-4 py-3 text-sm"
    >
      <WifiOff size={18} aria-hidden="true" className="mt-0.5 shrink-0" />
      <div>
        <h2 id="offline-title" className="font-semibold">
          This computer looks offline
        </h2>
        <p>
          {failing.length} remote servers could not look up their addresses. Check the network connection; they
          reconnect by themselves once it is back.
        </p>
      </div>
    </section>
  );
}
