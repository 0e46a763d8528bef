//! Tests of what a server process writes: the bounded stderr tail, and the docker stand-in's recorded calls.

use super::*;

fn vm_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// 20 MB of stderr, as lines or as one line without a newline, keeps the tail and our memory bounded. The flood is
/// read in a child process running only it: RSS is the whole process's, and the other tests' buffers would count.
#[test]
fn stderr_flood_keeps_memory_bounded() {
    let findings = crate::testing::findings("transport::stdio::tests::output::stderr_flood_alone");
    for line in findings.lines() {
        let (what, grown) = line.split_once('=').expect("what=KiB");
        let grown: u64 = grown.parse().expect("KiB");
        eprintln!("{what}: RSS grew {grown} KiB");
        // Had the 20 MB been kept, RSS would have grown by ≥ 19 MiB.
        assert!(grown < 8 * 1024, "{what}: RSS grew {grown} KiB");
    }
    assert_eq!(findings.lines().count(), 2, "both floods measured: {findings}");
}

/// (Run alone by `stderr_flood_keeps_memory_bounded`; does nothing otherwise.) Floods stderr both ways, checks the
/// tail and writes each flood's RSS growth.
#[tokio::test]
async fn stderr_flood_alone() {
    let Some(out) = std::env::var_os(crate::testing::CHILD_OUT) else { return };
    let floods = [
        (
            "lines",
            "#!/bin/bash\nyes 'a line of stderr flood output, roughly fifty bytes' | head -c 20000000 >&2\necho LAST LINE >&2\n",
        ),
        ("one line", "#!/bin/bash\nhead -c 20000000 /dev/zero | tr '\\0' 'x' >&2\nprintf END >&2\n"),
    ];
    // A first server warms up what every spawn shares (the blocking pool's threads, the login PATH's lookup), so
    // the floods' figures are what the flood costs, not what the first spawn in a process does.
    let dir = tempfile::tempdir().unwrap();
    let quiet = write_script(dir.path(), "quiet.sh", "#!/bin/bash\necho warm >&2\n");
    let warm =
        spawn_server("warm", &StdioLaunch { program: quiet, ..StdioLaunch::default() }, GROUP_ONLY).await.unwrap();
    warm.process.stderr().drained(Duration::from_secs(60)).await;
    warm.process.shutdown().await;
    let mut findings = String::new();
    for (what, script) in floods {
        let dir = tempfile::tempdir().unwrap();
        let program = write_script(dir.path(), "flood.sh", script);
        let before = vm_rss_kib();
        let spawned =
            spawn_server("flood", &StdioLaunch { program, ..StdioLaunch::default() }, GROUP_ONLY).await.unwrap();
        spawned.process.stderr().drained(Duration::from_secs(60)).await;
        spawned.process.shutdown().await;
        let tail = spawned.process.stderr().snapshot();
        let grown = vm_rss_kib().saturating_sub(before);
        assert!(tail.len() <= MAX_BYTES + 200, "{}", tail.len());
        assert!(tail.lines().count() <= MAX_LINES + 1);
        assert!(tail.ends_with("LAST LINE") || tail.ends_with("xxxEND"), "{}", &tail[tail.len() - 40..]);
        assert!(tail.starts_with("[… earlier output not shown"));
        findings.push_str(&format!("{what}={grown}\n"));
    }
    std::fs::write(out, findings).unwrap();
}

/// The ring keeps whole last lines (≤ 200), cuts a fragment at the front, and never splits a UTF-8 character.
#[test]
fn stderr_ring_keeps_last_whole_lines() {
    let (tail, push) = StderrTail::detached();
    assert!(tail.is_empty());
    for i in 0..1000 {
        push(format!("line {i}\n").as_bytes());
    }
    let snapshot = tail.snapshot();
    let lines: Vec<&str> = snapshot.lines().collect();
    assert_eq!(lines.len(), MAX_LINES + 1);
    assert_eq!(lines[1], "line 800");
    assert_eq!(lines[MAX_LINES], "line 999");

    let (tail, push) = StderrTail::detached();
    push("é".repeat(MAX_BYTES).as_bytes());
    let snapshot = tail.snapshot();
    assert!(!snapshot.contains('\u{FFFD}'));
    assert!(snapshot.len() <= MAX_BYTES + 100);
}

