// How a call ended, in words and by content: a tool error marked and announced, failures and cancels said plainly,
// the result's blocks and structured content shown inert, with the latency.
import { CircleAlert, CircleCheck, CircleSlash } from "lucide-react";
import { useMemo } from "react";
import type { CallOutcome } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import { parseResult } from "./callResult";
import { formatDuration } from "./format";
import ContentBlock from "./ContentBlock";

/** Props for {@link ResultView}. */
type ResultViewProps = {
  outcome: CallOutcome;
  /** How long the call took, in milliseconds. */
  durationMs: number;
};

export default function ResultView({ outcome, durationMs }: ResultViewProps) {
  const took = formatDuration(durationMs);
  if (outcome.kind === "failed") {
    return (
      <div role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 text-sm wrap-anywhere">
        <p className="flex items-center gap-1.5 font-medium text-danger">
          <CircleAlert size={14} aria-hidden="true" />
          {`The call failed after ${took}.`}
        </p>
        <p className="mt-1">{revealHidden(outcome.message)}</p>
      </div>
    );
  }
  if (outcome.kind === "cancelled") {
    return (
      <p role="status" className="flex items-center gap-1.5 rounded-md border border-line px-4 py-3 text-sm">
        <CircleSlash size={14} aria-hidden="true" className="text-muted" />
        {`The call was cancelled after ${took}.`}
      </p>
    );
  }
  return <ToolResult result={outcome.result} isError={outcome.isError} truncated={outcome.truncated} took={took} />;
}

/** Props for {@link ToolResult}. */
type ToolResultProps = { result: string; isError: boolean; truncated: boolean; took: string };

/** The server's answer: a tool error in the danger style and announced, else the content as it came. */
function ToolResult({ result, isError, truncated, took }: ToolResultProps) {
  const parsed = useMemo(() => parseResult(result), [result]);
  const body = (
    <div className="flex flex-col gap-2">
      {parsed.raw !== null && <pre className="font-mono text-[13px] whitespace-pre-wrap wrap-anywhere">{revealHidden(parsed.raw)}</pre>}
      {parsed.blocks.map((block, index) => (
        <ContentBlock key={index} block={block} position={index + 1} />
      ))}
      {parsed.raw === null && parsed.blocks.length === 0 && parsed.structured === null && (
        <p className="text-sm text-muted">The result has no content.</p>
      )}
      {parsed.structured !== null && (
        <section aria-label="Structured content" className="flex flex-col gap-1">
          <h4 className="text-xs font-semibold text-muted uppercase">Structured content</h4>
          <pre className="rounded-md border border-line bg-canvas px-3 py-2 font-mono text-[13px] whitespace-pre-wrap wrap-anywhere">
            {revealHidden(parsed.structured)}
          </pre>
        </section>
      )}
      {truncated && <p className="text-sm text-warn">The result was cut at 256 KiB when it was saved.</p>}
    </div>
  );
  if (isError) {
    return (
      <div className="flex flex-col gap-2 rounded-md border-2 border-danger bg-danger-soft px-4 py-3">
        <p role="alert" className="flex items-center gap-1.5 font-medium text-danger">
          <CircleAlert size={14} aria-hidden="true" />
          {`The tool reported an error (after ${took}).`}
        </p>
        {body}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <p role="status" className="flex items-center gap-1.5 text-sm text-ok">
        <CircleCheck size={14} aria-hidden="true" />
        {`Done in ${took}.`}
      </p>
      {body}
    </div>
  );
}
