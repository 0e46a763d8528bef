/**
 * How a server's protocol version reads beside its status: the version and its era. 2026-07-28 and later are
 * stateless (no `initialize`, every request says who asks); earlier versions open a session. Dates sort as text,
 * the same rule the engine's `Era::of_version` keeps.
 */
export function protocolLabel(version: string): string {
  return `MCP ${version} (${version >= "2026-07-28" ? "stateless" : "with session"})`;
}
