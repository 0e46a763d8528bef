// Pure helpers over an import plan: counting outcomes, the choices sent to apply_import, and reading a difference line.
import type { ConflictChoice, EntryOutcome, EntryPlan, ImportChoice, ImportPlan } from "../../ipc/bindings";

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

/** How many servers applying would write: every new entry and every conflict not skipped. */
export function countToWrite(plan: ImportPlan, choices: Choices): number {
  return plan.files
    .flatMap((file) =>
      file.entries.filter(
        (entry) =>
          entry.outcome.kind === "new" ||
          (entry.outcome.kind === "conflict" && choiceOf(choices, file.path, entry.name) !== "skip"),
      ),
    ).length;
}

/** The choices apply_import takes: one per conflicting entry (file and name), defaults included so nothing is implicit. */
export function toImportChoices(plan: ImportPlan, choices: Choices): ImportChoice[] {
  const seen = new Map<string, ImportChoice>();
  for (const file of plan.files) {
    for (const entry of file.entries) {
      if (entry.outcome.kind !== "conflict") continue;
      seen.set(choiceKey(file.path, entry.name), {
        name: entry.name,
        path: file.path,
        choice: choiceOf(choices, file.path, entry.name),
      });
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
