// The class names of a request dialog's two parts, so every request kind lays out alike: a body that scrolls however
// long the server's form or messages are, and a footer under it that always shows the answer buttons.
export const DIALOG_BODY = "flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto px-5 pb-4";
export const DIALOG_FOOTER = "flex shrink-0 flex-wrap items-center justify-end gap-2 border-t border-line px-5 py-3";
