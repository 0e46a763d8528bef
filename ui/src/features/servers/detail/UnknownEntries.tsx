// Allowlist entries that match no tool the server offers, each with a way to drop it, and the names that do exist.
import { TriangleAlert, X } from "lucide-react";
import { useId } from "react";
import { revealHidden } from "../revealHidden";

/** Props for {@link UnknownEntries}. */
type UnknownEntriesProps = {
  /** The entries (as written in servers.json) that match no offered tool. */
  entries: readonly string[];
  /** The raw names of the tools the server does offer. */
  available: readonly string[];
  /** Drops an entry from the unsaved allowlist. */
  onRemove: (entry: string) => void;
};

export default function UnknownEntries({ entries, available, onRemove }: UnknownEntriesProps) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 text-sm">
      <h3 id={titleId} className="mb-1 flex items-center gap-1.5 font-medium text-danger">
        <TriangleAlert size={14} aria-hidden="true" />
        {entries.length === 1 ? "1 allowlist entry matches no tool" : `${entries.length} allowlist entries match no tool`}
      </h3>
      <ul className="mb-2 flex flex-wrap gap-1.5">
        {entries.map((entry) => (
          <li key={entry} className="inline-flex items-center gap-1 rounded border border-line bg-surface py-0.5 pr-1 pl-2">
            <code className="font-mono text-[13px] wrap-anywhere">{revealHidden(entry)}</code>
            <button
              type="button"
              onClick={() => onRemove(entry)}
              className="rounded p-0.5 text-muted hover:bg-canvas hover:text-fg"
            >
              <X size={12} aria-hidden="true" />
              <span className="sr-only">Remove {revealHidden(entry)} from the allowlist</span>
            </button>
          </li>
        ))}
      </ul>
      <p className="text-muted wrap-anywhere">
        {available.length === 0 ? "The server offers no tools." : `The server offers: ${available.map(revealHidden).join(", ")}.`}
      </p>
    </section>
  );
}
