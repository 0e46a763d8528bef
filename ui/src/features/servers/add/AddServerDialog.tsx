// "Add server" by hand: a name, then a local command (program + one argument per line, never a shell, with its
// environment variables) or a remote URL (with its headers and the OAuth choice); values marked secret go to the
// keychain. The entry that will be saved is shown and checked by the core as the person types, a program that is
// not installed is said before saving; Add saves it atomically and opens the new server's page.
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { commands } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { useDialogFocus } from "../../../shell/useDialogFocus";
import { revealHidden } from "../revealHidden";
import { SERVERS_QUERY_KEY } from "../useServers";
import NamedValuesEditor from "./NamedValuesEditor";
import { EMPTY_FORM, entrySecrets, entryText, type NewServerForm } from "./newEntry";
import { useNewServerCheck } from "./useNewServerCheck";
import { useProgramCheck } from "./useProgramCheck";

/** Props for {@link AddServerDialog}. */
type AddServerDialogProps = {
  /** Closes the dialog (Cancel, Escape, the close button). */
  onClose: () => void;
  /** The button that opened it, which gets the focus back when it closes. */
  opener: HTMLElement | null;
};

const FIELD = "w-full rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm";

export default function AddServerDialog({ onClose, opener }: AddServerDialogProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [form, setForm] = useState<NewServerForm>(EMPTY_FORM);
  const focus = useDialogFocus(opener);
  const entry = entryText(form);
  const check = useNewServerCheck(name.trim(), entry);
  const program = useProgramCheck(form.kind === "command" ? form.command : "");
  const add = useMutation({
    mutationFn: () => call(commands.addServer(name.trim(), entry, entrySecrets(form))),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: SERVERS_QUERY_KEY });
      void navigate(`/servers/${encodeURIComponent(name.trim())}`);
    },
  });
  const set = (change: Partial<NewServerForm>) => setForm((now) => ({ ...now, ...change }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  const problem = check.data ?? null;
  const missingProgram = form.kind === "command" && form.command.trim() !== "" ? (program.data ?? null) : null;

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          // The Name field, not the close button, takes the focus; closing gives it back to Add server, or to the new
          // server's page title after an add.
          {...focus}
          className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[min(38rem,94vw)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-line bg-surface p-5 text-fg shadow-lg">
          <div className="mb-1 flex items-start justify-between gap-2">
            <Dialog.Title className="text-base font-semibold">Add a server</Dialog.Title>
            <Dialog.Close aria-label="Close" className="rounded p-1 text-muted hover:bg-canvas">
              <X size={16} aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mb-4 text-sm text-muted">
            A program on this computer or a remote URL. Mark a value secret (an API key, a token) and it goes to the
            keychain, never into servers.json.
          </Dialog.Description>
          <form onSubmit={submit} className="flex flex-col gap-3">
            <label className="flex flex-col gap-1 text-sm">
              <span>Name</span>
              <input
                required
                value={name}
                onChange={(event) => setName(event.target.value)}
                className={`${FIELD} font-mono`}
                spellCheck={false}
                autoComplete="off"
              />
            </label>
            <fieldset className="flex gap-4 text-sm">
              <legend className="mb-1">How it runs</legend>
              <label className="flex items-center gap-1.5">
                <input type="radio" name="kind" checked={form.kind === "command"} onChange={() => set({ kind: "command" })} />
                A command on this computer
              </label>
              <label className="flex items-center gap-1.5">
                <input type="radio" name="kind" checked={form.kind === "url"} onChange={() => set({ kind: "url" })} />
                A remote URL
              </label>
            </fieldset>
            {form.kind === "command" ? (
              <>
                <label className="flex flex-col gap-1 text-sm">
                  <span>Program</span>
                  <input
                    required
                    value={form.command}
                    onChange={(event) => set({ command: event.target.value })}
                    placeholder="npx"
                    className={`${FIELD} font-mono`}
                    spellCheck={false}
                  />
                </label>
                <label className="flex flex-col gap-1 text-sm">
                  <span>
                    Arguments <span className="text-muted">(one per line, taken literally)</span>
                  </span>
                  <textarea
                    value={form.argumentLines}
                    onChange={(event) => set({ argumentLines: event.target.value })}
                    rows={3}
                    placeholder={"-y\n@modelcontextprotocol/server-everything"}
                    className={`${FIELD} font-mono`}
                    spellCheck={false}
                  />
                </label>
                <NamedValuesEditor
                  legend="Environment variables"
                  noun="variable"
                  namePlaceholder="API_KEY"
                  rows={form.env}
                  onChange={(env) => set({ env })}
                />
              </>
            ) : (
              <div className="grid grid-cols-[minmax(0,1fr)_max-content] gap-3">
                <label className="flex flex-col gap-1 text-sm">
                  <span>URL</span>
                  <input
                    required
                    type="url"
                    value={form.url}
                    onChange={(event) => set({ url: event.target.value })}
                    placeholder="https://mcp.example.com/mcp"
                    className={`${FIELD} font-mono`}
                    spellCheck={false}
                  />
                </label>
                <label className="flex flex-col gap-1 text-sm">
                  <span>Transport</span>
                  <select
                    value={form.transport}
                    onChange={(event) => set({ transport: event.target.value as NewServerForm["transport"] })}
                    className={FIELD}
                  >
                    <option value="detect">Detect</option>
                    <option value="http">Streamable HTTP</option>
                    <option value="sse">Legacy SSE</option>
                  </select>
                </label>
                <label className="col-span-2 flex items-center gap-1.5 text-sm">
                  <input type="checkbox" checked={form.oauth} onChange={(event) => set({ oauth: event.target.checked })} />
                  Log in with OAuth <span className="text-muted">(the server sends you to its sign-in page)</span>
                </label>
                <div className="col-span-2">
                  <NamedValuesEditor
                    legend="Headers"
                    noun="header"
                    namePlaceholder="Authorization"
                    rows={form.headers}
                    onChange={(headers) => set({ headers })}
                  />
                </div>
              </div>
            )}
            <section aria-label="The entry that will be saved" className="rounded-md border border-line bg-canvas px-3 py-2">
              <h3 className="mb-1 text-xs font-semibold text-muted">Saved in servers.json as</h3>
              <pre className="font-mono text-[13px] wrap-anywhere whitespace-pre-wrap">{entry}</pre>
            </section>
            {missingProgram !== null && (
              <p role="status" className="rounded-md bg-warn-soft px-3 py-2 text-sm wrap-anywhere">
                {revealHidden(missingProgram)}
              </p>
            )}
            {problem !== null && name.trim() !== "" && (
              <p role="status" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger wrap-anywhere">
                {problem.field === null ? "" : `${problem.field}: `}
                {revealHidden(problem.message)}
              </p>
            )}
            {add.isError && (
              <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger wrap-anywhere">
                Couldn't add the server: {revealHidden(add.error.message)}
              </p>
            )}
            <div className="mt-1 flex justify-end gap-2">
              <Dialog.Close className="rounded-md border border-line px-3 py-1.5 text-sm hover:bg-canvas">Cancel</Dialog.Close>
              <button
                type="submit"
                disabled={add.isPending || problem !== null}
                className="inline-flex items-center gap-1.5 rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-on-accent disabled:opacity-50"
              >
                {add.isPending && <LoaderCircle size={14} aria-hidden="true" className="animate-spin" />}
                Add server
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
