// Tests for the login panel's Copy button: it confirms a copy for about two seconds, then is ready to confirm again.
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COPIED_FOR_MS } from "../../shell/useCopyText";
import LoginPanel from "./LoginPanel";
import type { LoginController } from "./useLogin";

const URL = "https://auth.example.test/authorize?client_id=plugboard";

/** A login waiting for the browser, the authorization page reported. */
const WAITING: LoginController = {
  phase: "waiting",
  started: { server: "linear", authorizationUrl: URL, browserProblem: null },
  start: vi.fn(),
  cancel: vi.fn(),
  cancelling: false,
  dismiss: vi.fn(),
};

/** Replaces the clipboard with one whose writeText answers as `writeText` does. */
function clipboard(writeText: () => Promise<void>) {
  Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: vi.fn(writeText) } });
  return navigator.clipboard.writeText as ReturnType<typeof vi.fn>;
}

/** Presses Copy and lets the clipboard's promise settle. */
async function pressCopy() {
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "Copy the authorization link" }));
    await Promise.resolve();
  });
}

describe("LoginPanel copy", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, "clipboard");
  });

  // Pins: "Copied." shows after a copy and goes after about two seconds (it used to stay for good).
  it("says Copied for two seconds", async () => {
    const writeText = clipboard(() => Promise.resolve());
    render(<LoginPanel server="linear" login={WAITING} />);
    await pressCopy();
    expect(writeText).toHaveBeenCalledWith(URL);
    expect(screen.getByText("Copied.")).toBeInTheDocument();

    act(() => {
      vi.advanceTimersByTime(COPIED_FOR_MS - 100);
    });
    expect(screen.getByText("Copied.")).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText("Copied.")).not.toBeInTheDocument();
  });

  // Pins: a second copy while "Copied." shows keeps it for two seconds from that copy.
  it("restarts the two seconds on a second copy", async () => {
    clipboard(() => Promise.resolve());
    render(<LoginPanel server="linear" login={WAITING} />);
    await pressCopy();
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    await pressCopy();
    act(() => {
      vi.advanceTimersByTime(1500);
    });
    expect(screen.getByText("Copied.")).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(screen.queryByText("Copied.")).not.toBeInTheDocument();
  });

  // Pins: a refused clipboard says to copy by hand, and that stays (it is an instruction, not a confirmation).
  it("keeps the refusal", async () => {
    clipboard(() => Promise.reject(new Error("denied")));
    render(<LoginPanel server="linear" login={WAITING} />);
    await pressCopy();
    expect(screen.getByText("Could not copy: select the link and copy it by hand.")).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(COPIED_FOR_MS * 3);
    });
    expect(screen.getByText("Could not copy: select the link and copy it by hand.")).toBeInTheDocument();
  });
});
