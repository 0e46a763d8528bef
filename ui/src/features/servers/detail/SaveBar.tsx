// The Save / Revert bar under an editor on a server's page, sticky at the bottom of the page's scroller so Save stays
// in reach below a long list at 1024×768.
import { LoaderCircle, Save, Undo2 } from "lucide-react";
import type { ReactNode } from "react";

/** Props for {@link SaveBar}. */
type SaveBarProps = {
  /** The Save button's words, e.g. "Save allowlist". */
  saveLabel: string;
  /** Called by Save when `canSave`. */
  onSave: () => void;
  canSave: boolean;
  /** A save is on its way: the button shows a spinner. */
  saving: boolean;
  /** Called by Revert when `canRevert`. */
  onRevert: () => void;
  canRevert: boolean;
  /** What to say beside the buttons (unsaved changes, saved, reconnecting…). */
  children?: ReactNode;
};

export default function SaveBar({ saveLabel, onSave, canSave, saving, onRevert, canRevert, children }: SaveBarProps) {
  return (
    <div className="sticky bottom-0 z-10 -mx-2 flex flex-wrap items-center gap-2 border-t border-line bg-canvas px-2 py-2.5">
      <button
        type="button"
        onClick={canSave ? onSave : undefined}
        aria-disabled={!canSave}
        className="inline-flex items-center gap-1.5 rounded-md bg-accent px-3 py-1 text-sm font-medium text-on-accent hover:opacity-90 aria-disabled:opacity-50"
      >
        {saving ? (
          <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />
        ) : (
          <Save size={14} aria-hidden="true" />
        )}
        {saveLabel}
      </button>
      <button
        type="button"
        onClick={canRevert ? onRevert : undefined}
        aria-disabled={!canRevert}
        className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-3 py-1 text-sm hover:bg-canvas aria-disabled:opacity-50"
      >
        <Undo2 size={14} aria-hidden="true" />
        Revert
      </button>
      {children}
    </div>
  );
}
