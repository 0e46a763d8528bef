//! A Plugboard of the suite's own: a config and data folder (PLUGBOARD_CONFIG_DIR, PLUGBOARD_DATA_DIR) holding the
//! servers a comparison needs, approved with `plugboard approve --all --yes` as a person would. It must never touch
//! the person's own config: every `plugboard` the suite starts gets these folders.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, bail};
use serde_json::{Map, Value, json};
use tempfile::TempDir;

pub struct Home {
    dir: TempDir,
}

impl Home {
    /// `count` servers named `bench` (one) or `s0`, `s1`, … (several), each `program args`, approved.
    pub fn with_servers(plugboard: &Path, count: usize, program: &Path, args: &[&str]) -> anyhow::Result<Home> {
        let home = Home { dir: tempfile::tempdir()? };
        let mut servers = Map::new();
        for i in 0..count {
            let name = if count == 1 { "bench".to_owned() } else { format!("s{i}") };
            servers.insert(name, json!({ "command": program, "args": args }));
        }
        let config = home.dir.path().join("config");
        std::fs::create_dir_all(&config)?;
        let file = json!({ "mcpServers": Value::Object(servers) });
        std::fs::write(config.join("servers.json"), serde_json::to_vec_pretty(&file)?)?;
        let mut approve = Command::new(plugboard);
        home.apply(&mut approve);
        let status = approve.args(["approve", "--all", "--yes"]).stdout(Stdio::null()).status();
        if !status.with_context(|| format!("cannot start {}", plugboard.display()))?.success() {
            bail!("plugboard approve --all --yes failed");
        }
        Ok(home)
    }

    /// Points `command` (and whatever it starts) at this config and data folder.
    pub fn apply(&self, command: &mut Command) {
        command
            .env(plugboard_core::paths::CONFIG_DIR_ENV, self.dir.path().join("config"))
            .env(plugboard_core::paths::DATA_DIR_ENV, self.dir.path().join("data"));
    }
}
