//! Fuzzes the gateway's HTTP endpoint in front of MCP: any bytes on a connection go through hyper to the endpoint's
//! screen (path, Host, Origin, size, token, session), and nothing is admitted without the token and a Host naming
//! the endpoint.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| plugboard_core::fuzzing::gateway_http(data));
