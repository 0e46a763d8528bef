//! The keeper and its launch against the real `plugboard-keeper` binary: what it starts is exactly the launch
//! written to its stdin (program, arguments, environment, folder), an input that ends first starts nothing, and a
//! server's spawn takes a keeper started ahead for its runtime and speaks MCP through it.

use std::ffi::OsString;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::super::containment::{self, keeper_args, linux_keeper, spawner_caught_up};
use super::super::launch::Launch;
use super::super::warm_keepers::{waiting, warm_keepers};
use super::{STRONGEST, connect_with, echo_args, stub_launch};

fn keeper() -> tokio::process::Command {
    let mut command = tokio::process::Command::new(linux_keeper().expect("cargo builds the keeper beside the tests"));
    command.args(keeper_args()).env_clear().kill_on_drop(true);
    command.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped());
    command
}

/// Starts a keeper, writes `launch` (if any) and closes its stdin; returns its exit status and what was printed.
async fn run_keeper(launch: Option<Launch>) -> (std::process::ExitStatus, String) {
    let mut child = keeper().spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    if let Some(launch) = launch {
        stdin.write_all(&launch.frame().unwrap()).await.unwrap();
    }
    drop(stdin);
    let mut stdout = child.stdout.take().unwrap();
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        let mut printed = String::new();
        stdout.read_to_string(&mut printed).await.unwrap();
        (child.wait().await.unwrap(), printed)
    });
    ended.await.expect("the keeper (and what it started) ended within 5 s")
}

/// The server sees the launch's environment and nothing else (not the keeper's, which is empty, nor the test's),
/// its arguments as written, and the launch's folder.
#[tokio::test]
async fn the_server_gets_exactly_the_launch() {
    let env = Launch {
        program: "/usr/bin/env".into(),
        args: Vec::new(),
        env: vec![("ONLY".into(), "from the launch".into())],
        cwd: None,
    };
    let (status, printed) = run_keeper(Some(env)).await;
    assert!(status.success(), "{status:?}");
    assert_eq!(printed, "ONLY=from the launch\n");

    let dir = tempfile::tempdir().unwrap();
    let folder = Launch {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), "pwd; printf '%s|' \"$@\"".into(), "sh".into(), "two words".into(), "--".into()],
        env: Vec::new(),
        cwd: Some(OsString::from(dir.path())),
    };
    let (status, printed) = run_keeper(Some(folder)).await;
    assert!(status.success(), "{status:?}");
    let canonical = dir.path().canonicalize().unwrap();
    assert_eq!(printed, format!("{}\ntwo words|--|", canonical.display()));
}

/// A keeper whose stdin ends before a launch (a server that was not approved, an app that let it go) exits at once
/// with success, having started nothing; a launch it cannot read is refused.
#[tokio::test]
async fn no_launch_starts_nothing() {
    let (status, printed) = run_keeper(None).await;
    assert!(status.success(), "{status:?}");
    assert!(printed.is_empty(), "{printed}");

    let mut child = keeper().spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&7_u32.to_le_bytes()).await.unwrap();
    stdin.write_all(b"/bin/sh").await.unwrap();
    drop(stdin);
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await.expect("the keeper exits").unwrap();
    assert_eq!(status.code(), Some(127), "a garbled launch is an error");
}

/// A keeper warmed for this runtime is the one a server's spawn takes, and the session through it works.
#[tokio::test]
async fn a_spawn_takes_the_warm_keeper() {
    containment::start_spawner_thread();
    let runtime = tokio::runtime::Handle::current().id();
    warm_keepers(1);
    spawner_caught_up();
    assert_eq!(waiting(runtime), 1);
    let dir = tempfile::tempdir().unwrap();
    let session = connect_with("stub", &stub_launch(dir.path(), &[]), STRONGEST).await.unwrap();
    assert_eq!(waiting(runtime), 0, "the spawn took the warm keeper");
    let result = session.call_tool("echo", echo_args("through a warm keeper")).await.unwrap();
    assert_eq!(result.content[0].as_text().unwrap().text, "Echo: through a warm keeper");
    let (closed, _) = session.close_with_report().await;
    closed.unwrap();
}

/// The app's children that are keepers, and not yet reaped or dead.
fn live_keepers_of(app: u32) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some(after) = stat.rfind(')').map(|at| &stat[at + 2..]) else { continue };
        let mut fields = after.split_whitespace();
        let (state, parent) = (fields.next(), fields.next().and_then(|p| p.parse::<u32>().ok()));
        if stat.contains("(plugboard-keepe") && state != Some("Z") && parent == Some(app) {
            found.push(pid);
        }
    }
    found
}

fn gone(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_or(true, |stat| stat.rfind(')').and_then(|at| stat[at + 2..].split_whitespace().next()) == Some("Z"))
}

/// Keepers started ahead and never given a launch go with their app, even when it dies of `kill -9`: their stdin
/// closes with it (the parent-death signal is blocked while they wait).
#[test]
fn warm_keepers_go_with_their_app() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ready.txt");
    let mut app = super::run_helper("keeper_launch::helper_app_with_warm_keepers", &[], &out);
    let started = std::time::Instant::now();
    let keepers = loop {
        let keepers = live_keepers_of(app.id());
        if out.exists() && keepers.len() == 2 {
            break keepers;
        }
        assert!(app.try_wait().unwrap().is_none(), "the app exited before it warmed its keepers");
        assert!(started.elapsed() < Duration::from_secs(30), "the keepers never started: {keepers:?}");
        std::thread::sleep(Duration::from_millis(20));
    };
    app.kill().unwrap();
    app.wait().unwrap();
    let killed = std::time::Instant::now();
    while !keepers.iter().all(|pid| gone(*pid)) {
        assert!(killed.elapsed() < Duration::from_secs(5), "warm keepers outlived their app: {keepers:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// (Helper, a no-op unless run by `warm_keepers_go_with_their_app`.) Warms two keepers and waits to be killed.
#[tokio::test]
async fn helper_app_with_warm_keepers() {
    let Some(out) = std::env::var_os(crate::testing::CHILD_OUT) else { return };
    containment::start_spawner_thread();
    warm_keepers(2);
    spawner_caught_up();
    std::fs::write(out, "ready").unwrap();
    tokio::time::sleep(Duration::from_secs(60)).await;
}

/// A Plugboard that ran through an upgrade starts the new keeper the old way (the command on its command line): the
/// keeper runs none of it and says what to do.
#[tokio::test]
async fn an_old_command_line_is_refused_with_what_to_do() {
    let keeper = linux_keeper().expect("cargo builds the keeper beside the tests");
    let mut args = keeper_args();
    args.extend(["--".into(), "/usr/bin/touch".into(), "ran".into()]);
    let dir = tempfile::tempdir().unwrap();
    let out = tokio::process::Command::new(keeper).args(args).current_dir(dir.path()).output().await.unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("restart Plugboard"), "{out:?}");
    assert!(!dir.path().join("ran").exists(), "the old command line was run");
}
