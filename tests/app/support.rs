//! Shared helpers: an isolated set of Plugboard dirs and a way to run the real binary in them.
// Test support panics on purpose: a failed setup step is the clearest failure report a test can give.
#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

/// Config and data dirs of their own, removed when dropped.
pub struct Sandbox {
    root: TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Self { root: tempfile::tempdir().expect("temp dir") }
    }

    pub fn config_dir(&self) -> PathBuf {
        self.root.path().join("config")
    }

    pub fn data_dir(&self) -> PathBuf {
        self.root.path().join("data")
    }

    /// Writes `servers.json` with the given text.
    pub fn write_config(&self, text: &str) -> PathBuf {
        std::fs::create_dir_all(self.config_dir()).expect("config dir");
        let path = self.config_dir().join("servers.json");
        std::fs::write(&path, text).expect("write config");
        path
    }

    /// Runs the `plugboard` binary with these dirs and no display, as a headless shell would.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_plugboard"))
            .args(args)
            .env("PLUGBOARD_CONFIG_DIR", self.config_dir())
            .env("PLUGBOARD_DATA_DIR", self.data_dir())
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("PLUGBOARD_LOG")
            .output()
            .expect("run plugboard")
    }
}

/// The repository root (the app package's manifest dir).
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
