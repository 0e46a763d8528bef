// A searchable, keyboard-driven picker (a Radix popover over a cmdk list): type to filter, arrows to move, Enter to
// pick. Option text is server text, so it is shown inert with hidden characters made visible.
import * as Popover from "@radix-ui/react-popover";
import { Command } from "cmdk";
import { Check, ChevronsUpDown } from "lucide-react";
import { useId, useState } from "react";
import { revealHidden } from "../servers/revealHidden";

/** One choice of a {@link Picker}. */
export type PickerOption = {
  /** What is picked (a server or raw tool name); also what the search matches first. */
  value: string;
  /** A second, muted line (a tool's title). */
  title?: string | null;
  /** Searchable detail shown under the value, clamped (a tool's description). */
  detail?: string | null;
};

/** Props for {@link Picker}. */
type PickerProps = {
  /** The visible label, e.g. "Server"; also names the search box ("Search servers"). */
  label: string;
  /** The plural noun for the search box and the empty message, e.g. "servers". */
  noun: string;
  options: readonly PickerOption[];
  /** The picked value, or null when none is. */
  selected: string | null;
  onSelect: (value: string) => void;
  /** Shown on the trigger when nothing is picked. */
  placeholder: string;
  disabled?: boolean;
};

export default function Picker({ label, noun, options, selected, onSelect, placeholder, disabled = false }: PickerProps) {
  const [open, setOpen] = useState(false);
  const labelId = useId();
  const valueId = useId();

  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <span id={labelId} className="text-sm font-medium">
        {label}
      </span>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger
          disabled={disabled}
          aria-labelledby={`${labelId} ${valueId}`}
          onKeyDown={(event) => {
            if (event.key === "ArrowDown") {
              event.preventDefault();
              setOpen(true);
            }
          }}
          className="flex h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-line bg-surface px-3 text-left hover:bg-canvas disabled:opacity-60"
        >
          <span id={valueId} className={`truncate ${selected === null ? "text-muted" : "font-mono text-[13px]"}`}>
            {selected === null ? placeholder : revealHidden(selected)}
          </span>
          <ChevronsUpDown size={14} aria-hidden="true" className="shrink-0 text-muted" />
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            // Radix makes the popover a dialog; it is named by the picker's visible label ("Server", "Tool").
            aria-labelledby={labelId}
            align="start"
            sideOffset={4}
            className="z-20 w-[max(var(--radix-popover-trigger-width),20rem)] rounded-md border border-line bg-surface shadow-lg"
          >
            <Command label={`Search ${noun}`} loop>
              <Command.Input
                placeholder={`Search ${noun}…`}
                className="w-full border-b border-line bg-transparent px-3 py-2 outline-none"
              />
              <Command.List label={noun} className="max-h-72 overflow-y-auto p-1">
                <Command.Empty className="px-3 py-2 text-sm text-muted">No {noun} match.</Command.Empty>
                {options.map((option) => (
                  <Command.Item
                    key={option.value}
                    value={option.value}
                    keywords={[option.title ?? "", option.detail ?? ""]}
                    onSelect={() => {
                      onSelect(option.value);
                      setOpen(false);
                    }}
                    className="flex cursor-pointer items-start gap-2 rounded px-2 py-1.5 data-[selected=true]:bg-accent-soft"
                  >
                    <Check
                      size={14}
                      aria-hidden="true"
                      className={`mt-1 shrink-0 ${option.value === selected ? "" : "invisible"}`}
                    />
                    <span className="min-w-0">
                      <span className="font-mono text-[13px] wrap-anywhere">{revealHidden(option.value)}</span>
                      {option.title != null && option.title !== option.value && (
                        <span className="ml-2 text-sm text-muted">{revealHidden(option.title)}</span>
                      )}
                      {option.detail != null && option.detail.trim() !== "" && (
                        <span className="line-clamp-2 block text-xs text-muted wrap-anywhere">
                          {revealHidden(option.detail)}
                        </span>
                      )}
                    </span>
                  </Command.Item>
                ))}
              </Command.List>
            </Command>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </div>
  );
}
