//! Fuzzes `plugboard://` links as the window receives them: any text is classified and refused or handed to the
//! login waiting for it, never panicking; only a login callback completes a login.
#![no_main]

use plugboard_core::auth::{Expectation, PendingFlows};
use plugboard_core::links::{LinkKind, open_link};

libfuzzer_sys::fuzz_target!(|text: &str| {
    let flows = PendingFlows::new();
    let _waiting = flows.register("fuzz-state", "fuzzed", Expectation::default());
    if let Ok(server) = open_link(&flows, text) {
        assert_eq!(server, "fuzzed");
        assert_eq!(LinkKind::of(text), LinkKind::OAuthCallback, "only a login callback completes a login");
        assert!(flows.is_empty(), "a completed login is no longer waiting");
    }
});
