//! Fuzzes the servers.json parser and validators (servers and profiles): any text gives a value or an error, never
//! a panic.
#![no_main]

use plugboard_core::config::{ServerList, parse_config_text, render_config_text, validate_profiles};

libfuzzer_sys::fuzz_target!(|text: &str| {
    if let Ok(file) = parse_config_text("/fuzz/servers.json".as_ref(), text) {
        let _ = ServerList::from_file(String::new(), &file, None);
        let _ = validate_profiles(&file);
        // What Plugboard writes must read back as the same model.
        let again = parse_config_text("/fuzz/servers.json".as_ref(), &render_config_text(&file));
        assert_eq!(again.ok().as_ref(), Some(&file));
    }
});
