// The Presets page: the catalog of one-click integrations as a searchable grid; "Add" opens the dialog that
// shows what will run and asks for the inputs.
import { Search } from "lucide-react";
import { useState } from "react";
import type { PresetListing } from "../../ipc/bindings";
import PageHeader from "../../shell/PageHeader";
import AddPresetDialog from "./AddPresetDialog";
import PresetCard from "./PresetCard";
import { matchesSearch } from "./presetText";
import { usePresets } from "./usePresets";

export default function PresetsPage() {
  const presets = usePresets();
  const [query, setQuery] = useState("");
  // The preset being added, and the button that opened its dialog (focus goes back to it).
  const [adding, setAdding] = useState<{ listing: PresetListing; opener: HTMLElement } | null>(null);
  const shown = presets.data?.filter((listing) => matchesSearch(listing.preset, query)) ?? [];

  return (
    <>
      <PageHeader title="Presets" />
      <p className="mb-4 text-muted">
        Well-known MCP servers, ready to add. You see the exact command or URL before anything is saved.
      </p>
      <label className="mb-4 flex max-w-md items-center gap-2 rounded-md border border-line bg-surface px-2.5 py-1.5">
        <Search size={16} aria-hidden="true" className="text-muted" />
        <span className="sr-only">Search presets</span>
        <input
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search presets"
          className="w-full bg-transparent text-sm outline-none"
        />
      </label>
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
