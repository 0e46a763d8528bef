// The Settings screen's gateway panel: how other apps reach the person's curated tools. `plugboard serve --stdio`
// needs no setting; the HTTP endpoint on 127.0.0.1 is switched on here, on a port, with its URL to copy, and its
// bearer token copied (never shown unless the clipboard is refused) or replaced.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { commands, type EndpointSettings, type EndpointStatus } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import CopyButton from "../../shell/CopyButton";

const QUERY_KEY = ["gateway-endpoint"];

export default function GatewayPanel() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: QUERY_KEY, queryFn: () => call(commands.gatewayEndpoint()) });
  // What was asked, set in the change handler itself: the mutation's own pending state reaches React only after
  // the event, so a controlled checkbox would snap back to the saved value in between.
  const [requested, setRequested] = useState<EndpointSettings>();
  const apply = useMutation({
    mutationFn: (settings: EndpointSettings) => call(commands.setGatewayEndpoint(settings)),
    onSuccess: (next) => queryClient.setQueryData(QUERY_KEY, next),
    onSettled: () => setRequested(undefined),
  });

  return (
    <section aria-labelledby="gateway-heading" className="rounded-lg border border-line bg-surface p-4">
      <h2 id="gateway-heading" className="mb-2 font-semibold">
        Gateway for other apps
      </h2>
      <p className="mb-3 text-sm text-muted">
        Apps such as Claude Desktop or Cursor launch <code className="font-mono">plugboard serve --stdio</code> and
        see exactly the tools you curated here. Apps that connect over HTTP use the endpoint below.
      </p>
      {status.isPending && <p role="status">Checking the endpoint…</p>}
      {status.isError && <p role="alert">Could not read the endpoint&apos;s settings: {status.error.message}</p>}
      {status.data && (
        <EndpointForm
          key={`${status.data.settings.enabled}-${status.data.settings.port}`}
          status={status.data}
          // While a change is saved the checkbox shows what was asked; a failure puts the saved state back.
          requested={requested}
          saving={requested !== undefined}
          onApply={(settings) => {
            setRequested(settings);
            apply.mutate(settings);
          }}
        />
      )}
      {apply.isError && <p role="alert">Could not change the endpoint: {apply.error.message}</p>}
      <TokenActions />
    </section>
  );
}

/** Props for {@link EndpointForm}. */
type EndpointFormProps = {
  status: EndpointStatus;
  /** The settings being saved, if any. */
  requested: EndpointSettings | undefined;
  saving: boolean;
  onApply: (settings: EndpointSettings) => void;
};

function EndpointForm({ status, requested, saving, onApply }: EndpointFormProps) {
  const [port, setPort] = useState(String(status.settings.port));
  const parsed = Number(port);
  const portValid = Number.isInteger(parsed) && parsed >= 1024 && parsed <= 65535;
  const enabled = (requested ?? status.settings).enabled;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-4">
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={enabled}
            disabled={saving || !portValid}
            onChange={(event) => onApply({ enabled: event.currentTarget.checked, port: parsed })}
          />
          Serve over HTTP on this computer
        </label>
        <form
          className="flex items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (portValid) onApply({ enabled, port: parsed });
          }}
        >
          <label className="flex flex-col text-sm">
            Port
            <input
              inputMode="numeric"
              value={port}
              aria-invalid={!portValid}
              aria-describedby="gateway-port-hint"
              onChange={(event) => setPort(event.currentTarget.value)}
              className="w-24 rounded-md border border-line bg-canvas px-2 py-1 font-mono"
            />
          </label>
          <button
            type="submit"
            disabled={saving || !portValid || parsed === status.settings.port}
            className="rounded-md border border-line px-2.5 py-1 text-sm hover:bg-canvas disabled:opacity-50"
          >
            Use this port
          </button>
        </form>
      </div>
      <p id="gateway-port-hint" className={portValid ? "text-xs text-muted" : "text-xs text-danger"}>
        {portValid ? "It listens on 127.0.0.1 only: other computers cannot reach it." : "A port is a number from 1024 to 65535."}
      </p>
      {status.url && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-muted">Running at</span>
          <code className="font-mono select-all">{status.url}</code>
          <CopyButton
            label="Copy URL"
            text={() => status.url ?? ""}
            fallbackLabel="The clipboard was refused; copy the URL from here:"
          />
        </div>
      )}
      {enabled && status.problem && (
        <p role="alert" className="text-sm">
          The endpoint is not running: {status.problem}
        </p>
      )}
    </div>
  );
}

/** Copy the token (fetched at the click) or replace it, after a second click that says what replacing does. */
function TokenActions() {
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation({
    mutationFn: () => call(commands.rotateGatewayToken()),
    onSettled: () => setConfirming(false),
  });

  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
      <span className="text-muted">Clients send the token as Authorization: Bearer …</span>
      <CopyButton
        label="Copy token"
        text={() => call(commands.gatewayToken())}
        fallbackLabel="The clipboard was refused; copy the token from here (it is a password):"
      />
      {confirming ? (
        <>
          <button
            type="button"
            onClick={() => rotate.mutate()}
            disabled={rotate.isPending}
            className="rounded-md border border-danger px-2.5 py-0.5 text-danger hover:bg-canvas"
          >
            Replace the token: every app using it must get the new one
          </button>
          <button type="button" onClick={() => setConfirming(false)} className="px-2 py-0.5 hover:underline">
            Keep it
          </button>
        </>
      ) : (
        <button
          type="button"
          onClick={() => setConfirming(true)}
          className="rounded-md border border-line px-2.5 py-0.5 hover:bg-canvas"
        >
          Replace token…
        </button>
      )}
      {rotate.isSuccess && <p role="status">The token was replaced. Copy the new one into your apps.</p>}
      {rotate.isError && <p role="alert">Could not replace the token: {rotate.error.message}</p>}
    </div>
  );
}
