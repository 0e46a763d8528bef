// Pure helpers over read-only sets held in React state (a new set for each change, so the change is seen).

/** `set` with `item` in it when `on`, without it otherwise; the same set when nothing changes. */
export function toggled<T>(set: ReadonlySet<T>, item: T, on: boolean): ReadonlySet<T> {
  if (set.has(item) === on) return set;
  const next = new Set(set);
  if (on) next.add(item);
  else next.delete(item);
  return next;
}
