// A small coloured label naming what importing an entry would do: new, identical, conflict or invalid.
import type { EntryOutcome } from "../../ipc/bindings";

const STYLES: Record<EntryOutcome["kind"], { label: string; className: string }> = {
  new: { label: "New", className: "bg-accent-soft text-accent" },
  identical: { label: "Identical", className: "bg-canvas text-muted" },
  conflict: { label: "Conflict", className: "bg-warn-soft text-warn" },
  invalid: { label: "Invalid", className: "bg-danger-soft text-danger" },
};

/** Props for {@link OutcomeBadge}. */
type OutcomeBadgeProps = {
  /** The entry's outcome kind. */
  kind: EntryOutcome["kind"];
};

export default function OutcomeBadge({ kind }: OutcomeBadgeProps) {
  const { label, className } = STYLES[kind];
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${className}`}>{label}</span>;
}
