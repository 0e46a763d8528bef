//! A detached PKCS #7 (CMS) signature, as `mcpb sign` writes one: its certificates, its first signer, and whether
//! that signer's signature covers given bytes. Knows nothing of trust: who vouches for the certificate is
//! `signature.rs`'s to judge. It must never call bytes covered unless their digest matches what was signed and the
//! signature over that digest verifies with the signer's own certificate.

use cms::cert::IssuerAndSerialNumber;
use cms::signed_data::{SignerIdentifier, SignerInfo};
use der::asn1::{AnyRef, ObjectIdentifier, OctetStringRef};
use der::oid::db::{rfc5911, rfc5912, rfc8410};
use der::{Decode, Encode, Reader, SliceReader, Tag, TagNumber, Tagged};
use rustls_pki_types::{CertificateDer, SignatureVerificationAlgorithm};
use sha2::Digest as _;
use webpki::aws_lc_rs as algorithms;
use x509_cert::Certificate;
use x509_cert::ext::pkix::SubjectKeyIdentifier;

/// A parsed signature: the certificates it carries and its first signer.
pub(super) struct Pkcs7 {
    certificates: Vec<CertificateDer<'static>>,
    signer: SignerInfo,
    /// The signer's signed attributes as they were written, re-tagged as the SET they were signed as. DER's decoder
    /// sorts a SET OF; what the signer signed is the order it wrote them in (node-forge's `mcpb sign` does not sort).
    signed_attributes: Option<Vec<u8>>,
}

/// Why a signature could not be read, or uses what Plugboard does not check.
#[derive(Debug)]
pub(super) enum Unreadable {
    /// Not a PKCS #7 signed-data structure, or one cut short or malformed.
    Malformed,
    NoSigner,
    /// An algorithm Plugboard does not verify (named for the person).
    Unsupported(String),
}

impl Pkcs7 {
    pub(super) fn from_der(bytes: &[u8]) -> Result<Self, Unreadable> {
        let (certificates, signer) = signed_data_parts(bytes).map_err(|_| Unreadable::Malformed)?;
        let signer_bytes = signer.ok_or(Unreadable::NoSigner)?;
        let signed_attributes = signed_attributes_as_written(&signer_bytes).map_err(|_| Unreadable::Malformed)?;
        let signer = SignerInfo::from_der(&signer_bytes).map_err(|_| Unreadable::Malformed)?;
        Ok(Self { certificates, signer, signed_attributes })
    }

    /// Every certificate the signature carries, the signer's among them (in the order written).
    pub(super) fn certificates(&self) -> &[CertificateDer<'static>] {
        &self.certificates
    }

    /// The certificate the signer names (by issuer and serial number, or by subject key identifier).
    pub(super) fn signer_certificate(&self) -> Option<&CertificateDer<'static>> {
        self.certificates
            .iter()
            .find(|der| Certificate::from_der(der).is_ok_and(|certificate| names(&self.signer.sid, &certificate)))
    }

    /// Whether the signer's signature covers exactly `content`: its digest is the one signed (in the signed
    /// attributes, when there are any), and the signature verifies with `signer`'s key.
    pub(super) fn covers(&self, content: &[u8], signer: &CertificateDer<'_>) -> Result<bool, Unreadable> {
        let digest = DigestAlgorithm::of(&self.signer.digest_alg.oid)?;
        let signed: std::borrow::Cow<'_, [u8]> = match (&self.signer.signed_attrs, &self.signed_attributes) {
            (Some(attributes), Some(as_written)) => {
                let Some(expected) = message_digest(attributes) else { return Ok(false) };
                if expected != digest.digest(content) {
                    return Ok(false);
                }
                as_written.as_slice().into()
            }
            _ => content.into(),
        };
        let signature = self.signer.signature.as_bytes();
        let candidates = candidates_for(&self.signer.signature_algorithm.oid, digest)?;
        if let Err(e) = webpki::EndEntityCert::try_from(signer) {
            return Err(Unreadable::Unsupported(format!(
                "its signer's certificate is not one Plugboard can read ({e})"
            )));
        }
        Ok(verifies(signer, candidates, &signed, signature))
    }
}

/// Whether `certificate` (`parsed`, as read from it) signed itself: its issuer is its subject and its own key
/// verifies its signature.
pub(super) fn signs_itself(certificate: &CertificateDer<'_>, parsed: &Certificate) -> bool {
    if parsed.tbs_certificate.issuer != parsed.tbs_certificate.subject {
        return false;
    }
    let (Ok(tbs), Some(signature)) = (parsed.tbs_certificate.to_der(), parsed.signature.as_bytes()) else {
        return false;
    };
    let Ok(candidates) = certificate_candidates(&parsed.signature_algorithm.oid) else { return false };
    verifies(certificate, candidates, &tbs, signature)
}

