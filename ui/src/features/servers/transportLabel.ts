// Human names for the transport kinds the backend reports.
import type { TransportKind } from "../../ipc/bindings";

const LABELS: Record<TransportKind, string> = {
  stdio: "stdio",
  streamableHttp: "Streamable HTTP",
  sse: "SSE",
  probe: "HTTP (auto-detect)",
};

/** The label shown for a transport kind, e.g. "Streamable HTTP" for `streamableHttp`. */
export function transportLabel(kind: TransportKind): string {
  return LABELS[kind];
}
