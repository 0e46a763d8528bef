// How Plugboard read keys other clients write (`disabled`, `timeout`, …) and which keys it does not know, per entry,
// so no key of the person's file is ignored unseen; every string stays plain text.
import type { ServerSummary } from "../../ipc/bindings";
import { sentenceStart } from "./sentenceStart";

/** Props for {@link EntryNotes}. */
type EntryNotesProps = {
  /** The usable servers; only those with notes are listed (the section is hidden when none has any). */
  servers: ServerSummary[];
};

export default function EntryNotes({ servers }: EntryNotesProps) {
  const noted = servers.flatMap((server) => server.notes.map((note) => ({ server: server.name, note })));
  if (noted.length === 0) return null;
  return (
    <section aria-labelledby="servers-notes-title" className="mt-6">
      <h2 id="servers-notes-title" className="mb-1 text-base font-semibold">
        Notes on the config file
      </h2>
      <p className="mb-3 text-muted">These keys are kept in the file as written; this is how Plugboard reads them.</p>
      <ul className="divide-y divide-line rounded-lg border border-line bg-surface text-sm">
        {noted.map(({ server, note }, index) => (
          // One server can have several notes, so the index keeps keys unique.
          <li key={`${index}:${server}`} className="px-4 py-2.5">
            <span className="font-medium wrap-anywhere">{server}</span>
            <span className="text-muted"> · </span>
            <span className="wrap-anywhere">{sentenceStart(note)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
