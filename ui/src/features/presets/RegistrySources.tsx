// The registries the MCP Registry tab searches: the official one by default; organisations and vendors run their
// own with the same API, so more can be added (https only) and any removed.
import { type FormEvent, useState } from "react";
import { revealHidden } from "../servers/revealHidden";
import { useChangeRegistrySources, useRegistrySources } from "./useRegistry";

const FIELD = "rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm";

export default function RegistrySources() {
  const sources = useRegistrySources();
  const change = useChangeRegistrySources();
  const [url, setUrl] = useState("");
  const [name, setName] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ url: url.trim(), name: name.trim() }, { onSuccess: () => (setUrl(""), setName("")) });
  };

  return (
    <details className="mt-6 rounded-md border border-line bg-surface p-3 text-sm">
      <summary className="cursor-pointer font-medium">Registries searched</summary>
      {sources.isError && <p role="alert" className="text-danger">{sources.error.message}</p>}
      <ul aria-label="Registries" className="my-2 flex flex-col gap-1">
        {sources.data?.map((source) => (
          <li key={source.url} className="flex items-center justify-between gap-2">
            <span className="wrap-anywhere">
              {revealHidden(source.name)} <span className="font-mono text-muted">{source.url}</span>
            </span>
            <button
              type="button"
              onClick={() => change.mutate({ url: source.url, remove: true })}
              aria-label={`Remove ${source.name}`}
              className="rounded-md border border-line px-2 py-0.5 hover:bg-canvas"
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1">
          <span>Registry URL</span>
          <input required type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://registry.example.com" className={`${FIELD} font-mono`} />
        </label>
        <label className="flex flex-col gap-1">
          <span>Name <span className="text-muted">(optional)</span></span>
          <input value={name} onChange={(e) => setName(e.target.value)} className={FIELD} />
        </label>
        <button type="submit" className="rounded-md border border-line px-3 py-1.5 hover:bg-canvas">Add registry</button>
      </form>
      {change.isError && <p role="alert" className="mt-2 text-danger wrap-anywhere">{change.error.message}</p>}
    </details>
  );
}
