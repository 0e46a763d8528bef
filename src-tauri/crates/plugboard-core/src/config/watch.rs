//! Watching `servers.json` for edits by other programs (an editor, the CLI, another Plugboard process), so the
//! store reloads them promptly instead of only at its next write.

use std::path::Path;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};

/// Calls `on_change` whenever something happens to the file at `path`. Keep the returned watcher alive.
/// The folder is watched, not the file: editors and Plugboard itself replace the file by renaming over it.
pub fn watch_file(path: &Path, on_change: impl Fn() + Send + 'static) -> notify::Result<RecommendedWatcher> {
    let dir = path.parent().unwrap_or(Path::new(".")).to_owned();
    std::fs::create_dir_all(&dir).map_err(notify::Error::io)?;
    let name = path.file_name().map(ToOwned::to_owned);
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && event.paths.iter().any(|p| p.file_name() == name.as_deref())
        {
            on_change();
        }
    })?;
    watcher.watch(&dir, RecursiveMode::NonRecursive)?;
    Ok(watcher)
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::watch_file;

    /// Writing or replacing the file is noticed; other files in the folder are not.
    #[test]
    fn edits_of_the_file_are_noticed() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("servers.json");
        let (tx, rx) = mpsc::channel();
        let _watcher = watch_file(&path, move || {
            let _ = tx.send(());
        })
        .expect("watch");
        std::fs::write(dir.path().join("other.json"), "{}").expect("other");
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err(), "another file is not this file");
        std::fs::write(&path, "{}").expect("write");
        assert!(rx.recv_timeout(Duration::from_secs(5)).is_ok(), "the edit was noticed");
    }
}
