//! `InsecureFileStore`: INSECURE — secrets in a PLAINTEXT JSON file, used only when the person explicitly opted in
//! and no keychain is reachable. It must never be chosen silently, never be written with a mode other than 0600, and
//! never overwrite a file it cannot parse.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::{BackendKind, SecretStore, Sensitive, VaultError};

/// The file's name in the data dir: it says what it is to anyone who finds it.
pub const INSECURE_FILE_NAME: &str = "secrets.INSECURE-PLAINTEXT.json";

/// Written at the top of the file for anyone who opens it.
const WARNING: &str = "INSECURE: these secrets are stored in PLAINTEXT. Anyone who can read this file can use them. \
     Plugboard wrote it only because you opted into the insecure plaintext file store.";

const FORMAT: u32 = 1;

/// INSECURE, PLAINTEXT: one JSON file holding every secret, mode 0600, replaced atomically on each write.
pub struct InsecureFileStore {
    path: PathBuf,
    // Serialises read-modify-write cycles in this process; other processes are not locked out (see the report).
    write_lock: Mutex<()>,
}

/// The file as written. Never `Debug`: it holds the values.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FileShape {
    warning: String,
    format: u32,
    secrets: BTreeMap<String, String>,
}

impl InsecureFileStore {
    /// The INSECURE plaintext file store at `path`. Nothing is read or written until the first call.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into(), write_lock: Mutex::new(()) }
    }

    /// Where the file goes when the person opts in without naming one: the data dir.
    pub fn default_path() -> PathBuf {
        crate::paths::data_dir().join(INSECURE_FILE_NAME)
    }

    fn error(&self, reason: impl Into<String>) -> VaultError {
        VaultError::InsecureFile { path: self.path.clone(), reason: reason.into() }
    }

    /// Every secret in the file; an absent file is an empty store, an unreadable or unparsable one an error.
    fn load(&self) -> Result<BTreeMap<String, String>, VaultError> {
        let text = match fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
            Err(e) => return Err(self.error(format!("cannot read it: {e}"))),
        };
        warn_if_readable_by_others(&self.path);
        // serde_json's messages can quote the offending value, which may be a secret: keep only where it broke.
        let file: FileShape = serde_json::from_str(&text).map_err(|e| {
            let what = match e.classify() {
                serde_json::error::Category::Data => "not the expected shape",
                _ => "not valid JSON",
            };
            self.error(format!("{what} at line {} column {}", e.line(), e.column()))
        })?;
        if file.format != FORMAT {
            return Err(self.error(format!("unknown format {}, expected {FORMAT}", file.format)));
        }
        Ok(file.secrets)
    }

    /// Replaces the file: a new 0600 temp file in the same dir, flushed to disk, renamed over the old one, so a
    /// crash leaves either the old file or the new one, never half of one.
    fn store(&self, secrets: BTreeMap<String, String>) -> Result<(), VaultError> {
        let file = FileShape { warning: WARNING.to_owned(), format: FORMAT, secrets };
        let text = serde_json::to_string_pretty(&file).map_err(|_| self.error("cannot encode the secrets"))?;
        crate::private_file::write_private_atomically(&self.path, text.as_bytes())
            .map_err(|e| self.error(format!("cannot write it: {e}")))?;
        Ok(())
    }

    /// Loads, applies `change`, and writes back only when `change` says something changed.
    fn update<T>(&self, change: impl FnOnce(&mut BTreeMap<String, String>) -> (T, bool)) -> Result<T, VaultError> {
        let _guard = self.write_lock.lock().unwrap_or_else(PoisonError::into_inner);
        let mut secrets = self.load()?;
        let (result, changed) = change(&mut secrets);
        if changed {
            self.store(secrets)?;
        }
        Ok(result)
    }
}

impl fmt::Debug for InsecureFileStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InsecureFileStore").field("insecure_plaintext_path", &self.path).finish()
    }
}

impl SecretStore for InsecureFileStore {
    fn kind(&self) -> BackendKind {
        BackendKind::InsecurePlaintextFile
    }

    fn location(&self) -> Option<&Path> {
        Some(&self.path)
    }

    fn get(&self, key: &str) -> Result<Option<Sensitive<String>>, VaultError> {
        Ok(self.load()?.remove(key).map(Sensitive::new))
    }

    fn set(&self, key: &str, value: &str) -> Result<(), VaultError> {
        self.update(|secrets| {
            let changed = secrets.get(key).is_none_or(|old| old != value);
            if changed {
                secrets.insert(key.to_owned(), value.to_owned());
            }
            ((), changed)
        })
    }

    fn delete(&self, key: &str) -> Result<bool, VaultError> {
        self.update(|secrets| {
            let existed = secrets.remove(key).is_some();
            (existed, existed)
        })
    }
}

