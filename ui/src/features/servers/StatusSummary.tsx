// The Servers page's status summary: how many servers are in each live state, each count a toggle button that filters
// the table to that state; pressing it again shows every server again.
import { STATUS_LOOK } from "./statusLook";
import { GROUP_LABELS, GROUPS, type Show, type StatusGroup } from "./triage";

/** Props for {@link StatusSummary}. */
type StatusSummaryProps = {
  /** How many are in each group. */
  counts: Record<StatusGroup, number>;
  /** The filter in force: its button is pressed. */
  show: Show;
  /** Sets the filter. */
  onShow: (show: Show) => void;
};

export default function StatusSummary({ counts, show, onShow }: StatusSummaryProps) {
  return (
    <div role="group" aria-label="Servers by status" className="flex flex-wrap gap-1">
      {GROUPS.map((group) => (
        <Count
          key={group}
          group={group}
          label={GROUP_LABELS[group]}
          count={counts[group]}
          pressed={show === group}
          onPress={() => onShow(show === group ? "all" : group)}
        />
      ))}
    </div>
  );
}

/** Props for {@link Count}. */
type CountProps = {
  /** The group counted. */
  group: StatusGroup;
  /** The group's name, shown before the count (so the button's name reads "Failed 17"). */
  label: string;
  count: number;
  /** Whether the table is filtered to this group. */
  pressed: boolean;
  onPress: () => void;
};

/** One count as a toggle button, with the group's icon and colour next to its words (never colour alone). */
function Count({ group, label, count, pressed, onPress }: CountProps) {
  const { icon: Icon, className } = STATUS_LOOK[group];
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onPress}
      className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-sm hover:bg-canvas aria-pressed:border-accent aria-pressed:bg-accent-soft ${
        count === 0 && !pressed ? "border-line text-muted" : "border-line bg-surface"
      }`}
    >
      {/* The summary never spins: it counts, it does not announce progress. */}
      <Icon size={14} aria-hidden="true" className={count === 0 ? "text-muted" : className} />
      {label}{" "}
      <span className="font-semibold tabular-nums">{count}</span>
    </button>
  );
}
