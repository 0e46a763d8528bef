// Gives the pages under the app shell one SessionMemory for the app's lifetime (see sessionMemory.ts).
import { useState, type ReactNode } from "react";
import { SessionMemory, SessionMemoryContext } from "./sessionMemory";

/** Props for {@link SessionMemoryProvider}. */
type SessionMemoryProviderProps = {
  /** The pages that remember things across navigation: everything the routes show. */
  children: ReactNode;
};

export default function SessionMemoryProvider({ children }: SessionMemoryProviderProps) {
  const [memory] = useState(() => new SessionMemory());
  return <SessionMemoryContext value={memory}>{children}</SessionMemoryContext>;
}
