// One preset of the catalog: its title, description (inert text), how it runs and where from, whether it is
// already added, and the button that opens the add dialog.
import { Check, Plus } from "lucide-react";
import type { PresetListing } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";
import { sourceText, transportText } from "./presetText";

/** Props for {@link PresetCard}. */
type PresetCardProps = {
  /** The preset with the servers already added from it. */
  listing: PresetListing;
  /** Opens the add dialog for this preset; `opener` is the Add button, where focus returns when it closes. */
  onAdd: (opener: HTMLElement) => void;
};

export default function PresetCard({ listing, onAdd }: PresetCardProps) {
  const { preset, addedAs } = listing;
  const titleId = `preset-${preset.name.replace(/[^a-zA-Z0-9-]/g, "-")}`;
  return (
    <li>
      <article
        aria-labelledby={titleId}
        className="flex h-full flex-col gap-2 rounded-lg border border-line bg-surface p-4"
      >
        {/* A long "Added as" (several servers, long names) moves under the title and wraps inside the card. */}
        <div className="flex flex-wrap items-start justify-between gap-x-2 gap-y-1">
          <h2 id={titleId} className="min-w-0 text-sm font-semibold wrap-anywhere">
            {revealHidden(preset.title)}
          </h2>
          {addedAs.length > 0 && (
            <span className="inline-flex max-w-full min-w-0 items-start gap-1 rounded-xl bg-accent-soft px-2 py-0.5 text-xs">
              <Check size={12} aria-hidden="true" className="mt-0.5 shrink-0" />
              <span className="min-w-0 wrap-anywhere">Added as {addedAs.map(revealHidden).join(", ")}</span>
            </span>
          )}
        </div>
        <p className="text-sm text-muted">{revealHidden(preset.description)}</p>
        <dl className="mt-auto grid grid-cols-[auto_1fr] gap-x-2 text-xs">
          <dt className="text-muted">Runs</dt>
          <dd>{transportText(preset)}</dd>
          <dt className="text-muted">{{ remote: "URL", command: "Command", package: "Package" }[preset.launch.kind]}</dt>
          <dd className="font-mono wrap-anywhere">{sourceText(preset)}</dd>
        </dl>
        <button
          type="button"
          onClick={(event) => onAdd(event.currentTarget)}
          // The name starts with the visible words (WCAG 2.5.3), so "Add another" is also what voice control hears.
          aria-label={`${addedAs.length > 0 ? "Add another" : "Add"} ${preset.title}`}
          className="inline-flex items-center gap-1.5 self-start rounded-md border border-line bg-surface px-3 py-1 text-sm hover:bg-canvas"
        >
          <Plus size={14} aria-hidden="true" />
          {addedAs.length > 0 ? "Add another" : "Add"}
        </button>
      </article>
    </li>
  );
}
