// Tests for the session memory: a slot starts from its initial value and keeps it, a write is what the next read
// gives, and slots are told apart by identity, not by name.
import { describe, expect, it } from "vitest";
import { SessionMemory, type MemorySlot } from "./sessionMemory";

describe("SessionMemory", () => {
  // Pins: the first read makes the initial value once and keeps it, so a mutable memory object is the same each time.
  it("starts a slot from its initial value and keeps that value", () => {
    const memory = new SessionMemory();
    let made = 0;
    const slot: MemorySlot<{ picks: string[] }> = { name: "picks", initial: () => ({ picks: [String(++made)] }) };

    const first = memory.read(slot);
    first.picks.push("kept");
    expect(memory.read(slot)).toBe(first);
    expect(first.picks).toEqual(["1", "kept"]);
    expect(made).toBe(1);
  });

  // Pins: what was written is what the next read gives.
  it("reads back what was written", () => {
    const memory = new SessionMemory();
    const slot: MemorySlot<string> = { name: "query", initial: () => "" };
    memory.write(slot, "github");
    expect(memory.read(slot)).toBe("github");
  });

  // Pins: two slots that happen to share a name are two slots; two memories share nothing.
  it("keeps slots and memories apart", () => {
    const memory = new SessionMemory();
    const one: MemorySlot<string> = { name: "same", initial: () => "one" };
    const two: MemorySlot<string> = { name: "same", initial: () => "two" };
    memory.write(one, "written");
    expect(memory.read(two)).toBe("two");
    expect(new SessionMemory().read(one)).toBe("one");
  });
});
