//! Fuzzes the check of a `.mcpb` bundle's `mcpb sign` block (framing, PKCS #7, certificates): any bytes give a
//! verdict or a refusal, never a panic, and never more bytes than the file had.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| plugboard_core::fuzzing::bundle_signature(data));
