// One content block of a tool result by type: text (markdown too) as inert text, images and audio only from base64
// of their own media types, links and embedded resources described; all server text through revealHidden.
import { FileText, Link2 } from "lucide-react";
import { revealHidden } from "../servers/revealHidden";
import { base64Bytes, mediaUrl, type Block } from "./callResult";
import { formatBytes } from "./format";

/** Props for {@link ContentBlock}. */
type ContentBlockProps = {
  block: Block;
  /** Its 1-based position in the result, for alt text and labels. */
  position: number;
};

const TEXT = "rounded-md border border-line bg-canvas px-3 py-2 font-mono text-[13px] whitespace-pre-wrap wrap-anywhere";

export default function ContentBlock({ block, position }: ContentBlockProps) {
  switch (block.type) {
    case "text":
      // Markdown stays as written: rendering it would turn server text into markup.
      return <pre className={TEXT}>{revealHidden(block.text)}</pre>;
    case "image": {
      const url = mediaUrl("image", block.mimeType, block.data);
      if (url === null) return <Refused what="image" mimeType={block.mimeType} />;
      return (
        <img
          src={url}
          alt={`Image ${position} returned by the tool (${block.mimeType})`}
          className="max-h-80 max-w-full rounded-md border border-line object-contain"
        />
      );
    }
    case "audio": {
      const url = mediaUrl("audio", block.mimeType, block.data);
      if (url === null) return <Refused what="audio" mimeType={block.mimeType} />;
      return <audio controls src={url} aria-label={`Audio ${position} returned by the tool (${block.mimeType})`} />;
    }
    case "resource_link":
      return (
        <div className="flex items-start gap-2 rounded-md border border-line px-3 py-2 text-sm">
          <Link2 size={14} aria-hidden="true" className="mt-1 shrink-0 text-muted" />
          <div className="min-w-0">
            <p className="font-medium wrap-anywhere">
              {`Link to a resource: ${revealHidden(block.title ?? block.name)}`}
            </p>
            <p className="font-mono text-xs wrap-anywhere">{revealHidden(block.uri)}</p>
            {block.mimeType !== null && <p className="text-xs text-muted">{revealHidden(block.mimeType)}</p>}
            {block.description !== null && <p className="text-xs text-muted wrap-anywhere">{revealHidden(block.description)}</p>}
          </div>
        </div>
      );
    case "resource":
      return (
        <div className="flex flex-col gap-1 rounded-md border border-line px-3 py-2 text-sm">
          <p className="flex items-center gap-2">
            <FileText size={14} aria-hidden="true" className="shrink-0 text-muted" />
            <span className="wrap-anywhere">
              {`Embedded resource ${revealHidden(block.uri)}${block.mimeType === null ? "" : ` (${revealHidden(block.mimeType)})`}`}
            </span>
          </p>
          {block.text !== null ? (
            <pre className={TEXT}>{revealHidden(block.text)}</pre>
          ) : block.blob !== null ? (
            <p className="text-muted">{`Binary content, ${formatBytes(base64Bytes(block.blob))}; not shown.`}</p>
          ) : null}
        </div>
      );
    case "unknown":
      return (
        <div className="flex flex-col gap-1 text-sm">
          <p className="text-muted">A content block of a type the console does not show, as JSON:</p>
          <pre className={TEXT}>{revealHidden(block.json)}</pre>
        </div>
      );
  }
}

/** Media whose declared type is not image/* (or audio/*), or whose data is not base64: described, never loaded. */
function Refused({ what, mimeType }: { what: string; mimeType: string }) {
  return (
    <p className="rounded-md border border-line px-3 py-2 text-sm text-muted wrap-anywhere">
      {`The tool returned ${what} data of type “${revealHidden(mimeType)}” that the console does not show.`}
    </p>
  );
}
