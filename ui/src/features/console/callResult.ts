// Reads an MCP CallToolResult from its JSON text leniently: known content blocks typed, anything else kept as JSON.
// Nothing here renders; the blocks' text is still server text for the view to show inert.

/** One content block of a tool result, as the console knows how to show it. */
export type Block =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; title: string | null; description: string | null; mimeType: string | null }
  | { type: "resource"; uri: string; mimeType: string | null; text: string | null; blob: string | null }
  | { type: "unknown"; json: string };

/** A tool result: its content blocks and structured content (pretty JSON), or the raw text when it is not JSON. */
export type ParsedResult = { blocks: Block[]; structured: string | null; raw: string | null };

/** Parses the result text of a call (CallOutcome.result). */
export function parseResult(text: string): ParsedResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { blocks: [], structured: null, raw: text };
  }
  if (!isObject(value)) return { blocks: [], structured: null, raw: text };
  const content = Array.isArray(value.content) ? value.content : [];
  const structured = value.structuredContent === undefined ? null : JSON.stringify(value.structuredContent, null, 2);
  return { blocks: content.map(toBlock), structured, raw: null };
}

function toBlock(item: unknown): Block {
  if (!isObject(item)) return unknown(item);
  switch (item.type) {
    case "text":
      return typeof item.text === "string" ? { type: "text", text: item.text } : unknown(item);
    case "image":
    case "audio":
      return typeof item.data === "string" && typeof item.mimeType === "string"
        ? { type: item.type, data: item.data, mimeType: item.mimeType }
        : unknown(item);
    case "resource_link":
      return typeof item.uri === "string"
        ? {
            type: "resource_link",
            uri: item.uri,
            name: str(item.name) ?? item.uri,
            title: str(item.title),
            description: str(item.description),
            mimeType: str(item.mimeType),
          }
        : unknown(item);
    case "resource": {
      const resource = item.resource;
      if (!isObject(resource) || typeof resource.uri !== "string") return unknown(item);
      return { type: "resource", uri: resource.uri, mimeType: str(resource.mimeType), text: str(resource.text), blob: str(resource.blob) };
    }
    default:
      return unknown(item);
  }
}

function unknown(item: unknown): Block {
  return { type: "unknown", json: JSON.stringify(item, null, 2) ?? String(item) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A data: URL for base64 `data` of a media type in `family` ("image" or "audio"), or null when the type is not
 * such a media type or the data is not base64 (so nothing but that media reaches the src attribute).
 */
export function mediaUrl(family: "image" | "audio", mimeType: string, data: string): string | null {
  const type = mimeType.trim().toLowerCase();
  if (!new RegExp(`^${family}/[a-z0-9][a-z0-9.+-]*$`).test(type)) return null;
  const compact = data.replace(/\s+/g, "");
  if (!BASE64.test(compact)) return null;
  return `data:${type};base64,${compact}`;
}

/** The byte size of base64 data, for describing a blob without decoding it. */
export function base64Bytes(data: string): number {
  const compact = data.replace(/\s+/g, "");
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((compact.length * 3) / 4) - padding);
}
