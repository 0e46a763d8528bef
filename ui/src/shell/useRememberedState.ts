// useState whose value outlives the component: it starts from what the session memory holds for the slot and writes
// every change back, so a page left and opened again shows what the person left (see sessionMemory.ts).
import { useEffect, useState, type Dispatch, type SetStateAction } from "react";
import { useSessionMemory, type MemorySlot } from "./sessionMemory";

/** The slot's value and its setter, as useState gives them; the value is remembered for the app's session. */
export function useRememberedState<T>(slot: MemorySlot<T>): [T, Dispatch<SetStateAction<T>>] {
  const memory = useSessionMemory();
  // Read once, on mount: from then on this state is the newest value and the memory follows it.
  const [value, setValue] = useState(() => memory.read(slot));
  useEffect(() => {
    memory.write(slot, value);
  }, [memory, slot, value]);
  return [value, setValue];
}
