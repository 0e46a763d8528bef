//! Watching `servers.json` for edits by other programs (an editor, the CLI, another Plugboard process), so the
//! store reloads them promptly instead of only at its next write. It must never react to the file being read:
//! a reload reads the file, and a watcher that woke on reads would reload forever (a core spent at rest).

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, EventKind, ModifyKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher};

/// How long the file must stay quiet before `on_change` runs: an editor's save is several events (truncate, write,
/// close, or write a temp file and rename it), and one reload should follow them all.
const QUIET_PERIOD: Duration = Duration::from_millis(150);
/// A file rewritten without pause still gets reloaded this often.
const LONGEST_WAIT: Duration = Duration::from_secs(1);

/// A running watch; dropping it stops the watch and its thread.
pub struct FileWatcher {
    _watcher: RecommendedWatcher,
}

impl std::fmt::Debug for FileWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileWatcher")
    }
}

/// Calls `on_change` once a burst of changes to the file at `path` has settled. Only changes of the file's content
/// or identity count (written, created, renamed, removed); opening and reading it do not.
/// The folder is watched, not the file: editors and Plugboard itself replace the file by renaming over it.
pub fn watch_file(path: &Path, on_change: impl Fn() + Send + 'static) -> notify::Result<FileWatcher> {
    let dir = path.parent().unwrap_or(Path::new(".")).to_owned();
    std::fs::create_dir_all(&dir).map_err(notify::Error::io)?;
    let name = path.file_name().map(ToOwned::to_owned);
    let (changed, changes) = mpsc::channel::<()>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && changes_the_file(&event.kind)
            && event.paths.iter().any(|p| p.file_name() == name.as_deref())
        {
            // The receiver is gone only while the watcher is being dropped.
            let _ = changed.send(());
        }
    })?;
    watcher.watch(&dir, RecursiveMode::NonRecursive)?;
    std::thread::Builder::new()
        .name("config-watch".into())
        .spawn(move || debounce(&changes, &on_change))
        .map_err(notify::Error::io)?;
    Ok(FileWatcher { _watcher: watcher })
}

/// Whether an event says the file's bytes or its identity may have changed.
fn changes_the_file(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Remove(_) => true,
        // Metadata alone (a touch, a chmod) leaves the bytes as they were.
        EventKind::Modify(modify) => !matches!(modify, ModifyKind::Metadata(_)),
        // Closing a file that was open for writing ends a write; every other access is a read.
        EventKind::Access(access) => matches!(access, AccessKind::Close(AccessMode::Write)),
        EventKind::Any | EventKind::Other => false,
    }
}

/// Runs `on_change` after each burst of changes, until the watcher (the sender) is dropped.
fn debounce(changes: &mpsc::Receiver<()>, on_change: &impl Fn()) {
    while changes.recv().is_ok() {
        let deadline = Instant::now() + LONGEST_WAIT;
        loop {
            let wait = QUIET_PERIOD.min(deadline.saturating_duration_since(Instant::now()));
            match changes.recv_timeout(wait) {
                Ok(()) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        }
        on_change();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::{FileWatcher, watch_file};

    /// A watch on `path` whose calls arrive on the returned receiver.
    fn watched(path: &std::path::Path) -> (FileWatcher, mpsc::Receiver<()>) {
        let (tx, rx) = mpsc::channel();
        let watcher = watch_file(path, move || {
            let _ = tx.send(());
        })
        .expect("watch");
        (watcher, rx)
    }

    /// Writing or replacing the file is noticed; other files in the folder are not.
    #[test]
    fn edits_of_the_file_are_noticed() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("servers.json");
        let (_watcher, rx) = watched(&path);
        std::fs::write(dir.path().join("other.json"), "{}").expect("other");
        assert!(rx.recv_timeout(Duration::from_millis(400)).is_err(), "another file is not this file");
        std::fs::write(&path, "{}").expect("write");
        assert!(rx.recv_timeout(Duration::from_secs(5)).is_ok(), "the edit was noticed");
        let replacement = dir.path().join("servers.json.tmp");
        std::fs::write(&replacement, "{\"mcpServers\":{}}").expect("temp");
        std::fs::rename(&replacement, &path).expect("rename over");
        assert!(rx.recv_timeout(Duration::from_secs(5)).is_ok(), "a rename over the file was noticed");
    }

    /// Reading the file (what a reload does) is not a change: a watcher that woke on reads reloaded in a loop.
    #[test]
    fn reading_the_file_is_not_a_change() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("servers.json");
        std::fs::write(&path, "{}").expect("write");
        let (_watcher, rx) = watched(&path);
        for _ in 0..20 {
            std::fs::read(&path).expect("read");
        }
        assert!(rx.recv_timeout(Duration::from_millis(600)).is_err(), "reads woke the watcher");
    }

    /// A burst of writes (an editor's save) settles into one call, not one per event.
    #[test]
    fn a_burst_of_writes_is_one_change() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("servers.json");
        let (_watcher, rx) = watched(&path);
        for i in 0..10 {
            std::fs::write(&path, format!("{{\"n\":{i}}}")).expect("write");
        }
        assert!(rx.recv_timeout(Duration::from_secs(5)).is_ok(), "the burst was noticed");
        assert!(rx.recv_timeout(Duration::from_millis(600)).is_err(), "one burst, one call");
    }
}
