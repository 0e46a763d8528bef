// What the Console remembers while the app runs, so leaving it (for Servers, say) and coming back finds the same
// server, tool and typed arguments. Kept in the app shell's session memory (shell/sessionMemory.ts), in memory only:
// arguments may hold secrets, so they are never written to disk, and they are gone when the app quits.
import { useSessionMemory, type MemorySlot } from "../../shell/sessionMemory";

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

// One ConsoleMemory for the session, made the first time the Console opens and changed in place from then on.
const CONSOLE_MEMORY: MemorySlot<ConsoleMemory> = { name: "console", initial: () => new ConsoleMemory() };

/** The app's Console memory; throws outside SessionMemoryProvider (the app shell provides it). */
export function useConsoleMemory(): ConsoleMemory {
  return useSessionMemory().read(CONSOLE_MEMORY);
}
