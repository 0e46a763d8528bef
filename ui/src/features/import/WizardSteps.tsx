// The wizard's progress: three numbered steps, the current one marked for sight and for screen readers.
import { Check } from "lucide-react";
import { STEPS, type Step } from "./steps";

const LABELS: Record<Step, string> = { sources: "Find configs", review: "Review", summary: "Done" };

/** Props for {@link WizardSteps}. */
type WizardStepsProps = {
  /** The step on screen. */
  current: Step;
};

export default function WizardSteps({ current }: WizardStepsProps) {
  const at = STEPS.indexOf(current);
  return (
    <nav aria-label="Import steps" className="mb-6">
      <ol className="flex items-center gap-2 text-sm">
        {STEPS.map((step, index) => {
          const done = index < at;
          const active = index === at;
          return (
            <li key={step} className="flex items-center gap-2" aria-current={active ? "step" : undefined}>
              {index > 0 && <span aria-hidden="true" className="h-px w-8 bg-line" />}
              <span
                aria-hidden="true"
                className={`flex size-6 items-center justify-center rounded-full text-xs font-semibold ${
                  active
                    ? "bg-accent text-surface"
                    : done
                      ? "bg-accent-soft text-accent"
                      : "border border-line text-muted"
                }`}
              >
                {done ? <Check size={14} /> : index + 1}
              </span>
              <span className={active ? "font-medium" : "text-muted"}>
                {LABELS[step]}
                {done && <span className="sr-only"> (done)</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
