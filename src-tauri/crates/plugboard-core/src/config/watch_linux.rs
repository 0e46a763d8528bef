//! Linux: the watched folders through inotify directly, asking only for the events that end a change of a file
//! (closed after writing, moved in or out, created, deleted), never for the writes themselves, so a neighbour that is
//! written all the time (the call history's database, beside the approvals) wakes nothing. notify, used elsewhere,
//! always asks for every write. It must never read the files, and its thread ends with the watch.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask, Watches};

/// The running watch; dropping it removes the watches, which wakes the thread to end.
pub(super) struct FolderWatch {
    watches: Watches,
    descriptors: Vec<WatchDescriptor>,
    stopping: Arc<AtomicBool>,
}

impl Drop for FolderWatch {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::Release);
        // Each removal queues IN_IGNORED, which is what the blocked read returns with.
        for descriptor in self.descriptors.drain(..) {
            let _ = self.watches.remove(descriptor);
        }
    }
}

/// Watches `folders`, calling `changed(folder, file name)` for every event that ends a change of a file in them.
pub(super) fn watch_folders(
    folders: &[PathBuf],
    changed: impl Fn(&Path, &OsStr) + Send + 'static,
) -> std::io::Result<FolderWatch> {
    let mut inotify = Inotify::init()?;
    let mut watches = inotify.watches();
    let mask = WatchMask::CLOSE_WRITE
        | WatchMask::MOVED_TO
        | WatchMask::MOVED_FROM
        | WatchMask::CREATE
        | WatchMask::DELETE
        | WatchMask::ONLYDIR;
    let mut descriptors = Vec::new();
    let mut by_descriptor = Vec::new();
    for folder in folders {
        let descriptor = watches.add(folder, mask)?;
        by_descriptor.push((descriptor.clone(), folder.clone()));
        descriptors.push(descriptor);
    }
    let stopping = Arc::new(AtomicBool::new(false));
    let stop = Arc::clone(&stopping);
    std::thread::Builder::new().name("config-inotify".into()).spawn(move || {
        let mut buffer = [0u8; 4096];
        while !stop.load(Ordering::Acquire) {
            let Ok(events) = inotify.read_events_blocking(&mut buffer) else { return };
            for event in events {
                if event.mask.contains(EventMask::IGNORED) {
                    continue;
                }
                let folder = by_descriptor.iter().find(|(descriptor, _)| *descriptor == event.wd);
                if let (Some((_, folder)), Some(name)) = (folder, event.name) {
                    changed(folder, name);
                }
            }
        }
    })?;
    Ok(FolderWatch { watches, descriptors, stopping })
}
