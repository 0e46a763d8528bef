//! Signatures made here with OpenSSL, the way `mcpb sign` frames them: a signer vouched for by a test authority, the
//! same signer with that authority unknown, a certificate for websites only, an expired one, a self-signed one, and
//! the refusals (bytes changed after signing, a damaged block). The real `mcpb sign` output is checked end to end in
//! tests/e2e/bundle-open.test.mjs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use openssl::asn1::{Asn1Integer, Asn1Time};
use openssl::bn::BigNum;
use openssl::ec::{EcGroup, EcKey};
use openssl::hash::MessageDigest;
use openssl::nid::Nid;
use openssl::pkcs7::{Pkcs7, Pkcs7Flags};
use openssl::pkey::{PKey, Private};
use openssl::rsa::Rsa;
use openssl::stack::Stack;
use openssl::x509::extension::{BasicConstraints, ExtendedKeyUsage};
use openssl::x509::{X509, X509NameBuilder};
use rustls_pki_types::CertificateDer;

use super::BundleError;
use super::signature::{Authorities, Signature, check};

const ZIP: &[u8] = b"PK\x03\x04 stands in for the bundle's zip, byte for byte";

fn ec_key() -> PKey<Private> {
    PKey::from_ec_key(EcKey::generate(&EcGroup::from_curve_name(Nid::X9_62_PRIME256V1).unwrap()).unwrap()).unwrap()
}

/// What a test certificate is for.
struct Use {
    authority: bool,
    /// `None`: no extended key usage at all.
    code_signing: Option<bool>,
    /// Days from now it starts and ends.
    valid: (i64, i64),
}

const SIGNER: Use = Use { authority: false, code_signing: Some(true), valid: (-1, 365) };

fn certificate(name: &str, key: &PKey<Private>, issuer: Option<(&X509, &PKey<Private>)>, usage: &Use) -> X509 {
    let mut subject = X509NameBuilder::new().unwrap();
    subject.append_entry_by_nid(Nid::COMMONNAME, name).unwrap();
    let subject = subject.build();
    let mut builder = X509::builder().unwrap();
    builder.set_version(2).unwrap();
    let serial: u32 = rand_serial();
    builder.set_serial_number(&Asn1Integer::from_bn(&BigNum::from_u32(serial).unwrap()).unwrap()).unwrap();
    builder.set_subject_name(&subject).unwrap();
    builder.set_issuer_name(issuer.map_or(&subject, |(c, _)| c.subject_name())).unwrap();
    builder.set_pubkey(key).unwrap();
    let day = |days: i64| Asn1Time::from_unix(time_now() + days * 86_400).unwrap();
    builder.set_not_before(&day(usage.valid.0)).unwrap();
    builder.set_not_after(&day(usage.valid.1)).unwrap();
    let mut constraints = BasicConstraints::new();
    if usage.authority {
        constraints.critical().ca();
    }
    builder.append_extension(constraints.build().unwrap()).unwrap();
    match usage.code_signing {
        Some(true) => builder.append_extension(ExtendedKeyUsage::new().code_signing().build().unwrap()).unwrap(),
        Some(false) => builder.append_extension(ExtendedKeyUsage::new().server_auth().build().unwrap()).unwrap(),
        None => {}
    }
    builder.sign(issuer.map_or(key, |(_, k)| k), MessageDigest::sha256()).unwrap();
    builder.build()
}

fn rand_serial() -> u32 {
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes).unwrap();
    u32::from_le_bytes(bytes) >> 1
}

fn time_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// A test certificate authority and a signer it vouches for.
struct Pki {
    authority: X509,
    authority_key: PKey<Private>,
}

impl Pki {
    fn new() -> Self {
        let authority_key = ec_key();
        let usage = Use { authority: true, code_signing: None, valid: (-1, 3650) };
        Self { authority: certificate("Plugboard Test Authority", &authority_key, None, &usage), authority_key }
    }

    fn signer(&self, name: &str, usage: &Use) -> (X509, PKey<Private>) {
        let key = ec_key();
        (certificate(name, &key, Some((&self.authority, &self.authority_key)), usage), key)
    }

    fn trusting(&self) -> Authorities {
        trusting(&self.authority)
    }
}

fn trusting(authority: &X509) -> Authorities {
    Authorities::from_certificates(&[CertificateDer::from(authority.to_der().unwrap())])
}

/// A detached signature of `content`, carrying `certificate` and `extra` certificates.
fn sign(content: &[u8], certificate: &X509, key: &PKey<Private>, extra: &[X509]) -> Vec<u8> {
    let mut certs = Stack::new().unwrap();
    for c in extra {
        certs.push(c.clone()).unwrap();
    }
    let flags = Pkcs7Flags::DETACHED | Pkcs7Flags::BINARY;
    Pkcs7::sign(certificate, key, &certs, content, flags).unwrap().to_der().unwrap()
}

