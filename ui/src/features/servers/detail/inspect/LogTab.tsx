// The Log tab of a server's page: what the server logged and Plugboard's warnings about it, history first and then
// live, virtualised, filtered by a minimum level, following new lines until the person scrolls up. Server text inert.
import { useId, useState } from "react";
import type { ServerLogEntry, ServerStatus } from "../../../../ipc/bindings";
import { revealHidden } from "../../revealHidden";
import { LEVELS, PLUGBOARD_WARNING, severity } from "./logLevels";
import NotReadyNote from "./NotReadyNote";
import { LoadError } from "./ResourcesTab";
import { useServerLog } from "./useServerLog";
import VirtualList from "../VirtualList";

/** Props for {@link LogTab}. */
type LogTabProps = {
  /** The server's name in servers.json. */
  server: string;
  /** Its live status, or undefined while none has been reported. */
  status: ServerStatus | undefined;
};

export default function LogTab({ server, status }: LogTabProps) {
  const log = useServerLog(server);
  const filterId = useId();
  const [minimum, setMinimum] = useState(0);
  if (log.isPending) {
    return (
      <p role="status" className="text-muted">
        Loading the log…
      </p>
    );
  }
  if (log.isError) return <LoadError what="log" message={log.error.message} />;
  const shown = minimum === 0 ? log.data : log.data.filter((line) => severity(line.level) >= minimum);
  return (
    <div className="flex flex-col gap-2">
      {status?.state !== "ready" && <NotReadyNote status={status} what="new log lines" />}
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor={filterId}>Show</label>
        <select
          id={filterId}
          value={minimum}
          onChange={(event) => setMinimum(Number(event.target.value))}
          className="rounded-md border border-line bg-surface px-2 py-1"
        >
          <option value={0}>every level</option>
          {LEVELS.slice(1).map((level, index) => (
            <option key={level} value={index + 1}>
              {level} and above
            </option>
          ))}
        </select>
        <span className="text-muted">
          {shown.length} of {log.data.length} lines
        </span>
      </div>
      {log.data.length === 0 ? (
        <p className="text-sm text-muted">Nothing logged yet. Lines appear here as the server sends them.</p>
      ) : (
        <VirtualList
          items={shown}
          label="Log lines"
          itemKey={(line) => line.seq}
          estimateRowPx={28}
          follow
          heightClass="h-[min(28rem,55vh)]"
          renderItem={(line) => <LogLine line={line} />}
        />
      )}
    </div>
  );
}

function LogLine({ line }: { line: ServerLogEntry }) {
  // The backend sends milliseconds as a float, which the bindings type as nullable (NaN travels as null).
  const at = new Date(line.atMs ?? 0);
  const time = at.toLocaleTimeString();
  const ours = line.level === PLUGBOARD_WARNING;
  const loud = severity(line.level) >= severity("warning");
  return (
    <div className="flex items-baseline gap-2 px-3 py-1 font-mono text-[13px]">
      <time dateTime={at.toISOString()} className="shrink-0 text-muted">
        {time}
      </time>
      <span className={`w-20 shrink-0 ${loud ? "font-semibold text-danger" : "text-muted"}`}>
        {ours ? "plugboard" : revealHidden(line.level)}
      </span>
      {line.logger !== null && <span className="shrink-0 text-muted">[{revealHidden(line.logger)}]</span>}
      <span className="min-w-0 flex-1 wrap-anywhere whitespace-pre-wrap">{revealHidden(line.message)}</span>
    </div>
  );
}
