//! Fuzzes JSON-RPC line framing as Plugboard reads it on stdio (a server's stdout, a gateway client's stdin):
//! any bytes give messages, skipped lines or the end of the stream, never a panic or a hang.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| plugboard_core::fuzzing::stdio_framing(data));
