//! Entry points for the fuzz targets (crates/plugboard-core/fuzz), built only with the `fuzzing` feature: each hands
//! raw bytes to a parser of untrusted input the way the running code does, with the invariants that code relies on
//! asserted. The parsers with a public API of their own (OAuth callbacks, deep links, the loopback receiver's
//! replies) are fuzzed through it. Nothing here runs in Plugboard itself.

use std::sync::OnceLock;

use rmcp::service::{RoleClient, RoleServer};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;

/// The token the fuzzed gateway endpoint accepts.
pub const GATEWAY_TOKEN: &str = crate::gateway::http::FUZZ_TOKEN;

/// One runtime for every input (building one per input would dwarf the work).
pub(crate) fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap_or_else(|e| panic!("runtime: {e}"))
    })
}

/// The legacy SSE transport's event stream: the first byte says where the rest is cut into chunks (so a CRLF or a
/// multi-byte character split across two reads is explored too).
pub fn legacy_sse(data: &[u8]) {
    let Some((&step, stream)) = data.split_first() else { return };
    crate::transport::fuzz_event_stream(usize::from(step), stream);
}

/// JSON-RPC over stdio as both ends of Plugboard read it — a server's stdout (the client role) and a gateway
/// client's stdin (the server role) — through rmcp's line framing, which the stdio transport and `serve --stdio`
/// use; also with a short line limit, so the discarding of an oversized line is reached.
pub fn stdio_framing(data: &[u8]) {
    runtime().block_on(async {
        let mut upstream = AsyncRwTransport::<RoleClient, _, _>::new_client(data, tokio::io::sink());
        while upstream.receive().await.is_some() {}
        let mut downstream = AsyncRwTransport::<RoleServer, _, _>::new_server(data, tokio::io::sink());
        while downstream.receive().await.is_some() {}
        let mut short =
            AsyncRwTransport::<RoleClient, _, _>::new_client(data, tokio::io::sink()).with_max_line_length(64);
        while short.receive().await.is_some() {}
    });
}

/// The gateway's HTTP endpoint: `raw` is what a client sent on one connection.
pub fn gateway_http(raw: &[u8]) {
    crate::gateway::http::fuzz_request(raw);
}

/// A `.mcpb` file's trailing `mcpb sign` block, read before anything else of a stranger's bundle: framing, PKCS #7
/// and the certificates in it. Whatever is accepted hands on at most the bytes before the block.
pub fn bundle_signature(data: &[u8]) {
    let nobody = crate::bundle::Authorities::none();
    if let Ok((zip, _)) = crate::bundle::check_signature(data.to_vec(), &nobody) {
        assert!(zip.len() <= data.len(), "the zip handed on is longer than the file");
    }
}
