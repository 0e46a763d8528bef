// What a ready server said about itself in `initialize`, under the overview: its title and description, what it
// offers (capabilities in words) and its instructions, collapsed. All of it server text, shown inert.
import type { ServerStatus } from "../../../../ipc/bindings";
import { revealHidden } from "../../revealHidden";
import { notReadyText } from "./notReadyText";
import { useServerInfo } from "./useInspect";

/** Props for {@link ServerInfoFacts}. */
type ServerInfoFactsProps = {
  /** The server's name in servers.json. */
  server: string;
  /** Its live status, or undefined while none has been reported. */
  status: ServerStatus | undefined;
};

export default function ServerInfoFacts({ server, status }: ServerInfoFactsProps) {
  const ready = status?.state === "ready";
  const info = useServerInfo(server, ready);
  if (!ready) {
    return <p className="mt-2 text-sm text-muted wrap-anywhere">{notReadyText(status, "capabilities and instructions")}</p>;
  }
  if (info.isPending) {
    return (
      <p role="status" className="mt-2 text-sm text-muted">
        Asking the server about itself…
      </p>
    );
  }
  if (info.isError) {
    return (
      <p role="alert" className="mt-2 text-sm wrap-anywhere">
        Couldn't get the server's details: {revealHidden(info.error.message)}
      </p>
    );
  }
  const { name, title, version, description, websiteUrl, capabilities, instructions } = info.data;
  const identity = [title ?? name, version === null ? null : `version ${version}`].filter((part) => part !== null).join(", ");
  return (
    <section aria-label="What the server says about itself" className="mt-2 flex flex-col gap-1 text-sm">
      {identity !== "" && (
        <p className="wrap-anywhere">
          <span className="text-muted">Calls itself </span>
          {revealHidden(identity)}
          {websiteUrl !== null && <span className="text-muted"> · {revealHidden(websiteUrl)}</span>}
        </p>
      )}
      {description !== null && <p className="wrap-anywhere">{revealHidden(description)}</p>}
      <p className="wrap-anywhere">
        <span className="text-muted">Offers </span>
        {capabilities.length === 0 ? "no capabilities" : revealHidden(capabilities.join(", "))}
      </p>
      {instructions !== null && instructions.trim() !== "" && (
        <details>
          <summary className="cursor-pointer text-muted">Instructions from the server</summary>
          <pre className="mt-1 max-h-60 overflow-auto rounded-md border border-line bg-surface px-3 py-2 font-mono text-[13px] wrap-anywhere whitespace-pre-wrap">
            {revealHidden(instructions)}
          </pre>
        </details>
      )}
    </section>
  );
}
