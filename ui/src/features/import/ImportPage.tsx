// The Import wizard: find other clients' configs → review every entry (untick files or entries, Local only, choose
// for each conflict) → apply → summary. It holds the wizard's state; each step is its own component and the plan
// logic lives in plan.ts.
import { ArrowLeft, ArrowRight, Download, RotateCw } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import type { ConflictChoice, ImportPlan, ImportSummary } from "../../ipc/bindings";
import { toggled } from "../../sets";
import PageHeader from "../../shell/PageHeader";
import { revealHidden } from "../servers/revealHidden";
import { type Choices, choiceKey, countToWrite, type LeftOut, NOTHING_LEFT_OUT, toImportChoices } from "./plan";
import ReviewOptions from "./ReviewOptions";
import ReviewStep from "./ReviewStep";
import SourcesStep from "./SourcesStep";
import SummaryStep from "./SummaryStep";
import { useApplyImport, useImportPlan, useImportSources } from "./useImport";
import type { Step } from "./steps";
import WizardSteps from "./WizardSteps";

const TITLES: Record<Step, string> = {
  sources: "Configs on this computer",
  review: "Review what will be imported",
  summary: "Import finished",
};

const PRIMARY =
  "inline-flex items-center gap-1.5 rounded-md bg-accent px-3.5 py-1.5 text-sm font-medium text-surface hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50";
const SECONDARY =
  "inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-3.5 py-1.5 text-sm hover:bg-canvas disabled:opacity-50";

export default function ImportPage() {
  const sources = useImportSources();
  const plan = useImportPlan();
  const apply = useApplyImport();
  const [step, setStep] = useState<Step>("sources");
  const [choices, setChoices] = useState<Choices>({});
  const [leftOut, setLeftOut] = useState<LeftOut>(NOTHING_LEFT_OUT);
  const [done, setDone] = useState<{ summary: ImportSummary; plan: ImportPlan } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // Each step change moves focus to the new step's heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [step]);

  const choose = (path: string, name: string, choice: ConflictChoice) =>
    setChoices((now) => ({ ...now, [choiceKey(path, name)]: choice }));
  const tick = (path: string, name: string | null, on: boolean) =>
    setLeftOut((now) =>
      name === null
        ? { ...now, files: toggled(now.files, path, !on) }
        : { ...now, entries: toggled(now.entries, choiceKey(path, name), !on) },
    );
  const startOver = () => {
    setChoices({});
    setLeftOut(NOTHING_LEFT_OUT);
    setDone(null);
    apply.reset();
    setStep("sources");
    void sources.refetch();
    void plan.refetch();
  };
  const runImport = (current: ImportPlan) =>
    apply.mutate(toImportChoices(current, choices, leftOut), {
      onSuccess: (summary) => {
        setDone({ summary, plan: current });
        setStep("summary");
      },
    });

  const entries = plan.data ? plan.data.files.reduce((n, file) => n + file.entries.length, 0) : 0;

  return (
    <>
      <PageHeader title="Import" />
      <WizardSteps current={step} />
      <h2 ref={heading} tabIndex={-1} className="mb-3 text-base font-semibold outline-none">
        {TITLES[step]}
      </h2>

      {step === "sources" && (
        <>
          <p className="mb-4 text-muted">
            Plugboard looks for the MCP servers other clients use. Their files are only read, never changed.
          </p>
          {sources.isPending ? (
            <p role="status" className="text-muted">Looking for other clients' configs…</p>
          ) : sources.isError ? (
            <Failure message={`Couldn't look for configs: ${sources.error.message}`} onRetry={() => void sources.refetch()} />
          ) : (
            <SourcesStep sources={sources.data} files={plan.data?.files} />
          )}
          {plan.isError && (
            <Failure message={`Couldn't read the configs: ${plan.error.message}`} onRetry={() => void plan.refetch()} />
          )}
          {sources.data && sources.data.found.length > 0 && (
            <Footer>
              <button
                type="button"
                className={PRIMARY}
                disabled={!plan.data || entries === 0}
                onClick={() => setStep("review")}
              >
                {plan.data ? `Review ${entries === 1 ? "1 entry" : `${entries} entries`}` : "Reading configs…"}
                <ArrowRight size={16} aria-hidden="true" />
              </button>
            </Footer>
          )}
          {sources.data && sources.data.found.length === 0 && (
            <p className="mt-4 text-sm text-muted">
              To add a server, write it into Plugboard's config file (its path is on the{" "}
              <Link to="/servers" className="text-accent underline">Servers</Link> page).
            </p>
          )}
        </>
      )}

      {step === "review" && plan.data && (
        <>
          <ReviewOptions
            plan={plan.data}
            choices={choices}
            leftOut={leftOut}
            onLocalOnly={(localOnly) => setLeftOut((now) => ({ ...now, localOnly }))}
            disabled={apply.isPending}
          />
          <ReviewStep
            files={plan.data.files}
            choices={choices}
            leftOut={leftOut}
            onChoose={choose}
            onTick={tick}
            disabled={apply.isPending}
          />
          {apply.isError && (
            <p role="alert" className="mt-4 rounded-lg border border-danger/40 bg-danger-soft px-4 py-3 wrap-anywhere">
              The import failed and nothing was written: {revealHidden(apply.error.message)}
            </p>
          )}
          <Footer>
            <button type="button" className={SECONDARY} onClick={() => setStep("sources")} disabled={apply.isPending}>
              <ArrowLeft size={16} aria-hidden="true" />
              Back
            </button>
            <ImportButton plan={plan.data} choices={choices} leftOut={leftOut} pending={apply.isPending} onImport={runImport} />
          </Footer>
        </>
      )}

      {step === "summary" && done && (
        <>
          <SummaryStep summary={done.summary} plan={done.plan} />
          <Footer>
            <button type="button" className={SECONDARY} onClick={startOver}>
              <RotateCw size={16} aria-hidden="true" />
              Import again
            </button>
            <Link to="/servers" className={PRIMARY}>
              Go to Servers
              <ArrowRight size={16} aria-hidden="true" />
            </Link>
          </Footer>
        </>
      )}
    </>
  );
}