/// A file someone loosened after Plugboard wrote it: say so (the next write puts 0600 back).
fn warn_if_readable_by_others(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = fs::metadata(path)
            && meta.permissions().mode() & 0o077 != 0
        {
            tracing::warn!(path = %path.display(), "the insecure plaintext secrets file is readable by other users");
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::{INSECURE_FILE_NAME, InsecureFileStore, SecretStore, VaultError};

    fn store_in(dir: &tempfile::TempDir) -> InsecureFileStore {
        InsecureFileStore::new(dir.path().join("nested").join(INSECURE_FILE_NAME))
    }

    fn files_in(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("read dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Values round-trip through the file, a missing file reads as empty, and deleting reports whether it existed.
    #[test]
    fn round_trips_through_the_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = store_in(&dir);
        assert_eq!(store.get("s/a").expect("no file yet"), None);
        store.set("s/a", "värde-😀").expect("set");
        store.set("s/b", "two").expect("set");
        let reopened = store_in(&dir);
        assert_eq!(reopened.get("s/a").expect("get").map(|v| v.expose().clone()), Some("värde-😀".to_owned()));
        assert!(reopened.delete("s/a").expect("delete"));
        assert!(!reopened.delete("s/a").expect("delete again"));
        assert_eq!(store.get("s/a").expect("get"), None);
        assert!(store.get("s/b").expect("get").is_some());
    }

    /// The file and its new dir are private to the owner (0600 / 0700), even under a permissive umask.
    #[cfg(unix)]
    #[test]
    fn file_is_mode_0600() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let store = store_in(&dir);
        store.set("s/a", "secret").expect("set");
        let path = store.location().expect("a file store has a path");
        assert_eq!(std::fs::metadata(path).expect("meta").permissions().mode() & 0o777, 0o600);
        let parent = path.parent().expect("parent");
        assert_eq!(std::fs::metadata(parent).expect("meta").permissions().mode() & 0o777, 0o700);
        // A file loosened by hand is put back to 0600 by the next write.
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        store.set("s/b", "other").expect("set");
        assert_eq!(std::fs::metadata(path).expect("meta").permissions().mode() & 0o777, 0o600);
    }

    /// Writes go through a temp file that is renamed into place: none is left behind.
    #[test]
    fn writes_are_atomic_and_leave_no_temp_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = store_in(&dir);
        for i in 0..5 {
            store.set(&format!("s/{i}"), "value").expect("set");
        }
        store.delete("s/0").expect("delete");
        assert_eq!(files_in(&dir.path().join("nested")), vec![INSECURE_FILE_NAME.to_owned()]);
    }

    /// A file that is not the expected JSON is a clear error on read and write, and is never overwritten.
    #[test]
    fn corrupt_file_is_an_error_and_is_not_overwritten() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = store_in(&dir);
        store.set("s/a", "secret").expect("set");
        let path = store.location().expect("path").to_path_buf();
        let garbage = "{\"secrets\": {\"s/a\": \"sk-canary-in-broken-file\"";
        std::fs::write(&path, garbage).expect("corrupt it");

        for result in [store.get("s/a").map(drop), store.set("s/b", "new"), store.delete("s/a").map(drop)] {
            let err = result.expect_err("corrupt file");
            assert!(matches!(&err, VaultError::InsecureFile { reason, .. } if reason.contains("line 1")), "{err:?}");
            assert!(err.to_string().contains("will not overwrite"), "{err}");
        }
        assert_eq!(std::fs::read_to_string(&path).expect("read"), garbage, "the file was left as it was");
    }

    /// A parse error never quotes the file's content, which may be a secret.
    #[test]
    fn parse_errors_do_not_quote_values() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = store_in(&dir);
        std::fs::create_dir_all(dir.path().join("nested")).expect("dir");
        let wrong_type = r#"{"warning": "w", "format": "sk-canary-as-format", "secrets": {}}"#;
        std::fs::write(store.location().expect("path"), wrong_type).expect("write");
        let err = store.get("s/a").expect_err("wrong shape");
        let shown = format!("{err} {err:?}");
        assert!(!shown.contains("canary"), "{shown}");
        assert!(shown.contains("not the expected shape"), "{shown}");
    }

    /// The file itself says it is insecure plaintext, and Debug shows the path but no value.
    #[test]
    fn file_and_debug_say_insecure_plaintext() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = store_in(&dir);
        store.set("s/a", "sk-canary-file").expect("set");
        let text = std::fs::read_to_string(store.location().expect("path")).expect("read");
        assert!(text.contains("INSECURE") && text.contains("PLAINTEXT"), "{text}");
        let shown = format!("{store:?}");
        assert!(shown.contains("insecure_plaintext") && !shown.contains("canary"), "{shown}");
    }
}
