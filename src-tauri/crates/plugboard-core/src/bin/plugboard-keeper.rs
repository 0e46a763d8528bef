//! `plugboard-keeper`: the process between Plugboard and each stdio server on Linux, so that no process of a
//! server's tree outlives Plugboard (see `plugboard_core::transport::run_keeper`). Plugboard starts it beside
//! itself; a person never does. It must never do anything but call the core's keeper.

fn main() -> std::process::ExitCode {
    #[cfg(target_os = "linux")]
    {
        plugboard_core::transport::run_keeper()
    }
    #[cfg(not(target_os = "linux"))]
    {
        std::process::ExitCode::from(2)
    }
}
