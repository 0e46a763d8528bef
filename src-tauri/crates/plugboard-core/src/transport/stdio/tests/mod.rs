//! Behaviour of stdio launching against real processes: process-group shutdown in every way a session can end,
//! the minimal environment, bounded stderr, Docker clean-up (with a stand-in `docker`), PATH resolution. Tests
//! must never leave a process behind: each one checks the group it started is empty.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::containment::ContainmentPolicy;
use super::stderr_tail::{MAX_BYTES, MAX_LINES, StderrTail};
use super::{SpawnOptions, StdioLaunch, connect_with, docker, env, path_resolution, spawn_server};
use crate::testing::CHILD_OUT as HELPER;
use crate::transport::TransportError;

/// A stand-in MCP server in bash: answers initialize, tools/list, tools/call (echo) and nothing else. Flags:
/// `--grandchild` starts `sleep 300 &` (holding stdout/stderr open), `--exit-after-init` exits once initialized,
/// `--ignore-term` ignores SIGTERM (inherited by its sleep) and stdin EOF, `--banner` prints a non-JSON line first.
const STUB_SERVER: &str = r#"#!/bin/bash
for a in "$@"; do case "$a" in
  --grandchild) grandchild=1;; --exit-after-init) exit_after_init=1;; --ignore-term) ignore_term=1;;
  --banner) echo "stub server starting (not JSON)";;
  --exit-on-unknown) exit_on_unknown=1;;
esac; done
[ -n "$ignore_term" ] && trap '' TERM
[ -n "$grandchild" ] && { sleep 300 & }
echo "stub: ready" >&2
while IFS= read -r line; do
  id=; [[ $line =~ \"id\":([0-9]+) ]] && id=${BASH_REMATCH[1]}
  case "$line" in
    *'"method":"initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"stub","version":"1.0"}}}\n' "$id";;
    *'"method":"notifications/initialized"'*)
      [ -n "$exit_after_init" ] && { echo "stub: exiting early" >&2; exit 3; };;
    *'"method":"tools/list"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}\n' "$id";;
    *'"method":"tools/call"'*)
      msg=; [[ $line =~ \"message\":\"([^\"]*)\" ]] && msg=${BASH_REMATCH[1]}
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"Echo: %s"}]}}\n' "$id" "$msg";;
    *) [ -n "$exit_on_unknown" ] && { echo "stub: unknown request, exiting" >&2; exit 4; }
       [ -n "$id" ] && printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"unknown"}}\n' "$id";;
  esac
done
echo "stub: stdin closed" >&2
[ -n "$ignore_term" ] && while :; do sleep 1; done
exit 0
"#;

const GROUP_ONLY: SpawnOptions = SpawnOptions { containment: ContainmentPolicy::ProcessGroupOnly };
const STRONGEST: SpawnOptions = SpawnOptions { containment: ContainmentPolicy::Strongest };

fn write_script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    crate::testing::write_executable(&path, body);
    path
}

fn stub_launch(dir: &Path, flags: &[&str]) -> StdioLaunch {
    let program = write_script(dir, "stub-server.sh", STUB_SERVER);
    StdioLaunch { program, args: flags.iter().map(|f| f.to_string()).collect(), ..StdioLaunch::default() }
}

/// Live (non-zombie) members of process group `pgid`, read from /proc independently of the guard's own check.
fn live_members(pgid: i32) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let Some(close) = stat.rfind(')') else { continue };
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        if fields.len() > 2 && fields[2] == pgid.to_string() && fields[0] != "Z" {
            let cmd = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            found.push(format!(
                "{} {}",
                entry.file_name().to_string_lossy(),
                String::from_utf8_lossy(&cmd).replace('\0', " ").trim()
            ));
        }
    }
    found
}

