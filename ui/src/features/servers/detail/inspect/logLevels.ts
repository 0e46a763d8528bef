// The syslog levels MCP servers log at, in order, and Plugboard's own warning level; for the log's level filter.

/** MCP's levels from least to most severe. */
export const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** The level Plugboard's own notes about a server carry. */
export const PLUGBOARD_WARNING = "plugboard-warning";

/** How severe `level` is (0 = debug); Plugboard's warnings rank as warnings, an unknown level as info. */
export function severity(level: string): number {
  if (level === PLUGBOARD_WARNING) return LEVELS.indexOf("warning");
  const index = (LEVELS as readonly string[]).indexOf(level);
  return index === -1 ? LEVELS.indexOf("info") : index;
}
