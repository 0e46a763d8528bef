// The allowlist editor: which of a server's tools other clients see. All tools (no `tools` key) or an explicit
// list; search, select all / none, one checkbox per tool with its exposed name, and entries that match no tool.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Search } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { commands, type AllowlistView } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { revealHidden } from "../revealHidden";
import { SERVERS_QUERY_KEY } from "../useServers";
import {
  draftFrom,
  dropUnknown,
  isDirty,
  setMode,
  setTicked,
  toSave,
  type AllowlistDraft,
} from "./allowlistDraft";
import SaveBar from "./SaveBar";
import { saveErrorText } from "./saveErrorText";
import ToolList from "./ToolList";
import UnknownEntries from "./UnknownEntries";
import { allowlistQueryKey } from "./useAllowlist";
import { serverEntryQueryKey } from "./useServerEntry";

/** Props for {@link AllowlistEditor}. */
type AllowlistEditorProps = {
  /** The server's name in servers.json (what the save command takes). */
  server: string;
  /** The core's view of the allowlist and the tools; the editor's unsaved draft starts from it. */
  view: AllowlistView;
  /** Whether the server is ready, so its tool list is current and entries matching no tool are worth flagging. */
  ready: boolean;
};

export default function AllowlistEditor({ server, view, ready }: AllowlistEditorProps) {
  const queryClient = useQueryClient();
  // null: follow the view, so external edits of servers.json show up as they happen. A draft that no longer
  // differs from the view is dropped the same way (e.g. once a save has reached the running server).
  const [edited, setEdited] = useState<AllowlistDraft | null>(null);
  const [search, setSearch] = useState("");
  const [savedJson, setSavedJson] = useState<string | null>(null);
  const modeName = useId();
  const searchId = useId();

  const offered = useMemo(() => view.tools.map((tool) => tool.name), [view.tools]);
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (needle === "") return view.tools;
    return view.tools.filter((tool) =>
      [tool.name, tool.exposedName, tool.title ?? "", tool.description ?? ""].some((text) =>
        text.toLowerCase().includes(needle),
      ),
    );
  }, [view.tools, search]);
  // Only against a discovered tool list: with none (the server is starting) every list compares equal.
  if (edited !== null && view.tools.length > 0 && !isDirty(edited, view)) {
    // The view caught up with the draft (a save was applied, or the person undid their change): drop it, so a
    // later external edit is followed instead of being hidden behind a stale draft. React re-renders at once.
    setEdited(null);
  }
  const draft = edited !== null && isDirty(edited, view) ? edited : draftFrom(view);
  const dirty = isDirty(draft, view);
  // Saved but not yet applied by the running server (it restarts with the new allowlist).
  const applying = dirty && savedJson === JSON.stringify(toSave(draft, offered));
  const allowedCount = draft.mode === "all" ? offered.length : offered.filter((tool) => draft.ticked.has(tool)).length;

  const save = useMutation({
    mutationFn: (tools: string[] | null) => call(commands.setServerTools(server, tools)),
    onSuccess: async (_nothing, tools) => {
      setSavedJson(JSON.stringify(tools));
      await Promise.all(
        [allowlistQueryKey(server), serverEntryQueryKey(server), SERVERS_QUERY_KEY].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });

  const change = (next: AllowlistDraft | null) => {
    setEdited(next);
    setSavedJson(null);
  };
  const filtered = shown.length !== view.tools.length;
  const shownNames = shown.map((tool) => tool.name);

  return (
    <div className="flex flex-col gap-4">
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium">Which tools other clients see through Plugboard</legend>
        <div className="flex flex-col gap-1 text-sm">
          <label className="flex items-start gap-2">
            <input
              type="radio"
              name={modeName}
              checked={draft.mode === "all"}
              onChange={() => change(setMode(draft, "all", offered))}
              className="mt-1 accent-accent"
            />
            <span>
              All tools <span className="text-muted">— including any the server adds later (no "tools" list)</span>
            </span>
          </label>
          <label className="flex items-start gap-2">
            <input
              type="radio"
              name={modeName}
              checked={draft.mode === "only"}
              onChange={() => change(setMode(draft, "only", offered))}
              className="mt-1 accent-accent"
            />
            <span>
              Only the ticked tools <span className="text-muted">— tools added later stay hidden</span>
            </span>
          </label>
        </div>
      </fieldset>

      {/* Before the list: a misspelt entry hides a tool, so it must be seen without scrolling. */}
      {ready && draft.mode === "only" && draft.keptUnknown.length > 0 && (
        <UnknownEntries
          entries={draft.keptUnknown}
          available={offered}
          onRemove={(entry) => change(dropUnknown(draft, entry))}
        />
      )}

      {view.tools.length === 0 ? (
        <p className="rounded-md border border-line bg-surface px-4 py-3 text-sm text-muted">
          {ready
            ? "The server offers no tools."
            : "The server's tools appear here once it is connected and ready."}
          {view.entries !== null && (
            <>
              {" "}
              {view.entries.length === 0
                ? "The allowlist lets no tool through."
                : `The allowlist names: ${view.entries.map(revealHidden).join(", ")}.`}
            </>
          )}
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <div className="relative min-w-48 flex-1">
              <label htmlFor={searchId} className="sr-only">
                Search tools
              </label>
              <Search size={14} aria-hidden="true" className="pointer-events-none absolute top-2 left-2.5 text-muted" />
              <input
                id={searchId}
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                placeholder="Search tools by name or description"
                className="w-full rounded-md border border-line bg-surface py-1 pr-2 pl-8 text-sm placeholder:text-muted"
              />
            </div>
            <button
              type="button"
              onClick={() => change(setTicked(draft, offered, shownNames, true))}
              className="rounded-md border border-line bg-surface px-2.5 py-1 text-sm hover:bg-canvas"
            >
              {filtered ? "Select shown" : "Select all"}
            </button>
            <button
              type="button"
              onClick={() => change(setTicked(draft, offered, shownNames, false))}
              className="rounded-md border border-line bg-surface px-2.5 py-1 text-sm hover:bg-canvas"
            >
              {filtered ? "Select none of shown" : "Select none"}
            </button>
            <span className="text-sm text-muted" aria-live="polite">
              {allowedCount} of {offered.length} allowed
              {filtered ? ` · ${shown.length} shown` : ""}
            </span>
          </div>
          {shown.length === 0 ? (
            <p className="px-1 text-sm text-muted">No tool matches “{search}”.</p>
          ) : (
            <ToolList
              tools={shown}
              draft={draft}
              onToggle={(tool, ticked) => change(setTicked(draft, offered, [tool], ticked))}
            />
          )}
        </>
      )}


      <SaveBar
        saveLabel="Save allowlist"
        onSave={() => save.mutate(toSave(draft, offered))}
        canSave={dirty && !applying && !save.isPending}
        saving={save.isPending}
        onRevert={() => change(null)}
        canRevert={dirty && !applying}
      >
        <span role="status" className="text-sm text-muted">
          {applying
            ? "Saved. The server reconnects with the new allowlist…"
            : dirty
              ? "Unsaved changes"
              : savedJson !== null && savedJson === JSON.stringify(toSave(draft, offered))
                ? "Saved."
                : ""}
        </span>
      </SaveBar>
      {save.isError && (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-2 text-sm wrap-anywhere">
          {saveErrorText(save.error, "the allowlist")}
        </p>
      )}
    </div>
  );
}