/// The signature algorithms webpki verifies certificate chains with: those it offers over aws-lc-rs.
pub(super) static CHAIN_ALGORITHMS: [Verifier; 17] = [
    algorithms::ECDSA_P256_SHA256,
    algorithms::ECDSA_P256_SHA384,
    algorithms::ECDSA_P384_SHA256,
    algorithms::ECDSA_P384_SHA384,
    algorithms::ECDSA_P521_SHA256,
    algorithms::ECDSA_P521_SHA384,
    algorithms::ECDSA_P521_SHA512,
    algorithms::ED25519,
    algorithms::RSA_PKCS1_2048_8192_SHA256,
    algorithms::RSA_PKCS1_2048_8192_SHA384,
    algorithms::RSA_PKCS1_2048_8192_SHA512,
    algorithms::RSA_PKCS1_2048_8192_SHA256_ABSENT_PARAMS,
    algorithms::RSA_PKCS1_2048_8192_SHA384_ABSENT_PARAMS,
    algorithms::RSA_PKCS1_2048_8192_SHA512_ABSENT_PARAMS,
    algorithms::RSA_PSS_2048_8192_SHA256_LEGACY_KEY,
    algorithms::RSA_PSS_2048_8192_SHA384_LEGACY_KEY,
    algorithms::RSA_PSS_2048_8192_SHA512_LEGACY_KEY,
];

/// Why a signature made with SHA-1, as its digest or its signature's hash, is refused.
const SHA_1_REFUSED: &str = "it was made with SHA-1, which is no longer safe";

#[derive(Clone, Copy)]
enum DigestAlgorithm {
    Sha256,
    Sha384,
    Sha512,
}

impl DigestAlgorithm {
    fn of(oid: &ObjectIdentifier) -> Result<Self, Unreadable> {
        match *oid {
            rfc5912::ID_SHA_256 => Ok(Self::Sha256),
            rfc5912::ID_SHA_384 => Ok(Self::Sha384),
            rfc5912::ID_SHA_512 => Ok(Self::Sha512),
            rfc5912::ID_SHA_1 => Err(Unreadable::Unsupported(SHA_1_REFUSED.into())),
            other => {
                Err(Unreadable::Unsupported(format!("its digest algorithm ({other}) is not one Plugboard checks")))
            }
        }
    }

    fn digest(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Self::Sha256 => sha2::Sha256::digest(bytes).to_vec(),
            Self::Sha384 => sha2::Sha384::digest(bytes).to_vec(),
            Self::Sha512 => sha2::Sha512::digest(bytes).to_vec(),
        }
    }
}

/// The verifiers a signer's signature may need, from its signature algorithm and digest. PKCS #7 signers often name
/// only the key's algorithm (`rsaEncryption`, `id-ecPublicKey`) and leave the hash to the digest algorithm.
fn candidates_for(
    signature_algorithm: &ObjectIdentifier,
    digest: DigestAlgorithm,
) -> Result<&'static [Verifier], Unreadable> {
    match *signature_algorithm {
        rfc5912::RSA_ENCRYPTION | rfc5912::ID_EC_PUBLIC_KEY => Ok(by_digest(digest)),
        other => certificate_candidates(&other),
    }
}

/// The verifiers for a signature algorithm that names its hash (`sha256WithRSAEncryption`, `ecdsa-with-SHA256`, …).
fn certificate_candidates(algorithm: &ObjectIdentifier) -> Result<&'static [Verifier], Unreadable> {
    match *algorithm {
        rfc5912::SHA_256_WITH_RSA_ENCRYPTION | rfc5912::ECDSA_WITH_SHA_256 => Ok(by_digest(DigestAlgorithm::Sha256)),
        rfc5912::SHA_384_WITH_RSA_ENCRYPTION | rfc5912::ECDSA_WITH_SHA_384 => Ok(by_digest(DigestAlgorithm::Sha384)),
        rfc5912::SHA_512_WITH_RSA_ENCRYPTION | rfc5912::ECDSA_WITH_SHA_512 => Ok(by_digest(DigestAlgorithm::Sha512)),
        rfc8410::ID_ED_25519 => Ok(&ED_25519),
        rfc5912::SHA_1_WITH_RSA_ENCRYPTION => Err(Unreadable::Unsupported(SHA_1_REFUSED.into())),
        other => Err(Unreadable::Unsupported(format!("its signature algorithm ({other}) is not one Plugboard checks"))),
    }
}

fn by_digest(digest: DigestAlgorithm) -> &'static [Verifier] {
    match digest {
        DigestAlgorithm::Sha256 => &SHA_256,
        DigestAlgorithm::Sha384 => &SHA_384,
        DigestAlgorithm::Sha512 => &SHA_512,
    }
}

type Verifier = &'static dyn SignatureVerificationAlgorithm;

