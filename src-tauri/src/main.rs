//! The `plugboard` binary: the desktop window, or the headless CLI when given a subcommand.
// No `windows_subsystem = "windows"`: the same binary is a console CLI, which that attribute would silence.

fn main() -> std::process::ExitCode {
    plugboard_app::start(std::env::args_os().collect())
}
