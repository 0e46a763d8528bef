// What the pages remember while the app runs, so leaving one and coming back finds it as it was (the Console's pick
// and arguments, the Servers page's search, filter and sort). Owned by the app shell (SessionMemoryProvider) and kept
// in memory only: it may hold what the person typed, secrets included, so it is never written to disk and is gone
// when the app quits.
import { createContext, useContext } from "react";

/**
 * One thing a page remembers. The key is the object itself (a module's constant), so two pages never share a slot
 * by picking the same name; `name` only says which slot in errors and tests.
 */
export type MemorySlot<T> = {
  readonly name: string;
  /** The value before anything is remembered (also what a mutable memory object is first made with). */
  readonly initial: () => T;
};

/** The app's memory for this session: one value per slot. */
export class SessionMemory {
  readonly #values = new Map<MemorySlot<unknown>, unknown>();

  /** The slot's remembered value; its initial value (kept from then on) when nothing is remembered yet. */
  read<T>(slot: MemorySlot<T>): T {
    if (!this.#values.has(slot)) this.#values.set(slot, slot.initial());
    // Only write() and the line above store a slot's value, each typed by the slot itself.
    return this.#values.get(slot) as T;
  }

  write<T>(slot: MemorySlot<T>, value: T): void {
    this.#values.set(slot, value);
  }
}

export const SessionMemoryContext = createContext<SessionMemory | null>(null);

/** The app's session memory; throws outside SessionMemoryProvider (the app shell provides it). */
export function useSessionMemory(): SessionMemory {
  const memory = useContext(SessionMemoryContext);
  if (memory === null) throw new Error("useSessionMemory needs a SessionMemoryProvider above it (the app shell)");
  return memory;
}