static SHA_256: [Verifier; 4] = [
    algorithms::ECDSA_P256_SHA256,
    algorithms::ECDSA_P384_SHA256,
    algorithms::ECDSA_P521_SHA256,
    algorithms::RSA_PKCS1_2048_8192_SHA256,
];
static SHA_384: [Verifier; 4] = [
    algorithms::ECDSA_P256_SHA384,
    algorithms::ECDSA_P384_SHA384,
    algorithms::ECDSA_P521_SHA384,
    algorithms::RSA_PKCS1_2048_8192_SHA384,
];
static SHA_512: [Verifier; 2] = [algorithms::ECDSA_P521_SHA512, algorithms::RSA_PKCS1_2048_8192_SHA512];
static ED_25519: [Verifier; 1] = [algorithms::ED25519];

/// Whether one of `candidates` verifies `signature` of `message` with `certificate`'s key (each candidate refuses a
/// key of another type, so at most the one matching the key is tried in earnest).
fn verifies(
    certificate: &CertificateDer<'_>,
    candidates: &[&dyn SignatureVerificationAlgorithm],
    message: &[u8],
    signature: &[u8],
) -> bool {
    let Ok(certificate) = webpki::EndEntityCert::try_from(certificate) else { return false };
    candidates.iter().any(|algorithm| certificate.verify_signature(*algorithm, message, signature).is_ok())
}

/// The message-digest attribute's value, when the signed attributes hold exactly one.
fn message_digest(attributes: &x509_cert::attr::Attributes) -> Option<Vec<u8>> {
    let attribute = attributes.iter().find(|a| a.oid == rfc5911::ID_MESSAGE_DIGEST)?;
    let [value] = attribute.values.as_slice() else { return None };
    Some(value.decode_as::<OctetStringRef<'_>>().ok()?.as_bytes().to_vec())
}

/// Whether `sid` names `certificate`.
fn names(sid: &SignerIdentifier, certificate: &Certificate) -> bool {
    let tbs = &certificate.tbs_certificate;
    match sid {
        SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber { issuer, serial_number }) => {
            tbs.issuer == *issuer && tbs.serial_number == *serial_number
        }
        SignerIdentifier::SubjectKeyIdentifier(wanted) => tbs
            .get::<SubjectKeyIdentifier>()
            .ok()
            .flatten()
            .is_some_and(|(_, key_identifier)| key_identifier == *wanted),
    }
}

/// The certificates of a ContentInfo holding SignedData, and its first SignerInfo's bytes (`None` without one).
/// Walked element by element so that each certificate and the signer keep the bytes they were written with.
fn signed_data_parts(bytes: &[u8]) -> der::Result<(Vec<CertificateDer<'static>>, Option<Vec<u8>>)> {
    let content_info = AnyRef::from_der(bytes)?;
    content_info.tag().assert_eq(Tag::Sequence)?;
    let mut reader = SliceReader::new(content_info.value())?;
    if ObjectIdentifier::decode(&mut reader)? != rfc5911::ID_SIGNED_DATA {
        return Err(der::ErrorKind::Value { tag: Tag::ObjectIdentifier }.into());
    }
    let explicit = AnyRef::decode(&mut reader)?;
    let signed_data = AnyRef::from_der(explicit.value())?;
    signed_data.tag().assert_eq(Tag::Sequence)?;
    let mut reader = SliceReader::new(signed_data.value())?;
    // version, digestAlgorithms, encapContentInfo
    for _ in 0..3 {
        AnyRef::decode(&mut reader)?;
    }
    let mut certificates = Vec::new();
    loop {
        let element = AnyRef::decode(&mut reader)?;
        match element.tag() {
            Tag::ContextSpecific { number, .. } if number == TagNumber::N0 => {
                let mut inner = SliceReader::new(element.value())?;
                while !inner.is_finished() {
                    let certificate = AnyRef::decode(&mut inner)?;
                    // Other certificate formats (attribute certificates, …) are not X.509 certificates: skipped.
                    if certificate.tag() == Tag::Sequence {
                        certificates.push(CertificateDer::from(certificate.to_der()?));
                    }
                }
            }
            Tag::ContextSpecific { .. } => {} // crls
            Tag::Set => {
                let mut signers = SliceReader::new(element.value())?;
                let first = if signers.is_finished() { None } else { Some(AnyRef::decode(&mut signers)?.to_der()?) };
                return Ok((certificates, first));
            }
            other => return Err(der::ErrorKind::TagUnexpected { expected: Some(Tag::Set), actual: other }.into()),
        }
    }
}

/// A SignerInfo's signed attributes exactly as written, tagged as the SET their signature covers; `None` without.
fn signed_attributes_as_written(signer: &[u8]) -> der::Result<Option<Vec<u8>>> {
    let signer = AnyRef::from_der(signer)?;
    let mut reader = SliceReader::new(signer.value())?;
    // version, sid, digestAlgorithm
    for _ in 0..3 {
        AnyRef::decode(&mut reader)?;
    }
    let attributes = AnyRef::decode(&mut reader)?;
    match attributes.tag() {
        Tag::ContextSpecific { number, constructed: true } if number == TagNumber::N0 => {
            Ok(Some(AnyRef::new(Tag::Set, attributes.value())?.to_der()?))
        }
        _ => Ok(None),
    }
}
