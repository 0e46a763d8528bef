// Tests for the configChanged subscription hook: late unsubscribe, failed subscribe, and the latest handler.
import { renderHook, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { events, type ConfigChanged } from "./bindings";
import { useConfigChanged } from "./useConfigChanged";

vi.mock("./bindings", () => ({
  events: { configChanged: { listen: vi.fn() } },
}));

const listen = vi.mocked(events.configChanged.listen);

describe("useConfigChanged", () => {
  beforeEach(() => {
    listen.mockReset();
  });

  // Pins: unmounting before Tauri finishes registering still unsubscribes once registration completes.
  it("unsubscribes when unmounted before listen resolves", async () => {
    const unlisten = vi.fn();
    let resolve: (stop: () => void) => void = () => {};
    listen.mockReturnValue(new Promise((r) => (resolve = r)));
    const { unmount } = renderHook(() => useConfigChanged(() => {}));

    unmount();
    resolve(unlisten);

    await waitFor(() => expect(unlisten).toHaveBeenCalledTimes(1));
  });

  // Pins: a failed subscription is reported to the console, not thrown as an unhandled rejection.
  it("reports a failed subscription", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    listen.mockReturnValue(Promise.reject(new Error("no Tauri here")));
    renderHook(() => useConfigChanged(() => {}));

    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith("Could not subscribe to config changes", expect.any(Error)),
    );
  });

  // Pins: re-rendering with a new handler does not re-subscribe, and the event reaches the newest handler.
  it("calls the latest handler without re-subscribing", () => {
    let emit: (payload: ConfigChanged) => void = () => {};
    listen.mockImplementation((callback) => {
      emit = (payload) => callback({ event: "config-changed", id: 1, payload });
      return Promise.resolve(() => {});
    });
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = renderHook(({ handler }) => useConfigChanged(handler), { initialProps: { handler: first } });

    rerender({ handler: second });
    emit({ kind: "saved", problem: null });

    expect(listen).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith({ kind: "saved", problem: null });
  });
});
