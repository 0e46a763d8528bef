// A server's tools as a virtualised list of checkboxes (servers may offer hundreds): each row shows the tool's name,
// the name other clients see, and its description as inert text with hidden characters made visible.
import * as Checkbox from "@radix-ui/react-checkbox";
import { Check, ShieldAlert, TriangleAlert } from "lucide-react";
import { useId } from "react";
import type { ToolInfo } from "../../../ipc/bindings";
import { revealHidden } from "../revealHidden";
import { isTicked, type AllowlistDraft } from "./allowlistDraft";
import VirtualList from "./VirtualList";

/** A first guess of a row's height before it is measured (name, exposed name, two lines of description). */
const ESTIMATED_ROW_PX = 76;

/** Props for {@link ToolList}. */
type ToolListProps = {
  /** The tools to list (already filtered by the search), in the server's order. */
  tools: readonly ToolInfo[];
  /** The unsaved allowlist, which says which tools are ticked. */
  draft: AllowlistDraft;
  /** Ticks or unticks one tool (by its raw name). */
  onToggle: (tool: string, ticked: boolean) => void;
};

export default function ToolList({ tools, draft, onToggle }: ToolListProps) {
  return (
    <VirtualList
      items={tools}
      label="Tools"
      itemKey={(tool) => tool.name}
      estimateRowPx={ESTIMATED_ROW_PX}
      heightClass="max-h-[min(26rem,55vh)]"
      renderItem={(tool) => <ToolRow tool={tool} ticked={isTicked(draft, tool.name)} onToggle={onToggle} />}
    />
  );
}

/** Props for {@link ToolRow}. */
type ToolRowProps = {
  /** The tool, as the core describes it. */
  tool: ToolInfo;
  /** Whether the unsaved allowlist lets it through. */
  ticked: boolean;
  /** Ticks or unticks the tool. */
  onToggle: (tool: string, ticked: boolean) => void;
};

/** One tool: a labelled checkbox, the exposed name and the description, all server text rendered as text. */
function ToolRow({ tool, ticked, onToggle }: ToolRowProps) {
  const id = useId();
  const name = revealHidden(tool.name);
  return (
    <div className="flex items-start gap-3 px-3 py-2">
      <Checkbox.Root
        id={id}
        checked={ticked}
        onCheckedChange={(checked) => onToggle(tool.name, checked === true)}
        aria-describedby={`${id}-exposed ${id}-description`}
        className="mt-0.5 flex size-4 shrink-0 items-center justify-center rounded border border-line bg-surface data-[state=checked]:border-accent data-[state=checked]:bg-accent"
      >
        <Checkbox.Indicator>
          <Check size={12} strokeWidth={3} aria-hidden="true" className="text-on-accent" />
        </Checkbox.Indicator>
      </Checkbox.Root>
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="font-medium wrap-anywhere">
          {name}
          {tool.title !== null && tool.title !== tool.name && (
            <span className="ml-2 font-normal text-muted">{revealHidden(tool.title)}</span>
          )}
        </label>
        <code id={`${id}-exposed`} className="block font-mono text-xs text-muted wrap-anywhere">
          {revealHidden(tool.exposedName)}
        </code>
        {tool.withheld !== null && (
          <p className="flex items-center gap-1 text-xs font-medium">
            <ShieldAlert size={12} aria-hidden="true" className="shrink-0 text-warn" />
            Withheld: {tool.withheld === "new" ? "new" : "changed"} since you approved this server
          </p>
        )}
        {tool.hiddenContent.length > 0 && (
          <p className="flex items-start gap-1 text-xs font-medium">
            <TriangleAlert size={12} aria-hidden="true" className="mt-0.5 shrink-0 text-danger" />
            Its description holds {tool.hiddenContent.join(", ")}: a model reads what you cannot see
          </p>
        )}
        {/* Clamped to three lines on screen only: the whole text stays in the DOM and in the tooltip. */}
        <p
          id={`${id}-description`}
          title={tool.description === null ? undefined : revealHidden(tool.description)}
          className="mt-0.5 line-clamp-3 text-sm wrap-anywhere whitespace-pre-line"
        >
          {tool.description === null || tool.description.trim() === "" ? (
            <span className="text-muted italic">No description</span>
          ) : (
            revealHidden(tool.description)
          )}
        </p>
      </div>
    </div>
  );
}
