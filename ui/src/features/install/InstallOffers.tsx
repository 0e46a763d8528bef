// "Add to Plugboard" links and dropped .mcpb bundles, over any page: each offer the backend parsed from a
// plugboard://install link (while the window runs, or the ones it was started with), and each bundle dropped onto
// the window or opened with Plugboard from a file manager, opens the add dialog in its consent form: the exact command or URL, environment and header names, the
// trust flags, a bundle's manifest and the inputs for secrets. Nothing is added before the person confirms, and
// nothing runs before they approve it (the approval dialog takes over after Add).
import { ShieldAlert, X } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { type BundleOffer, commands, events, type InstallOffer } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useBackendEvent } from "../../ipc/useBackendEvent";
import AddPresetDialog from "../presets/AddPresetDialog";
import { revealHidden } from "../servers/revealHidden";
import BundleAbout from "./BundleAbout";

/** One waiting offer: a link's or a bundle's. */
type Offer = { kind: "link"; offer: InstallOffer } | { kind: "bundle"; offer: BundleOffer };

/** At most this many offers wait; a flood of links (any local program can send them) cannot pile up dialogs. */
const MAX_WAITING = 3;

export default function InstallOffers() {
  const [offers, setOffers] = useState<Offer[]>([]);
  // Why the last dropped bundle was refused, shown until dismissed.
  const [refused, setRefused] = useState<string | null>(null);
  const queue = useCallback(
    (added: Offer[]) => setOffers((waiting) => [...waiting, ...added].slice(0, MAX_WAITING)),
    [],
  );
  useBackendEvent(events.installOffered, ({ offer }) => queue([{ kind: "link", offer }]), "install links");
  // The core reads the bundle at `path` and says what it is, or why it is refused.
  const offerBundle = useCallback(
    (path: string) => {
      void call(commands.openBundle(path)).then(
        (offer) => queue([{ kind: "bundle", offer }]),
        (error: unknown) => setRefused(error instanceof Error ? error.message : String(error)),
      );
    },
    [queue],
  );
  useBackendEvent(events.bundleDropped, ({ path }) => offerBundle(path), "dropped bundles");
  useEffect(() => {
    call(commands.missedInstallOffers()).then(
      (missed) => queue(missed.map(({ offer }) => ({ kind: "link", offer }))),
      (error: unknown) => console.error("Could not read the install links of the start", error),
    );
    call(commands.missedBundles()).then(
      (missed) => missed.forEach(({ path }) => offerBundle(path)),
      (error: unknown) => console.error("Could not read the bundles of the start", error),
    );
    // Once per mount (both callbacks are stable): the backend hands each missed offer and bundle out once.
  }, [queue, offerBundle]);

  const next = () => setOffers((waiting) => waiting.slice(1));
  const first = offers[0];
  return (
    <>
      {refused && (
        <div role="alert" className="fixed top-4 right-4 z-50 flex max-w-md items-start gap-2 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm shadow">
          <ShieldAlert size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-danger" />
          <p className="min-w-0 flex-1 wrap-anywhere">{revealHidden(refused)}</p>
          <button type="button" onClick={() => setRefused(null)} aria-label="Dismiss" className="rounded p-0.5 text-muted hover:text-fg">
            <X size={14} aria-hidden="true" />
          </button>
        </div>
      )}
      {first?.kind === "link" && (
        <AddPresetDialog
          // A new offer is a new form: nothing typed for one link carries over to the next.
          key={`${first.offer.link}-${offers.length}`}
          listing={{ preset: first.offer.preset, addedAs: [], suggestedName: first.offer.suggestedName }}
          source={{ kind: "link", link: first.offer.link }}
          heading={`Add ${first.offer.preset.title} from a link?`}
          flags={first.offer.flags}
          onClose={next}
          onAdded={next}
        />
      )}
      {first?.kind === "bundle" && (
        <AddPresetDialog
          key={`${first.offer.path}-${offers.length}`}
          listing={{ preset: first.offer.preset, addedAs: [], suggestedName: first.offer.suggestedName }}
          source={{ kind: "bundle", path: first.offer.path }}
          heading={`Install the bundle ${first.offer.displayName}?`}
          flags={first.offer.flags}
          about={<BundleAbout offer={first.offer} />}
          onClose={next}
          onAdded={next}
        />
      )}
    </>
  );
}
