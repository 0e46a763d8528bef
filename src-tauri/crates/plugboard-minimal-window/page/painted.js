// Marks the first painted frame, as Plugboard's Servers page does (ui/src/shell/usePaintMark.ts), so the window
// benchmark times both windows to the same kind of moment. It must never do anything else.
requestAnimationFrame(() => setTimeout(() => performance.mark("plugboard:minimal-painted"), 0));