/// The stand-in `docker` (a script recording its argv) sees `run --name plugboard-… --label …` with the safe
/// defaults and, on close, `rm -f` of the same name: killing the docker client alone would leave the container
/// running. (Beside them it may be asked which ports the image exposes, for the HTTP probe.)
#[tokio::test]
async fn docker_stand_in_gets_name_label_and_rm_on_close() {
    let dir = tempfile::tempdir().unwrap();
    let (log, env) = fake_docker(dir.path());
    let args = ["run", "-i", "--rm", "-e", "TOKEN", "mcp/stub:1"].map(String::from).to_vec();
    let launch = StdioLaunch { program: "docker".into(), args, env, cwd: None };
    let session = connect_with("files", &launch, STRONGEST).await.unwrap();
    let name = session.launched().unwrap().docker_container.clone().unwrap();
    let pid = std::process::id();
    assert!(name.starts_with(&format!("plugboard-files-{pid}-")), "{name}");
    assert_eq!(session.launched().unwrap().resolved_program, dir.path().join("bin/docker"));
    session.close().await.unwrap();
    let recorded = std::fs::read_to_string(&log).unwrap();
    let expected_run = format!(
        "run --name {name} --label dev.plugboard.managed=1 --label dev.plugboard.pid={pid} \
         --security-opt no-new-privileges --memory 1g --cpus 1 --pids-limit 512 -i --rm -e TOKEN mcp/stub:1"
    );
    let (inspected, calls): (Vec<&str>, Vec<&str>) = recorded.lines().partition(|l| l.starts_with("image inspect"));
    assert_eq!(calls, [expected_run, format!("rm -f {name}")]);
    // The image's ports are asked for on a blocking thread beside the handshake, which may win the race (a loaded
    // machine's CI run saw it win before the question was even asked): asked at most once, and only that.
    assert!(
        inspected.iter().all(|l| *l == "image inspect --format {{json .Config.ExposedPorts}} mcp/stub:1")
            && inspected.len() <= 1,
        "{inspected:?}"
    );
}

/// A `--name` the person set is kept (no second name) and is what gets removed, also when the session is dropped.
#[tokio::test]
async fn docker_stand_in_keeps_the_persons_name_and_removes_it_on_drop() {
    let dir = tempfile::tempdir().unwrap();
    let (log, env) = fake_docker(dir.path());
    let args = ["run", "-i", "--name=my-box", "mcp/stub:1"].map(String::from).to_vec();
    let launch = StdioLaunch { program: "docker".into(), args, env, cwd: None };
    let session = connect_with("files", &launch, STRONGEST).await.unwrap();
    drop(session);
    let started = Instant::now();
    loop {
        let recorded = std::fs::read_to_string(&log).unwrap();
        if recorded.lines().any(|l| l == "rm -f my-box") {
            assert!(!recorded.contains("--name plugboard-"), "{recorded}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "no rm -f after drop: {recorded}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The sweep removes labelled containers whose Plugboard process is gone, and keeps live or unlabelled ones.
#[test]
fn docker_sweep_with_stand_in_removes_only_orphans() {
    let dir = tempfile::tempdir().unwrap();
    let (log, env) = fake_docker(dir.path());
    let env: Vec<(OsString, OsString)> = env.into_iter().map(|(k, v)| (k.into(), v.into())).collect();
    let report = docker::sweep_with(&dir.path().join("bin/docker"), &env, |pid| pid == 4242).unwrap();
    assert_eq!(report.removed, ["plugboard-gone-1111-0"]);
    assert_eq!(report.kept, ["plugboard-live-4242-0", "unlabelled"]);
    let recorded = std::fs::read_to_string(&log).unwrap();
    let calls: Vec<&str> = recorded.lines().collect();
    assert!(calls[0].starts_with("ps -a --filter label=dev.plugboard.managed=1 --format"), "{calls:?}");
    assert_eq!(calls[1], "rm -f plugboard-gone-1111-0");
}

/// A stand-in for the docker CLI (no engine runs here): it appends its argv to a log, plays the container with the
/// stub MCP server on `run`, lists three containers on `ps`. Returns the log and a launch env putting it on PATH.
fn fake_docker(dir: &Path) -> (PathBuf, BTreeMap<String, String>) {
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    let server = write_script(dir, "stub-server.sh", STUB_SERVER);
    let script = r#"#!/bin/bash
# Stand-in docker for tests: records argv, never talks to an engine.
printf '%s\n' "$*" >> "$FAKE_DOCKER_LOG"
case "$1" in
  run) exec "$FAKE_DOCKER_SERVER";;
  ps) printf 'plugboard-gone-1111-0\t1111\nplugboard-live-4242-0\t4242\nunlabelled\t\n';;
esac
exit 0
"#;
    write_script(&bin, "docker", script);
    let log = dir.join("docker-argv.log");
    let env = BTreeMap::from([
        ("PATH".to_owned(), format!("{}:/usr/bin:/bin", bin.display())),
        ("FAKE_DOCKER_LOG".to_owned(), log.display().to_string()),
        ("FAKE_DOCKER_SERVER".to_owned(), server.display().to_string()),
    ]);
    (log, env)
}

/// `docker run` planning: only `docker run`, name inserted unless given (also `--name=`), flag values skipped.
#[test]
fn docker_run_planning() {
    let plan = |program: &str, args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        docker::plan_run(Path::new(program), &args, "my server/1", 7)
    };
    assert_eq!(plan("/usr/bin/node", &["run"]), None);
    assert_eq!(plan("/usr/bin/docker", &["ps"]), None);
    let planned = plan("/usr/bin/docker", &["run", "-it", "img", "--name", "server-arg"]).unwrap();
    assert!(planned.container.starts_with("plugboard-my-server-1-7-"), "{}", planned.container);
    assert_eq!(planned.args[1..3], ["--name".to_owned(), planned.container.clone()]);
    assert_eq!(plan("/usr/bin/docker", &["run", "-e", "X", "--name", "mine", "img"]).unwrap().container, "mine");
    assert_eq!(plan("/usr/bin/docker", &["run", "--name=mine", "img"]).unwrap().container, "mine");
}

/// A program only the login shell's PATH contains (set in ~/.bash_profile) is found; the app's PATH alone would not.
#[test]
fn login_shell_path_finds_what_only_the_profile_adds() {
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join("login-only-bin");
    std::fs::create_dir(&bin).unwrap();
    let tool = write_script(&bin, "plugboard-login-only-tool", "#!/bin/sh\n");
    let profile = "echo 'Welcome banner from .bash_profile'\nexport PATH=\"$HOME/login-only-bin:$PATH\"\n";
    std::fs::write(home.path().join(".bash_profile"), profile).unwrap();
    let env = [("HOME", home.path().to_str().unwrap()), ("PATH", "/usr/bin:/bin"), ("SHELL", "/bin/bash")]
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
    let login = path_resolution::query_login_path(Path::new("/bin/bash"), &env, Duration::from_secs(5)).unwrap();
    // The profile's line comes first; /etc/profile may have rewritten the rest (Debian does).
    assert!(login.to_str().unwrap().starts_with(&format!("{}:", bin.display())), "{login:?}");
    assert!(!login.to_str().unwrap().contains("Welcome"), "{login:?}");
    let program = Path::new("plugboard-login-only-tool");
    assert_eq!(path_resolution::resolve_program(program, &login, None).unwrap(), tool);
    assert!(path_resolution::resolve_program(program, "/usr/bin:/bin".as_ref(), None).is_err());
}

/// A login shell whose profile hangs is abandoned at the timeout (and killed), so launching falls back.
#[test]
fn hanging_login_shell_times_out() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join(".bash_profile"), "sleep 30\n").unwrap();
    let env = [("HOME", home.path().to_str().unwrap()), ("PATH", "/usr/bin:/bin")]
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
    let started = Instant::now();
    assert_eq!(path_resolution::query_login_path(Path::new("/bin/bash"), &env, Duration::from_millis(300)), None);
    assert!(started.elapsed() < Duration::from_secs(2));
}

