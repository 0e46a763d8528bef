//! `plugboard-keeper` against `kill -9` of the app, as a normal user: no process of a server's tree survives. The
//! app is this test binary running one helper test in a child process, through the core's public `connect_stdio`;
//! as root (CI) the child is started as `nobody`, so what is tested is what an ordinary person gets, not what root may
//! do (PID namespaces). An integration test so that cargo builds the keeper binary fresh before it runs.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "test helpers: a panic is the report")]
#![allow(clippy::print_stderr, reason = "the test says how fast the tree went")]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use plugboard_core::transport::{Containment, KEEPER_BINARY, StdioLaunch, connect_stdio_named};

const NOBODY: u32 = 65_534;
/// Where the helper writes what it holds.
const HELD: &str = "PLUGBOARD_KEEPER_TEST_HELD";

/// A server in bash that answers `initialize` and then only waits, with a child (`sleep 300`, in its process
/// group) and a grandchild-to-be that leaves the group and the session (`setsid sleep 302`).
const SERVER: &str = r#"#!/bin/bash
sleep 300 &
setsid sleep 302 &
while IFS= read -r line; do
  [[ $line =~ \"id\":([0-9]+) ]] || continue
  printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"held","version":"1"}}}\n' "${BASH_REMATCH[1]}"
done
"#;

/// One process as /proc shows it: pid and start time (a reused pid is another process), and its command line.
#[derive(Debug, Clone)]
struct Seen {
    pid: i32,
    started: u64,
    cmdline: String,
}

/// `(ppid, state, starttime)` from /proc/<pid>/stat.
fn stat_of(pid: i32) -> Option<(i32, char, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    Some((fields.get(1)?.parse().ok()?, fields.first()?.chars().next()?, fields.get(19)?.parse().ok()?))
}

/// Every live descendant of `root`, by walking parent links in /proc.
fn descendants(root: i32) -> Vec<Seen> {
    let processes: Vec<(i32, i32, u64)> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            stat_of(pid).filter(|(_, state, _)| *state != 'Z').map(|(ppid, _, started)| (pid, ppid, started))
        })
        .collect();
    let mut parents = vec![root];
    let mut found = Vec::new();
    while let Some(parent) = parents.pop() {
        for (pid, _, started) in processes.iter().filter(|(_, ppid, _)| *ppid == parent) {
            parents.push(*pid);
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmd).replace('\0', " ").trim().to_owned();
            found.push(Seen { pid: *pid, started: *started, cmdline });
        }
    }
    found
}

fn still_alive(seen: &Seen) -> bool {
    stat_of(seen.pid).is_some_and(|(_, state, started)| started == seen.started && state != 'Z' && state != 'X')
}

/// Copies the executable `from` to `to` with `cp`, so `to` is never open for writing in this process: a child another
/// test thread forks meanwhile would hold it open until its own exec, and running `to` then fails with "Text file
/// busy" (ETXTBSY).
fn copy_executable(from: &std::path::Path, to: &std::path::Path) {
    let copied = std::process::Command::new("cp").arg(from).arg(to).status().unwrap();
    assert!(copied.success(), "cp {} {}", from.display(), to.display());
}

/// A folder `nobody` can enter holding this test binary and the keeper (cargo's target dir is under root's 0700
/// home), and a subfolder `nobody` can write to.
fn stage_for_nobody() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let exe = std::env::current_exe().unwrap();
    let keeper = PathBuf::from(env!("CARGO_BIN_EXE_plugboard-keeper"));
    let stage = tempfile::tempdir().unwrap();
    std::fs::set_permissions(stage.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let app = stage.path().join("plugboard-app-under-test");
    for (from, to) in [(&exe, &app), (&keeper, &stage.path().join(KEEPER_BINARY))] {
        if std::fs::hard_link(from, to).is_err() {
            copy_executable(from, to);
        }
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = stage.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o777)).unwrap();
    (stage, app, out)
}

/// The app: this binary running only `helper_app_holding_a_server`, as `nobody` when the test runs as root.
fn start_app(app: &Path, out: &Path, held: &Path) -> std::process::Child {
    let mut command = if nix::unistd::geteuid().is_root() {
        let mut setpriv = Command::new("/usr/bin/setpriv");
        setpriv.args([format!("--reuid={NOBODY}"), format!("--regid={NOBODY}"), "--clear-groups".into(), "--".into()]);
        setpriv.arg(app);
        setpriv
    } else {
        Command::new(app)
    };
    command
        .args(["helper_app_holding_a_server", "--exact", "--nocapture", "--test-threads=1"])
        .env(HELD, held)
        .env("HOME", out)
        .env("TMPDIR", out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the app starts (as root this needs /usr/bin/setpriv, util-linux)")
}

/// A `kill -9` of the app leaves nothing of its server's tree — the keeper, the server, its child, and a grandchild
/// that left the process group and session — for a normal user (death signals and a subreaper, no privileges).
#[test]
fn app_killed_with_sigkill_leaves_no_process() {
    let (_stage, app, out) = stage_for_nobody();
    let held = out.join("held.txt");
    let mut app = start_app(&app, &out, &held);
    let started = Instant::now();
    let written = loop {
        if let Ok(text) = std::fs::read_to_string(&held)
            && text.ends_with('\n')
        {
            break text;
        }
        assert!(app.try_wait().unwrap().is_none(), "the app exited before it held its server");
        assert!(started.elapsed() < Duration::from_secs(30), "the app never started its server");
        std::thread::sleep(Duration::from_millis(50));
    };
    let fields: Vec<&str> = written.split_whitespace().collect();
    assert_eq!(fields[0], format!("{:?}", Containment::Keeper), "{written}");
    assert_ne!(fields[1], "0", "the app must run as a normal user: {written}");
    let pid = i32::try_from(app.id()).unwrap();
    let tree = loop {
        let tree = descendants(pid);
        let has = |what: &str| tree.iter().any(|p| p.cmdline.contains(what));
        if has("sleep 300") && has("sleep 302") {
            break tree;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the server's tree never grew: {tree:?}");
        std::thread::sleep(Duration::from_millis(20));
    };
    app.kill().unwrap();
    app.wait().unwrap();
    let killed = Instant::now();
    loop {
        let survivors: Vec<&Seen> = tree.iter().filter(|p| still_alive(p)).collect();
        if survivors.is_empty() {
            break;
        }
        if killed.elapsed() > Duration::from_secs(5) {
            let report = format!("{survivors:?}");
            for survivor in survivors {
                let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(survivor.pid), nix::sys::signal::SIGKILL);
            }
            panic!("after kill -9 of the app these outlived it: {report}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!(
        "after kill -9 of the app, its server's tree ({} processes) was gone in {:?}",
        tree.len(),
        killed.elapsed()
    );
}

/// (Helper, a no-op unless run by `app_killed_with_sigkill_leaves_no_process`.) Holds a server until killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn helper_app_holding_a_server() {
    let Some(held) = std::env::var_os(HELD) else { return };
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("server.sh");
    let draft = dir.path().join("server.sh.draft");
    std::fs::write(&draft, SERVER).unwrap();
    std::fs::set_permissions(&draft, std::fs::Permissions::from_mode(0o755)).unwrap();
    copy_executable(&draft, &program);
    let session = connect_stdio_named("held", &StdioLaunch { program, ..StdioLaunch::default() }).await.unwrap();
    let containment = session.launched().unwrap().containment;
    std::fs::write(held, format!("{containment:?} {}\n", nix::unistd::geteuid())).unwrap();
    tokio::time::sleep(Duration::from_secs(60)).await;
}
