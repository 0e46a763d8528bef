// "Add to Plugboard" links, over any page: each offer the backend parsed from a plugboard://install link (while the
// window runs, or the ones it was started with) opens the add dialog in its consent form: the exact command or URL,
// environment and header names, the trust flags and the inputs for secrets. Nothing is added before the person
// confirms, and nothing runs before they approve it (the approval dialog takes over after Add).
import { useEffect, useState } from "react";
import { commands, events, type InstallOffer } from "../../ipc/bindings";
import { call } from "../../ipc/client";
import { useBackendEvent } from "../../ipc/useBackendEvent";
import AddPresetDialog from "../presets/AddPresetDialog";

/** At most this many offers wait; a flood of links (any local program can send them) cannot pile up dialogs. */
const MAX_WAITING = 3;

export default function InstallOffers() {
  const [offers, setOffers] = useState<InstallOffer[]>([]);
  const queue = (added: InstallOffer[]) => setOffers((waiting) => [...waiting, ...added].slice(0, MAX_WAITING));
  useBackendEvent(events.installOffered, ({ offer }) => queue([offer]), "install links");
  useEffect(() => {
    call(commands.missedInstallOffers()).then(
      (missed) => queue(missed.map(({ offer }) => offer)),
      (error: unknown) => console.error("Could not read the install links of the start", error),
    );
    // Once per mount: the backend hands each missed offer out once.
  }, []);

  const offer = offers[0];
  if (!offer) return null;
  return (
    <AddPresetDialog
      // A new offer is a new form: nothing typed for one link carries over to the next.
      key={`${offer.link}-${offers.length}`}
      listing={{ preset: offer.preset, addedAs: [], suggestedName: offer.suggestedName }}
      source={{ kind: "link", link: offer.link }}
      heading={`Add ${offer.preset.title} from a link?`}
      flags={offer.flags}
      onClose={() => setOffers((waiting) => waiting.slice(1))}
      onAdded={() => setOffers((waiting) => waiting.slice(1))}
    />
  );
}
