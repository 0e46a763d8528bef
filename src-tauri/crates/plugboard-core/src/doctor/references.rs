//! Doctor step: every `${secret:…}` can be read and every `${env:…}` is set, named one by one.

use crate::config::model::ServerConfig;
use crate::config::references::{Reference, expandable_texts, references};
use crate::secrets::Vault;

use super::Step;

const STEP: &str = "references";

/// One step: passed (with counts), a warning for unset variables, or failed for missing or unreadable secrets.
pub(super) fn check(config: &ServerConfig, vault: &Vault) -> Vec<Step> {
    let texts = expandable_texts(&config.transport);
    let mut secrets = Vec::new();
    let mut unset = Vec::new();
    let mut set = 0;
    for text in texts {
        match references(text) {
            Ok(refs) => {
                for reference in refs {
                    match reference {
                        Reference::Secret(name) => secrets.push(name.to_owned()),
                        Reference::Env { var, default } => {
                            if std::env::var_os(var).is_some() || default.is_some() {
                                set += 1;
                            } else {
                                unset.push(var.to_owned());
                            }
                        }
                    }
                }
            }
            Err(e) => return vec![Step::failed(STEP, e.to_string(), "fix the reference in servers.json")],
        }
    }
    secrets.sort();
    secrets.dedup();
    let server = config.name.as_str();
    for name in &secrets {
        match vault.get(server, name) {
            Ok(Some(_)) => {}
            Ok(None) => {
                return vec![Step::failed(
                    STEP,
                    format!("the secret {name:?} is not set"),
                    format!(
                        "set it under Secrets on the server's page in Plugboard, or run: \
                         printf %s \"$VALUE\" | plugboard secret set {server} {name}"
                    ),
                )];
            }
            Err(e) => {
                return vec![Step::failed(STEP, format!("the secret {name:?} cannot be read: {e}"), e.to_string())];
            }
        }
    }
    let detail = format!("{} secret(s) found in the keychain, {set} environment variable(s) set", secrets.len());
    if unset.is_empty() {
        vec![Step::passed(STEP, detail)]
    } else {
        vec![Step::warning(STEP, format!("{detail}; not set, so they expand empty: {}", unset.join(", ")))]
    }
}
