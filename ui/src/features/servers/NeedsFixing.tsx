// The entries of servers.json that fail validation, each with its field and why; every string stays plain text.
import { Link } from "react-router";
import type { InvalidServer } from "../../ipc/bindings";
import { sentenceStart } from "./sentenceStart";

/** Props for {@link NeedsFixing}. */
type NeedsFixingProps = {
  /** The invalid entries, in config order; must be non-empty (the caller hides the section otherwise). */
  invalid: InvalidServer[];
};

export default function NeedsFixing({ invalid }: NeedsFixingProps) {
  return (
    <section aria-labelledby="servers-invalid-title" className="mt-6">
      <h2 id="servers-invalid-title" className="mb-1 text-base font-semibold">
        Needs fixing
      </h2>
      <p className="mb-3 text-muted">These entries are not used until they are fixed in the config file.</p>
      <ul className="divide-y divide-line rounded-lg border border-line bg-surface text-sm">
        {invalid.map((entry, index) => (
          // Names can repeat (one entry may fail on several fields), so the index keeps keys unique.
          <li key={`${index}:${entry.name}`} className="px-4 py-2.5">
            <span className="font-medium wrap-anywhere">{entry.name}</span>
            <span className="text-muted"> · </span>
            <code className="font-mono text-[13px] wrap-anywhere text-muted">{entry.field}</code>
            <p className="mt-0.5 wrap-anywhere">{sentenceStart(entry.message)}</p>
            {/* The server's page edits the entry as JSON; a bad name needs a rename, which that editor cannot do. */}
            {entry.field !== "name" && (
              <Link
                to={`/servers/${encodeURIComponent(entry.name)}`}
                className="mt-1 inline-block rounded text-xs text-accent hover:underline"
              >
                Edit the entry <span className="sr-only">{entry.name}</span>
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
