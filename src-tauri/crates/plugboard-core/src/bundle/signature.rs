//! The `mcpb sign` signature a bundle may end with: a detached PKCS #7 signature over the zip before it, framed as
//! `MCPB_SIG_V1`, its length, the signature, zero padding, `MCPB_SIG_END`. Says whether it covers the bundle's exact
//! bytes, who signed, and whether a certificate authority this computer trusts vouches for the signer as a code
//! signer. It must never call a bundle signed when its bytes differ from what was signed, and never reach the
//! network (no revocation or issuer lookups).

use openssl::hash::MessageDigest;
use openssl::nid::Nid;
use openssl::pkcs7::{Pkcs7, Pkcs7Flags};
use openssl::stack::Stack;
use openssl::x509::store::{X509Store, X509StoreBuilder, X509StoreRef};
use openssl::x509::{X509, X509ExtendedKeyUsage, X509NameRef, X509Ref, X509StoreContext, X509VerifyResult};
use serde::Serialize;

use super::BundleError;

const HEADER: &[u8] = b"MCPB_SIG_V1";
const FOOTER: &[u8] = b"MCPB_SIG_END";
/// The bytes between the header and the signature: its length, little-endian.
const LENGTH_BYTES: usize = 4;

/// What a bundle's signature says, as the person is shown it before installing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Signature {
    Unsigned,
    /// Signed, and the signer's certificate leads to an authority this computer trusts, for signing code.
    Verified {
        signer: Signer,
    },
    /// Signed with a certificate that vouches for itself: it shows the bundle is unchanged since whoever holds that
    /// key signed it, not who that is.
    SelfSigned {
        signer: Signer,
    },
    /// The signature covers the bundle, but no authority this computer trusts vouches for the signer as a code signer.
    Untrusted {
        signer: Signer,
        reason: String,
    },
}

/// Who signed, from their certificate (the signer's own words: shown as inert text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Signer {
    /// The certificate's common name (else its whole subject).
    pub publisher: String,
    /// The issuer's common name (else its whole subject).
    pub issuer: String,
    /// The SHA-256 fingerprint of the signer's certificate, as colon-separated hex.
    pub fingerprint: String,
    /// When the certificate stops being valid, as OpenSSL prints it (`Dec  2 14:00:00 2027 GMT`).
    pub valid_until: String,
}

/// The certificate authorities this computer trusts (OpenSSL's default places, or `SSL_CERT_FILE`/`SSL_CERT_DIR`).
pub fn this_computers_authorities() -> Result<X509Store, BundleError> {
    let mut builder = X509StoreBuilder::new().map_err(|e| internal(&e))?;
    builder.set_default_paths().map_err(|e| internal(&e))?;
    Ok(builder.build())
}

/// Splits `bytes` at their signature block and checks it against `authorities`: the zip to open (as it was signed)
/// and what its signature says. A damaged block, or a signature that does not cover the zip, refuses the bundle.
pub fn check(mut bytes: Vec<u8>, authorities: &X509StoreRef) -> Result<(Vec<u8>, Signature), BundleError> {
    let Some((start, pkcs7)) = frame(&bytes)? else { return Ok((bytes, Signature::Unsigned)) };
    let pkcs7 = Pkcs7::from_der(pkcs7).map_err(|_| damaged("it is not a PKCS #7 signature"))?;
    let block = bytes.len() - start;
    bytes.truncate(start);
    let zip = if covers(&pkcs7, &bytes) {
        bytes
    } else {
        // `mcpb sign` 2.x counts the block in the zip's comment length after signing the zip without it.
        match with_comment_shortened(&bytes, block) {
            Some(signed) if covers(&pkcs7, &signed) => signed,
            _ => {
                return Err(BundleError::Signature(
                    "the signature does not match the bundle's contents: it was changed after it was signed".into(),
                ));
            }
        }
    };
    let none = Stack::new().map_err(|e| internal(&e))?;
    let signer = pkcs7
        .signers(&none, Pkcs7Flags::empty())
        .ok()
        .and_then(|signers| signers.iter().next().map(X509Ref::to_owned))
        .ok_or_else(|| damaged("it names no signer"))?;
    let certificates = pkcs7.signed().and_then(|signed| signed.certificates());
    Ok((zip, verdict(&signer, certificates, authorities)?))
}

/// Where the signature block starts and the signature in it, or `None` for a bundle without one.
fn frame(bytes: &[u8]) -> Result<Option<(usize, &[u8])>, BundleError> {
    let Some(before_footer) = bytes.strip_suffix(FOOTER) else { return Ok(None) };
    let start = before_footer
        .windows(HEADER.len())
        .rposition(|w| w == HEADER)
        .ok_or_else(|| damaged("it has an end marker but no start marker"))?;
    let after_header = &before_footer[start + HEADER.len()..];
    let (length, rest) = after_header.split_at_checked(LENGTH_BYTES).ok_or_else(|| damaged("it is cut short"))?;
    let length = u32::from_le_bytes(length.try_into().map_err(|_| damaged("it is cut short"))?) as usize;
    let (signature, padding) = rest.split_at_checked(length).ok_or_else(|| damaged("it is cut short"))?;
    if padding.iter().any(|&b| b != 0) {
        return Err(damaged("it has stray bytes after the signature"));
    }
    Ok(Some((start, signature)))
}

