// Pure helpers over an import plan: counting outcomes, what the person left out, what applying would write (and the
// secrets that would move), the choices sent to apply_import, and reading a difference line.
import type { ConflictChoice, EntryOutcome, EntryPlan, ImportChoice, ImportPlan } from "../../ipc/bindings";
import { isRemote } from "./entryLaunch";

/** The person's choice per conflicting entry, by {@link choiceKey} (its file and its name in Plugboard). */
export type Choices = Readonly<Record<string, ConflictChoice>>;

/** What the backend does with a conflict nobody chose for: keep what Plugboard has. */
export const DEFAULT_CHOICE: ConflictChoice = "skip";

/** The key of an entry's choice: two files may hold an entry of the same name, and each is decided apart. */
export function choiceKey(path: string, name: string): string {
  return JSON.stringify([path, name]);
}

/** The choice for the entry `name` of the file at `path`, the default when none was made. */
export function choiceOf(choices: Choices, path: string, name: string): ConflictChoice {
  return choices[choiceKey(path, name)] ?? DEFAULT_CHOICE;
}

/** Every entry of the plan, file by file. */
export function allEntries(plan: ImportPlan): EntryPlan[] {
  return plan.files.flatMap((file) => file.entries);
}

/** How many entries have each outcome kind. */
export function countOutcomes(plan: ImportPlan): Record<EntryOutcome["kind"], number> {
  const counts = { new: 0, identical: 0, conflict: 0, invalid: 0 };
  for (const entry of allEntries(plan)) counts[entry.outcome.kind] += 1;
  return counts;
}

/**
 * What the person left out of the import: whole files (by path), single entries (by {@link choiceKey}) and, with
 * `localOnly`, every entry reached by URL.
 */
export type LeftOut = {
  files: ReadonlySet<string>;
  entries: ReadonlySet<string>;
  localOnly: boolean;
};

/** Nothing left out: every entry goes in as the plan says. */
export const NOTHING_LEFT_OUT: LeftOut = { files: new Set(), entries: new Set(), localOnly: false };

/** Why an entry is out of the import: its file is unticked, it is unticked itself, or it is remote under Local only. */
export type LeftOutReason = "file" | "entry" | "remote";

/** Why the entry `entry` of the file at `path` is left out, or null when it is in. */
export function leftOutBy(leftOut: LeftOut, path: string, entry: EntryPlan): LeftOutReason | null {
  if (leftOut.files.has(path)) return "file";
  if (leftOut.localOnly && isRemote(entry) === true) return "remote";
  if (leftOut.entries.has(choiceKey(path, entry.name))) return "entry";
  return null;
}

/** Whether applying writes the entry: a new entry that is in, or a conflict that is in and not skipped. */
export function writes(path: string, entry: EntryPlan, choices: Choices, leftOut: LeftOut): boolean {
  if (leftOutBy(leftOut, path, entry) !== null) return false;
  if (entry.outcome.kind === "new") return true;
  return entry.outcome.kind === "conflict" && choiceOf(choices, path, entry.name) !== "skip";
}

/** The entries applying would write, file by file. */
function written(plan: ImportPlan, choices: Choices, leftOut: LeftOut): EntryPlan[] {
  return plan.files.flatMap((file) => file.entries.filter((entry) => writes(file.path, entry, choices, leftOut)));
}

/** How many servers applying would write: every new entry and every conflict not skipped, unless left out. */
export function countToWrite(plan: ImportPlan, choices: Choices, leftOut: LeftOut = NOTHING_LEFT_OUT): number {
  return written(plan, choices, leftOut).length;
}

/** How many literal secrets would move to the keychain: only those of the entries applying writes. */
export function secretsToMove(plan: ImportPlan, choices: Choices, leftOut: LeftOut): number {
  return written(plan, choices, leftOut).reduce((n, entry) => n + entry.secretsMoved.length, 0);
}

/**
 * The choices apply_import takes, by file and name: every conflict's pick (defaults included, so nothing is
 * implicit), and `skip` for what the person left out — every entry of an unticked file, an unticked new entry, and
 * under Local only each remote new or conflicting entry. Identical and invalid entries of a ticked file need none.
 */
export function toImportChoices(plan: ImportPlan, choices: Choices, leftOut: LeftOut = NOTHING_LEFT_OUT): ImportChoice[] {
  const seen = new Map<string, ImportChoice>();
  for (const file of plan.files) {
    for (const entry of file.entries) {
      const reason = leftOutBy(leftOut, file.path, entry);
      const choosable = entry.outcome.kind === "new" || entry.outcome.kind === "conflict";
      let choice: ConflictChoice;
      if (reason === "file" || (reason !== null && choosable)) choice = "skip";
      else if (entry.outcome.kind === "conflict") choice = choiceOf(choices, file.path, entry.name);
      else continue;
      seen.set(choiceKey(file.path, entry.name), { name: entry.name, path: file.path, choice });
    }
  }
  return [...seen.values()];
}

/** One line of a conflict's difference, split into the field and both values when it reads unambiguously. */
export type Difference = { field: string; ours: string; theirs: string } | { raw: string };

const ARROW = " → ";

/**
 * Reads a line like `url: "https://a" → "https://b"` (what Plugboard has → what the client has). A line whose
 * split is ambiguous (an arrow inside a value) is kept whole rather than guessed at.
 */
export function parseDifference(line: string): Difference {
  const colon = line.indexOf(": ");
  const arrow = line.indexOf(ARROW);
  if (colon <= 0 || arrow < colon || line.indexOf(ARROW, arrow + 1) !== -1) return { raw: line };
  return {
    field: line.slice(0, colon),
    ours: line.slice(colon + 2, arrow),
    theirs: line.slice(arrow + ARROW.length),
  };
}
