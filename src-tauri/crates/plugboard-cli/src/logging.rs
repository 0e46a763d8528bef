//! Logs: `tracing` to stderr and to a daily-rotated file in the data dir, filtered by `PLUGBOARD_LOG`.
//! Targets that could print credentials or what servers and clients exchange are capped whatever the filter says:
//! rmcp's OAuth module logs the authorization code at debug, and its service logs every MCP message (a tool's
//! arguments and result, a secret a server echoed) at debug and trace and every notification at info. A CLI command
//! keeps the terminal for its own lines: the libraries' log lines go to the file unless `PLUGBOARD_LOG` is set.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use plugboard_core::secrets::LogScrub;

use tracing_appender::non_blocking::WorkerGuard;
use tracing_appender::rolling::{Builder, RollingFileAppender, Rotation};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::prelude::*;

/// The environment variable holding the filter, in `tracing` directive syntax (`info`, `plugboard_core=debug`).
pub const LOG_ENV: &str = "PLUGBOARD_LOG";

/// Targets never logged below their level, whatever `PLUGBOARD_LOG` says: below it they print tokens, codes, URLs
/// with their query, or the content of MCP messages. A more specific target's cap wins over its crate's.
const CAPPED_TARGETS: &[(&str, &str)] = &[
    ("rmcp", "info"),
    ("rmcp::transport::auth", "info"),
    ("rmcp::service", "warn"),
    ("oauth2", "info"),
    ("reqwest", "info"),
    ("hyper", "info"),
];

const LOG_FILE_PREFIX: &str = "plugboard";
const LOG_FILES_KEPT: usize = 7;

/// Who is logging: the window logs `info` to the terminal too; the CLI keeps its terminal for its output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Window,
    Cli,
}

/// How many log lines may wait for the file writer; past that, lines are dropped (never the app's work blocked).
const BUFFERED_LINES: usize = 4_096;

/// Installs the global subscriber; every line goes through `scrub` (hand the same one to the engine, which teaches it
/// the secret values it expands). Keep the returned guard alive: dropping it flushes and closes the file.
pub fn init(mode: Mode, scrub: &LogScrub) -> WorkerGuard {
    let requested = std::env::var(LOG_ENV).ok();
    let stderr_default = match mode {
        Mode::Window => "info",
        Mode::Cli => "warn",
    };
    // A command prints its own clear lines; the libraries' (rmcp's ERROR for an expected 401, reqwest's, hyper's)
    // go to the file only, unless the person asked for logs on the terminal.
    let own_lines_only = mode == Mode::Cli && requested.as_deref().is_none_or(|r| r.trim().is_empty());
    let stderr_layer = fmt::layer()
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(Scrubbed { make: std::io::stderr, scrub: scrub.clone() })
        .with_filter(EnvFilter::new(filter_directives(requested.as_deref(), stderr_default)))
        .with_filter(tracing_subscriber::filter::filter_fn(move |meta| !own_lines_only || is_own(meta.target())));

    let log_dir = plugboard_core::paths::log_dir();
    // A bounded queue of a few thousand lines, not the default 128,000: that one is allocated up front and cost every
    // run (a client launching `serve --stdio`, each CLI command) about 5 MiB before any work.
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(BUFFERED_LINES)
        .finish(OpenedAtFirstLine { dir: log_dir, file: LogFile::NotOpenedYet });
    let file_layer = fmt::layer()
        .with_ansi(false)
        .with_writer(Scrubbed { make: writer, scrub: scrub.clone() })
        .with_filter(EnvFilter::new(filter_directives(requested.as_deref(), "info")));
    // Another subscriber (a test harness) may already be installed; logging must never stop the app.
    let _ = tracing_subscriber::registry().with(stderr_layer).with(file_layer).try_init();
    guard
}

/// The daily log file, made by the file writer's thread when the first line comes: a command's start (every cold
/// `plugboard call`) does not wait for the folder, the pruning of old files and the open, and a run that logs
/// nothing opens nothing. A folder that cannot be written is said once on stderr; its lines are dropped.
struct OpenedAtFirstLine {
    dir: PathBuf,
    file: LogFile,
}

enum LogFile {
    NotOpenedYet,
    Open(RollingFileAppender),
    Unwritable,
}

