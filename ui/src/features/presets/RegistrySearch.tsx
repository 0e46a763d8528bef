// The MCP Registry tab of the Presets page: a search over every configured registry, each registry's active
// servers as the same cards as the catalog (Add opens the same dialog), what a registry skipped and why, whether an
// answer is the offline copy, "More" for the next page, and the list of registries searched.
import { type FormEvent, useState } from "react";
import type { RegistryListing, RegistryResults } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import AddPresetDialog from "./AddPresetDialog";
import PresetCard from "./PresetCard";
import RegistrySources from "./RegistrySources";
import SearchField from "./SearchField";
import { useNextRegistryPage, useRegistrySearch } from "./useRegistry";

export default function RegistrySearch() {
  const [draft, setDraft] = useState("");
  const [text, setText] = useState("");
  const search = useRegistrySearch(text);
  // Pages fetched with "More", per registry URL, appended under its first page.
  const [more, setMore] = useState<Record<string, RegistryResults[]>>({});
  const [adding, setAdding] = useState<{ listing: RegistryListing; opener: HTMLElement } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMore({});
    setText(draft.trim());
  };

  return (
    <section aria-label="MCP Registry">
      <p className="mb-3 text-sm text-muted">
        Search the MCP Registry for servers published by anyone. Only active servers are listed; what Plugboard cannot
        run is left out with the reason. Nothing runs before you approve it.
      </p>
      <form onSubmit={submit} role="search" className="mb-4 flex max-w-md items-center gap-2">
        <SearchField label="Search the registry" value={draft} onChange={setDraft} placeholder="Server name, e.g. weather" className="flex-1" />
        <button type="submit" className="rounded-md border border-line bg-surface px-3 py-1.5 text-sm hover:bg-canvas">
          Search
        </button>
      </form>
      {text === "" ? null : search.isPending ? (
        <p role="status" className="text-muted">Searching…</p>
      ) : search.isError ? (
        <p role="alert" className="text-danger">Couldn't search: {search.error.message}</p>
      ) : (
        search.data.map((results) => (
          <RegistryResultsSection
            key={results.source.url}
            first={results}
            more={more[results.source.url] ?? []}
            text={text}
            onMore={(page) => setMore((now) => ({ ...now, [page.source.url]: [...(now[page.source.url] ?? []), page] }))}
            onAdd={(listing, opener) => setAdding({ listing, opener })}
          />
        ))
      )}
      <RegistrySources />
      {adding && (
        <AddPresetDialog
          key={`${adding.listing.registry} ${adding.listing.preset.name}`}
          listing={adding.listing}
          opener={adding.opener}
          source={{
            kind: "registry",
            entry: { registry: adding.listing.registry, name: adding.listing.preset.name, version: adding.listing.version },
          }}
          onClose={() => setAdding(null)}
        />
      )}
    </section>
  );
}

/** Props for {@link RegistryResultsSection}. */
type RegistryResultsSectionProps = {
  /** The registry's first page. */
  first: RegistryResults;
  /** Every page fetched with "More", in order. */
  more: RegistryResults[];
  /** The search the pages answer. */
  text: string;
  /** Appends the next page. */
  onMore: (page: RegistryResults) => void;
  /** Opens the add dialog for an entry. */
  onAdd: (listing: RegistryListing, opener: HTMLElement) => void;
};

/** One registry's answer: its entries, its skipped ones, the offline note, and "More". */
function RegistryResultsSection({ first, more, text, onMore, onAdd }: RegistryResultsSectionProps) {
  const results = [first, ...more];
  const last = more[more.length - 1] ?? first;
  const next = useNextRegistryPage();
  const listings = results.flatMap((page) => page.listings);
  const skipped = results.flatMap((page) => page.skipped);
  const headingId = `registry-${first.source.url.replace(/[^a-zA-Z0-9]/g, "-")}`;
  return (
    <section aria-labelledby={headingId} className="mb-6">
      <h2 id={headingId} className="mb-2 text-sm font-semibold">
        {revealHidden(first.source.name)} <span className="font-normal text-muted">({first.source.url})</span>
      </h2>
      {first.problem && (
        <p role={first.cachedAt === null ? "alert" : "status"} className="mb-2 text-sm text-muted wrap-anywhere">
          {first.cachedAt === null
            ? `Couldn't search this registry: ${first.problem}`
            : `Offline: showing the results kept on ${new Date(first.cachedAt * 1000).toLocaleString()} (${first.problem}).`}
        </p>
      )}
      {listings.length === 0 && !first.problem ? (
        <p role="status" className="text-sm text-muted">No active server matches "{text}".</p>
      ) : (
        <ul aria-label={`Servers in ${first.source.name}`} className="grid grid-cols-[repeat(auto-fill,minmax(17rem,1fr))] gap-3">
          {listings.map((listing) => (
            <PresetCard key={`${listing.preset.name}@${listing.version}`} listing={listing} onAdd={(opener) => onAdd(listing, opener)} />
          ))}
        </ul>
      )}
      {skipped.length > 0 && (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer text-muted">
            {skipped.length} {skipped.length === 1 ? "entry" : "entries"} left out
          </summary>
          <ul aria-label="Left out" className="mt-1 list-disc pl-5">
            {skipped.map((entry, index) => (
              <li key={`${entry.name}-${index}`} className="wrap-anywhere">
                <span className="font-mono">{revealHidden(entry.name)}</span>: {revealHidden(entry.reason)}
              </li>
            ))}
          </ul>
        </details>
      )}
      {last.nextCursor && (
        <button
          type="button"
          disabled={next.isPending}
          onClick={() =>
            next.mutate(
              { text, registry: first.source.url, cursor: last.nextCursor ?? "" },
              { onSuccess: (pages) => pages.forEach(onMore) },
            )
          }
          className="mt-2 rounded-md border border-line bg-surface px-3 py-1 text-sm hover:bg-canvas disabled:opacity-50"
        >
          More from {first.source.name}
        </button>
      )}
      {next.isError && <p role="alert" className="text-sm text-danger">{next.error.message}</p>}
    </section>
  );
}
