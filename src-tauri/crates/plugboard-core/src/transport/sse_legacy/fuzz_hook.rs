//! The legacy SSE transport's parsing for the fuzz targets only (feature `fuzzing`): a byte stream cut into chunks
//! goes through the event parser, each `endpoint` event through the endpoint check and each other event through the
//! message decoder, as the transport does, with the invariants it relies on asserted.

use url::Url;

use super::endpoint::resolve_endpoint;
use super::events::EventParser;
use super::reader::decode_message;

/// The event cap the fuzz targets run with (small, so inputs reach it).
const CAP: usize = 1024;

/// Parses `stream` cut into chunks of `step` bytes (at least 1): the parser never holds more than the cap, and an
/// accepted endpoint is always on the SSE URL's own origin.
pub(crate) fn fuzz_event_stream(step: usize, stream: &[u8]) {
    let Ok(sse) = Url::parse("https://tools.example:8443/mcp/sse?k=1") else { return };
    let mut parser = EventParser::new(CAP);
    for chunk in stream.chunks(step.max(1)) {
        if parser.push(chunk).is_err() {
            // The transport ends the stream here.
            return;
        }
        assert!(parser.buffered_len() <= CAP, "the parser holds {} bytes", parser.buffered_len());
        while let Some(event) = parser.next_event() {
            if event.event == "endpoint" {
                if let Ok(endpoint) = resolve_endpoint(&sse, &event.data) {
                    assert_eq!(endpoint.origin(), sse.origin(), "a cross-origin endpoint was accepted");
                }
            } else {
                drop(decode_message(&event.data));
            }
        }
    }
}
