// Whether many servers failing at once is really one problem: this computer cannot look names up (it is offline).
// The core starts the message of a server whose host name did not resolve with DNS_FAILURE_PREFIX
// (supervisor/connector.rs), which a crash loop's "last error: …" quotes; keep the two in step.
import type { ServerStatus } from "../../ipc/bindings";

export const DNS_FAILURE_PREFIX = "Could not look up ";

/** From this many servers whose names did not resolve, the page says the machine looks offline, once. */
export const OFFLINE_THRESHOLD = 3;

/** The servers (by name) whose latest failure is a name that did not resolve. */
export function dnsFailures(statuses: ReadonlyMap<string, ServerStatus>): string[] {
  const failing: string[] = [];
  for (const [server, status] of statuses) {
    const message = status.state === "failed" ? status.error : status.state === "reconnecting" ? status.reason : null;
    if (message?.includes(DNS_FAILURE_PREFIX)) failing.push(server);
  }
  return failing.sort();
}
