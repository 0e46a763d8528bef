//! The login shell's PATH cached across processes, with a stand-in shell that counts its runs: a second process
//! reads the cache; a changed profile, a corrupt, foreign, widened, symlinked, stale or future-dated file each make
//! it ask the shell again and rewrite the file. Each call of `learn_login_path` is what a fresh process does.

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::super::{login_path_cache, path_resolution};
use super::write_script;

/// What the stand-in shell prints as its PATH.
const LOGIN_PATH: &str = "/opt/login-only/bin:/usr/bin:/bin";

/// A temp HOME, a shell that appends a line to `runs` each time it starts, and the cache file's place.
struct Setup {
    dir: tempfile::TempDir,
    shell: PathBuf,
    env: Vec<(OsString, OsString)>,
    cache: PathBuf,
}

impl Setup {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let runs = dir.path().join("runs");
        let body = format!(
            "#!/bin/sh\necho run >> '{}'\nprintf '%s%s%s' __PLUGBOARD_PATH_BEGIN__ '{LOGIN_PATH}' __PLUGBOARD_PATH_END__\n",
            runs.display()
        );
        let shell = write_script(dir.path(), "counting-shell", &body);
        let home = dir.path().join("home");
        std::fs::create_dir(&home).unwrap();
        let env = [("HOME", home.to_str().unwrap()), ("PATH", "/usr/bin:/bin")]
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .to_vec();
        let cache = dir.path().join("data").join("login-path.json");
        Self { dir, shell, env, cache }
    }

    /// What one process learns.
    fn learn(&self) -> Option<OsString> {
        path_resolution::learn_login_path(&self.shell, &self.env, &self.cache)
    }

    fn shell_runs(&self) -> usize {
        std::fs::read_to_string(self.dir.path().join("runs")).map_or(0, |t| t.lines().count())
    }

    fn key(&self) -> String {
        login_path_cache::key(&self.shell, &self.env)
    }

    fn cached(&self) -> Option<OsString> {
        login_path_cache::read(&self.cache, &self.key(), SystemTime::now(), login_path_cache::MAX_AGE)
    }

    fn mode(&self) -> u32 {
        std::fs::symlink_metadata(&self.cache).unwrap().permissions().mode() & 0o777
    }
}

/// The first process asks the shell and stores the answer 0600; the next ones get the same PATH without a shell.
#[test]
fn a_second_process_reads_the_cache_instead_of_starting_a_shell() {
    let s = Setup::new();
    assert_eq!(s.learn().as_deref(), Some(LOGIN_PATH.as_ref()));
    assert_eq!(s.shell_runs(), 1);
    assert_eq!(s.mode(), 0o600);
    for _ in 0..3 {
        assert_eq!(s.learn().as_deref(), Some(LOGIN_PATH.as_ref()));
    }
    assert_eq!(s.shell_runs(), 1, "later processes read the cache");
}

/// Editing a profile, another HOME, another app PATH or another shell is another key: the shell is asked again.
#[test]
fn what_could_change_the_answer_is_in_the_key() {
    let mut s = Setup::new();
    s.learn();
    std::fs::write(Path::new(&s.env[0].1).join(".profile"), "export PATH=/x:$PATH\n").unwrap();
    s.learn();
    assert_eq!(s.shell_runs(), 2, "a new ~/.profile");
    s.learn();
    assert_eq!(s.shell_runs(), 2);
    s.env[1].1 = OsString::from("/usr/local/bin:/usr/bin:/bin");
    s.learn();
    assert_eq!(s.shell_runs(), 3, "another PATH given to the shell");
    let other = write_script(s.dir.path(), "other-shell", &std::fs::read_to_string(&s.shell).unwrap());
    assert_ne!(login_path_cache::key(&other, &s.env), s.key());
}

/// A file that is not JSON, not ours in format, readable by others or a symlink is never believed: the shell is
/// asked and the file replaced by a private one of ours (a symlink's target is left alone).
#[test]
fn a_corrupt_or_foreign_cache_is_ignored_and_rewritten() {
    let s = Setup::new();
    std::fs::create_dir_all(s.cache.parent().unwrap()).unwrap();
    std::fs::write(&s.cache, "{not json").unwrap();
    assert_eq!(s.learn().as_deref(), Some(LOGIN_PATH.as_ref()));
    assert_eq!((s.shell_runs(), s.mode()), (1, 0o600));
    assert!(s.cached().is_some(), "rewritten");

    let planted = format!(r#"{{"format":1,"key":"{}","written_at":4102444800,"path":"/tmp/evil"}}"#, s.key());
    std::fs::write(&s.cache, &planted).unwrap();
    std::fs::set_permissions(&s.cache, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(s.learn().as_deref(), Some(LOGIN_PATH.as_ref()), "a future date is not believed");
    assert_eq!(s.shell_runs(), 2);

    let good = std::fs::read(&s.cache).unwrap();
    std::fs::set_permissions(&s.cache, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(s.cached(), None, "readable by others");
    s.learn();
    assert_eq!((s.shell_runs(), s.mode()), (3, 0o600));

    let elsewhere = s.dir.path().join("elsewhere.json");
    std::fs::write(&elsewhere, &good).unwrap();
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::remove_file(&s.cache).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &s.cache).unwrap();
    s.learn();
    assert_eq!(s.shell_runs(), 4, "a symlink is not followed");
    assert!(std::fs::symlink_metadata(&s.cache).unwrap().is_file());
    assert_eq!(std::fs::read(&elsewhere).unwrap(), good, "its target untouched");

    let relative = format!(r#"{{"format":1,"key":"{}","written_at":1,"path":"bin:/usr/bin"}}"#, s.key());
    std::fs::write(&s.cache, relative).unwrap();
    assert_eq!(
        login_path_cache::read(
            &s.cache,
            &s.key(),
            SystemTime::UNIX_EPOCH + Duration::from_secs(2),
            login_path_cache::MAX_AGE
        ),
        None,
        "a relative entry is not a PATH we wrote"
    );
}

/// An entry older than the bound is asked again, however well it matches.
#[test]
fn an_entry_expires() {
    let s = Setup::new();
    s.learn();
    let later = SystemTime::now() + login_path_cache::MAX_AGE + Duration::from_secs(1);
    assert_eq!(login_path_cache::read(&s.cache, &s.key(), later, login_path_cache::MAX_AGE), None);
    assert!(s.cached().is_some());
}

/// A shell that fails is not cached: the next process tries again rather than believing an empty answer.
#[test]
fn a_failing_shell_is_not_cached() {
    let s = Setup::new();
    let failing = write_script(s.dir.path(), "failing-shell", "#!/bin/sh\nexit 1\n");
    assert_eq!(path_resolution::learn_login_path(&failing, &s.env, &s.cache), None);
    assert!(!s.cache.exists());
}
