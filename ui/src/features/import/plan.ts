// Pure helpers over an import plan: counting outcomes, the choices sent to apply_import, and reading a difference line.
import type { ConflictChoice, EntryOutcome, EntryPlan, ImportChoice, ImportPlan } from "../../ipc/bindings";

/** The person's choice per conflicting entry, by the entry's name in Plugboard (what apply_import keys on). */
export type Choices = Readonly<Record<string, ConflictChoice>>;

/** What the backend does with a conflict nobody chose for: keep what Plugboard has. */
export const DEFAULT_CHOICE: ConflictChoice = "skip";

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
  return allEntries(plan).filter(
    (entry) =>
      entry.outcome.kind === "new" ||
      (entry.outcome.kind === "conflict" && (choices[entry.name] ?? DEFAULT_CHOICE) !== "skip"),
  ).length;
}

/** The choices apply_import takes: one per conflicting name, defaults included so nothing is implicit. */
export function toImportChoices(plan: ImportPlan, choices: Choices): ImportChoice[] {
  const names = new Set(allEntries(plan).filter((e) => e.outcome.kind === "conflict").map((e) => e.name));
  return [...names].map((name) => ({ name, choice: choices[name] ?? DEFAULT_CHOICE }));
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
