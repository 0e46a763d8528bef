// The class names of the dialogs' answer buttons, so every request kind's buttons look and behave alike.
export const PRIMARY =
  "rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:opacity-90 disabled:opacity-50";
export const SECONDARY = "rounded-md border border-line px-3 py-1.5 text-sm hover:bg-accent-soft disabled:opacity-50";
