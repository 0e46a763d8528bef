// The Resources tab of a server's page: its listed resources (virtualised), its templates with fill-in forms, and
// what the last Read returned. A server that is not ready is explained in words and not asked.
import { useMutation } from "@tanstack/react-query";
import { commands, type ServerStatus } from "../../../../ipc/bindings";
import { call } from "../../../../ipc/client";
import { revealHidden } from "../../revealHidden";
import NotReadyNote from "./NotReadyNote";
import ResourceContents from "./ResourceContents";
import ResourceList from "./ResourceList";
import TemplateForm from "./TemplateForm";
import { useResources, useResourceTemplates } from "./useInspect";

/** Props for {@link ResourcesTab}. */
type ResourcesTabProps = {
  /** The server's name in servers.json. */
  server: string;
  /** Its live status, or undefined while none has been reported. */
  status: ServerStatus | undefined;
};

export default function ResourcesTab({ server, status }: ResourcesTabProps) {
  const ready = status?.state === "ready";
  const resources = useResources(server, ready);
  const templates = useResourceTemplates(server, ready);
  const read = useMutation({ mutationFn: (uri: string) => call(commands.readResource(server, uri)) });
  if (!ready) return <NotReadyNote status={status} what="resources" />;

  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby="resources-heading">
        <h2 id="resources-heading" className="mb-2 font-semibold">
          Resources
        </h2>
        {resources.isPending ? (
          <p role="status" className="text-muted">
            Loading resources…
          </p>
        ) : resources.isError ? (
          <LoadError what="resources" message={resources.error.message} />
        ) : (
          <ResourceList resources={resources.data} onRead={(uri) => read.mutate(uri)} />
        )}
      </section>
      <section aria-labelledby="templates-heading">
        <h2 id="templates-heading" className="mb-2 font-semibold">
          Templates
        </h2>
        {templates.isPending ? (
          <p role="status" className="text-muted">
            Loading templates…
          </p>
        ) : templates.isError ? (
          <LoadError what="templates" message={templates.error.message} />
        ) : templates.data.length === 0 ? (
          <p className="text-sm text-muted">The server lists no resource templates.</p>
        ) : (
          <div className="flex flex-col gap-2">
            {templates.data.map((template) => (
              <TemplateForm key={template.uriTemplate} template={template} onRead={(uri) => read.mutate(uri)} />
            ))}
          </div>
        )}
      </section>
      <section aria-labelledby="read-heading" aria-live="polite">
        <h2 id="read-heading" className="mb-2 font-semibold">
          {read.variables === undefined ? "Contents" : `Contents of ${revealHidden(read.variables)}`}
        </h2>
        {read.isIdle ? (
          <p className="text-sm text-muted">Read a resource to see what it holds.</p>
        ) : read.isPending ? (
          <p role="status" className="text-muted">
            Reading…
          </p>
        ) : read.isError ? (
          <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 text-sm wrap-anywhere">
            Couldn't read it: {revealHidden(read.error.message)}
          </p>
        ) : (
          <ResourceContents contents={read.data} />
        )}
      </section>
    </div>
  );
}

/** A list that failed to load, with the backend's message as text. */
export function LoadError({ what, message }: { what: string; message: string }) {
  return (
    <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-4 py-3 text-sm wrap-anywhere">
      Couldn't load the {what}: {revealHidden(message)}
    </p>
  );
}
