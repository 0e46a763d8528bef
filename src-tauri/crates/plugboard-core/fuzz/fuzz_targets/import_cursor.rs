//! Fuzzes the cursor importer: any text parses to entries or a clear error, never a panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|text: &str| {
    let source = plugboard_core::import::clients::all().iter().find(|c| c.id == "cursor").expect("the client is registered");
    let _ = (source.parse)(text);
});
