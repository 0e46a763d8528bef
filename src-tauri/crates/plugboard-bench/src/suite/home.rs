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
    /// The servers' names, as servers.json has them.
    names: Vec<String>,
}

impl Home {
    /// `count` servers named `bench` (one) or `s0`, `s1`, … (several), each `program args`, approved.
    pub fn with_servers(plugboard: &Path, count: usize, program: &Path, args: &[&str]) -> anyhow::Result<Home> {
        let names: Vec<String> =
            (0..count).map(|i| if count == 1 { "bench".to_owned() } else { format!("s{i}") }).collect();
        let servers: Map<String, Value> =
            names.iter().map(|name| (name.clone(), json!({ "command": program, "args": args }))).collect();
        let home = Home { dir: tempfile::tempdir()?, names };
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

    /// Connects every server once (`plugboard tools NAME`), which pins its tools, as a person's servers are pinned
    /// after their first use: a cold call then reads the pins of all of them (about 9 kB a server here).
    pub fn with_every_server_pinned(self, plugboard: &Path) -> anyhow::Result<Home> {
        for name in &self.names {
            let mut tools = Command::new(plugboard);
            self.apply(&mut tools);
            let status = tools.args(["tools", name]).stdout(Stdio::null()).status();
            if !status.with_context(|| format!("cannot start {}", plugboard.display()))?.success() {
                bail!("plugboard tools {name} failed");
            }
        }
        Ok(self)
    }

    /// Fills the call history with `rows` calls of a 2 kB result each, as a person's console use leaves it.
    pub fn with_history(self, rows: usize) -> anyhow::Result<Home> {
        use plugboard_core::console::{CallOutcome, History, NewCall};
        let path = self.dir.path().join("data").join(plugboard_core::console::history::FILE_NAME);
        let history = History::open(&path).context("the suite's call history")?;
        let result = serde_json::to_string(&json!({ "content": [{ "type": "text", "text": "r".repeat(2000) }] }))?;
        let call = |i: usize| NewCall {
            server: "bench".into(),
            tool: "echo".into(),
            arguments: format!(r#"{{"message":"call {i}"}}"#),
            started_at_ms: 1_700_000_000_000.0 + i as f64,
            duration_ms: 1,
            outcome: CallOutcome::Result { is_error: false, result: result.clone(), truncated: false },
            origin: None,
        };
        // A thousand rows a transaction: one per row would spend the setup on fsyncs.
        for start in (0..rows).step_by(1_000) {
            let batch = (start..rows.min(start + 1_000)).map(call).collect();
            history.record_all(batch).context("filling the suite's call history")?;
        }
        Ok(self)
    }

    /// Points `command` (and whatever it starts) at this config and data folder.
    pub fn apply(&self, command: &mut Command) {
        command
            .env(plugboard_core::paths::CONFIG_DIR_ENV, self.dir.path().join("config"))
            .env(plugboard_core::paths::DATA_DIR_ENV, self.dir.path().join("data"));
    }
}
