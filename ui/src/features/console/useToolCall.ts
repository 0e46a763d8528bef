// Runs one console tool call at a time over run_tool_call: a fresh call id, the Channel's progress and log events
// (the backend sends them a frame's worth at a time: a server may send thousands), Cancel by the same id, and the
// saved entry at the end.
import { useQueryClient } from "@tanstack/react-query";
import { Channel } from "@tauri-apps/api/core";
import { useCallback, useRef, useState } from "react";
import { commands, type CallEvent, type HistoryEntry } from "../../ipc/bindings";
import { call, IpcError } from "../../ipc/client";
import { HISTORY_QUERY_KEY } from "./consoleQueries";

/** Where the console's call is: none yet, running, ended (an outcome, saved in history), or not run at all. */
export type CallPhase =
  | { phase: "idle" }
  | { phase: "running"; callId: string; server: string; tool: string }
  | { phase: "finished"; entry: HistoryEntry }
  | { phase: "rejected"; server: string; tool: string; error: IpcError };

/** What {@link useToolCall} gives the page. */
export type ToolCall = {
  state: CallPhase;
  /** The events of the current (or last) call, in the order the server sent them. */
  events: readonly CallEvent[];
  /** Starts a call with `args` (JSON object text, sent exactly as given); ignored while one runs. */
  run: (server: string, tool: string, args: string) => void;
  /** Asks the backend to cancel the running call (same call id); nothing when none runs. */
  cancel: () => void;
  /** Why a cancel request itself failed, if it did. */
  cancelError: string | null;
  /** Forgets the last call's outcome and events (another tool was picked); a running call is left running. */
  clear: () => void;
};

/** The server and tool of the call `state` is about, or null when there is none. */
export function callTarget(state: CallPhase): { server: string; tool: string } | null {
  if (state.phase === "idle") return null;
  if (state.phase === "finished") return { server: state.entry.server, tool: state.entry.tool };
  return { server: state.server, tool: state.tool };
}

export function useToolCall(): ToolCall {
  const queryClient = useQueryClient();
  const [state, setState] = useState<CallPhase>({ phase: "idle" });
  const [events, setEvents] = useState<readonly CallEvent[]>([]);
  const [cancelError, setCancelError] = useState<string | null>(null);
  // The running call's id: results of an older call (there should be none) are dropped rather than shown.
  const current = useRef<string | null>(null);

  const run = useCallback(
    (server: string, tool: string, args: string) => {
      if (current.current !== null) return;
      const callId = crypto.randomUUID();
      current.current = callId;
      setEvents([]);
      setCancelError(null);
      setState({ phase: "running", callId, server, tool });
      // One state update per batch: 1,000 progress notifications stay at most 60 renders a second.
      const channel = new Channel<CallEvent[]>((batch) => {
        if (current.current !== callId) return;
        setEvents((shown) => shown.concat(batch));
      });
      const settle = (next: CallPhase) => {
        if (current.current !== callId) return;
        current.current = null;
        setState(next);
        void queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY });
      };
      call(commands.runToolCall(callId, server, tool, args, channel)).then(
        (entry) => settle({ phase: "finished", entry }),
        (error: unknown) =>
          settle({ phase: "rejected", server, tool, error: error instanceof IpcError ? error : new IpcError(String(error)) }),
      );
    },
    [queryClient],
  );

  const cancel = useCallback(() => {
    const callId = current.current;
    if (callId === null) return;
    call(commands.cancelToolCall(callId)).catch((error: unknown) =>
      setCancelError(error instanceof Error ? error.message : String(error)),
    );
  }, []);

  const clear = useCallback(() => {
    if (current.current !== null) return;
    setEvents([]);
    setCancelError(null);
    setState({ phase: "idle" });
  }, []);

  return { state, events, run, cancel, cancelError, clear };
}
