// The head of the review step: the outcomes counted, how many secrets will move to the keychain (only those of the
// entries the import writes), and "Local only", which leaves out every server reached by URL.
import type { ImportPlan } from "../../ipc/bindings";
import { isRemote } from "./entryLaunch";
import { allEntries, type Choices, countOutcomes, type LeftOut, secretsToMove } from "./plan";

/** Props for {@link ReviewOptions}. */
type ReviewOptionsProps = {
  /** The plan on screen. */
  plan: ImportPlan;
  /** The conflict choices so far. */
  choices: Choices;
  /** What is left out so far. */
  leftOut: LeftOut;
  /** Turns Local only on or off. */
  onLocalOnly: (on: boolean) => void;
  /** Makes Local only read-only (while applying). */
  disabled: boolean;
};

export default function ReviewOptions({ plan, choices, leftOut, onLocalOnly, disabled }: ReviewOptionsProps) {
  const counts = countOutcomes(plan);
  const parts = [
    `${counts.new} new`,
    `${counts.identical} identical`,
    `${counts.conflict} ${counts.conflict === 1 ? "conflict" : "conflicts"}`,
    `${counts.invalid} invalid`,
  ];
  const secrets = secretsToMove(plan, choices, leftOut);
  // Offered only when the plan says which entries are remote, and some are.
  const remote = allEntries(plan).filter((entry) => isRemote(entry) === true).length;

  return (
    <div className="mb-4 flex flex-col gap-2">
      <p className="text-muted">
        {parts.join(" · ")}.
        {/* Follows the ticks and choices: nothing has moved yet, and only what is written will. */}
        {secrets > 0 &&
          ` ${secrets === 1 ? "1 secret" : `${secrets} secrets`} will move to the keychain; servers.json will only refer to ${secrets === 1 ? "it" : "them"}.`}
      </p>
      {remote > 0 && (
        <label className="inline-flex items-center gap-2 self-start text-sm">
          <input type="checkbox" checked={leftOut.localOnly} disabled={disabled} onChange={(event) => onLocalOnly(event.target.checked)} />
          Local only
          <span className="text-muted">
            — import only servers that run on this computer, leave out the {remote === 1 ? "remote one" : `${remote} remote ones`} (URLs)
          </span>
        </label>
      )}
    </div>
  );
}
