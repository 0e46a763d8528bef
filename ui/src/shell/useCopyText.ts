// Copies text for a Copy button and says how it went: "copied" for about two seconds, then back to idle (so the next
// copy is confirmed afresh); "refused" stays, since it asks the person to copy by hand. It never reads the clipboard.
import { useEffect, useState } from "react";

/** Where the last copy stands. */
export type CopyState = "idle" | "copied" | "refused";

/** How long "Copied" shows after a copy. */
export const COPIED_FOR_MS = 2000;

/** The last copy's state and the function that copies `text` (to the clipboard, when the webview allows it). */
export function useCopyText(): { state: CopyState; copy: (text: string) => void } {
  const [state, setState] = useState<CopyState>("idle");
  // Counts copies, so a second copy within the two seconds starts the wait again.
  const [copies, setCopies] = useState(0);

  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [state, copies]);

  const copy = (text: string) => {
    // The clipboard may be unavailable in the webview; the caller keeps the text selectable either way.
    const clipboard = globalThis.navigator?.clipboard;
    if (clipboard === undefined) {
      setState("refused");
      return;
    }
    clipboard.writeText(text).then(
      () => {
        setState("copied");
        setCopies((n) => n + 1);
      },
      () => setState("refused"),
    );
  };
  return { state, copy };
}
