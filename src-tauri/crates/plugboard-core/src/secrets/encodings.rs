//! The forms a secret's value takes when text carries it: as written, JSON-escaped, percent-encoded and
//! base64-encoded. Pure and computed once per secret (the secret index builds its search from them). It must never
//! log or return a form anywhere but to the index.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// Values shorter than this are only looked for as written and JSON-escaped: an encoded form of a few bytes is a
/// handful of characters that turn up in any base64 blob by chance.
pub const MIN_ENCODED_LEN: usize = 8;

/// RFC 3986's unreserved characters stay as they are; everything else is escaped (`encodeURIComponent`, stricter).
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');
/// What JavaScript's `encodeURIComponent` leaves alone besides the unreserved characters.
const JS_COMPONENT: &AsciiSet = &COMPONENT.remove(b'!').remove(b'\'').remove(b'(').remove(b')').remove(b'*');

/// Every distinct form of `value` worth searching for, the value itself first.
pub fn forms(value: &str) -> Vec<String> {
    let mut forms = vec![value.to_owned()];
    forms.extend(json_escaped(value));
    if value.len() >= MIN_ENCODED_LEN {
        forms.extend(percent_encoded(value));
        forms.extend(base64_cores(value.as_bytes()));
    }
    let mut seen = std::collections::HashSet::new();
    forms.retain(|form| !form.is_empty() && seen.insert(form.clone()));
    forms
}

/// As it stands inside a JSON string: serde_json's escapes, and the ASCII-only style (`\u00e9`, `\/`) other
/// encoders use.
fn json_escaped(value: &str) -> Vec<String> {
    let quoted = serde_json::to_string(value).unwrap_or_default();
    let plain = quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or_default().to_owned();
    let mut ascii = String::with_capacity(plain.len());
    for c in plain.chars() {
        match c {
            '/' => ascii.push_str("\\/"),
            c if c.is_ascii() => ascii.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    ascii.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    vec![plain, ascii]
}

/// Percent-encoded the common ways: strictly (upper- and lower-case hex), as `encodeURIComponent` does, and as a
/// form field (`+` for a space).
fn percent_encoded(value: &str) -> Vec<String> {
    let strict = utf8_percent_encode(value, COMPONENT).to_string();
    let lower_hex = lower_case_escapes(&strict);
    let js = utf8_percent_encode(value, JS_COMPONENT).to_string();
    let form: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
    vec![strict, lower_hex, js, form]
}

/// `%2F` → `%2f`, leaving the other characters alone.
fn lower_case_escapes(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len());
    let mut hex_left = 0;
    for c in encoded.chars() {
        if c == '%' {
            hex_left = 2;
            out.push(c);
        } else if hex_left > 0 {
            hex_left -= 1;
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The base64 characters that depend on `bytes` alone, wherever the value sits in a longer encoded text: a value
/// starting at byte offset 0, 1 or 2 of a 3-byte group encodes differently, so each alignment gives one core
/// (without the partial characters at either end), in both the standard and the URL-safe alphabet.
fn base64_cores(bytes: &[u8]) -> Vec<String> {
    let mut cores = Vec::with_capacity(6);
    for offset in 0..3usize {
        let mut shifted = vec![0u8; offset];
        shifted.extend_from_slice(bytes);
        // Character j covers bits 6j..6j+6: keep the ones entirely inside the value's bits.
        let first = (8 * offset).div_ceil(6);
        let end = 8 * (offset + bytes.len()) / 6;
        for engine in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
            let encoded = engine.encode(&shifted);
            if let Some(core) = encoded.get(first..end) {
                cores.push(core.to_owned());
            }
        }
    }
    cores
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, URL_SAFE};

    use super::forms;

    /// Each way a client could encode the value is among its forms, whatever surrounds it: base64 at any byte
    /// offset in either alphabet, percent escapes in either hex case, JSON escapes.
    #[test]
    fn every_common_encoding_contains_a_form() {
        let value = "sk-live/é?&\"v4lue+42";
        let found = |text: &str| forms(value).iter().any(|form| text.contains(form.as_str()));
        for prefix in ["", "a", "ab", "Authorization: Bearer "] {
            let framed = format!("{prefix}{value} and more");
            assert!(found(&STANDARD.encode(&framed)), "standard base64 after {prefix:?}");
            assert!(found(&URL_SAFE.encode(&framed)), "URL-safe base64 after {prefix:?}");
        }
        let strict: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
        assert!(found(&format!("https://x.test/?q={strict}")), "{strict}");
        assert!(found("sk-live%2F%C3%A9%3F%26%22v4lue%2B42"), "strict, upper-case hex");
        assert!(found("sk-live%2f%c3%a9%3f%26%22v4lue%2b42"), "strict, lower-case hex");
        assert!(found(&serde_json::to_string(value).expect("json")), "serde_json");
        assert!(found(r#""sk-live\/\u00e9?&\"v4lue+42""#), "ASCII-only JSON");
    }

    /// A short value is searched for only as written and JSON-escaped, and no form is empty or repeated.
    #[test]
    fn short_values_have_no_encoded_forms() {
        assert_eq!(forms("pin1"), ["pin1"]);
        assert_eq!(forms("a\"b1"), ["a\"b1", "a\\\"b1"]);
    }
}