/// Paths with a separator are used as is (relative ones against the launch's cwd); bare names search PATH only.
#[test]
fn program_resolution_rules() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "server.sh", "#!/bin/sh\n");
    let found = path_resolution::resolve_program(Path::new("./server.sh"), "".as_ref(), Some(dir.path())).unwrap();
    assert_eq!(found, dir.path().join("./server.sh"));
    assert_eq!(path_resolution::resolve_program(&script, "".as_ref(), None).unwrap(), script);
    // A bare name is never looked up in the cwd, even if a file of that name is there.
    assert!(path_resolution::resolve_program(Path::new("server.sh"), ".".as_ref(), Some(dir.path())).is_err());
}

/// On Windows, `npx` must become `npx.cmd` (never the extensionless shell script npm installs beside it).
#[test]
fn windows_candidates_follow_pathext() {
    let names = path_resolution::windows_candidates("npx".as_ref(), Some(".COM;.EXE;.BAT;.CMD".as_ref()));
    assert_eq!(names, ["npx.com", "npx.exe", "npx.bat", "npx.cmd"].map(OsString::from));
    assert_eq!(path_resolution::windows_candidates("node.exe".as_ref(), None), [OsString::from("node.exe")]);
}

/// The `Debug` of a launch shows no argument or env value (they may hold expanded secrets).
#[test]
fn launch_debug_redacts_values() {
    let launch = StdioLaunch {
        program: "npx".into(),
        args: vec!["--token=s3cret".into()],
        env: BTreeMap::from([("API_KEY".to_owned(), "s3cret".to_owned())]),
        cwd: None,
    };
    let printed = format!("{launch:?}");
    assert!(!printed.contains("s3cret") && printed.contains("API_KEY"), "{printed}");
}

fn server_everything() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/node_modules/.bin/mcp-server-everything")
}

/// The reference server (node, via its npm bin): connect, echo, close, and nothing of its group survives.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn server_everything_echoes_and_leaves_no_process() {
    for options in [STRONGEST, GROUP_ONLY] {
        let launch = StdioLaunch { program: server_everything(), args: vec!["stdio".into()], ..StdioLaunch::default() };
        let started = Instant::now();
        let session = connect_with("everything", &launch, options).await.unwrap();
        let connected_in = started.elapsed();
        let pgid = session.pgid().unwrap();
        let result = session.call_tool("echo", echo_args("hello from plugboard")).await.unwrap();
        assert_eq!(result.content[0].as_text().unwrap().text, "Echo: hello from plugboard");
        let (closed, report) = session.close_with_report().await;
        closed.unwrap();
        let report = report.unwrap();
        eprintln!("server-everything {options:?}: connected in {connected_in:?}; close {report:?}");
        assert_group_gone(pgid);
    }
}
