// What a dropped .mcpb bundle says about itself, shown in its install dialog: author, version, manifest spec, the
// signature as checked, where it runs, and the tools it declares (all the bundle's own text, shown inert).
import type { BundleOffer } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";

const SIGNATURE = {
  unsigned: "Unsigned",
  "signed-not-verified": "Signed, but Plugboard cannot verify signatures yet: trust it no more than an unsigned one",
} as const;

/** Props for {@link BundleAbout}. */
type BundleAboutProps = { offer: BundleOffer };

export default function BundleAbout({ offer }: BundleAboutProps) {
  return (
    <dl aria-label="About the bundle" className="mb-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      <dt className="text-muted">Author</dt>
      <dd>{revealHidden(offer.author)}</dd>
      <dt className="text-muted">Version</dt>
      <dd>
        {revealHidden(offer.version)} (manifest {revealHidden(offer.spec)})
      </dd>
      <dt className="text-muted">Signature</dt>
      <dd>{SIGNATURE[offer.signature]}</dd>
      <dt className="text-muted">Runs on</dt>
      <dd>{revealHidden(offer.compatibility)}</dd>
      <dt className="text-muted">Declares</dt>
      <dd className="wrap-anywhere">
        {offer.tools.length === 0 ? "no tools" : offer.tools.map((tool) => revealHidden(tool.name)).join(", ")}
      </dd>
    </dl>
  );
}
