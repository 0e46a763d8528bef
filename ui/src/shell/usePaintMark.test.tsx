// Tests for the paint mark the window benchmark times cold start to: set once the screen is ready and painted, once.
import { renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { usePaintMark } from "./usePaintMark";

const NAME = "plugboard:test-painted";
const marks = () => performance.getEntriesByName(NAME, "mark");

afterEach(() => performance.clearMarks(NAME));

describe("usePaintMark", () => {
  it("waits for the screen to be ready, then marks once however often it renders", async () => {
    const { rerender } = renderHook(({ ready }) => usePaintMark(NAME, ready), { initialProps: { ready: false } });
    // Two frames pass with the screen not ready: still no mark.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    expect(marks()).toHaveLength(0);

    rerender({ ready: true });
    await waitFor(() => expect(marks()).toHaveLength(1));
    rerender({ ready: false });
    rerender({ ready: true });
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 10)));
    expect(marks()).toHaveLength(1);
  });
});
