// Rows of name + value (+ "secret") for a new server's environment variables or headers. A secret row's value is
// typed into a password field and goes to the keychain; the entry shows only its `${secret:NAME}` reference.
import { Plus, X } from "lucide-react";
import { secretName, type NamedValue } from "./newEntry";

/** Props for {@link NamedValuesEditor}. */
type NamedValuesEditorProps = {
  /** What the rows are, as a heading and in each field's name: "Environment variables", "Headers". */
  legend: string;
  /** What one row is called: "variable", "header". */
  noun: string;
  rows: NamedValue[];
  onChange: (rows: NamedValue[]) => void;
  /** A name to show in an empty name field. */
  namePlaceholder: string;
};

const FIELD = "min-w-0 rounded-md border border-line bg-surface px-2 py-1 font-mono text-[13px]";

export default function NamedValuesEditor({ legend, noun, rows, onChange, namePlaceholder }: NamedValuesEditorProps) {
  const change = (index: number, patch: Partial<NamedValue>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="flex flex-col gap-1.5 text-sm">
      <legend className="mb-1">
        {legend} <span className="text-muted">(optional)</span>
      </legend>
      {rows.map((row, index) => (
        <div key={index} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)_max-content_max-content] items-center gap-2">
          <input
            aria-label={`${noun} ${index + 1} name`}
            value={row.name}
            onChange={(event) => change(index, { name: event.target.value })}
            placeholder={namePlaceholder}
            spellCheck={false}
            autoComplete="off"
            className={FIELD}
          />
          <input
            aria-label={`${noun} ${index + 1} value`}
            type={row.secret ? "password" : "text"}
            value={row.value}
            onChange={(event) => change(index, { value: event.target.value })}
            spellCheck={false}
            autoComplete="off"
            className={FIELD}
          />
          <label className="flex items-center gap-1 text-xs whitespace-nowrap">
            <input type="checkbox" checked={row.secret} onChange={(event) => change(index, { secret: event.target.checked })} />
            Secret
          </label>
          <button
            type="button"
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
            aria-label={`Remove ${noun} ${index + 1}`}
            className="rounded p-1 text-muted hover:bg-canvas hover:text-danger"
          >
            <X size={14} aria-hidden="true" />
          </button>
          {row.secret && row.name.trim() !== "" && (
            <p className="col-span-4 text-xs text-muted">
              Kept in the keychain as <code className="font-mono">{secretName(row.name)}</code>; servers.json gets only{" "}
              <code className="font-mono">{`\${secret:${secretName(row.name)}}`}</code>.
            </p>
          )}
        </div>
      ))}
      <button
        type="button"
        onClick={() => onChange([...rows, { name: "", value: "", secret: false }])}
        className="inline-flex w-fit items-center gap-1 rounded-md px-1 text-sm text-accent hover:underline"
      >
        <Plus size={14} aria-hidden="true" />
        Add {noun}
      </button>
    </fieldset>
  );
}
