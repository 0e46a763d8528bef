// Marks the first frame a screen was painted with its data (`performance.mark`), so a benchmark can measure the
// window's cold start from process start to that frame (tests/bench/window.mjs reads it over WebDriver). It must
// never change what is shown, and marks a name once per page load however often the screen renders.
import { useEffect } from "react";

/** Names of the marks the app sets; the window benchmark reads them by these names. */
export const PAINT_MARKS = { serversPainted: "plugboard:servers-painted" } as const;

/** Sets the mark `name` after the first frame painted once `ready` is true. */
export function usePaintMark(name: string, ready: boolean) {
  useEffect(() => {
    if (!ready || performance.getEntriesByName(name, "mark").length > 0) return;
    // requestAnimationFrame runs before the frame is drawn; a task queued from it runs after the frame was painted.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        if (performance.getEntriesByName(name, "mark").length === 0) performance.mark(name);
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [name, ready]);
}
