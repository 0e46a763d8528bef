// Run and Cancel for the console's call, with the state in words (running, or why Run is unavailable).
import { LoaderCircle, Play, Square } from "lucide-react";

/** Props for {@link RunBar}. */
type RunBarProps = {
  running: boolean;
  /** Why Run cannot start now (no tool picked, arguments not a JSON object), or null when it can. */
  blocked: string | null;
  onRun: () => void;
  onCancel: () => void;
  /** Why the last cancel request failed, if it did. */
  cancelError: string | null;
};

/** "Ctrl" or "⌘" as this platform writes the shortcut's modifier. */
const MOD = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform) ? "⌘" : "Ctrl";

export default function RunBar({ running, blocked, onRun, onCancel, cancelError }: RunBarProps) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        onClick={running || blocked !== null ? undefined : onRun}
        aria-disabled={running || blocked !== null}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        className="inline-flex items-center gap-1.5 rounded-md bg-accent px-3 py-1.5 font-medium text-on-accent aria-disabled:opacity-50"
      >
        {running ? <LoaderCircle size={14} aria-hidden="true" className="animate-spin" /> : <Play size={14} aria-hidden="true" />}
        Run
      </button>
      <button
        type="button"
        onClick={running ? onCancel : undefined}
        aria-disabled={!running}
        aria-keyshortcuts="Escape"
        className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-3 py-1.5 hover:bg-canvas aria-disabled:opacity-50"
      >
        <Square size={12} aria-hidden="true" />
        Cancel
      </button>
      <p aria-live="polite" className="text-sm text-muted">
        {running ? "Running… (Escape cancels)" : blocked ?? `${MOD}+Enter runs`}
      </p>
      {cancelError !== null && <p role="alert" className="text-sm text-danger">{`Couldn't cancel: ${cancelError}`}</p>}
    </div>
  );
}
