//! Fuzzes the legacy SSE transport's event stream: any bytes, cut anywhere, stay within the event cap, and no
//! `endpoint` event moves the POSTs to another origin.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| plugboard_core::fuzzing::legacy_sse(data));
