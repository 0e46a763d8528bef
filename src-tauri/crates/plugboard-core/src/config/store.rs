//! `ConfigStore`: the one owner of `servers.json` in a process. Writes are atomic (temp file, fsync, rename) and
//! keep the previous version as `servers.json.bak`; a write never lands on top of a change made by another program
//! or on a file that does not parse. External edits are picked up by `reload` and announced as events.

use std::fs::{self, File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha2::{Digest, Sha256};
use tokio::sync::broadcast;

use super::error::ConfigError;
use super::file::{parse_config_text, render_config_text};
use super::raw::RawConfigFile;

/// Something that happened to the config file, for the UI to refresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigEvent {
    /// Another program changed the file and Plugboard now uses the new version.
    Reloaded,
    /// The file on disk stopped parsing; Plugboard keeps the last good version.
    BrokenOnDisk { reason: String },
    /// Plugboard wrote the file.
    Saved,
}

/// What Plugboard last saw on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
enum DiskState {
    Missing,
    Good([u8; 32]),
    Broken { digest: [u8; 32], reason: String },
}

#[derive(Debug)]
struct State {
    current: RawConfigFile,
    disk: DiskState,
}

/// The server config file and the last good version of it in memory.
#[derive(Debug)]
pub struct ConfigStore {
    path: PathBuf,
    state: Mutex<State>,
    events: broadcast::Sender<ConfigEvent>,
}

