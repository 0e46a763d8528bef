//! Fuzzes the OAuth callback checks both receivers use: any text handed to the pending logins is accepted only for
//! the login waiting for exactly its `state`, and the flow's own check and the error reader never panic.
#![no_main]

use plugboard_core::auth::callback::{IssuerExpectation, check_callback};
use plugboard_core::auth::{Expectation, PendingFlows, callback_error};

const STATE: &str = "fuzz-state";

libfuzzer_sys::fuzz_target!(|text: &str| {
    let flows = PendingFlows::new();
    let expect = Expectation { issuer: Some("https://as.example".into()), require_issuer: text.len() % 2 == 0 };
    let _waiting = flows.register(STATE, "fuzzed", expect);
    if flows.deliver(text).is_ok() {
        let url = url::Url::parse(text).expect("an accepted callback parses");
        let states: Vec<_> = url.query_pairs().filter(|(k, _)| k == "state").map(|(_, v)| v.into_owned()).collect();
        assert_eq!(states, [STATE], "a callback was accepted for another state");
    }
    if let Ok(url) = url::Url::parse(text) {
        let issuer = IssuerExpectation { issuer: Some("https://as.example".into()), required: text.len() % 3 == 0 };
        let _ = check_callback(&url, "http://127.0.0.1:8123/callback", STATE, &issuer);
        if let Some(said) = callback_error(&url) {
            assert!(!said.chars().any(char::is_control), "control characters reach the message: {said:?}");
        }
    }
});
