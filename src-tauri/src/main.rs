//! The `plugboard-desktop` binary: the window (single-instance forwards a second launch or a plugboard:// URL to a
//! running one). The `plugboard` command starts it.

fn main() -> std::process::ExitCode {
    plugboard_app::start(&std::env::args_os().collect::<Vec<_>>())
}