/// `zip`, then the signature block as `mcpb sign` writes it, with `padding` zero bytes before the end marker.
fn framed(zip: &[u8], pkcs7: &[u8], padding: usize) -> Vec<u8> {
    let mut bytes = zip.to_vec();
    bytes.extend_from_slice(b"MCPB_SIG_V1");
    bytes.extend_from_slice(&u32::try_from(pkcs7.len()).unwrap().to_le_bytes());
    bytes.extend_from_slice(pkcs7);
    bytes.extend(std::iter::repeat_n(0u8, padding));
    bytes.extend_from_slice(b"MCPB_SIG_END");
    bytes
}

fn refusal(result: Result<(Vec<u8>, Signature), BundleError>) -> String {
    match result {
        Err(BundleError::Signature(why)) => why,
        other => panic!("not refused for its signature: {other:?}"),
    }
}

/// A bundle without a block is unsigned and its bytes are left as they are.
#[test]
fn an_unsigned_bundle_is_unsigned() {
    let (zip, signature) = check(ZIP.to_vec(), &Authorities::none()).unwrap();
    assert_eq!((zip.as_slice(), signature), (ZIP, Signature::Unsigned));
}

/// A code signer vouched for by a trusted authority is verified, with its name, issuer and fingerprint; the zip
/// comes back without the block (with or without padding, as external signers write it).
#[test]
fn a_signer_vouched_for_by_a_trusted_authority_is_verified() {
    let pki = Pki::new();
    let (certificate, key) = pki.signer("Ada Tools", &SIGNER);
    let pkcs7 = sign(ZIP, &certificate, &key, &[]);
    for padding in [0, 300] {
        let (zip, signature) = check(framed(ZIP, &pkcs7, padding), &pki.trusting()).unwrap();
        assert_eq!(zip, ZIP);
        let Signature::Verified { signer } = signature else { panic!("not verified: {signature:?}") };
        assert_eq!((signer.publisher.as_str(), signer.issuer.as_str()), ("Ada Tools", "Plugboard Test Authority"));
        // What OpenSSL, an independent implementation, says of the same certificate.
        let fingerprint = certificate.digest(MessageDigest::sha256()).unwrap();
        let fingerprint = fingerprint.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(":");
        assert_eq!(signer.fingerprint, fingerprint);
        assert_eq!(signer.valid_until, certificate.not_after().to_string());
    }
}

/// A signature whose digest matches but whose signature value does not verify with the signer's key is refused:
/// the digest alone proves nothing, anyone can write one.
#[test]
fn a_signature_its_signer_did_not_make_is_refused() {
    let pki = Pki::new();
    let (certificate, key) = pki.signer("Ada Tools", &SIGNER);
    let mut pkcs7 = sign(ZIP, &certificate, &key, &[]);
    // OpenSSL writes the signer's signature value last: its last byte is the last byte of the ECDSA signature's s.
    *pkcs7.last_mut().unwrap() ^= 1;
    let why = refusal(check(framed(ZIP, &pkcs7, 0), &pki.trusting()));
    assert!(why.contains("changed after it was signed"), "{why}");
}

/// A signer vouched for by an intermediate authority that the signature carries, which a trusted authority vouches
/// for, is verified; without the intermediate the chain does not reach a trusted authority.
#[test]
fn a_chain_through_a_carried_intermediate_is_verified() {
    let pki = Pki::new();
    let intermediate_key = ec_key();
    let as_authority = Use { authority: true, code_signing: None, valid: (-1, 3650) };
    let intermediate = certificate(
        "Plugboard Test Intermediate",
        &intermediate_key,
        Some((&pki.authority, &pki.authority_key)),
        &as_authority,
    );
    let key = ec_key();
    let signer = certificate("Ada Tools", &key, Some((&intermediate, &intermediate_key)), &SIGNER);
    let carried =
        check(framed(ZIP, &sign(ZIP, &signer, &key, std::slice::from_ref(&intermediate)), 0), &pki.trusting());
    let (_, signature) = carried.unwrap();
    let Signature::Verified { signer: who } = signature else { panic!("not verified: {signature:?}") };
    assert_eq!(who.issuer, "Plugboard Test Intermediate");
    let (_, alone) = check(framed(ZIP, &sign(ZIP, &signer, &key, &[]), 0), &pki.trusting()).unwrap();
    assert!(matches!(alone, Signature::Untrusted { .. }), "{alone:?}");
}

/// The same signature, where no trusted authority vouches for the signer, is shown as untrusted and says why.
#[test]
fn an_unknown_authority_vouches_for_nothing() {
    let pki = Pki::new();
    let (certificate, key) = pki.signer("Ada Tools", &SIGNER);
    // The authority's certificate travels in the signature: carrying it is not trusting it.
    let bytes = framed(ZIP, &sign(ZIP, &certificate, &key, std::slice::from_ref(&pki.authority)), 0);
    let (_, signature) = check(bytes, &Authorities::none()).unwrap();
    let Signature::Untrusted { signer, reason } = signature else { panic!("trusted: {signature:?}") };
    assert_eq!(signer.publisher, "Ada Tools");
    assert_eq!(reason, "no certificate authority this computer trusts vouches for the signer");
}

