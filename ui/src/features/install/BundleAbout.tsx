// What a dropped .mcpb bundle says about itself, shown in its install dialog: author, version, manifest spec, the
// signature as checked, where it runs, and the tools it declares (all the bundle's own text, shown inert).
import type { BundleOffer, Signature } from "../../ipc/bindings";
import { revealHidden } from "../servers/revealHidden";

/** The signature as checked, in words; the signer's names are their certificate's own text. */
function signatureText(signature: Signature): string {
  switch (signature.status) {
    case "unsigned":
      return "Unsigned: nothing shows who made it, or that it is unchanged since";
    case "verified":
      return `Signed by "${revealHidden(signature.signer.publisher)}", vouched for by "${revealHidden(signature.signer.issuer)}", a certificate authority this computer trusts`;
    case "self-signed":
      return `Self-signed by "${revealHidden(signature.signer.publisher)}": unchanged since that key signed it, but nobody vouches for who holds the key`;
    case "untrusted":
      return `Signed by "${revealHidden(signature.signer.publisher)}", but ${signature.reason}: trust it no more than an unsigned one`;
  }
}

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
      <dd>
        {signatureText(offer.signature)}
        {offer.signature.status !== "unsigned" && (
          <span className="block text-xs text-muted wrap-anywhere">
            Certificate SHA-256 {offer.signature.signer.fingerprint}, valid until {offer.signature.signer.validUntil}
          </span>
        )}
      </dd>
      <dt className="text-muted">Runs on</dt>
      <dd>{revealHidden(offer.compatibility)}</dd>
      <dt className="text-muted">Declares</dt>
      <dd className="wrap-anywhere">
        {offer.tools.length === 0 ? "no tools" : offer.tools.map((tool) => revealHidden(tool.name)).join(", ")}
      </dd>
    </dl>
  );
}
