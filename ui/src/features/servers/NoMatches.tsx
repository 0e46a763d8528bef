// What the Servers table shows when the search and filter leave no server: what was asked for, and a way back to all.
import type { StatusGroup, Triage } from "./triage";

/** Each group as a noun phrase for a sentence ("No failed server matches …"). */
const NOUNS: Record<StatusGroup, string> = {
  failed: "failed server",
  needsApproval: "server awaiting approval",
  needsLogin: "server needing a login",
  keychainLocked: "server waiting for the keychain",
  connecting: "connecting server",
  stopped: "stopped server",
  ready: "ready server",
  disabled: "disabled server",
};

/** Props for {@link NoMatches}. */
type NoMatchesProps = {
  /** The search and filter that matched nothing. */
  triage: Triage;
  /** Clears the search and the filter. */
  onClear: () => void;
};

export default function NoMatches({ triage, onClear }: NoMatchesProps) {
  const search = triage.query.trim();
  const noun = triage.show === "all" ? "server" : NOUNS[triage.show];
  return (
    <div className="rounded-lg border border-dashed border-line bg-surface px-5 py-6 text-center">
      {/* The search is the person's own text, shown as text. */}
      <p className="mb-3 text-muted wrap-anywhere">
        {search === "" ? `There is no ${noun}.` : `No ${noun} matches “${search}”.`}
      </p>
      <button
        type="button"
        onClick={onClear}
        className="rounded-md border border-line bg-surface px-3 py-1 text-sm hover:bg-canvas"
      >
        Show all servers
      </button>
    </div>
  );
}
