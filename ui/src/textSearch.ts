// The app's one text search (presets, servers): a query matches when every word of it appears in the text, in any
// case and order. An empty query matches everything.

/** Whether every whitespace-separated word of `query` appears in one of `texts`, ignoring case. */
export function hasEveryWord(texts: readonly string[], query: string): boolean {
  // Joined by a newline: no word of the query holds whitespace, so none can match across two texts.
  const haystack = texts.join("\n").toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/u)
    .filter((word) => word !== "")
    .every((word) => haystack.includes(word));
}
