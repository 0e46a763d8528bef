//! Which secrets an entry refers to: every `${secret:NAME}` in its command, args, env, url and headers.

use serde::Serialize;

use crate::config::raw::RawServer;
use crate::config::references::{Reference, references};

/// One `${secret:NAME}` a server refers to and whether the vault holds it; never the value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SecretState {
    pub name: String,
    pub stored: bool,
}

/// The names of the secrets `server` refers to, sorted and unique.
pub fn secret_names(server: &RawServer) -> Vec<String> {
    let texts = server
        .command
        .iter()
        .chain(server.url.iter())
        .chain(server.args.iter().flatten())
        .chain(server.env.iter().flat_map(|m| m.values()))
        .chain(server.headers.iter().flat_map(|m| m.values()));
    let mut names: Vec<String> = texts
        .filter_map(|text| references(text).ok())
        .flatten()
        .filter_map(|r| match r {
            Reference::Secret(name) => Some(name.to_owned()),
            Reference::Env { .. } => None,
        })
        .collect();
    names.sort();
    names.dedup();
    names
}
