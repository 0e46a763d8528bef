// Display text of a preset: how it runs (package or URL), its transport, and whether it matches a search.
import type { Preset } from "../../ipc/bindings";
import { hasEveryWord } from "../../textSearch";

const RUNNERS = { npm: "npx", pypi: "uvx", oci: "docker" } as const;

/** "npm · @scope/pkg@1.0.0", "oci · ghcr.io/org/image" or the hosted URL. */
export function sourceText(preset: Preset): string {
  const launch = preset.launch;
  if (launch.kind === "remote") return launch.url;
  if (launch.kind === "command") return launch.command;
  const version = launch.version ? `${launch.registry === "pypi" ? "==" : launch.registry === "oci" ? ":" : "@"}${launch.version}` : "";
  return `${launch.registry} · ${launch.identifier}${version}`;
}

/** "Local (npx)", "Remote (Streamable HTTP)", "Remote (SSE)". */
export function transportText(preset: Preset): string {
  const launch = preset.launch;
  if (launch.kind === "package") return `Local (${RUNNERS[launch.registry]})`;
  if (launch.kind === "command") return "Local (a program)";
  return launch.transport === "sse" ? "Remote (SSE)" : "Remote (Streamable HTTP)";
}

/** Whether every word of `query` appears in the preset's title, name, description or package/URL. */
export function matchesSearch(preset: Preset, query: string): boolean {
  return hasEveryWord([preset.title, preset.name, preset.description, sourceText(preset)], query);
}
