// One server's approval request: the exact command line (or the origin its secrets would go to), its environment by
// name with the references each draws on, its folder, and what deserves a second look. All of it is config text
// another program may have written, so it is shown inert with hidden characters revealed.
import { TriangleAlert } from "lucide-react";
import type { ApprovalRequest } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";

/** Props for {@link ApprovalCard}. */
type ApprovalCardProps = {
  request: ApprovalRequest;
  /** The decision buttons for this request. */
  children: React.ReactNode;
};

export default function ApprovalCard({ request, children }: ApprovalCardProps) {
  const heading = `approval-${request.server}`;
  return (
    <section aria-labelledby={heading} className="flex flex-col gap-2 rounded-md border border-line p-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={heading} className="font-semibold wrap-anywhere">
          {revealHidden(request.server)}
        </h3>
        {request.decision === "refused" && <span className="text-xs text-muted">You refused this before.</span>}
      </div>
      <p className="text-muted">{request.launches ? "Runs this command:" : "Connects to, and sends its credentials to:"}</p>
      <code className="block rounded bg-canvas px-2 py-1.5 font-mono text-xs whitespace-pre-wrap wrap-anywhere select-all">
        {revealHidden(request.summary)}
      </code>
      {request.cwd !== null && (
        <p className="text-xs">
          <span className="text-muted">In the folder </span>
          <code className="font-mono">{revealHidden(request.cwd)}</code>
        </p>
      )}
      {request.env.length > 0 && (
        <div className="text-xs">
          <p className="text-muted">{request.launches ? "With the environment variables" : "With the headers"}</p>
          <ul className="ml-4 list-disc font-mono">
            {request.env.map((line) => (
              <li key={line} className="wrap-anywhere">
                {revealHidden(line)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {request.flags.length > 0 && (
        <ul aria-label={`What to look at twice in ${request.server}`} className="flex flex-col gap-1">
          {request.flags.map((flag) => (
            <li key={flag.id} className="flex items-start gap-1.5 text-xs text-danger">
              <TriangleAlert size={14} aria-hidden="true" className="mt-px shrink-0" />
              {flag.message}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2 pt-1">{children}</div>
    </section>
  );
}
