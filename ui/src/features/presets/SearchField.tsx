// A search box with its icon and a label for screen readers: the catalog's filter and the registry's query.
import { Search } from "lucide-react";

/** Props for {@link SearchField}. */
type SearchFieldProps = {
  /** The accessible name, e.g. "Search presets". */
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** Extra classes for the box (its width and margins). */
  className?: string;
};

export default function SearchField({ label, value, onChange, placeholder, className = "" }: SearchFieldProps) {
  return (
    <label className={`flex items-center gap-2 rounded-md border border-line bg-surface px-2.5 py-1.5 ${className}`}>
      <Search size={16} aria-hidden="true" className="text-muted" />
      <span className="sr-only">{label}</span>
      <input
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className="w-full bg-transparent text-sm outline-none"
      />
    </label>
  );
}
