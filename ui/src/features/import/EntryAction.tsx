// What applying does with one entry of the review: a new entry is a tickbox (ticked: it is added), a conflict a
// labelled choice, the others a fixed word; an entry left out with its file or by Local only says so instead.
import { useId } from "react";
import type { ConflictChoice, EntryPlan } from "../../ipc/bindings";
import type { LeftOutReason } from "./plan";

/** Props for {@link EntryAction}. */
type EntryActionProps = {
  /** The entry. */
  entry: EntryPlan;
  /** The client it comes from ("Cursor"). */
  clientLabel: string;
  /** The conflict choice made for it (the default when none was). */
  choice: ConflictChoice;
  /** Why it is left out, or null when it is in. */
  leftOut: LeftOutReason | null;
  /** Called with a new conflict choice. */
  onChoose: (choice: ConflictChoice) => void;
  /** Called when the person ticks (true) or unticks (false) a new entry. */
  onTick: (on: boolean) => void;
  /** Makes everything read-only (while applying). */
  disabled: boolean;
};

/** What each conflict choice does, in words, under the choice. */
const HINTS: Record<ConflictChoice, (client: string) => string> = {
  skip: () => "Plugboard's stays as it is.",
  overwrite: (client) => `${client}'s replaces Plugboard's.`,
  rename: (client) => `${client}'s is added under a new name.`,
};

/** Why an entry is left out by something above it (its own untick needs no words: its box shows it). */
const LEFT_OUT_BY: Record<Exclude<LeftOutReason, "entry">, string> = {
  file: "Left out with its file.",
  remote: "Left out: a remote server, and Local only is on.",
};

export default function EntryAction({ entry, clientLabel, choice, leftOut, onChoose, onTick, disabled }: EntryActionProps) {
  const hintId = useId();
  // Only the entry's own untick can be undone here; a file's or Local only's is undone where it was made.
  const lockedOut = leftOut === "file" || leftOut === "remote";
  const hint = lockedOut ? LEFT_OUT_BY[leftOut] : null;
  switch (entry.outcome.kind) {
    case "new":
      return (
        <>
          <label className="inline-flex items-center gap-1.5">
            <input
              type="checkbox"
              checked={leftOut === null}
              disabled={disabled || lockedOut}
              aria-describedby={hint === null ? undefined : hintId}
              onChange={(event) => onTick(event.target.checked)}
            />
            {/* Named "Add github": the visible word first (WCAG 2.5.3), then whose box it is. */}
            Add <span className="sr-only">{entry.name}</span>
          </label>
          {hint !== null && (
            <p id={hintId} className="mt-1 text-xs text-muted">
              {hint}
            </p>
          )}
        </>
      );
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
              // Left out by its file or Local only, it is skipped whatever was picked; the pick comes back with it.
              value={lockedOut ? "skip" : choice}
              disabled={disabled || lockedOut}
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
            {hint ?? HINTS[choice](clientLabel)}
          </p>
        </>
      );
  }
}