/// A certificate for websites only, or an expired one, is not a code signer even from a trusted authority.
#[test]
fn a_certificate_not_for_signing_code_now_is_untrusted() {
    let pki = Pki::new();
    let website = Use { code_signing: Some(false), ..SIGNER };
    let expired = Use { valid: (-30, -1), ..SIGNER };
    for (usage, expected) in [(website, "not meant for signing code"), (expired, "expired on")] {
        let (certificate, key) = pki.signer("Ada Tools", &usage);
        let (_, signature) = check(framed(ZIP, &sign(ZIP, &certificate, &key, &[]), 0), &pki.trusting()).unwrap();
        let Signature::Untrusted { reason, .. } = signature else { panic!("trusted: {signature:?}") };
        assert!(reason.contains(expected), "{reason}");
    }
    // No extended key usage at all means any use.
    let (certificate, key) = pki.signer("Ada Tools", &Use { code_signing: None, ..SIGNER });
    let (_, signature) = check(framed(ZIP, &sign(ZIP, &certificate, &key, &[]), 0), &pki.trusting()).unwrap();
    assert!(matches!(signature, Signature::Verified { .. }), "{signature:?}");
}

/// A certificate that signed itself (what `mcpb sign --self-signed` makes; RSA, as it uses) is self-signed, even
/// when it is in the trusted store.
#[test]
fn a_self_signed_certificate_is_shown_as_such() {
    let key = PKey::from_rsa(Rsa::generate(2048).unwrap()).unwrap();
    let certificate = certificate("MCPB Self-Signed Certificate", &key, None, &SIGNER);
    for store in [Authorities::none(), trusting(&certificate)] {
        let (_, signature) = check(framed(ZIP, &sign(ZIP, &certificate, &key, &[]), 0), &store).unwrap();
        let Signature::SelfSigned { signer } = signature else { panic!("not self-signed: {signature:?}") };
        assert_eq!(signer.publisher, signer.issuer);
    }
}

/// One byte of the zip changed after signing, or a signature of other bytes, refuses the bundle.
#[test]
fn a_bundle_changed_after_signing_is_refused() {
    let pki = Pki::new();
    let (certificate, key) = pki.signer("Ada Tools", &SIGNER);
    let mut changed = ZIP.to_vec();
    changed[10] ^= 1;
    let why = refusal(check(framed(&changed, &sign(ZIP, &certificate, &key, &[]), 0), &pki.trusting()));
    assert!(why.contains("changed after it was signed"), "{why}");
}

/// A block cut short, with stray bytes, without its start, or holding no PKCS #7 signature is refused as damaged.
#[test]
fn a_damaged_block_is_refused() {
    let pki = Pki::new();
    let (certificate, key) = pki.signer("Ada Tools", &SIGNER);
    let good = framed(ZIP, &sign(ZIP, &certificate, &key, &[]), 4);
    let mut stray = good.clone();
    let at = stray.len() - b"MCPB_SIG_END".len() - 1;
    stray[at] = 7;
    let mut long = good;
    long[ZIP.len() + 14] = 0x7f;
    let without_start = [ZIP, b"MCPB_SIG_END".as_slice()].concat();
    let not_pkcs7 = framed(ZIP, b"not a signature", 0);
    for (bytes, expected) in [
        (stray, "stray bytes"),
        (long, "cut short"),
        (without_start, "no start marker"),
        (not_pkcs7, "not a PKCS #7 signature"),
    ] {
        let why = refusal(check(bytes, &pki.trusting()));
        assert!(why.starts_with("its signature block is damaged") && why.contains(expected), "{why}");
    }
}

/// `mcpb sign` 2.x signs the zip, then counts the block in the zip's comment length: such a bundle is still
/// recognised, and the zip handed on is exactly the one signed.
#[test]
fn a_block_counted_in_the_zip_comment_is_recognised() {
    let mut zip = Vec::new();
    {
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(&mut zip));
        writer.start_file("manifest.json", zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut writer, b"{}").unwrap();
        writer.finish().unwrap();
    }
    let pki = Pki::new();
    let (certificate, key) = pki.signer("Ada Tools", &SIGNER);
    let pkcs7 = sign(&zip, &certificate, &key, &[]);
    let block = framed(&[], &pkcs7, 0).len();
    let mut counted = zip.clone();
    let comment_length_at = counted.len() - 2;
    counted[comment_length_at..].copy_from_slice(&u16::try_from(block).unwrap().to_le_bytes());
    let (opened, signature) = check(framed(&counted, &pkcs7, 0), &pki.trusting()).unwrap();
    assert_eq!(opened, zip);
    assert!(matches!(signature, Signature::Verified { .. }), "{signature:?}");
}
