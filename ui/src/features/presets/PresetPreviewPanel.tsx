// What a preset will run, shown before it is added: the command line or URL and its environment or headers,
// secrets only as their keychain references.
import type { PresetPreview } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";

/** Props for {@link PresetPreviewPanel}. */
type PresetPreviewPanelProps = {
  /** The preview, once computed. */
  preview: PresetPreview | undefined;
  /** Why there is no preview, e.g. an input the preset does not take. */
  error: string | undefined;
};

export default function PresetPreviewPanel({ preview, error }: PresetPreviewPanelProps) {
  const extras = [
    ...(preview?.env.map((e) => `${e.name}=${e.template}`) ?? []),
    ...(preview?.headers.map((h) => `${h.name}: ${h.template}`) ?? []),
  ];
  return (
    <section aria-labelledby="preset-preview-title" className="rounded-md border border-line bg-canvas p-3">
      <h3 id="preset-preview-title" className="mb-1 text-xs font-semibold text-muted">
        {preview?.target.startsWith("https://") ? "Plugboard will connect to" : "Plugboard will run"}
      </h3>
      {error ? (
        <p role="alert" className="text-sm text-danger">{revealHidden(error)}</p>
      ) : preview ? (
        <>
          <code data-testid="preset-target" className="block font-mono text-sm wrap-anywhere">
            {revealHidden(preview.target)}
          </code>
          {extras.length > 0 && (
            <ul aria-label={preview.env.length > 0 ? "Environment" : "Headers"} className="mt-1.5 text-xs">
              {extras.map((line) => (
                <li key={line} className="font-mono wrap-anywhere">
                  {revealHidden(line)}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p role="status" className="text-sm text-muted">Working out the command…</p>
      )}
    </section>
  );
}