impl OpenedAtFirstLine {
    fn file(&mut self) -> Option<&mut RollingFileAppender> {
        if matches!(self.file, LogFile::NotOpenedYet) {
            self.file = match open_log_file(&self.dir) {
                Ok(file) => LogFile::Open(file),
                Err(e) => {
                    let _ = writeln!(
                        std::io::stderr(),
                        "plugboard: logging to the terminal only: cannot write logs under {}: {e}",
                        self.dir.display()
                    );
                    LogFile::Unwritable
                }
            };
        }
        match &mut self.file {
            LogFile::Open(file) => Some(file),
            LogFile::NotOpenedYet | LogFile::Unwritable => None,
        }
    }
}

impl Write for OpenedAtFirstLine {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        match self.file() {
            Some(file) => file.write(line),
            None => Ok(line.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        // Nothing written yet: nothing to open.
        match &mut self.file {
            LogFile::Open(file) => file.flush(),
            LogFile::NotOpenedYet | LogFile::Unwritable => Ok(()),
        }
    }
}

fn open_log_file(dir: &Path) -> std::io::Result<RollingFileAppender> {
    // The appender prunes old files as it is built and complains on stderr when the folder is not there yet.
    std::fs::create_dir_all(dir)?;
    Builder::new()
        .rotation(Rotation::DAILY)
        .filename_prefix(LOG_FILE_PREFIX)
        .filename_suffix("log")
        .max_log_files(LOG_FILES_KEPT)
        .build(dir)
        .map_err(std::io::Error::other)
}

/// A sink whose every line loses the secret values `scrub` learnt. The formatter hands a writer one whole line per
/// event, so a value is never split between two writes.
struct Scrubbed<M> {
    make: M,
    scrub: LogScrub,
}

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Scrubbed<M> {
    type Writer = ScrubbedWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        ScrubbedWriter { inner: self.make.make_writer(), scrub: self.scrub.clone() }
    }
}

struct ScrubbedWriter<W> {
    inner: W,
    scrub: LogScrub,
}

impl<W: Write> Write for ScrubbedWriter<W> {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(line);
        self.inner.write_all(self.scrub.scrub(&text).as_bytes())?;
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Whether a log line comes from Plugboard's own crates (`plugboard_core`, `plugboard_cli`, `plugboard_app`).
fn is_own(target: &str) -> bool {
    target.starts_with("plugboard")
}

/// The filter for one sink: the person's directives (or `default`), then caps on credential-bearing targets.
fn filter_directives(requested: Option<&str>, default: &str) -> String {
    let requested = requested.map(str::trim).filter(|r| !r.is_empty()).unwrap_or(default);
    let mut directives: Vec<String> = requested
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty() && !CAPPED_TARGETS.iter().any(|(t, _)| d.starts_with(t)))
        .map(str::to_owned)
        .collect();
    directives.extend(CAPPED_TARGETS.iter().map(|(target, level)| format!("{target}={level}")));
    directives.join(",")
}

#[cfg(test)]
mod tests {
    use super::{filter_directives, is_own};

    /// Plugboard's crates are its own lines; the libraries' are not, whatever their level.
    #[test]
    fn own_lines_are_plugboards_crates() {
        for own in ["plugboard_core::supervisor::actor", "plugboard_cli", "plugboard_app::window"] {
            assert!(is_own(own), "{own}");
        }
        for library in ["rmcp::transport::worker", "reqwest::connect", "hyper_util::client", "oauth2"] {
            assert!(!is_own(library), "{library}");
        }
    }

    /// The default applies when PLUGBOARD_LOG is unset or blank, and the caps are always appended.
    #[test]
    fn default_level_with_caps() {
        let f = filter_directives(None, "warn");
        assert!(f.starts_with("warn,"), "{f}");
        assert!(f.contains("rmcp::transport::auth=info"), "{f}");
        assert_eq!(filter_directives(Some("  "), "warn"), f);
    }

    /// A person cannot lift the cap on a credential-bearing target, even by naming it.
    #[test]
    fn capped_targets_cannot_be_raised() {
        let f = filter_directives(
            Some("trace,rmcp::transport::auth=trace,rmcp::service=debug,rmcp=trace,plugboard_core=debug"),
            "info",
        );
        assert!(!f.contains("auth=trace") && !f.contains("service=debug") && !f.contains("rmcp=trace"), "{f}");
        assert!(f.contains("rmcp::service=warn") && f.contains("rmcp=info"), "{f}");
        assert!(f.contains("plugboard_core=debug"), "{f}");
        assert!(f.starts_with("trace,"), "{f}");
    }
}
