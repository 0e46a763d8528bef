// The messages a prompt returned, each with its role: text inert with hidden characters made visible, images
// (image/* only) through a data: URL built here, embedded resources by their text or URI, anything else as JSON text.
import type { PromptMessageInfo } from "../../../../ipc/bindings";
import { revealHidden } from "../../revealHidden";
import { imageDataUrl } from "./dataUrl";

/** Props for {@link PromptMessages}. */
type PromptMessagesProps = {
  /** The messages, in order. */
  messages: readonly PromptMessageInfo[];
};

export default function PromptMessages({ messages }: PromptMessagesProps) {
  if (messages.length === 0) return <p className="text-sm text-muted">The prompt has no messages.</p>;
  return (
    <ol aria-label="Messages" className="flex flex-col gap-2">
      {messages.map((message, index) => (
        <li key={index} className="rounded-md border border-line bg-surface px-3 py-2">
          <p className="mb-1 text-xs font-medium tracking-wide text-muted uppercase">{revealHidden(message.role)}</p>
          <Content json={message.content} />
        </li>
      ))}
    </ol>
  );
}

type Block = { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown; uri?: unknown; resource?: unknown };

function Content({ json }: { json: string }) {
  const block = parse(json);
  if (block?.type === "text" && typeof block.text === "string") return <Pre text={block.text} />;
  if (block?.type === "image" && typeof block.data === "string") {
    const mime = typeof block.mimeType === "string" ? block.mimeType : null;
    const src = imageDataUrl(mime, block.data);
    if (src !== null) return <img src={src} alt="An image in the prompt" className="max-h-64" />;
  }
  if (block?.type === "resource" && typeof block.resource === "object" && block.resource !== null) {
    const resource = block.resource as Block;
    const uri = typeof resource.uri === "string" ? resource.uri : "";
    return (
      <>
        <p className="text-xs text-muted wrap-anywhere">
          Embedded resource <code className="font-mono">{revealHidden(uri)}</code>
        </p>
        {typeof resource.text === "string" ? <Pre text={resource.text} /> : <p className="text-sm">Binary content.</p>}
      </>
    );
  }
  return <Pre text={pretty(json)} />;
}

function Pre({ text }: { text: string }) {
  return <pre className="max-h-80 overflow-auto font-mono text-[13px] wrap-anywhere whitespace-pre-wrap">{revealHidden(text)}</pre>;
}

function parse(json: string): Block | null {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null ? value : null;
  } catch {
    return null;
  }
}

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}
