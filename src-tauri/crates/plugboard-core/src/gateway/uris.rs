//! Resource URIs as the gateway's clients see them: `plugboard://<server>/<the server's own URI>`, so two servers'
//! URIs can never collide and a read goes back to the server that listed it. The server's URI is kept as written
//! (templates keep their `{variables}`), which keeps the mapped one readable and exactly reversible.

const SCHEME: &str = "plugboard://";

/// The gateway's URI for `uri` of `server`.
pub fn to_gateway(server: &str, uri: &str) -> String {
    format!("{SCHEME}{server}/{uri}")
}

/// The server and its own URI behind a gateway URI; `None` for a URI the gateway never gave out.
pub fn from_gateway(uri: &str) -> Option<(&str, &str)> {
    let rest = uri.strip_prefix(SCHEME)?;
    let (server, own) = rest.split_once('/')?;
    (!server.is_empty() && !own.is_empty()).then_some((server, own))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A URI (or template) round-trips exactly, and URIs that were not given out are not taken apart.
    #[test]
    fn uris_round_trip() {
        for (server, uri) in [
            ("everything", "demo://resource/static/document/features.md"),
            ("files", "file:///home/me/notes/a b.md"),
            ("everything", "demo://resource/dynamic/text/{resourceId}"),
        ] {
            let mapped = to_gateway(server, uri);
            assert_eq!(from_gateway(&mapped), Some((server, uri)), "{mapped}");
        }
        assert_eq!(from_gateway("file:///etc/passwd"), None);
        assert_eq!(from_gateway("plugboard://everything"), None);
        assert_eq!(from_gateway("plugboard:///x"), None);
    }
}
