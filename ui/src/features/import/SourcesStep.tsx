// Step 1 of the import wizard: the client config files found (with their paths and how many servers each holds)
// and, folded away, the clients with no file here and where they were looked for. Paths are shown as inert text.
import { ChevronRight, FileJson } from "lucide-react";
import type { FilePlan, ImportSources } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";

/** Props for {@link SourcesStep}. */
type SourcesStepProps = {
  /** What detect_import_sources found. */
  sources: ImportSources;
  /** The plan's files, to say how many servers each holds; undefined while the plan loads. */
  files: FilePlan[] | undefined;
};

export default function SourcesStep({ sources, files }: SourcesStepProps) {
  return (
    <>
      {sources.found.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line bg-surface px-5 py-6 text-muted">
          No other MCP client's config was found on this computer, so there is nothing to import.
        </p>
      ) : (
        <ul aria-label="Configs found" className="divide-y divide-line rounded-lg border border-line bg-surface">
          {sources.found.map((source) => (
            <li key={source.path} className="flex items-start gap-3 px-4 py-3">
              <FileJson size={18} aria-hidden="true" className="mt-0.5 shrink-0 text-accent" />
              <div className="min-w-0 flex-1">
                <p className="font-medium">{source.clientLabel}</p>
                <code className="font-mono text-[13px] text-muted wrap-anywhere">{revealHidden(source.path)}</code>
              </div>
              <FileCount file={files?.find((file) => file.path === source.path)} loading={files === undefined} />
            </li>
          ))}
        </ul>
      )}
      {sources.notFound.length > 0 && (
        <details className="group mt-4 text-sm">
          <summary className="flex w-fit cursor-pointer list-none items-center gap-1 rounded text-muted hover:text-fg [&::-webkit-details-marker]:hidden">
            <ChevronRight size={14} aria-hidden="true" className="group-open:rotate-90" />
            Not found here: {sources.notFound.map((client) => client.clientLabel).join(", ")}
          </summary>
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 rounded-lg border border-line bg-surface px-4 py-3">
            {sources.notFound.map((client) => (
              <div key={client.client} className="contents">
                <dt className="font-medium">{client.clientLabel}</dt>
                <dd className="min-w-0">
                  <span className="sr-only">Looked in </span>
                  {client.lookedIn.map((path) => (
                    <code key={path} className="block font-mono text-[12px] text-muted wrap-anywhere">
                      {revealHidden(path)}
                    </code>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </>
  );
}

/** Props for {@link FileCount}. */
type FileCountProps = {
  /** The file's plan, once known. */
  file: FilePlan | undefined;
  /** True while the plan loads. */
  loading: boolean;
};

/** "3 servers", or that the file cannot be read (with the reason). */
function FileCount({ file, loading }: FileCountProps) {
  if (file === undefined) return loading ? <span className="text-sm text-muted">…</span> : null;
  if (file.error !== null) {
    return <span className="max-w-64 text-right text-sm text-danger wrap-anywhere">Can't be read: {revealHidden(file.error)}</span>;
  }
  const n = file.entries.length;
  return <span className="shrink-0 text-sm text-muted">{n === 1 ? "1 server" : `${n} servers`}</span>;
}
