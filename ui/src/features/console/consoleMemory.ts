// What the Console remembers while the app runs, so leaving it (for Servers, say) and coming back finds the same
// server, tool and typed arguments. Owned by the app shell (ConsoleMemoryProvider) and kept in memory only: arguments
// may hold secrets, so they are never written to disk, and they are gone when the app quits.
import { createContext, useContext } from "react";

/** A server and tool as the Console shows them picked (either may be none). */
export type ConsolePick = { server: string | null; tool: string | null };

/** The Console's memory: the last pick shown and the arguments typed for each server and tool. */
export class ConsoleMemory {
  #pick: ConsolePick | null = null;
  readonly #drafts = new Map<string, string>();

  /** The last pick the Console showed, or null before it showed any. */
  lastPick(): ConsolePick | null {
    return this.#pick;
  }

  rememberPick(pick: ConsolePick): void {
    this.#pick = pick;
  }

  /** The arguments text typed for each server and tool (by draft key), as a fresh object. */
  drafts(): Record<string, string> {
    return Object.fromEntries(this.#drafts);
  }

  rememberDraft(key: string, text: string): void {
    this.#drafts.set(key, text);
  }
}

export const ConsoleMemoryContext = createContext<ConsoleMemory | null>(null);

/** The app's Console memory; throws outside ConsoleMemoryProvider (the app shell provides it). */
export function useConsoleMemory(): ConsoleMemory {
  const memory = useContext(ConsoleMemoryContext);
  if (memory === null) throw new Error("useConsoleMemory needs a ConsoleMemoryProvider above it (the app shell)");
  return memory;
}
