// The review of what a server offers that is withheld (tools, prompts, resource templates or its instructions, new or
// changed since the person approved it: a possible rug pull): each with the diff of its definition, and one button
// that approves exactly what is shown. It never approves anything the person was not shown: the core checks each
// digest against what was listed here.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldAlert } from "lucide-react";
import { useId } from "react";
import { commands, type ToolChangeView } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { allowlistQueryKey } from "../servers/detail/useAllowlist";
import { revealHidden } from "../servers/revealHidden";

/** Props for {@link ToolChangesPanel}. */
type ToolChangesPanelProps = {
  /** The server's name in servers.json. */
  server: string;
  /** What is withheld (tool names, and the other things as a person reads them); the review is fetched again when it
   * changes. */
  withheld: string[];
};

/** The class of one diff line: added, removed, or context. */
function lineClass(line: string): string {
  if (line.startsWith("+") && !line.startsWith("+++")) return "bg-ok/15";
  if (line.startsWith("-") && !line.startsWith("---")) return "bg-danger-soft";
  return "text-muted";
}

/** What a withheld thing is called: a tool by its name, the others with their kind. */
function subjectLabel(change: ToolChangeView): string {
  switch (change.kind) {
    case "tool":
      return change.name;
    case "prompt":
      return `prompt ${change.name}`;
    case "resourceTemplate":
      return `resource template ${change.name}`;
    case "instructions":
      return "the server's instructions";
  }
}

function ChangedTool({ change }: { change: ToolChangeView }) {
  const heading = useId();
  const label = subjectLabel(change);
  return (
    <section aria-labelledby={heading} className="flex flex-col gap-1">
      <h4 id={heading} className="text-sm font-medium wrap-anywhere">
        {revealHidden(label)}{" "}
        <span className="font-normal text-muted">{change.change === "new" ? "· new" : "· changed"}</span>
      </h4>
      <pre
        aria-label={`What changed in ${label}`}
        className="max-h-64 overflow-auto rounded bg-canvas px-2 py-1.5 font-mono text-xs"
      >
        {change.diff.split("\n").map((line, index) => (
          // Lines of a diff have no identity beyond their position.
          <span key={index} className={`block whitespace-pre-wrap wrap-anywhere ${lineClass(line)}`}>
            {revealHidden(line) || " "}
          </span>
        ))}
      </pre>
    </section>
  );
}

export default function ToolChangesPanel({ server, withheld }: ToolChangesPanelProps) {
  const queryClient = useQueryClient();
  const heading = useId();
  const changes = useQuery({
    queryKey: ["toolChanges", server, withheld],
    queryFn: () => call(commands.toolChanges(server)),
  });
  const approve = useMutation({
    mutationFn: (shown: ToolChangeView[]) => call(commands.approveToolChanges(server, shown)),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: allowlistQueryKey(server) });
      void queryClient.invalidateQueries({ queryKey: ["toolChanges", server] });
    },
  });
  const shown = changes.data ?? [];
  return (
    <section
      aria-labelledby={heading}
      className="mb-4 flex flex-col gap-3 rounded-md border border-warn bg-warn-soft px-4 py-3"
    >
      <h3 id={heading} className="flex items-center gap-2 font-semibold">
        <ShieldAlert size={16} aria-hidden="true" />
        {withheld.length === 1 ? "1 change is withheld" : `${withheld.length} changes are withheld`}
      </h3>
      <p className="text-sm">
        These tools (or prompts, resource templates or instructions) are new or changed since you approved{" "}
        {revealHidden(server)}. No client gets them until you approve what they are now. A changed description can
        hide instructions meant for the model.
      </p>
      {changes.isError && (
        <p role="alert" className="text-sm wrap-anywhere">
          Couldn't load what changed: {revealHidden(changes.error.message)}
        </p>
      )}
      {shown.map((change) => (
        <ChangedTool key={`${change.kind}:${change.name}`} change={change} />
      ))}
      {approve.isError && (
        <p role="alert" className="text-sm wrap-anywhere">
          Couldn't approve: {revealHidden(approve.error.message)}
        </p>
      )}
      <div>
        <button
          type="button"
          disabled={shown.length === 0 || approve.isPending}
          onClick={() => approve.mutate(shown)}
          className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-on-accent disabled:opacity-50"
        >
          {shown.length === 1 ? "Approve this change" : `Approve these ${shown.length} changes`}
        </button>
      </div>
    </section>
  );
}
