// Diagnose: the doctor's walk through connecting one server (config, references, program or network, handshake,
// login), each step with how it went and, for the one that fails, what to do. It only reads and connects.
import { useMutation } from "@tanstack/react-query";
import { CircleAlert, CircleCheck, CircleMinus, CircleX, LoaderCircle, Stethoscope } from "lucide-react";
import { commands, type Step } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { revealHidden } from "../revealHidden";

/** Props for {@link DiagnosePanel}. */
type DiagnosePanelProps = {
  server: string;
};

export default function DiagnosePanel({ server }: DiagnosePanelProps) {
  const diagnose = useMutation({ mutationFn: () => call(commands.diagnoseServer(server)) });
  return (
    <section aria-labelledby="diagnose-title" className="mt-4 rounded-lg border border-line bg-surface px-5 py-3">
      <div className="flex items-center justify-between gap-3">
        <h2 id="diagnose-title" className="flex items-center gap-1.5 font-semibold">
          <Stethoscope size={15} aria-hidden="true" />
          Diagnose
        </h2>
        <button
          type="button"
          onClick={diagnose.isPending ? undefined : () => diagnose.mutate()}
          aria-disabled={diagnose.isPending}
          className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-2.5 py-0.5 text-sm hover:bg-canvas aria-disabled:opacity-60"
        >
          {diagnose.isPending && <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />}
          {diagnose.isSuccess ? "Diagnose again" : "Run diagnosis"}
        </button>
      </div>
      {!diagnose.isSuccess && !diagnose.isError && (
        <p className="mt-1 text-sm text-muted">
          Walks every step of connecting this server and says which one fails and what to do.
        </p>
      )}
      {diagnose.isError && (
        <p role="status" className="mt-2 text-sm text-danger wrap-anywhere">
          Couldn't diagnose: {revealHidden(diagnose.error.message)}
        </p>
      )}
      {diagnose.isSuccess && <StepList steps={diagnose.data} />}
    </section>
  );
}

/** The steps in order; the failed one says what to do. */
function StepList({ steps }: { steps: Step[] }) {
  return (
    <ol aria-label="Diagnosis" className="mt-2 flex flex-col gap-1.5 text-sm">
      {steps.map((step, index) => (
        <li key={`${step.name}-${index}`} className="flex gap-2">
          <StepIcon step={step} />
          <div className="min-w-0">
            <span className="font-medium">{stepTitle(step.name)}</span>{" "}
            <span className="text-muted">{outcomeWord(step)}</span>
            {"detail" in step && <p className="wrap-anywhere">{revealHidden(step.detail)}</p>}
            {step.outcome === "failed" && (
              <p className="mt-0.5 rounded bg-danger-soft px-2 py-1 wrap-anywhere">
                <span className="font-medium">What to do: </span>
                {revealHidden(step.whatToDo)}
              </p>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}

function stepTitle(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function outcomeWord(step: Step): string {
  switch (step.outcome) {
    case "passed":
      return "passed";
    case "warning":
      return "passed with a warning";
    case "failed":
      return "failed";
    case "skipped":
      return "skipped (an earlier step failed)";
  }
}

function StepIcon({ step }: { step: Step }) {
  const props = { size: 16, "aria-hidden": true, className: "mt-0.5 shrink-0" } as const;
  switch (step.outcome) {
    case "passed":
      return <CircleCheck {...props} className={`${props.className} text-ok`} />;
    case "warning":
      return <CircleAlert {...props} className={`${props.className} text-warn`} />;
    case "failed":
      return <CircleX {...props} className={`${props.className} text-danger`} />;
    case "skipped":
      return <CircleMinus {...props} className={`${props.className} text-muted`} />;
  }
}
