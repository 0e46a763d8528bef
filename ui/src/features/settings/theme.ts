// The colour theme: follow the system, or pin light or dark. A display preference, so it lives in localStorage.

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

const STORAGE_KEY = "plugboard.theme";

/** The saved theme, or "system" when none (or something unknown) is saved. */
export function loadTheme(storage: Pick<Storage, "getItem"> = localStorage): Theme {
  const saved = storage.getItem(STORAGE_KEY);
  return THEMES.find((theme) => theme === saved) ?? "system";
}

/** Applies `theme` to the document: a pinned theme sets `data-theme` on <html>, "system" removes it. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement) {
  if (theme === "system") delete root.dataset.theme;
  else root.dataset.theme = theme;
}

/** Saves and applies `theme`. */
export function chooseTheme(theme: Theme, storage: Pick<Storage, "setItem"> = localStorage) {
  storage.setItem(STORAGE_KEY, theme);
  applyTheme(theme);
}
