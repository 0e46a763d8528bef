// One client on the Clients screen: its state, its tool budget, the file Plugboard writes (and the other places it
// looked), and Connect (with the profile chosen here), Disconnect and Restore, each of which opens the change
// dialog first. Text from the client's file (a parse error) is shown as text.
import { useState } from "react";
import type { ClientStatus, ToolCount } from "../../ipc/bindings";
import ShowInFolder from "../../shell/ShowInFolder";
import BudgetLine from "./BudgetLine";
import { STATE_LABELS, clientState, connectedProfile, toolCount } from "./clientState";
import LimitEditor from "./LimitEditor";

/** What a button asks of the dialog. */
export type ClientAction =
  | { kind: "connect"; profile: string | null }
  | { kind: "disconnect" }
  | { kind: "restore" };

/** Props for {@link ClientCard}. */
type ClientCardProps = {
  status: ClientStatus;
  /** Opens the change dialog for `action`, from the button `opener`. */
  onAction: (action: ClientAction, opener: HTMLElement) => void;
};

const EVERYTHING = "";

export default function ClientCard({ status, onAction }: ClientCardProps) {
  const state = clientState(status);
  const [profile, setProfile] = useState(connectedProfile(status) ?? EVERYTHING);
  const headingId = `client-${status.client}`;
  const connected = state === "connected" || state === "stale";
  const connect = (opener: HTMLElement, chosen: string) =>
    onAction({ kind: "connect", profile: chosen === EVERYTHING ? null : chosen }, opener);

  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4">
      <header className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="font-semibold">
          {status.label}
        </h2>
        <span className="rounded-full bg-canvas px-2 py-0.5 text-xs">{STATE_LABELS[state]}</span>
        {status.budget.over && (
          <span className="rounded-full bg-danger-soft px-2 py-0.5 text-xs text-danger">Over budget</span>
        )}
      </header>
      {status.problem !== null && <p className="text-sm text-danger">{status.problem}</p>}
      {status.connection.state === "stale" && (
        <p className="text-sm">Its plugboard entry is out of date: {status.connection.reason}. Update it below.</p>
      )}
      <BudgetLine
        budget={status.budget}
        label={status.label}
        onUseProfile={(chosen) => {
          setProfile(chosen);
          const button = document.getElementById(`${headingId}-connect`);
          if (button) connect(button, chosen);
        }}
      />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-muted">File</span>
        <code className="font-mono text-xs break-all">{status.file}</code>
        <ShowInFolder place={{ place: "clientFile", client: status.client }} what={`${status.label}'s file`} />
      </div>
      <LookedAt status={status} />
      {status.duplicates.length > 0 && (
        <p className="text-sm">
          {status.duplicates.length === 1 ? "One of its own entries duplicates" : `${status.duplicates.length} of its own entries duplicate`}{" "}
          a server Plugboard has: {status.duplicates.join(", ")}.
        </p>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col text-xs">
          Profile
          <select
            value={profile}
            onChange={(event) => setProfile(event.currentTarget.value)}
            className="rounded-md border border-line bg-canvas px-2 py-1 text-sm"
          >
            {status.budget.options.map((option) => (
              <option key={option.profile ?? EVERYTHING} value={option.profile ?? EVERYTHING}>
                {optionText(option, status.budget.limit)}
              </option>
            ))}
          </select>
        </label>
        <button
          id={`${headingId}-connect`}
          type="button"
          disabled={state === "error"}
          onClick={(event) => connect(event.currentTarget, profile)}
          className="rounded-md bg-accent px-3 py-1 text-sm font-medium text-on-accent disabled:opacity-50"
        >
          {connected ? `Update ${status.label}` : `Connect ${status.label}`}
        </button>
        {connected && (
          <button
            type="button"
            onClick={(event) => onAction({ kind: "disconnect" }, event.currentTarget)}
            className="rounded-md border border-line px-3 py-1 text-sm hover:bg-canvas"
          >
            Disconnect
          </button>
        )}
        {status.hasBackup && (
          <button
            type="button"
            onClick={(event) => onAction({ kind: "restore" }, event.currentTarget)}
            className="rounded-md border border-line px-3 py-1 text-sm hover:bg-canvas"
          >
            Restore its file
          </button>
        )}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-muted">Tool limit</summary>
        <div className="mt-2 flex flex-col gap-1">
          <p className="text-xs text-muted">
            {status.budget.documentedSays}
            {status.budget.documentedSource !== null && <> ({status.budget.documentedSource})</>}.
          </p>
          <LimitEditor client={status.client} budget={status.budget} />
        </div>
      </details>
    </article>
  );
}

/** "Everything curated (57 tools, over 40)" / "coding (5 tools)". */
function optionText(option: ToolCount, limit: number | null): string {
  const name = option.profile ?? "Everything curated";
  const tools = option.search ? `${toolCount(option.tools)}, search mode` : toolCount(option.tools);
  const over = limit !== null && option.tools > limit ? `, over ${limit}` : "";
  return `${name} (${tools}${over})`;
}

/** Every place the client may keep its servers, found or not. */
function LookedAt({ status }: { status: ClientStatus }) {
  const others = status.lookedAt.filter((place) => place.path !== status.file);
  if (others.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted">
        Where Plugboard looked ({status.lookedAt.length} {status.lookedAt.length === 1 ? "place" : "places"})
      </summary>
      <ul className="mt-1 flex flex-col gap-0.5">
        {status.lookedAt.map((place) => (
          <li key={place.path} className="flex gap-2">
            <span className={place.found ? "text-ok" : "text-muted"}>{place.found ? "found" : "no file"}</span>
            <code className="font-mono text-xs break-all">{place.path}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}