/** Props for {@link ImportButton}. */
type ImportButtonProps = {
  /** The plan on screen. */
  plan: ImportPlan;
  /** The conflict choices so far. */
  choices: Choices;
  /** What the person left out. */
  leftOut: LeftOut;
  /** True while applying. */
  pending: boolean;
  /** Applies `plan` with the choices. */
  onImport: (plan: ImportPlan) => void;
};

/** "Import 3 servers", disabled (with the reason as its label) when nothing would be written. */
function ImportButton({ plan, choices, leftOut, pending, onImport }: ImportButtonProps) {
  const n = countToWrite(plan, choices, leftOut);
  return (
    <button type="button" className={PRIMARY} disabled={n === 0 || pending} onClick={() => onImport(plan)}>
      <Download size={16} aria-hidden="true" />
      {pending ? "Importing…" : n === 0 ? "Nothing to import" : `Import ${n === 1 ? "1 server" : `${n} servers`}`}
    </button>
  );
}

/** Props for {@link Footer}. */
type FooterProps = {
  /** The step's buttons. */
  children: ReactNode;
};

/** The row of step buttons at the end of each step; it stays in view at the bottom however long the step is. */
function Footer({ children }: FooterProps) {
  return (
    <div className="sticky bottom-0 z-10 mt-6 flex items-center justify-end gap-3 border-t border-line bg-canvas py-4">
      {children}
    </div>
  );
}

/** Props for {@link Failure}. */
type FailureProps = {
  /** What went wrong, as plain text. */
  message: string;
  /** Tries again. */
  onRetry: () => void;
};

/** A failed command: its message and a Retry button. */
function Failure({ message, onRetry }: FailureProps) {
  return (
    <div role="alert" className="mt-4 rounded-lg border border-danger/40 bg-danger-soft px-4 py-3">
      <p className="mb-2 wrap-anywhere">{revealHidden(message)}</p>
      <button type="button" className={SECONDARY} onClick={onRetry}>
        <RotateCw size={14} aria-hidden="true" />
        Retry
      </button>
    </div>
  );
}