impl ConfigStore {
    /// Reads `path`. A missing file is an empty config; a broken one leaves an empty config in memory and is
    /// reported by [`ConfigStore::problem`]; an unreadable one is an error.
    pub fn open(path: impl Into<PathBuf>) -> Result<Self, ConfigError> {
        let path = path.into();
        let (current, disk) = match read_disk(&path)? {
            Disk::Missing => (RawConfigFile::default(), DiskState::Missing),
            Disk::Parsed(file, digest) => (file, DiskState::Good(digest)),
            Disk::Broken(digest, e) => (RawConfigFile::default(), DiskState::Broken { digest, reason: e.to_string() }),
        };
        let (events, _) = broadcast::channel(64);
        Ok(Self { path, state: Mutex::new(State { current, disk }), events })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The config in use (the last good version when the file on disk is broken).
    pub fn snapshot(&self) -> RawConfigFile {
        self.lock().current.clone()
    }

    /// Why the file on disk is not in use, when it is broken.
    pub fn problem(&self) -> Option<String> {
        match &self.lock().disk {
            DiskState::Broken { reason, .. } => Some(reason.clone()),
            DiskState::Missing | DiskState::Good(_) => None,
        }
    }

    /// Events about the file: reloads, breakage, saves.
    pub fn subscribe(&self) -> broadcast::Receiver<ConfigEvent> {
        self.events.subscribe()
    }

    /// Picks up changes made by other programs; returns whether anything changed.
    pub fn reload(&self) -> Result<bool, ConfigError> {
        let disk = read_disk(&self.path)?;
        let mut state = self.lock();
        let event = adopt(&mut state, disk);
        drop(state);
        Ok(event.map(|e| self.emit(e)).is_some())
    }

    /// Applies `change` to the config and writes it. Fails without writing when the file changed underneath
    /// (after reloading it) or does not parse; `change`'s own error aborts the write too.
    pub fn modify<T, E>(&self, change: impl FnOnce(&mut RawConfigFile) -> Result<T, E>) -> Result<T, E>
    where
        E: From<ConfigError>,
    {
        let _file_lock = FileLock::acquire(&self.path)?;
        let disk = read_disk(&self.path)?;
        let mut state = self.lock();
        if disk.state() != state.disk {
            let event = adopt(&mut state, disk);
            let error = match &state.disk {
                DiskState::Broken { reason, .. } => {
                    ConfigError::BrokenOnDisk { path: self.path.clone(), reason: reason.clone() }
                }
                DiskState::Missing | DiskState::Good(_) => ConfigError::ChangedOnDisk { path: self.path.clone() },
            };
            drop(state);
            if let Some(e) = event {
                self.emit(e);
            }
            return Err(error.into());
        }
        if let DiskState::Broken { reason, .. } = &state.disk {
            return Err(ConfigError::BrokenOnDisk { path: self.path.clone(), reason: reason.clone() }.into());
        }
        let mut next = state.current.clone();
        let value = change(&mut next)?;
        // An entry written over a name whose entry could not be read would drop the person's entry on save.
        if let Some(name) = next.servers.keys().find(|name| next.unreadable.contains_key(*name)) {
            return Err(ConfigError::UnreadableEntryInTheWay { name: name.clone() }.into());
        }
        let text = render_config_text(&next);
        crate::private_file::write_private_atomically_with_backup(
            &self.path,
            text.as_bytes(),
            &backup_path(&self.path),
        )
        .map_err(|source| ConfigError::Unwritable { path: self.path.clone(), source })?;
        state.disk = DiskState::Good(digest(text.as_bytes()));
        state.current = next;
        drop(state);
        self.emit(ConfigEvent::Saved);
        Ok(value)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave State half-updated (fields are assigned last), so recover.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn emit(&self, event: ConfigEvent) {
        // No subscriber is fine: nobody is looking.
        let _ = self.events.send(event);
    }
}

/// What is on disk now.
enum Disk {
    Missing,
    Parsed(RawConfigFile, [u8; 32]),
    Broken([u8; 32], ConfigError),
}

impl Disk {
    fn state(&self) -> DiskState {
        match self {
            Self::Missing => DiskState::Missing,
            Self::Parsed(_, d) => DiskState::Good(*d),
            Self::Broken(d, e) => DiskState::Broken { digest: *d, reason: e.to_string() },
        }
    }
}

fn read_disk(path: &Path) -> Result<Disk, ConfigError> {
    match fs::read(path) {
        Ok(bytes) => {
            let d = digest(&bytes);
            let parsed = std::str::from_utf8(&bytes)
                .map_err(|e| ConfigError::Syntax {
                    path: path.to_owned(),
                    line: 1,
                    column: 1,
                    message: format!("not UTF-8 text ({e})"),
                })
                .and_then(|text| parse_config_text(path, text));
            Ok(match parsed {
                Ok(file) => Disk::Parsed(file, d),
                Err(e) => Disk::Broken(d, e),
            })
        }
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Disk::Missing),
        Err(source) => Err(ConfigError::Unreadable { path: path.to_owned(), source }),
    }
}

/// Takes what is on disk into `state`; returns the event to announce, if anything changed.
fn adopt(state: &mut State, disk: Disk) -> Option<ConfigEvent> {
    let new_state = disk.state();
    if new_state == state.disk {
        return None;
    }
    state.disk = new_state;
    match disk {
        Disk::Missing => {
            state.current = RawConfigFile::default();
            Some(ConfigEvent::Reloaded)
        }
        Disk::Parsed(file, _) => {
            state.current = file;
            Some(ConfigEvent::Reloaded)
        }
        Disk::Broken(_, e) => Some(ConfigEvent::BrokenOnDisk { reason: e.to_string() }),
    }
}

fn digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The previous version of the file, kept next to it.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    path.with_file_name(name)
}

/// An exclusive advisory lock on `servers.json.lock`, so the window, the CLI and `serve` never interleave writes.
struct FileLock(File);

impl FileLock {
    fn acquire(path: &Path) -> Result<Self, ConfigError> {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        let lock_path = path.with_file_name(name);
        let unwritable = |source| ConfigError::Unwritable { path: lock_path.clone(), source };
        if let Some(dir) = lock_path.parent() {
            fs::create_dir_all(dir).map_err(unwritable)?;
        }
        let file = OpenOptions::new().create(true).truncate(false).write(true).open(&lock_path).map_err(unwritable)?;
        file.lock().map_err(unwritable)?;
        Ok(Self(file))
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}
