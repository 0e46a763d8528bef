// A server's listed resources as a virtualised list (a server may list thousands): name, URI, type and size as
// inert text, and a Read button per row.
import type { ResourceInfo } from "../../../../ipc/bindings";
import { revealHidden } from "../../revealHidden";
import { formatBytes } from "./formatBytes";
import VirtualList from "../VirtualList";

/** Props for {@link ResourceList}. */
type ResourceListProps = {
  /** The resources, in the server's order. */
  resources: readonly ResourceInfo[];
  /** Reads the resource at this URI. */
  onRead: (uri: string) => void;
};

export default function ResourceList({ resources, onRead }: ResourceListProps) {
  if (resources.length === 0) return <p className="text-sm text-muted">The server lists no resources.</p>;
  return (
    <VirtualList
      items={resources}
      label="Resources"
      itemKey={(resource) => resource.uri}
      estimateRowPx={60}
      renderItem={(resource) => <ResourceRow resource={resource} onRead={onRead} />}
    />
  );
}

function ResourceRow({ resource, onRead }: { resource: ResourceInfo; onRead: (uri: string) => void }) {
  const name = revealHidden(resource.title ?? resource.name);
  const facts = [resource.mimeType === null ? null : revealHidden(resource.mimeType), resource.size === null ? null : formatBytes(resource.size)]
    .filter((fact) => fact !== null)
    .join(" · ");
  return (
    <div className="flex items-start gap-3 px-3 py-2">
      <div className="min-w-0 flex-1">
        <p className="font-medium wrap-anywhere">{name}</p>
        <code className="block font-mono text-xs text-muted wrap-anywhere">{revealHidden(resource.uri)}</code>
        {resource.description !== null && (
          <p className="line-clamp-2 text-sm wrap-anywhere" title={revealHidden(resource.description)}>
            {revealHidden(resource.description)}
          </p>
        )}
      </div>
      {facts !== "" && <span className="shrink-0 text-xs text-muted">{facts}</span>}
      <button
        type="button"
        onClick={() => onRead(resource.uri)}
        aria-label={`Read ${name}`}
        className="shrink-0 rounded-md border border-line px-2 py-0.5 text-sm hover:bg-canvas"
      >
        Read
      </button>
    </div>
  );
}
