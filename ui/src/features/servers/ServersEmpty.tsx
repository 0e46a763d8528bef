// The first-run view: what the Servers page shows when the config declares no servers — an import from the
// clients whose configs were found here, otherwise the presets and how to add a server — and where the config is.
import { Download, Layers } from "lucide-react";
import { Link } from "react-router";
import { useImportSources } from "../import/useImport";
import ConfigPath from "./ConfigPath";

/** Props for {@link ServersEmpty}. */
type ServersEmptyProps = {
  /** Absolute path of the config file, shown verbatim so a person can find and edit it. */
  configPath: string;
};

export default function ServersEmpty({ configPath }: ServersEmptyProps) {
  const sources = useImportSources();
  // One name per client, in detection order, even when a client keeps several files.
  const clients = [...new Set(sources.data?.found.map((source) => source.clientLabel) ?? [])];

  return (
    <section
      aria-labelledby="servers-empty-title"
      className="rounded-lg border border-dashed border-line bg-surface px-6 py-8"
    >
      <h2 id="servers-empty-title" className="mb-2 text-base font-semibold">
        No servers yet
      </h2>
      {sources.isPending ? (
        <p role="status" className="mb-4 text-muted">Looking for other MCP clients' configs…</p>
      ) : clients.length > 0 ? (
        <>
          <p className="mb-4 text-muted">
            Found the MCP servers of {listOf(clients)} on this computer. Import them: you review every entry first,
            and their files are never changed.
          </p>
          <Link
            to="/import"
            className="mb-5 inline-flex items-center gap-1.5 rounded-md bg-accent px-3.5 py-1.5 text-sm font-medium text-surface hover:opacity-90"
          >
            <Download size={16} aria-hidden="true" />
            Import from {listOf(clients)}
          </Link>
        </>
      ) : (
        <>
          <p className="mb-4 text-muted">
            {/* A failed detection found nothing either, but must not claim that nothing is there. */}
            {sources.isSuccess && "No other MCP client's config was found here. "}
            Start from a preset — well-known servers such as Filesystem, GitHub or Linear, added in one step after
            you have seen what will run.
          </p>
          <Link
            to="/presets"
            className="mb-4 inline-flex items-center gap-1.5 rounded-md bg-accent px-3.5 py-1.5 text-sm font-medium text-on-accent hover:opacity-90"
          >
            <Layers size={16} aria-hidden="true" />
            Browse presets
          </Link>
          <p className="mb-4 text-muted">
            Or add a server by writing it into the config file below, under "mcpServers" in the shape Claude Desktop
            and Cursor use; Plugboard picks the change up by itself.
          </p>
        </>
      )}
      <ConfigPath path={configPath} />
    </section>
  );
}

/** "Cursor", "Cursor and Zed", "Claude Desktop, Cursor and Zed". */
function listOf(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