/// Polls (≤ 5 s) until group `pgid` has no live member; panics naming the survivors.
fn assert_group_gone(pgid: i32) -> Duration {
    let started = Instant::now();
    loop {
        let members = live_members(pgid);
        if members.is_empty() {
            return started.elapsed();
        }
        assert!(started.elapsed() < Duration::from_secs(5), "survivors of group {pgid}: {members:?}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

fn assert_grandchild_running(pgid: i32) {
    let started = Instant::now();
    while !live_members(pgid).iter().any(|m| m.contains("sleep")) {
        assert!(started.elapsed() < Duration::from_secs(5), "the grandchild never started: {:?}", live_members(pgid));
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn echo_args(message: &str) -> rmcp::model::JsonObject {
    serde_json::json!({ "message": message }).as_object().cloned().unwrap()
}

/// close() stops the server and its `sleep 300 &` grandchild, with and without the namespace wrapper.
#[tokio::test]
async fn close_leaves_no_process_of_the_group() {
    for options in [GROUP_ONLY, STRONGEST] {
        let dir = tempfile::tempdir().unwrap();
        let session = connect_with("stub", &stub_launch(dir.path(), &["--grandchild"]), options).await.unwrap();
        let pgid = session.pgid().unwrap();
        assert_grandchild_running(pgid);
        let result = session.call_tool("echo", echo_args("hi")).await.unwrap();
        assert_eq!(result.content[0].as_text().unwrap().text, "Echo: hi");
        let (closed, report) = session.close_with_report().await;
        closed.unwrap();
        let report = report.unwrap();
        // The stub exits on EOF; its grandchild does not, so the group needs SIGTERM right after the leader exits.
        eprintln!("{options:?}: close took {:?}, stage {:?}", report.elapsed, report.stage);
        assert!(report.elapsed < Duration::from_millis(2500), "{report:?}");
        assert_group_gone(pgid);
    }
}

/// Dropping the session (no close) stops the whole group synchronously, before drop returns.
#[tokio::test]
async fn drop_leaves_no_process_of_the_group() {
    for options in [GROUP_ONLY, STRONGEST] {
        let dir = tempfile::tempdir().unwrap();
        let session = connect_with("stub", &stub_launch(dir.path(), &["--grandchild"]), options).await.unwrap();
        let pgid = session.pgid().unwrap();
        assert_grandchild_running(pgid);
        let started = Instant::now();
        drop(session);
        let took = started.elapsed();
        eprintln!("{options:?}: drop took {took:?}");
        // Drop blocks its thread, so its grace is short (a namespace's PID 1 ignores SIGTERM without a handler).
        assert!(took < Duration::from_millis(800), "{took:?}");
        // Synchronous: nothing is left the moment drop returns (no tokio task needed).
        assert!(live_members(pgid).is_empty(), "{:?}", live_members(pgid));
    }
}

/// When the leader exits first, its grandchild (still holding stdout) is found and stopped by close and by drop.
#[tokio::test]
async fn leader_exiting_first_leaves_no_grandchild() {
    for use_close in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let launch = stub_launch(dir.path(), &["--grandchild", "--exit-after-init"]);
        let session = connect_with("stub", &launch, GROUP_ONLY).await.unwrap();
        let pgid = session.pgid().unwrap();
        let started = Instant::now();
        while !session.is_closed() {
            assert!(started.elapsed() < Duration::from_secs(5), "the session never noticed the leader exited");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // The grandchild outlived its parent: this is the case rmcp alone leaves behind.
        assert!(live_members(pgid).iter().any(|m| m.contains("sleep 300")), "{:?}", live_members(pgid));
        // The stderr drain runs concurrently: its last line may arrive just after the exit is noticed.
        while !session.stderr_tail().is_some_and(|t| t.contains("stub: exiting early")) {
            assert!(started.elapsed() < Duration::from_secs(5), "{:?}", session.stderr_tail());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if use_close {
            session.close().await.unwrap();
        } else {
            drop(session);
        }
        assert_group_gone(pgid);
    }
}

/// A panic in the task that owns the session still stops the group (the guard runs during unwinding).
#[tokio::test]
async fn panicking_owner_task_leaves_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let launch = stub_launch(dir.path(), &["--grandchild"]);
    let (tx, rx) = tokio::sync::oneshot::channel();
    let owner = tokio::spawn(async move {
        let session = connect_with("stub", &launch, GROUP_ONLY).await.unwrap();
        assert_grandchild_running(session.pgid().unwrap());
        tx.send(session.pgid().unwrap()).unwrap();
        panic!("the owning task panics on purpose");
    });
    assert!(owner.await.unwrap_err().is_panic());
    assert_group_gone(rx.await.unwrap());
}

/// A server that ignores stdin EOF and SIGTERM (and whose child ignores SIGTERM too) is SIGKILLed within the grace.
#[tokio::test]
async fn term_ignoring_server_is_killed_within_the_grace() {
    let dir = tempfile::tempdir().unwrap();
    let launch = stub_launch(dir.path(), &["--grandchild", "--ignore-term"]);
    let session = connect_with("stub", &launch, GROUP_ONLY).await.unwrap();
    let pgid = session.pgid().unwrap();
    let (closed, report) = session.close_with_report().await;
    closed.unwrap();
    let report = report.unwrap();
    eprintln!("ignoring server: close took {:?}, stage {:?}", report.elapsed, report.stage);
    assert_eq!(report.stage, super::ShutdownStage::Killed);
    // 2 s EOF grace + 1 s TERM grace, plus a little.
    assert!(report.elapsed < Duration::from_millis(3600), "{report:?}");
    assert!(report.elapsed >= Duration::from_secs(3), "{report:?}");
    assert_group_gone(pgid);
}

/// A server of the earlier era that exits at the `server/discover` probe (a request it does not know, before
/// `initialize`) is started once more and opened with `initialize`, as it was before there was a probe.
#[tokio::test]
async fn a_server_that_exits_at_the_probe_is_opened_with_initialize() {
    let dir = tempfile::tempdir().unwrap();
    let session = connect_with("stub", &stub_launch(dir.path(), &["--exit-on-unknown"]), GROUP_ONLY).await.unwrap();
    assert_eq!(session.protocol_version().as_deref(), Some("2025-11-25"));
    assert_eq!(session.list_tools().await.unwrap().len(), 1);
    session.close().await.unwrap();
}

/// A non-JSON banner on stdout does not break the session (rmcp skips unparsable lines).
#[tokio::test]
async fn stdout_banner_is_tolerated() {
    let dir = tempfile::tempdir().unwrap();
    let session = connect_with("stub", &stub_launch(dir.path(), &["--banner"]), GROUP_ONLY).await.unwrap();
    assert_eq!(session.list_tools().await.unwrap().len(), 1);
    let pgid = session.pgid().unwrap();
    session.close().await.unwrap();
    assert_group_gone(pgid);
}

/// A server that exits during start-up fails the connect as a transient StartupFailed whose stderr tail holds its
/// last lines, in order, apart from the message.
#[tokio::test]
async fn startup_crash_shows_the_stderr_tail() {
    let dir = tempfile::tempdir().unwrap();
    let script = "#!/bin/sh\necho 'loading config' >&2\necho 'fatal: MISSING_API_KEY is not set' >&2\nexit 1\n";
    let program = write_script(dir.path(), "crash.sh", script);
    let launch = StdioLaunch { program, ..StdioLaunch::default() };
    let err = connect_with("crash", &launch, STRONGEST).await.err().unwrap();
    assert!(matches!(err, TransportError::StartupFailed { .. }), "{err}");
    assert_eq!(err.stderr_tail().unwrap().trim_end(), "loading config\nfatal: MISSING_API_KEY is not set");
    assert!(!err.to_string().contains("MISSING_API_KEY"), "the tail is not repeated in the message: {err}");
    assert!(err.is_transient());
}

/// An unknown command is a Spawn error naming the program and how many folders of PATH were searched (never the
/// whole PATH), with what to install; not transient.
#[tokio::test]
async fn command_not_found_names_program_and_path() {
    let env = BTreeMap::from([("PATH".to_owned(), "/nonexistent/one:/nonexistent/two".to_owned())]);
    let launch = StdioLaunch { program: "plugboard-no-such-command".into(), env, ..StdioLaunch::default() };
    let err = connect_with("x", &launch, STRONGEST).await.err().unwrap();
    let text = err.to_string();
    assert!(matches!(err, TransportError::Spawn { .. }), "{text}");
    assert!(text.contains("plugboard-no-such-command") && text.contains("the 2 folders of PATH"), "{text}");
    assert!(!text.contains("/nonexistent/one"), "the PATH is not dumped: {text}");
    assert!(text.contains("write its full path in \"command\""), "{text}");
    assert!(!err.is_transient());
}

/// A path to a file that is not executable is a clear Spawn error (PermissionDenied), not a hang.
#[tokio::test]
async fn non_executable_program_is_a_spawn_error() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("server.js");
    std::fs::write(&program, "console.log(1)").unwrap();
    let err = connect_with("x", &StdioLaunch { program, ..StdioLaunch::default() }, STRONGEST).await.err().unwrap();
    match &err {
        TransportError::Spawn { source, .. } => assert_eq!(source.kind(), std::io::ErrorKind::PermissionDenied),
        other => panic!("{other}"),
    }
    assert!(err.to_string().contains("server.js is not an executable file"), "{err}");
}

/// The environment is the allowlist plus the configured variables: a parent-only secret never reaches the child.
#[test]
fn child_environment_is_minimal() {
    let parent = [
        ("HOME", "/home/me"),
        ("PATH", "/usr/bin"),
        ("LC_ALL", "C.UTF-8"),
        ("PLUGBOARD_TEST_CANARY_SECRET", "leak"),
        ("AWS_SECRET_ACCESS_KEY", "leak"),
        ("TERM", "() { :; }; echo shellshock"),
    ]
    .map(|(k, v)| (OsString::from(k), OsString::from(v)));
    let configured = BTreeMap::from([("API_TOKEN".to_owned(), "configured".to_owned())]);
    let env: BTreeMap<_, _> = env::child_environment(parent, "/login/bin:/usr/bin".as_ref(), &configured)
        .into_iter()
        .map(|(k, v)| (k.into_string().unwrap(), v.into_string().unwrap()))
        .collect();
    let expected =
        [("API_TOKEN", "configured"), ("HOME", "/home/me"), ("LC_ALL", "C.UTF-8"), ("PATH", "/login/bin:/usr/bin")]
            .map(|(k, v)| (k.to_owned(), v.to_owned()));
    assert_eq!(env, BTreeMap::from(expected));
}

/// Runs one helper test of this binary in a child process with `env`; it writes its findings to a file.
fn run_helper(name: &str, env: &[(&str, &str)], out: &Path) -> std::process::Child {
    crate::testing::alone(&format!("transport::stdio::tests::{name}"), out).envs(env.iter().copied()).spawn().unwrap()
}

/// A real child does not see a variable of Plugboard's own environment, and does see PATH, HOME and its config.
#[test]
fn real_child_does_not_inherit_parent_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("env.txt");
    let secret = [("PLUGBOARD_TEST_CANARY_SECRET", "canary-value-1234")];
    let status = run_helper("helper_child_env_printer", &secret, &out).wait().unwrap();
    assert!(status.success());
    let printed = std::fs::read_to_string(&out).unwrap();
    assert!(!printed.contains("canary-value-1234") && !printed.contains("CANARY"), "{printed}");
    assert!(!printed.contains(HELPER), "{printed}");
    assert!(printed.contains("PLUGBOARD_CONFIGURED=yes"), "{printed}");
    assert!(printed.lines().any(|l| l.starts_with("PATH=/")), "{printed}");
    assert!(printed.lines().any(|l| l.starts_with("HOME=")), "{printed}");
}

/// (Helper, a no-op unless run by `real_child_does_not_inherit_parent_secrets`.) Launches `env` and saves its output.
#[tokio::test]
async fn helper_child_env_printer() {
    let Some(out) = std::env::var_os(HELPER) else { return };
    let dir = tempfile::tempdir().unwrap();
    let program = write_script(dir.path(), "print-env.sh", "#!/bin/sh\nenv >&2\n");
    let env = BTreeMap::from([("PLUGBOARD_CONFIGURED".to_owned(), "yes".to_owned())]);
    let spawned =
        spawn_server("env", &StdioLaunch { program, env, ..StdioLaunch::default() }, STRONGEST).await.unwrap();
    spawned.process.stderr().drained(Duration::from_secs(5)).await;
    spawned.process.shutdown().await;
    std::fs::write(out, spawned.process.stderr().snapshot()).unwrap();
}

mod docker_engine;
#[cfg(target_os = "linux")]
mod keeper_launch;
mod login_path;
mod output;
