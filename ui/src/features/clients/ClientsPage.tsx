// The Clients screen: every AI app Plugboard can connect, each with its state, its files and its tool budget.
// Connecting writes one `plugboard` entry into the app's own file, after the exact change was shown and confirmed.
import { useState } from "react";
import type { ChangeRequest } from "../../ipc/bindings";
import PageHeader from "../../shell/PageHeader";
import ChangeDialog from "./ChangeDialog";
import ClientCard, { type ClientAction } from "./ClientCard";
import { useClients } from "./useClients";

/** The dialog's request, with the client's name and the button it came from. */
type Open = { request: ChangeRequest; label: string; opener: HTMLElement };

function requestOf(client: string, action: ClientAction): ChangeRequest {
  switch (action.kind) {
    case "connect":
      return { kind: "connect", client, profile: action.profile, moveDuplicates: false };
    case "disconnect":
      return { kind: "disconnect", client };
    case "restore":
      return { kind: "restore", client };
  }
}

export default function ClientsPage() {
  const clients = useClients();
  const [open, setOpen] = useState<Open | null>(null);
  return (
    <>
      <PageHeader
        title="Clients"
        actions={
          <button
            type="button"
            onClick={() => void clients.refetch()}
            className="rounded-md border border-line px-2.5 py-1 text-sm hover:bg-canvas"
          >
            Look again
          </button>
        }
      />
      <p className="mb-4 text-sm text-muted">
        Connect an AI app and it sees exactly the tools you curated, through one <code className="font-mono">plugboard</code>{" "}
        entry in its own config file. The rest of the file stays as it is, and nothing is written before you have seen
        the change.
      </p>
      {clients.isPending && <p role="status">Looking for clients…</p>}
      {clients.isError && <p role="alert">Could not look for clients: {clients.error.message}</p>}
      <div className="flex flex-col gap-3">
        {clients.data?.map((status) => (
          <ClientCard
            key={status.client}
            status={status}
            onAction={(action, opener) =>
              setOpen({ request: requestOf(status.client, action), label: status.label, opener })
            }
          />
        ))}
      </div>
      {open && (
        <ChangeDialog request={open.request} label={open.label} opener={open.opener} onClose={() => setOpen(null)} />
      )}
    </>
  );
}
