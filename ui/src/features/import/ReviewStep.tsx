// Step 2 of the import wizard: every entry of every found file with its outcome, details and action — a tickbox for
// a new entry, the person's choice for a conflict — and a tickbox per file to leave a whole file out. A handful of
// entries per file, so a plain table (no virtualisation) reads and navigates best.
import type { ConflictChoice, EntryPlan, FilePlan } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import EntryAction from "./EntryAction";
import EntryDetails from "./EntryDetails";
import OutcomeBadge from "./OutcomeBadge";
import { type Choices, choiceOf, type LeftOut, leftOutBy, type LeftOutReason, writes } from "./plan";

/** Props for {@link ReviewStep}. */
type ReviewStepProps = {
  /** The plan's files, each with its entries. */
  files: FilePlan[];
  /** The person's conflict choices so far, by entry name. */
  choices: Choices;
  /** The files and entries the person left out, and whether Local only is on. */
  leftOut: LeftOut;
  /** Called when the person picks what to do with the conflicting entry `name` of the file at `path`. */
  onChoose: (path: string, name: string, choice: ConflictChoice) => void;
  /** Called when the person ticks (true) or unticks the file at `path` (`name` null) or its entry `name`. */
  onTick: (path: string, name: string | null, on: boolean) => void;
  /** True while the import is being applied: the choices are then read-only. */
  disabled: boolean;
};

export default function ReviewStep({ files, ...rest }: ReviewStepProps) {
  return (
    <div className="flex flex-col gap-5">
      {files.map((file) => (
        <FileReview key={file.path} file={file} {...rest} />
      ))}
    </div>
  );
}

/** Props for {@link FileReview}. */
type FileReviewProps = Omit<ReviewStepProps, "files"> & {
  /** One source file and its entries. */
  file: FilePlan;
};

function FileReview({ file, choices, leftOut, onChoose, onTick, disabled }: FileReviewProps) {
  const label = `${file.clientLabel} — ${file.path}`;
  const ticked = !leftOut.files.has(file.path);
  return (
    <section aria-label={label} className="overflow-hidden rounded-lg border border-line bg-surface">
      <header className="flex flex-wrap items-baseline gap-x-3 border-b border-line px-4 py-2.5">
        <h3 className="font-semibold">{file.clientLabel}</h3>
        <code className="min-w-0 flex-1 font-mono text-[13px] text-muted wrap-anywhere">{revealHidden(file.path)}</code>
        {file.error === null && file.entries.length > 0 && (
          <label className="inline-flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={ticked}
              disabled={disabled}
              onChange={(event) => onTick(file.path, null, event.target.checked)}
            />
            {/* Named by the visible words first (WCAG 2.5.3), then the file, as two files may share a client. */}
            Import this file <span className="sr-only">{file.path}</span>
          </label>
        )}
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
                leftOut={leftOutBy(leftOut, file.path, entry)}
                writes={writes(file.path, entry, choices, leftOut)}
                onChoose={(choice) => onChoose(file.path, entry.name, choice)}
                onTick={(on) => onTick(file.path, entry.name, on)}
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
  /** Why it is left out, or null when it is in. */
  leftOut: LeftOutReason | null;
  /** Whether applying writes it (its secrets then move). */
  writes: boolean;
  /** Called with a new choice for this entry. */
  onChoose: (choice: ConflictChoice) => void;
  /** Called when the entry is ticked or unticked. */
  onTick: (on: boolean) => void;
  /** Makes the choice read-only. */
  disabled: boolean;
};

function EntryRow({ entry, clientLabel, writes, ...action }: EntryRowProps) {
  return (
    // A left-out entry is dimmed, and its action says why (never the dimming alone).
    <tr className={`border-b border-line align-top last:border-b-0 ${action.leftOut === null ? "" : "text-muted"}`}>
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
        <EntryDetails entry={entry} clientLabel={clientLabel} writes={writes} />
      </td>
      <td className="px-4 py-2.5">
        <EntryAction entry={entry} clientLabel={clientLabel} {...action} />
      </td>
    </tr>
  );
}
