// Step 2 of the import wizard: every entry of every found file with its outcome, details and, for a conflict, the
// person's choice. A handful of entries per file, so a plain table (no virtualisation) reads and navigates best.
import { useId } from "react";
import type { ConflictChoice, EntryPlan, FilePlan } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import EntryDetails from "./EntryDetails";
import OutcomeBadge from "./OutcomeBadge";
import { type Choices, choiceOf } from "./plan";

/** Props for {@link ReviewStep}. */
type ReviewStepProps = {
  /** The plan's files, each with its entries. */
  files: FilePlan[];
  /** The person's conflict choices so far, by entry name. */
  choices: Choices;
  /** Called when the person picks what to do with the conflicting entry `name` of the file at `path`. */
  onChoose: (path: string, name: string, choice: ConflictChoice) => void;
  /** True while the import is being applied: the choices are then read-only. */
  disabled: boolean;
};

export default function ReviewStep({ files, choices, onChoose, disabled }: ReviewStepProps) {
  return (
    <div className="flex flex-col gap-5">
      {files.map((file) => (
        <FileReview key={file.path} file={file} choices={choices} onChoose={onChoose} disabled={disabled} />
      ))}
    </div>
  );
}

/** Props for {@link FileReview}. */
type FileReviewProps = Omit<ReviewStepProps, "files"> & {
  /** One source file and its entries. */
  file: FilePlan;
};

function FileReview({ file, choices, onChoose, disabled }: FileReviewProps) {
  const label = `${file.clientLabel} — ${file.path}`;
  return (
    <section aria-label={label} className="overflow-hidden rounded-lg border border-line bg-surface">
      <header className="flex flex-wrap items-baseline gap-x-3 border-b border-line px-4 py-2.5">
        <h3 className="font-semibold">{file.clientLabel}</h3>
        <code className="font-mono text-[13px] text-muted wrap-anywhere">{revealHidden(file.path)}</code>
      </header>
      {file.error !== null ? (
        <p className="px-4 py-3 text-danger wrap-anywhere">Can't be read: {revealHidden(file.error)}</p>
      ) : file.entries.length === 0 ? (
        <p className="px-4 py-3 text-muted">This file declares no servers.</p>
      ) : (
        <table className="w-full table-fixed border-collapse text-left text-sm">
          <caption className="sr-only">Entries of {label}</caption>
          <colgroup>
            <col className="w-[19%]" />
            <col className="w-24" />
            <col />
            <col className="w-52" />
          </colgroup>
          <thead className="border-b border-line text-xs text-muted">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">Server</th>
              <th scope="col" className="px-2 py-2 font-medium">Outcome</th>
              <th scope="col" className="px-2 py-2 font-medium">Details</th>
              <th scope="col" className="px-4 py-2 font-medium">Action</th>
            </tr>
          </thead>
          <tbody>
            {file.entries.map((entry, index) => (
              <EntryRow
                // Source names repeat across scopes of one file (Claude Code projects), so the position is part of the key.
                key={`${index}:${entry.sourceName}`}
                entry={entry}
                clientLabel={file.clientLabel}
                choice={choiceOf(choices, file.path, entry.name)}
                onChoose={(choice) => onChoose(file.path, entry.name, choice)}
                disabled={disabled}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Props for {@link EntryRow}. */
type EntryRowProps = {
  /** The entry. */
  entry: EntryPlan;
  /** The client it comes from. */
  clientLabel: string;
  /** The current choice, used when the entry is a conflict. */
  choice: ConflictChoice;
  /** Called with a new choice for this entry. */
  onChoose: (choice: ConflictChoice) => void;
  /** Makes the choice read-only. */
  disabled: boolean;
};

function EntryRow({ entry, clientLabel, choice, onChoose, disabled }: EntryRowProps) {
  return (
    <tr className="border-b border-line align-top last:border-b-0">
      <th scope="row" className="px-4 py-2.5 font-medium wrap-anywhere">
        {revealHidden(entry.name)}
        {entry.sourceName !== entry.name && (
          <span className="block text-xs font-normal text-muted">was {revealHidden(entry.sourceName)}</span>
        )}
        {entry.scope !== null && (
          <span className="block text-xs font-normal text-muted">{revealHidden(entry.scope)}</span>
        )}
      </th>
      <td className="px-2 py-2.5">
        <OutcomeBadge kind={entry.outcome.kind} />
      </td>
      <td className="px-2 py-2.5">
        <EntryDetails entry={entry} clientLabel={clientLabel} />
      </td>
      <td className="px-4 py-2.5">
        <EntryAction entry={entry} clientLabel={clientLabel} choice={choice} onChoose={onChoose} disabled={disabled} />
      </td>
    </tr>
  );
}

/** What each conflict choice does, in words, under the choice. */
const HINTS: Record<ConflictChoice, (client: string) => string> = {
  skip: () => "Plugboard's stays as it is.",
  overwrite: (client) => `${client}'s replaces Plugboard's.`,
  rename: (client) => `${client}'s is added under a new name.`,
};

/** What applying does with the entry: a fixed word, or for a conflict a labelled choice with what it does. */
function EntryAction({ entry, clientLabel, choice, onChoose, disabled }: EntryRowProps) {
  const hintId = useId();
  switch (entry.outcome.kind) {
    case "new":
      return <span>Add</span>;
    case "identical":
      return <span className="text-muted">Nothing to do</span>;
    case "invalid":
      return <span className="text-muted">Not imported</span>;
    case "conflict":
      return (
        <>
          <label className="block">
            <span className="sr-only">What to do with {entry.name}</span>
            <select
              value={choice}
              disabled={disabled}
              aria-describedby={hintId}
              onChange={(event) => onChoose(event.target.value as ConflictChoice)}
              className="w-full rounded-md border border-line bg-surface px-2 py-1 text-sm"
            >
              <option value="skip">Skip</option>
              <option value="overwrite">Overwrite</option>
              <option value="rename">Keep both</option>
            </select>
          </label>
          <p id={hintId} className="mt-1 text-xs text-muted">
            {HINTS[choice](clientLabel)}
          </p>
        </>
      );
  }
}
