// Focus for a Radix dialog the app mounts itself (no Dialog.Trigger): it opens on its first field (or the element
// marked data-autofocus, else its submit button) rather than on its ✕, and on close focus goes back to the element
// that opened it, or, when that is gone (the dialog navigated away), to the page's heading. It moves focus only then.
import { useRef } from "react";

/** What a dialog opens on, in order: an element marked for it, the first usable field, the primary (submit) action. */
const FIRST_FOCUS = [
  "[data-autofocus]",
  "input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled)",
  "button[type=submit]:not(:disabled)",
];

/** The handlers to spread on a Dialog.Content. */
export type DialogFocus = {
  onOpenAutoFocus: (event: Event) => void;
  onCloseAutoFocus: (event: Event) => void;
};

/**
 * Focus handlers for a dialog's Dialog.Content. `opener` is the control that opened it: pass it, because WebKit
 * (the app's webview on macOS) does not focus a button on click, so what had focus before is not always the opener.
 */
export function useDialogFocus(opener?: HTMLElement | null): DialogFocus {
  // What had focus when the dialog opened: the way back when no opener is given (a dialog opened by an event).
  const before = useRef<Element | null>(null);
  return {
    onOpenAutoFocus: (event) => {
      before.current = document.activeElement;
      const target = firstFocus(event.currentTarget);
      if (target === null) return;
      event.preventDefault();
      target.focus();
    },
    onCloseAutoFocus: (event) => {
      event.preventDefault();
      const back = [opener, before.current].find(
        (element): element is HTMLElement => element instanceof HTMLElement && element.isConnected && element !== document.body,
      );
      // The page's only h1 (PageHeader's, focusable from script): where a dialog that opened another page leaves focus.
      (back ?? document.querySelector<HTMLElement>("h1"))?.focus();
    },
  };
}

/** The element the dialog `content` should open on, or null to leave Radix's default (its first tabbable). */
export function firstFocus(content: EventTarget | null): HTMLElement | null {
  if (!(content instanceof HTMLElement)) return null;
  for (const selector of FIRST_FOCUS) {
    const found = content.querySelector<HTMLElement>(selector);
    if (found !== null) return found;
  }
  return null;
}
