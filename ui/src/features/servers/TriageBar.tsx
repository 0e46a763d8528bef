// The Servers page's triage controls above the table: search (name, command or URL), which servers to show and
// their order.
import { Search } from "lucide-react";
import { GROUP_LABELS, GROUPS, type Show, type SortBy, type Triage } from "./triage";

const FIELD = "rounded-md border border-line bg-surface px-2 py-1 text-sm";

/** Props for {@link TriageBar}. */
type TriageBarProps = {
  /** The search, filter and order on screen. */
  triage: Triage;
  /** Changes any of them. */
  onChange: (change: Partial<Triage>) => void;
};

export default function TriageBar({ triage, onChange }: TriageBarProps) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
      <label className="flex min-w-48 flex-1 items-center gap-2 rounded-md border border-line bg-surface px-2.5 py-1">
        <Search size={16} aria-hidden="true" className="text-muted" />
        <span className="sr-only">Search servers</span>
        <input
          type="search"
          value={triage.query}
          onChange={(event) => onChange({ query: event.target.value })}
          placeholder="Search by name, command or URL"
          spellCheck={false}
          className="w-full bg-transparent text-sm outline-none"
        />
      </label>
      <label className="flex items-center gap-1.5 text-sm">
        <span className="text-muted">Show</span>
        <select value={triage.show} onChange={(event) => onChange({ show: event.target.value as Show })} className={FIELD}>
          <option value="all">All</option>
          {GROUPS.map((group) => (
            <option key={group} value={group}>
              {GROUP_LABELS[group]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1.5 text-sm">
        <span className="text-muted">Sort by</span>
        <select value={triage.sort} onChange={(event) => onChange({ sort: event.target.value as SortBy })} className={FIELD}>
          <option value="name">Name</option>
          {/* Failed first: what needs the person comes to the top. */}
          <option value="status">Status</option>
        </select>
      </label>
    </div>
  );
}
