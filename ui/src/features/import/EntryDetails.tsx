// What the review table says about one entry: what it runs (command line or URL), a conflict's differences field by
// field, why an entry is invalid, which secrets will go to the keychain if it is written (where, never the value) and
// the importer's notes. All of it inert text.
import { KeyRound } from "lucide-react";
import type { EntryPlan } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import { transportLabel } from "../servers/transportLabel";
import { entryLaunch } from "./entryLaunch";
import { parseDifference } from "./plan";

/** Props for {@link EntryDetails}. */
type EntryDetailsProps = {
  /** The entry, as the plan describes it. */
  entry: EntryPlan;
  /** The client the entry comes from ("Cursor"), to say whose value is whose. */
  clientLabel: string;
  /**
   * Whether applying writes this entry (added, overwritten or added renamed): only then do its secrets move. Nothing
   * has moved yet: the review says "will move", the summary what did.
   */
  writes: boolean;
};

export default function EntryDetails({ entry, clientLabel, writes }: EntryDetailsProps) {
  const { outcome } = entry;
  const launch = entryLaunch(entry);
  return (
    <div className="flex flex-col gap-1.5">
      {launch !== null && (
        <p className="min-w-0">
          <span className="block text-xs text-muted">{transportLabel(launch.transport)}</span>
          <code className="font-mono text-[13px] wrap-anywhere">{revealHidden(launch.target)}</code>
        </p>
      )}
      {outcome.kind === "new" && <span className="text-muted">Not in Plugboard yet.</span>}
      {outcome.kind === "identical" && <span className="text-muted">Plugboard already has this server, the same.</span>}
      {outcome.kind === "invalid" && <span className="text-danger wrap-anywhere">{revealHidden(outcome.reason)}</span>}
      {outcome.kind === "conflict" && (
        <ul aria-label={`Differences for ${entry.name}`} className="flex flex-col gap-1.5">
          {outcome.differences.map((line) => (
            <Difference key={line} line={line} clientLabel={clientLabel} />
          ))}
        </ul>
      )}
      {writes && entry.secretsMoved.length > 0 && (
        <p
          className="flex items-start gap-1.5 text-ok"
          title="The value will be stored in the keychain; servers.json will only refer to it."
        >
          <KeyRound size={14} aria-hidden="true" className="mt-0.5 shrink-0" />
          <span className="wrap-anywhere">
            Will move to keychain: {entry.secretsMoved.map(revealHidden).join(", ")}
          </span>
        </p>
      )}
      {entry.notes.map((note) => (
        <p key={note} className="text-xs text-muted wrap-anywhere">
          {revealHidden(note)}
        </p>
      ))}
    </div>
  );
}

/** Props for {@link Difference}. */
type DifferenceProps = {
  /** One line of the plan's differences: `field: ours → theirs`. */
  line: string;
  /** Whose the second value is. */
  clientLabel: string;
};

/** One differing field with Plugboard's value above the client's, like a two-line diff. */
function Difference({ line, clientLabel }: DifferenceProps) {
  const diff = parseDifference(line);
  if ("raw" in diff) return <li className="font-mono text-xs wrap-anywhere">{revealHidden(diff.raw)}</li>;
  return (
    <li className="rounded border border-line text-xs">
      <span className="block border-b border-line bg-canvas px-2 py-0.5 font-mono font-medium">
        {revealHidden(diff.field)}
      </span>
      <Value who="Plugboard has" value={diff.ours} className="bg-danger-soft/60" sign="−" />
      <Value who={`${clientLabel} has`} value={diff.theirs} className="bg-accent-soft/60" sign="+" />
    </li>
  );
}

/** Props for {@link Value}. */
type ValueProps = {
  /** Whose value it is, read out before it. */
  who: string;
  /** The value as JSON, or "(none)". */
  value: string;
  /** Background of the line. */
  className: string;
  /** A diff sign shown for sighted readers. */
  sign: string;
};

function Value({ who, value, className, sign }: ValueProps) {
  return (
    <span className={`flex gap-2 px-2 py-0.5 ${className}`}>
      <span aria-hidden="true" className="w-2 shrink-0 font-mono text-muted">{sign}</span>
      <span className="min-w-0 wrap-anywhere">
        <span className="text-muted">{who} </span>
        <code className="font-mono">
          {value === "(none)" ? <em className="font-sans text-muted not-italic">not set</em> : revealHidden(value)}
        </code>
      </span>
    </span>
  );
}
