//! Watching `servers.json` (and the approvals beside it) for edits by other programs (an editor, the CLI, another
//! Plugboard process), so the store reloads them promptly instead of only at its next write. It must never react to
//! the file being read: a reload reads the file, and a watcher that woke on reads would reload forever (a core spent
//! at rest). On Linux the folders are watched by `watch_linux.rs`, elsewhere by notify.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[cfg(not(target_os = "linux"))]
use notify::event::{AccessKind, AccessMode, EventKind, ModifyKind};
#[cfg(not(target_os = "linux"))]
use notify::{RecursiveMode, Watcher};

/// How long the file must stay quiet before `on_change` runs: an editor's save is several events (truncate, write,
/// close, or write a temp file and rename it), and one reload should follow them all.
const QUIET_PERIOD: Duration = Duration::from_millis(150);
/// A file rewritten without pause still gets reloaded this often.
const LONGEST_WAIT: Duration = Duration::from_secs(1);

/// A running watch; dropping it stops the watch and its threads.
pub struct FileWatcher {
    #[cfg(target_os = "linux")]
    _watch: super::watch_linux::FolderWatch,
    #[cfg(not(target_os = "linux"))]
    _watch: notify::RecommendedWatcher,
}

impl std::fmt::Debug for FileWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileWatcher")
    }
}

/// What to do when a watched file changed.
pub type OnChange = Box<dyn Fn() + Send + 'static>;

/// A file that could not be watched, and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot watch {}: {source}", path.display())]
pub struct WatchError {
    pub path: PathBuf,
    #[source]
    pub source: notify::Error,
}

/// Calls each file's `on_change` once a burst of changes to it has settled. Only changes of a file's content or
/// identity count (written, created, renamed, removed); opening and reading it do not. Folders are watched, not the
/// files: editors and Plugboard itself replace a file by renaming over it. One watch serves them all: the kernel
/// wakes its thread for every event in a watched folder, whichever file it concerns (a busy neighbour such as the
/// call history included), so files that share a folder share that wake-up rather than each paying for it.
pub fn watch_files(files: Vec<(PathBuf, OnChange)>) -> Result<FileWatcher, WatchError> {
    let mut routes: Vec<(PathBuf, OsString, mpsc::Sender<()>)> = Vec::new();
    let mut folders: Vec<PathBuf> = Vec::new();
    let first = files.first().map(|(path, _)| path.clone()).unwrap_or_default();
    for (path, on_change) in files {
        let failed = |source: notify::Error| WatchError { path: path.clone(), source };
        let dir = path.parent().unwrap_or(Path::new(".")).to_owned();
        std::fs::create_dir_all(&dir).map_err(|e| failed(notify::Error::io(e)))?;
        let Some(name) = path.file_name().map(ToOwned::to_owned) else { continue };
        let (changed, changes) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("config-watch".into())
            .spawn(move || debounce(&changes, &on_change))
            .map_err(|e| failed(notify::Error::io(e)))?;
        if !folders.contains(&dir) {
            folders.push(dir.clone());
        }
        routes.push((dir, name, changed));
    }
    let changed = move |dir: &Path, name: &std::ffi::OsStr| {
        for (watched_dir, watched_name, changed) in &routes {
            if watched_dir == dir && watched_name == name {
                // The receiver is gone only while the watcher is being dropped.
                let _ = changed.send(());
            }
        }
    };
    #[cfg(target_os = "linux")]
    let watch = super::watch_linux::watch_folders(&folders, changed)
        .map_err(|e| WatchError { path: first, source: notify::Error::io(e) })?;
    #[cfg(not(target_os = "linux"))]
    let watch = watch_with_notify(&folders, changed)
        .map_err(|(path, source)| WatchError { path: path.unwrap_or(first), source })?;
    Ok(FileWatcher { _watch: watch })
}

/// Elsewhere than Linux: notify's watcher, whose events are sorted here (`changes_the_file`).
#[cfg(not(target_os = "linux"))]
fn watch_with_notify(
    folders: &[PathBuf],
    changed: impl Fn(&Path, &std::ffi::OsStr) + Send + 'static,
) -> Result<notify::RecommendedWatcher, (Option<PathBuf>, notify::Error)> {
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if !changes_the_file(&event.kind) {
            return;
        }
        for path in &event.paths {
            if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
                changed(dir, name);
            }
        }
    })
    .map_err(|e| (None, e))?;
    for folder in folders {
        watcher.watch(folder, RecursiveMode::NonRecursive).map_err(|e| (Some(folder.clone()), e))?;
    }
    Ok(watcher)
}

