//! The vault against the real Secret Service (gnome-keyring in the harness's private D-Bus session).

use plugboard_core::secrets::{Sensitive, Vault};

const HARNESS: &str = "needs a Secret Service; make test runs it in tests/harness/isolated-env.sh";

/// A secret is stored, read back exactly, deleted, and then reads as absent (`Ok(None)`, not an error).
#[test]
#[ignore = "needs a Secret Service; make test runs it in tests/harness/isolated-env.sh"]
fn store_read_delete_round_trip() {
    let vault = Vault;
    vault.status().unwrap_or_else(|e| panic!("{HARNESS}: {e}"));
    let server = format!("smoke-{}", std::process::id());
    let value = Sensitive::new("tok_Ünïcode-secret-1234567890".to_owned());

    assert_eq!(vault.get(&server, "api-token").expect("read before"), None);
    vault.set(&server, "api-token", &value).expect("store");
    assert_eq!(vault.get(&server, "api-token").expect("read back"), Some(value));
    vault.delete(&server, "api-token").expect("delete");
    assert_eq!(vault.get(&server, "api-token").expect("read after delete"), None);
    vault.delete(&server, "api-token").expect("deleting twice is not an error");
}
