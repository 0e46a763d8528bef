//! For tests: an MCP server process listening on 127.0.0.1, started on a given or free port, waited for until it
//! accepts connections, and killed (and reaped) when dropped: it must never be left behind by a test.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running HTTP server process.
pub struct ListeningServer {
    child: Child,
    pub port: u16,
}

impl ListeningServer {
    /// Runs the command `command_for(port)` builds (it must listen on that port) and waits until the port accepts.
    pub fn start(label: &str, port: Option<u16>, command_for: impl FnOnce(u16) -> Command) -> Self {
        Self::spawn(label, port, None, command_for)
    }

    /// `start`, with the server's stdout and stderr appended to `log` (tests read what the server saw).
    pub fn start_logged(
        label: &str,
        port: Option<u16>,
        log: &std::path::Path,
        command_for: impl FnOnce(u16) -> Command,
    ) -> Self {
        Self::spawn(label, port, Some(log), command_for)
    }

    fn spawn(
        label: &str,
        port: Option<u16>,
        log: Option<&std::path::Path>,
        command_for: impl FnOnce(u16) -> Command,
    ) -> Self {
        let port = port.unwrap_or_else(free_port);
        let output = || match log {
            Some(path) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_or_else(|_| Stdio::null(), Stdio::from),
            None => Stdio::null(),
        };
        let mut child = command_for(port)
            .stdin(Stdio::null())
            .stdout(output())
            .stderr(output())
            .spawn()
            .unwrap_or_else(|e| panic!("start {label}: {e}"));
        for _ in 0..300 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Self { child, port };
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("{label} exited before listening: {status}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("{label} did not listen on {port}");
    }

    /// The reference server over HTTP (`mcp-server-everything <mode>`: `sse`, `streamableHttp`) on `port`, or a
    /// free one.
    pub fn everything(mode: &str, port: Option<u16>) -> Self {
        let bin = everything_bin();
        assert!(bin.exists(), "{} is missing: make test installs it", bin.display());
        Self::start(&format!("server-everything {mode}"), port, |port| {
            let mut command = Command::new(&bin);
            command.arg(mode).env("PORT", port.to_string());
            command
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for ListeningServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where `make test` installs the reference servers' launcher.
pub fn everything_bin() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/node_modules/.bin/mcp-server-everything")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port()
}
