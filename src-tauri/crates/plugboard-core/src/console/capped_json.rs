//! A value's JSON text up to a length, for the history's row of a big result: serialization stops once the text is
//! long enough, so a 5 MiB result is neither written out whole nor scanned whole for secrets only to be cut to the
//! history's cap. It must never cut inside a character, nor hide that it cut.

use std::io::Write;

/// `value` as JSON text, at most `limit` bytes of it (cut on a character boundary), and whether it was cut. A value
/// that cannot be serialized gives empty text, as `serde_json::to_string(..).unwrap_or_default()` did.
pub(crate) fn json_up_to(value: &impl serde::Serialize, limit: usize) -> (String, bool) {
    let mut out = Capped { bytes: Vec::new(), limit, cut: false };
    let written = serde_json::to_writer(&mut out, value);
    let Capped { mut bytes, cut, .. } = out;
    if written.is_err() && !cut {
        return (String::new(), false);
    }
    // serde_json writes valid UTF-8, so only the last character can be partial, where the limit fell inside it.
    if let Err(e) = std::str::from_utf8(&bytes) {
        bytes.truncate(e.valid_up_to());
    }
    (String::from_utf8(bytes).unwrap_or_default(), cut)
}

/// Keeps the first `limit` bytes written and then fails the write, which stops the serializer.
struct Capped {
    bytes: Vec<u8>,
    limit: usize,
    cut: bool,
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.limit - self.bytes.len();
        if buf.len() > room {
            self.bytes.extend_from_slice(&buf[..room]);
            self.cut = true;
            return Err(std::io::Error::other("the text is long enough"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde::ser::{Serialize, SerializeSeq, Serializer};

    use super::json_up_to;

    /// A value that fits is its whole JSON text, uncut.
    #[test]
    fn a_value_that_fits_is_whole() {
        let value = serde_json::json!({"content": [{"type": "text", "text": "héllo"}]});
        let whole = serde_json::to_string(&value).unwrap();
        assert_eq!(json_up_to(&value, whole.len()), (whole.clone(), false));
        assert_eq!(json_up_to(&value, whole.len() + 100), (whole, false));
    }

    /// A limit inside a multibyte character cuts before it.
    #[test]
    fn a_cut_never_splits_a_character() {
        let value = "ééé"; // `"` then three two-byte characters
        assert_eq!(json_up_to(&value, 4), ("\"é".to_owned(), true));
        assert_eq!(json_up_to(&value, 3), ("\"é".to_owned(), true));
        assert_eq!(json_up_to(&value, 2), ("\"".to_owned(), true));
    }

    /// Items past the limit are never serialized: each one panics if it is.
    #[test]
    fn serialization_stops_at_the_limit() {
        struct Guarded;
        impl Serialize for Guarded {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut seq = serializer.serialize_seq(None)?;
                seq.serialize_element(&"x".repeat(100))?;
                seq.serialize_element(&Exploding)?;
                seq.end()
            }
        }
        struct Exploding;
        impl Serialize for Exploding {
            fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                panic!("serialized past the limit");
            }
        }
        let (text, cut) = json_up_to(&Guarded, 50);
        assert!(cut);
        assert_eq!(text, format!("[\"{}", "x".repeat(48)));
    }

    proptest! {
        /// Whatever the text and the limit: the start of the whole JSON text, as long as fits on a character
        /// boundary, and cut exactly when the whole text is longer.
        #[test]
        fn the_start_of_the_whole_text(text in "\\PC{0,60}", limit in 0usize..200) {
            let whole = serde_json::to_string(&text).unwrap();
            let (start, cut) = json_up_to(&text, limit);
            prop_assert_eq!(cut, whole.len() > limit);
            let expected = (0..=limit.min(whole.len())).rev().find(|&i| whole.is_char_boundary(i)).unwrap();
            prop_assert_eq!(start, &whole[..expected]);
        }
    }
}
