//! Fuzzes `${…}` reference scanning and expansion: any text expands or errors, never panics.
#![no_main]

use plugboard_core::config::references::{ReferenceError, ReferenceSource, expand, references};
use plugboard_core::secrets::Sensitive;

struct Echo;

impl ReferenceSource for Echo {
    fn env(&self, var: &str) -> Option<String> {
        (var.len() % 2 == 0).then(|| var.to_owned())
    }
    fn secret(&self, name: &str) -> Result<Option<Sensitive<String>>, ReferenceError> {
        Ok((!name.is_empty()).then(|| Sensitive::new(name.to_owned())))
    }
}

libfuzzer_sys::fuzz_target!(|text: &str| {
    let _ = references(text);
    let _ = expand(text, &Echo);
});
