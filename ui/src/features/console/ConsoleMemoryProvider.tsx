// Gives the pages under the app shell one ConsoleMemory for the app's lifetime (see consoleMemory.ts).
import { useState, type ReactNode } from "react";
import { ConsoleMemory, ConsoleMemoryContext } from "./consoleMemory";

export default function ConsoleMemoryProvider({ children }: { children: ReactNode }) {
  const [memory] = useState(() => new ConsoleMemory());
  return <ConsoleMemoryContext value={memory}>{children}</ConsoleMemoryContext>;
}