/// Whether an event says the file's bytes or its identity may have changed.
#[cfg(not(target_os = "linux"))]
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
fn debounce(changes: &mpsc::Receiver<()>, on_change: &dyn Fn()) {
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

    use super::{FileWatcher, watch_files};

    /// A watch on `path` whose calls arrive on the returned receiver.
    fn watched(path: &std::path::Path) -> (FileWatcher, mpsc::Receiver<()>) {
        let (tx, rx) = mpsc::channel();
        let on_change: super::OnChange = Box::new(move || {
            let _ = tx.send(());
        });
        (watch_files(vec![(path.to_owned(), on_change)]).expect("watch"), rx)
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

    /// One watch for files in two folders calls each file's own action, and only for that file.
    #[test]
    fn one_watch_serves_files_in_several_folders() {
        let (one, two) = (tempfile::tempdir().expect("dir"), tempfile::tempdir().expect("dir"));
        let (a, b, c) = (one.path().join("a.json"), one.path().join("b.json"), two.path().join("a.json"));
        let (tx, rx) = mpsc::channel::<&'static str>();
        let said = |what: &'static str| -> super::OnChange {
            let tx = tx.clone();
            Box::new(move || {
                let _ = tx.send(what);
            })
        };
        let _watcher =
            watch_files(vec![(a.clone(), said("a")), (b.clone(), said("b")), (c.clone(), said("c"))]).expect("watch");
        for (path, name) in [(&b, "b"), (&c, "c"), (&a, "a")] {
            std::fs::write(path, "{}").expect("write");
            assert_eq!(rx.recv_timeout(Duration::from_secs(5)), Ok(name));
            assert!(rx.recv_timeout(Duration::from_millis(400)).is_err(), "only {name}'s action");
        }
    }

    /// The wake-ups of this process's folder-watch threads (ours, or notify's should it come back) so far.
    fn watch_thread_wakeups() -> u64 {
        let mut total = 0;
        for task in std::fs::read_dir("/proc/self/task").expect("tasks").filter_map(Result::ok) {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            if !(comm.starts_with("config-inotify") || comm.starts_with("notify-rs")) {
                continue;
            }
            let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
            let switches = status.lines().find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"));
            total += switches.and_then(|n| n.trim().parse::<u64>().ok()).unwrap_or_default();
        }
        total
    }

    /// (Run alone by `writes_to_a_neighbour_wake_nothing`, where no other test's watch wakes.) 100 writes, paced as
    /// calls are (the kernel merges a burst of like events into one), to a file held open beside the watched one, as
    /// the call history's database is written; writes the watch threads' wake-ups meanwhile.
    #[test]
    fn neighbour_writes_counted_alone() {
        let Some(out) = std::env::var_os(crate::testing::CHILD_OUT) else { return };
        let dir = tempfile::tempdir().expect("dir");
        let (_watcher, rx) = watched(&dir.path().join("trust.json"));
        let mut history = std::fs::File::create(dir.path().join("history.sqlite3-wal")).expect("neighbour");
        std::thread::sleep(Duration::from_millis(200));
        let before = watch_thread_wakeups();
        for i in 0..100 {
            std::io::Write::write_all(&mut history, format!("row {i}\n").as_bytes()).expect("write");
            std::thread::sleep(Duration::from_millis(3));
        }
        std::thread::sleep(Duration::from_millis(300));
        let woke = watch_thread_wakeups() - before;
        assert!(rx.try_recv().is_err(), "a neighbour is not the watched file");
        std::fs::write(out, woke.to_string()).expect("findings");
    }

    /// The approvals share their folder with the call history: its writes must not wake the watch (notify's watch
    /// woke for each of them, twice per call through the gateway).
    #[test]
    fn writes_to_a_neighbour_wake_nothing() {
        let findings = crate::testing::findings("config::watch::tests::neighbour_writes_counted_alone");
        let woke: u64 = findings.trim().parse().expect("a count");
        assert!(woke <= 2, "100 writes beside the watched file woke the watch {woke} times");
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
