//! For tests: one test of this test binary run alone in a child process, for what a test cannot measure among the
//! others running in parallel (a process's memory) or must see from outside (a process that is killed). The child
//! finds where to write its findings in [`CHILD_OUT`]; without it, a helper test does nothing.

use std::path::Path;
use std::process::Command;

/// The file a test run by [`alone`] writes its findings to.
pub const CHILD_OUT: &str = "PLUGBOARD_TEST_CHILD_OUT";

/// The command that runs the test `path` (e.g. `transport::limits_tests::attack`) alone, writing to `out`.
pub fn alone(path: &str, out: &Path) -> Command {
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args([path, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_OUT, out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    command
}

/// Runs `path` alone and returns what it wrote (panics, naming it, if it failed or wrote nothing).
pub fn findings(path: &str) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("findings.txt");
    let status = alone(path, &out).status().expect("the child runs");
    assert!(status.success(), "{path} failed in its own process: {status}");
    std::fs::read_to_string(&out).unwrap_or_else(|_| panic!("{path} wrote no findings"))
}

/// Resets this process's peak RSS to its current RSS; returns that, in KiB.
pub fn start_measuring_memory() -> u64 {
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS (Linux ≥ 4.0)");
    status_kib("VmRSS:")
}

/// How far this process's peak RSS rose above `start` (from `start_measuring_memory`), in KiB.
pub fn peak_growth_kib(start: u64) -> u64 {
    status_kib("VmHWM:").saturating_sub(start)
}

fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with(field)).expect("the field");
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("a number")
}
