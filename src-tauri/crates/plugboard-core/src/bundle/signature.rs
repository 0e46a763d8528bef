//! The `mcpb sign` signature a bundle may end with: a detached PKCS #7 signature over the zip before it, framed as
//! `MCPB_SIG_V1`, its length, the signature, zero padding, `MCPB_SIG_END`. Says whether it covers the bundle's exact
//! bytes, who signed, and whether a certificate authority this computer trusts vouches for the signer as a code
//! signer. It must never call a bundle signed when its bytes differ from what was signed, and never reach the
//! network (no revocation or issuer lookups).

use rustls_pki_types::{CertificateDer, TrustAnchor, UnixTime};
use serde::Serialize;
use sha2::Digest as _;
use webpki::{EndEntityCert, ExtendedKeyUsageValidator, KeyPurposeIdIter};
use x509_cert::Certificate;
use x509_cert::der::Decode as _;
use x509_cert::name::Name;

use super::BundleError;
use super::pkcs7::{self, Pkcs7, Unreadable};

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

/// The certificate authorities a signer's chain may end at.
pub struct Authorities {
    anchors: Vec<TrustAnchor<'static>>,
}

impl Authorities {
    /// The authorities this computer trusts: `SSL_CERT_FILE`/`SSL_CERT_DIR` when set, else the system's bundle (the
    /// places OpenSSL looks on Linux). One unreadable certificate leaves the others trusted.
    pub fn of_this_computer() -> Self {
        let found = rustls_native_certs::load_native_certs();
        for error in &found.errors {
            tracing::warn!("a trusted certificate could not be read: {error}");
        }
        Self::from_certificates(&found.certs)
    }

