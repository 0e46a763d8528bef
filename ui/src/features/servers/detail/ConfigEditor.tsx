// The raw config editor: a server's entry as JSON, checked by the core as the person types, saved atomically
// through update_server; external edits of servers.json show up live, and never silently replace unsaved work.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleAlert, CircleCheck, LoaderCircle } from "lucide-react";
import { useId, useState } from "react";
import { commands } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { revealHidden } from "../revealHidden";
import { SERVERS_QUERY_KEY } from "../useServers";
import JsonCodeEditor from "./JsonCodeEditor";
import SaveBar from "./SaveBar";
import { saveErrorText } from "./saveErrorText";
import { useDebounced } from "./useDebounced";
import { serverEntryQueryKey, useServerEntry } from "./useServerEntry";

/** How long typing must pause before the core checks the text. */
const CHECK_DELAY_MS = 250;

/** Props for {@link ConfigEditor}. */
type ConfigEditorProps = {
  /** The server whose entry is edited (its name in servers.json). */
  server: string;
};

/** Unsaved work: the text being edited and the file's text it started from. */
type Edit = { base: string; text: string };

export default function ConfigEditor({ server }: ConfigEditorProps) {
  const entry = useServerEntry(server);
  if (entry.isPending) {
    return (
      <p role="status" className="text-muted">
        Loading the entry…
      </p>
    );
  }
  if (entry.isError) {
    return (
      <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 wrap-anywhere">
        Couldn't load the entry: {revealHidden(entry.error.message)}
      </p>
    );
  }
  return <EntryForm server={server} fileText={entry.data} />;
}

/** Props for {@link EntryForm}. */
type EntryFormProps = {
  /** The server whose entry is edited. */
  server: string;
  /** The entry as servers.json has it now. */
  fileText: string;
};

/** The editor, its live validation and its Save / Revert buttons, over the file's current text. */
function EntryForm({ server, fileText }: EntryFormProps) {
  const queryClient = useQueryClient();
  const [edit, setEdit] = useState<Edit | null>(null);
  const messageId = useId();
  // Without unsaved changes the editor simply follows the file, so external edits appear as they happen.
  const editing = edit !== null && edit.text !== edit.base ? edit : null;
  const text = editing?.text ?? fileText;
  const changedOnDisk = editing !== null && editing.base !== fileText;

  const checkedText = useDebounced(text, CHECK_DELAY_MS);
  const check = useQuery({
    queryKey: ["checkServerEntry", server, checkedText],
    queryFn: () => call(commands.checkServerEntry(server, checkedText)),
    staleTime: Infinity,
  });
  const checking = checkedText !== text || check.isPending;
  const problem = checking ? null : (check.data ?? null);

  const save = useMutation({
    mutationFn: (toSave: string) => call(commands.updateServer(server, toSave)),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: serverEntryQueryKey(server) }),
        queryClient.invalidateQueries({ queryKey: SERVERS_QUERY_KEY }),
      ]);
      setEdit(null);
    },
  });

  const canSave = editing !== null && !checking && problem === null && !check.isError && !save.isPending;
  const onSave = () => {
    if (canSave) save.mutate(editing.text);
  };

  return (
    <div className="flex flex-col gap-3">
      {changedOnDisk && (
        <div role="status" className="flex flex-wrap items-center gap-3 rounded-md border border-line bg-accent-soft px-4 py-2 text-sm">
          <span>servers.json changed on disk while you were editing this entry.</span>
          <button
            type="button"
            onClick={() => setEdit(null)}
            className="rounded-md border border-line bg-surface px-2.5 py-0.5 hover:bg-canvas"
          >
            Discard my changes and load it
          </button>
        </div>
      )}
      <div className="h-72">
        <JsonCodeEditor
          value={text}
          onChange={(next) => setEdit({ base: editing?.base ?? fileText, text: next })}
          onSave={onSave}
          problem={problem === null ? null : { line: problem.line, column: problem.column, message: problem.message }}
          label={`Entry of ${server} as JSON`}
          describedBy={messageId}
        />
      </div>
      <p id={messageId} aria-live="polite" className="min-h-5 text-sm wrap-anywhere">
        {checking ? (
          <span className="inline-flex items-center gap-1.5 text-muted">
            <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />
            Checking…
          </span>
        ) : check.isError ? (
          <span className="text-danger">Couldn't check the entry: {revealHidden(check.error.message)}</span>
        ) : problem !== null ? (
          <span className="inline-flex items-start gap-1.5 text-danger">
            <CircleAlert size={14} aria-hidden="true" className="mt-[3px] shrink-0" />
            <span>
              Line {problem.line}, column {problem.column}
              {problem.field === null ? "" : ` (${revealHidden(problem.field)})`}: {revealHidden(problem.message)}
            </span>
          </span>
        ) : (
          <span className="inline-flex items-center gap-1.5 text-ok">
            <CircleCheck size={14} aria-hidden="true" />
            {editing === null ? "The entry is valid." : "The entry is valid. Save to apply it (Ctrl+S)."}
          </span>
        )}
      </p>
      <SaveBar
        saveLabel="Save entry"
        onSave={onSave}
        canSave={canSave}
        saving={save.isPending}
        onRevert={() => setEdit(null)}
        canRevert={editing !== null}
      >
        {editing !== null && <span className="text-sm text-muted">Unsaved changes</span>}
      </SaveBar>
      {save.isError && (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-2 text-sm wrap-anywhere">
          {saveErrorText(save.error, "the entry")}
        </p>
      )}
    </div>
  );
}
