//! Fuzzes `plugboard://` links as the window receives them: any text is classified and refused, handed to the
//! login waiting for it, or offered for adding, never panicking; only a login callback completes a login, only an
//! install link is offered, and an offer adds nothing.
#![no_main]

use std::sync::{Arc, OnceLock};

use plugboard_core::auth::{Expectation, PendingFlows};
use plugboard_core::config::ConfigStore;
use plugboard_core::links::{LinkKind, Opened, open_link};
use plugboard_core::registry::Registry;
use plugboard_core::secrets::{MemoryStore, Vault};

/// One empty servers.json for the whole run: an offer only reads it (for a free name).
fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("plugboard-fuzz-deep-link-{}", std::process::id()));
        let store = ConfigStore::open(dir.join("servers.json")).expect("a config store in the temp dir");
        Registry::new(store, Arc::new(Vault::with_store(Arc::new(MemoryStore::default()))))
    })
}

libfuzzer_sys::fuzz_target!(|text: &str| {
    let flows = PendingFlows::new();
    let _waiting = flows.register("fuzz-state", "fuzzed", Expectation::default());
    match open_link(&flows, registry(), text) {
        Ok(Opened::Login { server }) => {
            assert_eq!(server, "fuzzed");
            assert_eq!(LinkKind::of(text), LinkKind::OAuthCallback, "only a login callback completes a login");
            assert!(flows.is_empty(), "a completed login is no longer waiting");
        }
        Ok(Opened::InstallOffer(_)) => {
            assert_eq!(LinkKind::of(text), LinkKind::Install, "only an install link is offered");
            assert!(registry().store().snapshot().servers.is_empty(), "an offer adds nothing");
        }
        Err(_) => {}
    }
});