/// Whether `pkcs7` is a valid signature of exactly `zip` (by the certificate it carries; trust is judged apart).
fn covers(pkcs7: &Pkcs7, zip: &[u8]) -> bool {
    let (Ok(none), Ok(no_authorities)) = (Stack::new(), X509StoreBuilder::new()) else { return false };
    pkcs7.verify(&none, &no_authorities.build(), Some(zip), None, Pkcs7Flags::BINARY | Pkcs7Flags::NOVERIFY).is_ok()
}

/// `zip` with its end-of-central-directory comment length reduced by `block`, when it counted a block that follows.
fn with_comment_shortened(zip: &[u8], block: usize) -> Option<Vec<u8>> {
    const END_OF_DIRECTORY: &[u8] = b"PK\x05\x06";
    const COMMENT_LENGTH_AT: usize = 20;
    let at = zip.windows(END_OF_DIRECTORY.len()).rposition(|w| w == END_OF_DIRECTORY)? + COMMENT_LENGTH_AT;
    let counted = u16::from_le_bytes(zip.get(at..at + 2)?.try_into().ok()?);
    let original = usize::from(counted).checked_sub(block)?;
    let mut signed = zip.to_vec();
    signed[at..at + 2].copy_from_slice(&u16::try_from(original).ok()?.to_le_bytes());
    Some(signed)
}

/// Self-signed, vouched for by `authorities` as a code signer, or neither (and why).
fn verdict(
    signer: &X509Ref,
    certificates: Option<&openssl::stack::StackRef<X509>>,
    authorities: &X509StoreRef,
) -> Result<Signature, BundleError> {
    let who = Signer::of(signer);
    let self_signed = signer.issued(signer) == X509VerifyResult::OK
        && signer.public_key().and_then(|key| signer.verify(&key)).unwrap_or(false);
    if self_signed {
        return Ok(Signature::SelfSigned { signer: who });
    }
    let mut chain = Stack::new().map_err(|e| internal(&e))?;
    for certificate in certificates.into_iter().flatten() {
        chain.push(certificate.to_owned()).map_err(|e| internal(&e))?;
    }
    let mut context = X509StoreContext::new().map_err(|e| internal(&e))?;
    let chained = context
        .init(authorities, signer, &chain, |c| Ok(if c.verify_cert()? { None } else { Some(c.error()) }))
        .map_err(|e| internal(&e))?;
    let untrusted = |reason: String| Ok(Signature::Untrusted { signer: who.clone(), reason });
    match chained {
        Some(error) => untrusted(not_vouched_for(error, signer)),
        // No extended key usage means any use; one that lists uses must list code signing.
        None => match signer.extended_key_usage() {
            Some(uses) if !uses.intersects(X509ExtendedKeyUsage::CODE_SIGN | X509ExtendedKeyUsage::ANYEKU) => {
                untrusted("its certificate is not meant for signing code".into())
            }
            _ => Ok(Signature::Verified { signer: who }),
        },
    }
}

/// Why the chain check failed, in words.
fn not_vouched_for(error: X509VerifyResult, signer: &X509Ref) -> String {
    // X509_V_ERR_* codes: stable across OpenSSL versions.
    match error.as_raw() {
        10 => format!("its certificate expired on {}", signer.not_after()),
        9 => format!("its certificate is not valid until {}", signer.not_before()),
        2 | 19 | 20 | 21 => "no certificate authority this computer trusts vouches for the signer".into(),
        _ => format!("its certificate was not accepted: {}", error.error_string()),
    }
}

impl Signer {
    fn of(certificate: &X509Ref) -> Self {
        let fingerprint = certificate
            .digest(MessageDigest::sha256())
            .map(|d| d.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(":"))
            .unwrap_or_default();
        Self {
            publisher: name_of(certificate.subject_name()),
            issuer: name_of(certificate.issuer_name()),
            fingerprint,
            valid_until: certificate.not_after().to_string(),
        }
    }
}

/// A name's common name, else all its parts (`O=…, C=…`); control characters dropped.
fn name_of(name: &X509NameRef) -> String {
    let text = |entry: &openssl::x509::X509NameEntryRef| {
        entry.data().to_string().map(|s| s.chars().filter(|c| !c.is_control()).collect::<String>()).ok()
    };
    if let Some(common) = name.entries_by_nid(Nid::COMMONNAME).next().and_then(text) {
        return common;
    }
    name.entries()
        .filter_map(|entry| Some(format!("{}={}", entry.object().nid().short_name().ok()?, text(entry)?)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn damaged(why: &str) -> BundleError {
    BundleError::Signature(format!("its signature block is damaged: {why}"))
}

fn internal(error: &openssl::error::ErrorStack) -> BundleError {
    BundleError::Signature(format!("the signature could not be checked: {error}"))
}
