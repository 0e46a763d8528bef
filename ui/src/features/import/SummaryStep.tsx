// Step 3 of the import wizard: what the import did — added, overwritten, renamed, skipped, already there, failed —
// and how many secrets went to the keychain. Names come from config files, so they are shown as inert text.
import { KeyRound } from "lucide-react";
import type { ImportPlan, ImportSummary } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import { allEntries } from "./plan";

/** Props for {@link SummaryStep}. */
type SummaryStepProps = {
  /** What apply_import reported. */
  summary: ImportSummary;
  /** The plan that was applied, for the names and reasons of what could not be imported. */
  plan: ImportPlan;
};

export default function SummaryStep({ summary, plan }: SummaryStepProps) {
  const invalid = allEntries(plan).flatMap((entry) =>
    entry.outcome.kind === "invalid" ? [`${entry.sourceName}: ${entry.outcome.reason}`] : [],
  );
  const unreadable = plan.files.flatMap((file) => (file.error !== null ? [`${file.path}: ${file.error}`] : []));
  const rows: { label: string; items: string[]; count?: number; tone?: string }[] = [
    { label: "Added", items: summary.added, tone: "text-ok" },
    { label: "Overwritten", items: summary.overwritten },
    { label: "Kept both, renamed", items: summary.renamed.map(([from, to]) => `${from} → ${to}`) },
    { label: "Skipped", items: summary.skipped },
    { label: "Already there", items: [], count: summary.identical },
    { label: "Failed", items: [...invalid, ...unreadable], count: summary.invalid + summary.fileErrors, tone: "text-danger" },
  ];
  return (
    <div className="flex flex-col gap-4">
      <dl className="divide-y divide-line rounded-lg border border-line bg-surface">
        {rows.map(({ label, items, count, tone }) => {
          const n = count ?? items.length;
          return (
            <div key={label} className="grid grid-cols-[2rem_10rem_1fr] items-baseline gap-2 px-4 py-2.5">
              <dt className={n > 0 ? "font-medium" : "text-muted"}>{label}</dt>
              {/* The count reads after its label but is shown first, as a tally. */}
              <dd className={`order-first text-right font-semibold tabular-nums ${n > 0 ? (tone ?? "") : "text-muted"}`}>
                {n}
              </dd>
              <dd className="min-w-0 text-sm">
                {items.length > 0 && (
                  <ul aria-label={label} className="flex flex-col gap-0.5">
                    {items.map((item) => (
                      <li key={item} className="wrap-anywhere">
                        {revealHidden(item)}
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      {summary.secretsMoved > 0 && (
        <p className="flex items-center gap-2 text-sm">
          <KeyRound size={16} aria-hidden="true" className="text-ok" />
          {summary.secretsMoved === 1 ? "1 secret" : `${summary.secretsMoved} secrets`} moved to the keychain; servers.json
          only refers to {summary.secretsMoved === 1 ? "it" : "them"}.
        </p>
      )}
    </div>
  );
}
