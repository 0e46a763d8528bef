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
  /**
   * The level of the result's own headings: one below the heading the result sits under (2 under the Console's h1,
   * 4 under a history entry's h3), so headings never skip a level.
   */
  headingLevel: 2 | 4;
};

export default function ResultView({ outcome, durationMs, headingLevel }: ResultViewProps) {
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
  return (
    <ToolResult
      result={outcome.result}
      isError={outcome.isError}
      truncated={outcome.truncated}
      took={took}
      headingLevel={headingLevel}
    />
  );
}

/** Props for {@link ToolResult}. */
type ToolResultProps = { result: string; isError: boolean; truncated: boolean; took: string; headingLevel: 2 | 4 };

/** The server's answer: a tool error in the danger style and announced, else the content as it came. */
function ToolResult({ result, isError, truncated, took, headingLevel }: ToolResultProps) {
  const parsed = useMemo(() => parseResult(result), [result]);
  const Heading = headingLevel === 2 ? "h2" : "h4";
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
          <Heading className="text-xs font-semibold text-muted uppercase">Structured content</Heading>
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
