// A server's life from its page: turn it on or off, restart it, rename it. Each is one command; the resulting
// states arrive through the backend's events, so nothing here guesses a status.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle, PencilLine, Power, PowerOff, RotateCw } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { commands, type ServerStatus } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { revealHidden } from "../revealHidden";
import { SERVERS_QUERY_KEY } from "../useServers";

/** Props for {@link ServerLifecycle}. */
type ServerLifecycleProps = {
  /** The server's name, as servers.json has it. */
  server: string;
  /** Whether servers.json has it turned on. */
  enabled: boolean;
  /** Its live status, or undefined while none has been reported. */
  status: ServerStatus | undefined;
};

const BUTTON =
  "inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-2.5 py-0.5 text-sm whitespace-nowrap hover:bg-canvas aria-disabled:opacity-60";

export default function ServerLifecycle({ server, enabled, status }: ServerLifecycleProps) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const toggle = useMutation({
    mutationFn: () => call(commands.setServerEnabled(server, !enabled)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVERS_QUERY_KEY }),
  });
  const restart = useMutation({ mutationFn: () => call(commands.restartServer(server)) });
  const failure = toggle.error ?? restart.error;
  // Only a running server restarts: a failed one has Retry, a stopped one Connect, a connecting one is starting.
  const restartable = enabled && (status?.state === "ready" || status?.state === "reconnecting");

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap items-center justify-end gap-2">
        <ActionButton
          onPress={() => toggle.mutate()}
          pending={toggle.isPending}
          icon={enabled ? <PowerOff size={14} aria-hidden="true" /> : <Power size={14} aria-hidden="true" />}
          label={enabled ? "Turn off" : "Turn on"}
        />
        {restartable && (
          <ActionButton
            onPress={() => restart.mutate()}
            pending={restart.isPending}
            icon={<RotateCw size={14} aria-hidden="true" />}
            label="Restart"
          />
        )}
        {!renaming && (
          <ActionButton
            onPress={() => setRenaming(true)}
            pending={false}
            icon={<PencilLine size={14} aria-hidden="true" />}
            label="Rename"
          />
        )}
      </div>
      {renaming && <RenameForm server={server} onClose={() => setRenaming(false)} />}
      {failure !== null && (
        <p role="status" className="text-xs text-danger wrap-anywhere">
          Couldn't change the server: {revealHidden(failure.message)}
        </p>
      )}
    </div>
  );
}

/** Props for {@link ActionButton}. */
type ActionButtonProps = {
  onPress: () => void;
  pending: boolean;
  icon: ReactNode;
  label: string;
};

/** A header button that shows a spinner while its command runs and ignores presses meanwhile. */
function ActionButton({ onPress, pending, icon, label }: ActionButtonProps) {
  return (
    <button type="button" onClick={pending ? undefined : onPress} aria-disabled={pending} className={BUTTON}>
      {pending ? <LoaderCircle size={14} aria-hidden="true" className="animate-spin" /> : icon}
      {label}
    </button>
  );
}

/** Props for {@link RenameForm}. */
type RenameFormProps = {
  server: string;
  /** Called when the person cancels, and after a rename (the page then moves to the new name). */
  onClose: () => void;
};

/** The new name, saved by rename_server (its secrets move with it); the page follows the server to its new name. */
function RenameForm({ server, onClose }: RenameFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(server);
  const input = useRef<HTMLInputElement>(null);
  const rename = useMutation({
    mutationFn: (to: string) => call(commands.renameServer(server, to)),
    onSuccess: async (_, to) => {
      await queryClient.invalidateQueries({ queryKey: SERVERS_QUERY_KEY });
      onClose();
      void navigate(`/servers/${encodeURIComponent(to)}`, { replace: true });
    },
  });
  useEffect(() => {
    input.current?.select();
  }, []);
  const trimmed = name.trim();

  return (
    <form
      aria-label={`Rename ${server}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (trimmed !== "" && trimmed !== server) rename.mutate(trimmed);
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
      className="flex flex-col items-end gap-1 rounded-md border border-line bg-canvas p-2 text-sm"
    >
      <div className="flex items-center gap-2">
        <label htmlFor="rename-server" className="text-muted">
          New name
        </label>
        <input
          id="rename-server"
          ref={input}
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          className="w-48 rounded-md border border-line bg-surface px-2 py-0.5 font-mono text-[13px]"
        />
        <button type="submit" aria-disabled={rename.isPending} className={BUTTON}>
          Save name
        </button>
        <button type="button" onClick={onClose} className={BUTTON}>
          Cancel
        </button>
      </div>
      {rename.isError && (
        <p role="status" className="text-xs text-danger wrap-anywhere">
          Couldn't rename: {revealHidden(rename.error.message)}
        </p>
      )}
    </form>
  );
}
