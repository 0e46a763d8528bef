// The secrets a server's entry refers to (`${secret:NAME}`): which are stored, and a password field to set or replace
// each, plus Delete. A value goes to the keychain once and is never shown or read back; the field empties on save.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { commands, type SecretState, type ServerStatus } from "../../../ipc/bindings";
import { call } from "../../../ipc/client";
import { useConfigChanged } from "../../../ipc/useConfigChanged";
import { revealHidden } from "../revealHidden";

/** Cache key of one server's secret states. */
const secretsQueryKey = (server: string) => ["serverSecrets", server] as const;

/** Props for {@link SecretsPanel}. */
type SecretsPanelProps = {
  server: string;
  /** Its live status: a server that is not ready is connected again once a secret is stored, so it uses it. */
  status: ServerStatus | undefined;
};

export default function SecretsPanel({ server, status }: SecretsPanelProps) {
  const queryClient = useQueryClient();
  // An edit of the entry can add or drop a reference.
  useConfigChanged(() => void queryClient.invalidateQueries({ queryKey: secretsQueryKey(server) }));
  const secrets = useQuery({ queryKey: secretsQueryKey(server), queryFn: () => call(commands.serverSecrets(server)) });
  if (secrets.isPending || (secrets.isSuccess && secrets.data.length === 0)) return null;

  return (
    <section aria-labelledby="secrets-title" className="mt-4 rounded-lg border border-line bg-surface px-5 py-3">
      <h2 id="secrets-title" className="mb-2 flex items-center gap-1.5 font-semibold">
        <KeyRound size={15} aria-hidden="true" />
        Secrets
      </h2>
      {secrets.isError ? (
        <p role="status" className="text-sm text-danger wrap-anywhere">
          Couldn't read the keychain: {revealHidden(secrets.error.message)}
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {secrets.data.map((secret) => (
            <SecretRow key={secret.name} server={server} secret={secret} reconnect={status?.state !== "ready"} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Props for {@link SecretRow}. */
type SecretRowProps = {
  server: string;
  secret: SecretState;
  /** Whether storing it should connect the server again (it is not ready, maybe for want of this secret). */
  reconnect: boolean;
};

function SecretRow({ server, secret, reconnect }: SecretRowProps) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: secretsQueryKey(server) });
  const save = useMutation({
    mutationFn: async (typed: string) => {
      await call(commands.setSecret(server, secret.name, typed));
      if (reconnect) await call(commands.connectServer(server));
    },
    onSuccess: () => {
      setValue("");
      return refresh();
    },
  });
  const remove = useMutation({ mutationFn: () => call(commands.deleteSecret(server, secret.name)), onSuccess: refresh });
  const fieldId = `secret-${secret.name}`;
  const failure = save.error ?? remove.error;

  return (
    <li className="text-sm">
      <form
        aria-label={`Secret ${secret.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          if (value !== "") save.mutate(value);
        }}
        className="flex flex-wrap items-center gap-2"
      >
        <label htmlFor={fieldId} className="min-w-40 font-mono text-[13px] wrap-anywhere">
          {secret.name}
        </label>
        <span className={`w-36 text-xs ${secret.stored ? "text-ok" : "font-medium text-danger"}`}>
          {secret.stored ? "Stored in the keychain" : "Not set"}
        </span>
        <input
          id={fieldId}
          type="password"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoComplete="off"
          placeholder={secret.stored ? "New value" : "Value"}
          className="w-56 rounded-md border border-line bg-canvas px-2 py-0.5"
        />
        <button
          type="submit"
          aria-disabled={value === "" || save.isPending}
          className="inline-flex items-center gap-1 rounded-md border border-line bg-surface px-2.5 py-0.5 hover:bg-canvas aria-disabled:opacity-60"
        >
          {save.isPending && <LoaderCircle size={12} aria-hidden="true" className="animate-spin" />}
          {secret.stored ? "Replace" : "Save"} <span className="sr-only">{secret.name}</span>
        </button>
        {secret.stored && (
          <button
            type="button"
            onClick={remove.isPending ? undefined : () => remove.mutate()}
            className="rounded-md px-1 text-xs text-muted hover:text-danger"
          >
            Delete <span className="sr-only">{secret.name}</span>
          </button>
        )}
      </form>
      {save.isSuccess && value === "" && (
        <p role="status" className="mt-0.5 text-xs text-muted">
          Saved to the keychain.
        </p>
      )}
      {failure !== null && (
        <p role="status" className="mt-0.5 text-xs text-danger wrap-anywhere">
          Couldn't change the secret: {revealHidden(failure.message)}
        </p>
      )}
    </li>
  );
}
