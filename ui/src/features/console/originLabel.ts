// Who made a recorded call, in words: the MCP client that called through the gateway (its own name, client text
// shown inert), or Plugboard itself.
import { revealHidden } from "../servers/revealHidden";

/** "via Claude Desktop" for a call through the gateway, null for Plugboard's own console or CLI. */
export function originLabel(origin: string | null): string | null {
  return origin === null ? null : `via ${revealHidden(origin)}`;
}
