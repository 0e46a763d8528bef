//! A minimal Tauri 2 window: one static page and no commands, plugins or tray. The window benchmark
//! (tests/bench/window.mjs) measures Plugboard's window beside it in the same run, as the floor of what any Tauri
//! window costs on this machine. It must never grow features: each one would raise the floor Plugboard is held to.

fn main() {
    if let Err(error) = tauri::Builder::default().run(tauri::generate_context!()) {
        #[allow(clippy::print_stderr, reason = "the only way this window reports that it could not open")]
        {
            eprintln!("the minimal window could not open: {error}");
        }
        std::process::exit(1);
    }
}
