// The Console: pick a Ready server and one of its allowed tools (deep-linkable as /console?server=X&tool=Y), edit
// the arguments as a form or JSON, Run (Ctrl/Cmd+Enter; a missing required argument is marked at its field instead of
// being sent) and Cancel (Escape) with live progress and logs, see the result by content type, and browse, re-run or
// copy past calls from the history. The pick and the typed arguments are kept while the app runs (leaving the page
// and coming back finds them); another pick shows none of the last tool's result.
import { useMemo, useState, type KeyboardEvent } from "react";
import type { HistoryEntry } from "../../ipc/bindings";
import PageHeader from "../../shell/PageHeader";
import { revealHidden } from "../servers/revealHidden";
import ArgumentsEditor from "./ArgumentsEditor";
import { useArgumentsCheck } from "./argumentsCheck";
import { parseArgs } from "./argsJson";
import type { ConsolePick } from "./consoleMemory";
import { useAllowedTools, useReadyServers } from "./consoleQueries";
import EventStream from "./EventStream";
import HistoryPanel from "./HistoryPanel";
import ResultView from "./ResultView";
import RunBar from "./RunBar";
import ServerToolPicker from "./ServerToolPicker";
import { useConsoleSelection } from "./useConsoleSelection";
import { callTarget, useToolCall } from "./useToolCall";

export default function ConsolePage() {
  const { server, tool: toolName, key, text, pick, saveText } = useConsoleSelection();
  const servers = useReadyServers();
  const tools = useAllowedTools(server);
  const tool = toolName === null ? undefined : tools.data?.find((info) => info.name === toolName);
  const [notice, setNotice] = useState<string | null>(null);
  const parsed = useMemo(() => parseArgs(text), [text]);
  const { missing } = useArgumentsCheck(tool?.inputSchema ?? null, parsed).check;
  // The pick whose Run was refused for missing required fields: its form marks them until they are filled in.
  const [refusedKey, setRefusedKey] = useState<string | null>(null);
  const refused = refusedKey === key && missing.length > 0;
  const call = useToolCall();
  const running = call.state.phase === "running";
  // Only the picked tool's own call shows: a result never sits under another tool (one still running stays hidden).
  const target = callTarget(call.state);
  const shown = target !== null && target.server === server && target.tool === toolName;

  const blocked =
    server === null || toolName === null
      ? "Pick a server and a tool."
      : tool === undefined
        ? tools.data === undefined
          ? "Loading the tool…"
          : `${server} offers no allowed tool named ${toolName}.`
        : parsed.ok
          ? null
          : "The arguments are not a JSON object.";

  const run = () => {
    if (running || blocked !== null || server === null || toolName === null) return;
    if (missing.length > 0) {
      setRefusedKey(key);
      return;
    }
    setNotice(null);
    call.run(server, toolName, text);
  };

  /** Shows another server or tool, without the last one's result. */
  const choose = (next: ConsolePick) => {
    if (next.server !== server || next.tool !== toolName) call.clear();
    pick(next);
  };

  const rerun = (entry: HistoryEntry) => {
    const saved = { server: entry.server, tool: entry.tool };
    choose(saved);
    saveText(entry.arguments, saved);
    // History keeps secrets redacted: sending "[redacted]" to the server would be a different call.
    if (entry.arguments.includes('"[redacted]"')) {
      call.clear();
      setNotice("Some values were redacted when this call was saved: fill them in, then Run.");
      return;
    }
    setNotice(null);
    if (!running) call.run(entry.server, entry.tool, entry.arguments);
  };

  // Capture phase: the JSON editor would otherwise take Ctrl+Enter as "insert a line".
  const onKeyDownCapture = (event: KeyboardEvent) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.stopPropagation();
      run();
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && running && !event.defaultPrevented) {
      event.preventDefault();
      call.cancel();
    }
  };

  return (
    <>
      <PageHeader title="Console" />
      <div className="flex flex-col gap-6">
        <section
          aria-label="Tool call"
          onKeyDownCapture={onKeyDownCapture}
          onKeyDown={onKeyDown}
          className="flex flex-col gap-4 rounded-lg border border-line bg-surface p-4"
        >
          <ServerToolPicker
            servers={servers}
            server={server}
            tools={tools.data}
            toolsError={tools.isError ? tools.error.message : null}
            tool={toolName}
            onServer={(next) => choose({ server: next, tool: null })}
            onTool={(next) => choose({ server, tool: next })}
          />
          {tool !== undefined && (
            <>
              {tool.description !== null && tool.description.trim() !== "" && (
                <p className="text-sm text-muted wrap-anywhere whitespace-pre-line">{revealHidden(tool.description)}</p>
              )}
              <ArgumentsEditor
                key={key}
                tool={tool.name}
                schemaText={tool.inputSchema}
                text={text}
                onChange={(next) => saveText(next)}
                showErrors={refusedKey === key}
              />
            </>
          )}
          {notice !== null && (
            <p role="status" className="rounded-md border border-line bg-warn-soft px-3 py-2 text-sm">
              {notice}
            </p>
          )}
          {refused && (
            <p role="alert" className="text-sm text-danger wrap-anywhere">
              {`Fill in the required ${missing.length === 1 ? "argument" : "arguments"} first: ${revealHidden(missing.join(", "))}.`}
            </p>
          )}
          <RunBar running={running} blocked={blocked} onRun={run} onCancel={call.cancel} cancelError={call.cancelError} />
          <EventStream events={shown ? call.events : []} />
          {shown && call.state.phase === "finished" && call.state.entry.unrecorded !== null && (
            <p role="status" className="rounded-md border border-line bg-warn-soft px-3 py-2 text-sm wrap-anywhere">
              {`This call is not in the history: ${revealHidden(call.state.entry.unrecorded)}. Its result below is the only copy.`}
            </p>
          )}
          {shown && call.state.phase === "finished" && (
            <ResultView outcome={call.state.entry.outcome} durationMs={call.state.entry.durationMs} headingLevel={2} />
          )}
          {shown && call.state.phase === "rejected" && (
            <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 text-sm wrap-anywhere">
              {`The call could not be made: ${revealHidden(call.state.error.message)}`}
            </p>
          )}
        </section>
        <HistoryPanel onRerun={rerun} />
      </div>
    </>
  );
}
