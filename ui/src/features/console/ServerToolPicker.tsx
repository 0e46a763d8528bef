// The console's two pickers: a Ready server, then one of its allowed tools (raw names, with titles and descriptions).
import type { ToolInfo } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import Picker from "./Picker";

/** Props for {@link ServerToolPicker}. */
type ServerToolPickerProps = {
  /** The Ready servers' names, or undefined while the statuses load. */
  servers: readonly string[] | undefined;
  server: string | null;
  /** The picked server's allowed tools, or undefined while they load. */
  tools: readonly ToolInfo[] | undefined;
  /** Why the tools could not be loaded, if they could not. */
  toolsError: string | null;
  tool: string | null;
  onServer: (server: string) => void;
  onTool: (tool: string) => void;
};

export default function ServerToolPicker({ servers, server, tools, toolsError, tool, onServer, onTool }: ServerToolPickerProps) {
  const serverMissing = server !== null && servers !== undefined && !servers.includes(server);
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap gap-3">
        <Picker
          label="Server"
          noun="servers"
          options={(servers ?? []).map((name) => ({ value: name }))}
          selected={server}
          onSelect={onServer}
          placeholder={servers === undefined ? "Loading servers…" : servers.length === 0 ? "No server is ready" : "Pick a server"}
          disabled={servers === undefined || servers.length === 0}
        />
        <Picker
          label="Tool"
          noun="tools"
          options={(tools ?? []).map((info) => ({ value: info.name, title: info.title, detail: info.description }))}
          selected={tool}
          onSelect={onTool}
          placeholder={server === null ? "Pick a server first" : tools === undefined ? "Loading tools…" : "Pick a tool"}
          disabled={server === null || tools === undefined || tools.length === 0}
        />
      </div>
      {serverMissing && (
        <p role="status" className="text-sm text-warn">
          {revealHidden(server)} is not ready; calls to it will fail until it connects.
        </p>
      )}
      {toolsError !== null && (
        <p role="alert" className="text-sm text-danger wrap-anywhere">
          Couldn't load the tools: {revealHidden(toolsError)}
        </p>
      )}
      {tools !== undefined && tools.length === 0 && server !== null && (
        <p role="status" className="text-sm text-muted">
          This server offers no allowed tool.
        </p>
      )}
    </div>
  );
}
