//! DPoP proofs read back as a resource server reads them: the signature verifies with the public key in the header,
//! the claims are the ones RFC 9449 §4.2 asks for, and the key survives the keychain's round trip.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};
use sha2::{Digest, Sha256};

use super::*;

fn decode(part: &str) -> serde_json::Value {
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).expect("base64url")).expect("json")
}

/// The header and claims of `proof`, after checking its signature with the key its own header carries.
fn verified(proof: &str) -> (serde_json::Value, serde_json::Value) {
    let parts: Vec<&str> = proof.split('.').collect();
    assert_eq!(parts.len(), 3, "a compact JWS");
    let header = decode(parts[0]);
    let jwk = &header["jwk"];
    let coordinate = |name: &str| URL_SAFE_NO_PAD.decode(jwk[name].as_str().expect(name)).expect(name);
    let point = [vec![4u8], coordinate("x"), coordinate("y")].concat();
    let signature = URL_SAFE_NO_PAD.decode(parts[2]).expect("signature");
    UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, point)
        .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
        .expect("the signature verifies with the header's key");
    (header, decode(parts[1]))
}

#[test]
fn a_proof_verifies_and_carries_what_rfc_9449_asks() {
    let key = DpopKey::generate().expect("key");
    let proof = key.proof("POST", "https://mcp.example.com/mcp?session=1#frag", Some("the-token"), Some("n-1"));
    let (header, claims) = verified(&proof.expect("proof"));
    assert_eq!(header["typ"], "dpop+jwt");
    assert_eq!(header["alg"], "ES256");
    assert!(header["jwk"].get("d").is_none(), "no private part in the header: {header}");
    assert_eq!(claims["htm"], "POST");
    assert_eq!(claims["htu"], "https://mcp.example.com/mcp", "query and fragment left out");
    assert_eq!(claims["ath"], URL_SAFE_NO_PAD.encode(Sha256::digest(b"the-token")));
    assert_eq!(claims["nonce"], "n-1");
    let now = now_secs() as i64;
    assert!((claims["iat"].as_i64().expect("iat") - now).abs() <= 5);
}

#[test]
fn every_proof_is_fresh_and_a_token_request_has_no_ath() {
    let key = DpopKey::generate().expect("key");
    let (_, first) = verified(&key.proof("POST", "https://as.example.com/token", None, None).expect("proof"));
    let (_, second) = verified(&key.proof("POST", "https://as.example.com/token", None, None).expect("proof"));
    assert_ne!(first["jti"], second["jti"]);
    assert!(first.get("ath").is_none() && first.get("nonce").is_none(), "{first}");
}

#[test]
fn the_thumbprint_is_rfc_7638s_over_the_required_members_in_order() {
    let key = DpopKey::generate().expect("key");
    let jwk = key.public_jwk();
    let canonical = format!(
        r#"{{"crv":"P-256","kty":"EC","x":"{}","y":"{}"}}"#,
        jwk["x"].as_str().expect("x"),
        jwk["y"].as_str().expect("y")
    );
    assert_eq!(key.thumbprint(), URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes())));
}

#[test]
fn the_key_kept_is_the_key_read_back() {
    let key = DpopKey::generate().expect("key");
    let again = DpopKey::from_pkcs8(key.pkcs8.expose().clone()).expect("read back");
    assert_eq!(key.thumbprint(), again.thumbprint());
    assert!(matches!(DpopKey::from_pkcs8(b"not a key".to_vec()), Err(DpopKeyError::Damaged)));
}

#[test]
fn nonces_are_kept_per_origin_and_only_a_new_one_is_news() {
    let dpop = Dpop::new(DpopKey::generate().expect("key"));
    assert!(dpop.learn_nonce("https://as.example.com/token", "a"));
    assert!(!dpop.learn_nonce("https://as.example.com/other", "a"), "the same origin, the same nonce");
    assert_eq!(dpop.nonce_of("https://as.example.com/x").as_deref(), Some("a"));
    assert_eq!(dpop.nonce_of("https://mcp.example.com/mcp"), None);
    let (_, claims) = verified(&dpop.proof_for("POST", "https://as.example.com/token", None).expect("proof"));
    assert_eq!(claims["nonce"], "a");
}

#[test]
fn only_an_authorization_server_listing_es256_offers_dpop() {
    let with = |algorithms: serde_json::Value| {
        let mut metadata = AuthorizationMetadata::default();
        metadata.additional_fields.insert("dpop_signing_alg_values_supported".into(), algorithms);
        offered_by(&metadata)
    };
    assert!(with(serde_json::json!(["RS256", "ES256"])));
    assert!(!with(serde_json::json!(["RS256"])));
    assert!(!with(serde_json::json!([])));
    assert!(!offered_by(&AuthorizationMetadata::default()));
}
