// A server's tools as a virtualised list of checkboxes (servers may offer hundreds): each row shows the tool's name,
// the name other clients see, and its description as inert text with hidden characters made visible.
import * as Checkbox from "@radix-ui/react-checkbox";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Check } from "lucide-react";
import { useCallback, useId, useRef } from "react";
import type { ToolInfo } from "../../../ipc/bindings";
import { revealHidden } from "../revealHidden";
import { isTicked, type AllowlistDraft } from "./allowlistDraft";

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
  const scroller = useRef<HTMLDivElement>(null);
  // Stable across renders: a new key function makes the virtualizer rebuild every row's measurement.
  const itemKey = useCallback((index: number) => tools[index]?.name ?? index, [tools]);
  // The virtualizer re-renders this component itself on scroll; nothing here is memoised by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library -- known and intended, see above.
  const virtualizer = useVirtualizer({
    count: tools.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: itemKey,
    overscan: 6,
  });

  return (
    <div ref={scroller} className="max-h-[min(26rem,55vh)] overflow-y-auto rounded-md border border-line bg-surface">
      <ul aria-label="Tools" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const tool = tools[item.index];
          if (tool === undefined) return null;
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              aria-setsize={tools.length}
              aria-posinset={item.index + 1}
              className="absolute inset-x-0 top-0 border-b border-line last:border-b-0"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <ToolRow tool={tool} ticked={isTicked(draft, tool.name)} onToggle={onToggle} />
            </li>
          );
        })}
      </ul>
    </div>
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
