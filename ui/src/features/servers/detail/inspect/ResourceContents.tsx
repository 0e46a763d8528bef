// What reading a resource returned: text shown inert with hidden characters made visible, bytes described by MIME
// type and size, and image bytes (image/* only) shown as a picture through a data: URL built here.
import type { ResourceContent } from "../../../../ipc/bindings";
import { revealHidden } from "../../revealHidden";
import { imageDataUrl } from "./dataUrl";
import { formatBytes } from "./formatBytes";

/** Props for {@link ResourceContents}. */
type ResourceContentsProps = {
  /** The parts the server returned for one read. */
  contents: readonly ResourceContent[];
};

export default function ResourceContents({ contents }: ResourceContentsProps) {
  if (contents.length === 0) return <p className="text-sm text-muted">The server returned no contents.</p>;
  return (
    <ul aria-label="Contents" className="flex flex-col gap-3">
      {contents.map((part, index) => (
        <li key={`${part.uri}-${index}`} className="rounded-md border border-line bg-surface px-3 py-2">
          <p className="mb-1 text-xs text-muted wrap-anywhere">
            <code className="font-mono">{revealHidden(part.uri)}</code> · {describeMime(part.mimeType)}
          </p>
          {part.kind === "text" ? <TextPart text={part.text} /> : <BlobPart mime={part.mimeType} blob={part.blob} size={part.size} />}
        </li>
      ))}
    </ul>
  );
}

function describeMime(mime: string | null): string {
  return mime === null ? "no type given" : revealHidden(mime);
}

function TextPart({ text }: { text: string }) {
  return (
    <pre
      aria-label="Text content"
      className="max-h-80 overflow-auto font-mono text-[13px] wrap-anywhere whitespace-pre-wrap"
    >
      {revealHidden(text)}
    </pre>
  );
}

function BlobPart({ mime, blob, size }: { mime: string | null; blob: string; size: number }) {
  const image = imageDataUrl(mime, blob);
  return (
    <>
      <p className="text-sm">
        Binary content, {formatBytes(size)} ({describeMime(mime)}).
      </p>
      {image !== null && <img src={image} alt={`The image the server sent (${formatBytes(size)})`} className="mt-2 max-h-64" />}
    </>
  );
}
