// The Presets page: the catalog of one-click integrations as a searchable grid, and the MCP Registry's servers on a
// second tab; "Add" opens the dialog that shows what will run and asks for the inputs.
import { useState } from "react";
import type { PresetListing } from "../../ipc/bindings";
import PageHeader from "../../shell/PageHeader";
import AddPresetDialog from "./AddPresetDialog";
import PresetCard from "./PresetCard";
import { matchesSearch } from "./presetText";
import RegistrySearch from "./RegistrySearch";
import SearchField from "./SearchField";
import { usePresets } from "./usePresets";

const TAB = "rounded-md px-3 py-1 text-sm aria-selected:bg-accent-soft aria-selected:font-medium";

export default function PresetsPage() {
  const [tab, setTab] = useState<"catalog" | "registry">("catalog");
  return (
    <>
      <PageHeader title="Presets" />
      <div role="tablist" aria-label="Where servers come from" className="mb-4 flex gap-1">
        <button type="button" role="tab" id="tab-catalog" aria-controls="panel-presets" aria-selected={tab === "catalog"} onClick={() => setTab("catalog")} className={TAB}>
          Catalog
        </button>
        <button type="button" role="tab" id="tab-registry" aria-controls="panel-presets" aria-selected={tab === "registry"} onClick={() => setTab("registry")} className={TAB}>
          MCP Registry
        </button>
      </div>
      <div role="tabpanel" id="panel-presets" aria-labelledby={`tab-${tab}`}>
        {tab === "catalog" ? <Catalog /> : <RegistrySearch />}
      </div>
    </>
  );
}

/** The embedded catalog as a searchable grid. */
function Catalog() {
  const presets = usePresets();
  const [query, setQuery] = useState("");
  // The preset being added, and the button that opened its dialog (focus goes back to it).
  const [adding, setAdding] = useState<{ listing: PresetListing; opener: HTMLElement } | null>(null);
  const shown = presets.data?.filter((listing) => matchesSearch(listing.preset, query)) ?? [];

  return (
    <>
      <p className="mb-4 text-muted">
        Well-known MCP servers, ready to add. You see the exact command or URL before anything is saved.
      </p>
      <SearchField label="Search presets" value={query} onChange={setQuery} placeholder="Search presets" className="mb-4 max-w-md" />
      {presets.isPending ? (
        <p role="status" className="text-muted">Loading presets…</p>
      ) : presets.isError ? (
        <p role="alert" className="text-danger">Couldn't load the presets: {presets.error.message}</p>
      ) : shown.length === 0 ? (
        <p role="status" className="text-muted">No preset matches "{query}".</p>
      ) : (
        <ul aria-label="Presets" className="grid grid-cols-[repeat(auto-fill,minmax(17rem,1fr))] gap-3">
          {shown.map((listing) => (
            <PresetCard key={listing.preset.name} listing={listing} onAdd={(opener) => setAdding({ listing, opener })} />
          ))}
        </ul>
      )}
      {adding && (
        <AddPresetDialog
          key={adding.listing.preset.name}
          listing={adding.listing}
          opener={adding.opener}
          onClose={() => setAdding(null)}
        />
      )}
    </>
  );
}