    /// Exactly `certificates` (those webpki cannot read as an authority are left out).
    pub fn from_certificates(certificates: &[CertificateDer<'_>]) -> Self {
        let anchors = certificates
            .iter()
            .filter_map(|der| webpki::anchor_from_trusted_cert(der).ok().map(|anchor| anchor.to_owned()))
            .collect();
        Self { anchors }
    }

    /// None at all: every signer is untrusted unless it signed itself.
    #[cfg(any(test, feature = "fuzzing"))]
    pub fn none() -> Self {
        Self { anchors: Vec::new() }
    }
}

/// Splits `bytes` at their signature block and checks it against `authorities`: the zip to open (as it was signed)
/// and what its signature says. A damaged block, or a signature that does not cover the zip, refuses the bundle.
pub fn check(mut bytes: Vec<u8>, authorities: &Authorities) -> Result<(Vec<u8>, Signature), BundleError> {
    let Some((start, pkcs7)) = frame(&bytes)? else { return Ok((bytes, Signature::Unsigned)) };
    let pkcs7 = Pkcs7::from_der(pkcs7).map_err(unreadable)?;
    let signer =
        pkcs7.signer_certificate().ok_or_else(|| damaged("it does not carry its signer's certificate"))?.clone();
    let block = bytes.len() - start;
    bytes.truncate(start);
    let zip = if pkcs7.covers(&bytes, &signer).map_err(unreadable)? {
        bytes
    } else {
        // `mcpb sign` 2.x counts the block in the zip's comment length after signing the zip without it.
        match with_comment_shortened(&bytes, block) {
            Some(signed) if pkcs7.covers(&signed, &signer).map_err(unreadable)? => signed,
            _ => {
                return Err(BundleError::Signature(
                    "the signature does not match the bundle's contents: it was changed after it was signed".into(),
                ));
            }
        }
    };
    Ok((zip, verdict(&signer, pkcs7.certificates(), authorities)?))
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
    signer: &CertificateDer<'_>,
    certificates: &[CertificateDer<'static>],
    authorities: &Authorities,
) -> Result<Signature, BundleError> {
    let parsed =
        Certificate::from_der(signer).map_err(|e| damaged(&format!("its signer's certificate is malformed ({e})")))?;
    let who = Signer::of(signer, &parsed);
    if pkcs7::signs_itself(signer, &parsed) {
        return Ok(Signature::SelfSigned { signer: who });
    }
    let end_entity = EndEntityCert::try_from(signer)
        .map_err(|e| BundleError::Signature(format!("its signer's certificate could not be read: {e}")))?;
    let chained = end_entity.verify_for_usage(
        &pkcs7::CHAIN_ALGORITHMS,
        &authorities.anchors,
        certificates,
        UnixTime::now(),
        CodeSigning,
        None,
        None,
    );
    Ok(match chained {
        Ok(_) => Signature::Verified { signer: who },
        Err(error) => {
            let reason = not_vouched_for(&error, &parsed);
            Signature::Untrusted { signer: who, reason }
        }
    })
}

/// The signer's certificate, and every authority's on the way, must list code signing (or any use) when it lists
/// uses at all: no extended key usage means any use.
struct CodeSigning;

impl ExtendedKeyUsageValidator for CodeSigning {
    fn validate(&self, uses: KeyPurposeIdIter<'_, '_>) -> Result<(), webpki::Error> {
        // id-kp-codeSigning (1.3.6.1.5.5.7.3.3) and anyExtendedKeyUsage (2.5.29.37.0), as DER content bytes.
        const CODE_SIGNING: &[u8] = &[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x03];
        const ANY_USE: &[u8] = &[0x55, 0x1d, 0x25, 0x00];
        let mut present = Vec::new();
        for purpose in uses {
            let purpose = purpose?;
            if purpose == webpki::KeyPurposeId::new(CODE_SIGNING) || purpose == webpki::KeyPurposeId::new(ANY_USE) {
                return Ok(());
            }
            present.push(purpose.to_decoded_oid());
        }
        if present.is_empty() {
            return Ok(());
        }
        let required = webpki::KeyUsage::required(CODE_SIGNING);
        Err(webpki::Error::RequiredEkuNotFoundContext(webpki::RequiredEkuNotFoundContext { required, present }))
    }
}

/// Why the chain check failed, in words.
fn not_vouched_for(error: &webpki::Error, signer: &Certificate) -> String {
    let validity = &signer.tbs_certificate.validity;
    match error {
        webpki::Error::CertExpired { .. } => {
            format!("its certificate expired on {}", as_openssl_prints(&validity.not_after))
        }
        webpki::Error::CertNotValidYet { .. } => {
            format!("its certificate is not valid until {}", as_openssl_prints(&validity.not_before))
        }
        webpki::Error::UnknownIssuer => "no certificate authority this computer trusts vouches for the signer".into(),
        webpki::Error::RequiredEkuNotFoundContext(_) => "its certificate is not meant for signing code".into(),
        other => format!("its certificate was not accepted: {other}"),
    }
}

impl Signer {
    fn of(der: &CertificateDer<'_>, certificate: &Certificate) -> Self {
        let fingerprint =
            sha2::Sha256::digest(der.as_ref()).iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(":");
        let tbs = &certificate.tbs_certificate;
        Self {
            publisher: name_of(&tbs.subject),
            issuer: name_of(&tbs.issuer),
            fingerprint,
            valid_until: as_openssl_prints(&tbs.validity.not_after),
        }
    }
}

/// A certificate's time as OpenSSL prints it (`Dec  2 14:00:00 2027 GMT`), the form people have seen before.
fn as_openssl_prints(time: &x509_cert::time::Time) -> String {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let t = time.to_date_time();
    let month = MONTHS.get(usize::from(t.month()).saturating_sub(1)).unwrap_or(&"???");
    format!("{month} {:>2} {:02}:{:02}:{:02} {} GMT", t.day(), t.hour(), t.minutes(), t.seconds(), t.year())
}

/// A name's common name, else all its parts (`O=…, C=…`); control characters dropped.
fn name_of(name: &Name) -> String {
    let entries = || name.0.iter().flat_map(|rdn| rdn.0.iter());
    let text =
        |value: &x509_cert::der::Any| text_of(value).map(|s| s.chars().filter(|c| !c.is_control()).collect::<String>());
    if let Some(common) =
        entries().find(|entry| entry.oid == x509_cert::der::oid::db::rfc4519::CN).and_then(|e| text(&e.value))
    {
        return common;
    }
    entries()
        .filter_map(|entry| {
            let key =
                x509_cert::der::oid::db::DB.by_oid(&entry.oid).map_or_else(|| entry.oid.to_string(), str::to_owned);
            Some(format!("{key}={}", text(&entry.value)?))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A directory string's text, whichever of the string types it was written as.
fn text_of(value: &x509_cert::der::Any) -> Option<String> {
    use x509_cert::der::asn1::{BmpString, Ia5StringRef, PrintableStringRef, TeletexStringRef, Utf8StringRef};
    use x509_cert::der::{Tag, Tagged as _};
    Some(match value.tag() {
        Tag::Utf8String => value.decode_as::<Utf8StringRef<'_>>().ok()?.to_string(),
        Tag::PrintableString => value.decode_as::<PrintableStringRef<'_>>().ok()?.to_string(),
        Tag::Ia5String => value.decode_as::<Ia5StringRef<'_>>().ok()?.to_string(),
        Tag::TeletexString => value.decode_as::<TeletexStringRef<'_>>().ok()?.to_string(),
        Tag::BmpString => value.decode_as::<BmpString>().ok()?.to_string(),
        _ => return None,
    })
}

fn damaged(why: &str) -> BundleError {
    BundleError::Signature(format!("its signature block is damaged: {why}"))
}

fn unreadable(error: Unreadable) -> BundleError {
    match error {
        Unreadable::Malformed => damaged("it is not a PKCS #7 signature"),
        Unreadable::NoSigner => damaged("it names no signer"),
        Unreadable::Unsupported(why) => BundleError::Signature(format!("the signature could not be checked: {why}")),
    }
}
