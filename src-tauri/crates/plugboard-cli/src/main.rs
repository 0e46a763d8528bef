//! The `plugboard` command: the headless CLI and `plugboard serve`; with no subcommand (or a `plugboard://` URL) it
//! starts the window binary installed beside it.
// No `windows_subsystem = "windows"`: this is a console program.

fn main() -> std::process::ExitCode {
    plugboard_cli::run(std::env::args_os().collect())
}
