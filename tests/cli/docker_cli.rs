//! Docker servers through the `plugboard` command against a real engine (the private one
//! `tests/harness/docker-engine.sh` starts): a `plugboard call` killed with SIGKILL mid-call leaves a container
//! that the next start removes; two Plugboard processes running the same server get distinct containers and
//! neither removes the other's; `status` with an HTTP-only image comes up over HTTP and leaves nothing running; the
//! doctor says what to do when the daemon is down. Each test uses its own tag of the harness's images and removes
//! its containers and that tag, and has the engine to itself meanwhile: every Plugboard start sweeps the whole
//! engine of containers whose process is gone, so another test's start would take the killed call's container
//! before its test could see that it outlived the call.
// The helpers panic on purpose: a failed setup step is the clearest failure report a test can give.
#![allow(clippy::expect_used)]

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Sandbox, stderr, stdout};

const STDIO_IMAGE: &str = "plugboard-test/everything-stdio:1";
const HTTP_IMAGE: &str = "plugboard-test/everything-http:1";

fn docker(args: &[&str]) -> Output {
    assert!(
        std::env::var_os("PLUGBOARD_TEST_DOCKER").is_some(),
        "this test needs the private Docker engine: run it through tests/harness/docker-engine.sh (make test-rust does)"
    );
    Command::new("docker").args(args).output().expect("run docker")
}

/// The containers (running or stopped) carrying `label`.
fn labelled(label: &str) -> Vec<String> {
    let listing = docker(&["ps", "-a", "--filter", &format!("label={label}"), "--format", "{{.Names}}"]);
    stdout(&listing).lines().map(str::to_owned).collect()
}

/// The private engine to this test alone until the returned file is dropped: an exclusive lock on a file beside
/// the engine's socket, so it holds across test processes too (nextest runs each test in its own).
fn engine_to_ourselves() -> std::fs::File {
    let host = std::env::var("PLUGBOARD_TEST_DOCKER").expect("the private engine's DOCKER_HOST");
    let socket = host.strip_prefix("unix://").expect("the private engine listens on a unix socket");
    let dir = std::path::Path::new(socket).parent().expect("the socket's folder");
    let lock = std::fs::File::create(dir.join("cli-tests.lock")).expect("create the engine's lock file");
    lock.lock().expect("lock the engine");
    lock
}

/// A test's own tag of a harness image, with the engine to itself; dropping it removes the containers run from
/// it, then the tag, then lets the next test have the engine.
struct Tagged {
    tag: String,
    _turn: std::fs::File,
}

impl Tagged {
    fn of(base: &str, test: &str) -> Self {
        let turn = engine_to_ourselves();
        let tag = format!("plugboard-test/cli-{test}-{}:1", std::process::id());
        assert!(docker(&["tag", base, &tag]).status.success(), "docker tag {base}");
        Self { tag, _turn: turn }
    }

    fn containers(&self) -> Vec<String> {
        let listing =
            docker(&["ps", "-a", "--filter", &format!("ancestor={}", self.tag), "--format", "{{.Names}}\t{{.Image}}"]);
        stdout(&listing)
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .filter(|(_, image)| *image == self.tag)
            .map(|(name, _)| name.to_owned())
            .collect()
    }
}

impl Drop for Tagged {
    fn drop(&mut self) {
        for name in self.containers() {
            docker(&["rm", "-f", &name]);
        }
        docker(&["rmi", &self.tag]);
    }
}

/// A sandbox with one approved docker server `name` running `image` with `options` before it.
fn sandbox_with(name: &str, image: &Tagged, options: &[&str]) -> Sandbox {
    let sandbox = Sandbox::new();
    let mut add = vec!["add", name, "--", "docker", "run", "-i"];
    add.extend(options);
    add.push(&image.tag);
    let added = sandbox.run(&add);
    assert!(added.status.success(), "add: {}", stderr(&added));
    sandbox.approve_all();
    sandbox
}

/// Polls (≤ `limit`) until `done` holds; panics with `what`.
fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "{what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn long_call(sandbox: &Sandbox, server: &str, seconds: u32) -> std::process::Child {
    let args = format!(r#"{{"duration":{seconds},"steps":{seconds}}}"#);
    sandbox
        .command(&["call", server, "trigger-long-running-operation", "--args", &args])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start plugboard call")
}

/// After `plugboard call` is killed with SIGKILL mid-call, its container outlives it (the daemon keeps it; no
/// `--rm` here, so it stays listed even once it stops); the next start of Plugboard running a container removes
/// it, since its label names a process that is gone.
#[test]
#[ignore = "needs the private Docker engine: make test-rust starts one (tests/harness/docker-engine.sh)"]
fn a_sigkilled_call_leaves_no_container_after_the_next_start() {
    let image = Tagged::of(STDIO_IMAGE, "sigkill");
    let sandbox = sandbox_with("slow", &image, &["--network", "none"]);
    let mut call = long_call(&sandbox, "slow", 60);
    let label = format!("dev.plugboard.pid={}", call.id());
    wait_until(Duration::from_secs(30), "the call's container never appeared", || !labelled(&label).is_empty());
    // Mid-call: the container runs and the call waits for its answer.
    std::thread::sleep(Duration::from_millis(1500));
    call.kill().expect("SIGKILL plugboard call");
    call.wait().expect("reap");
    std::thread::sleep(Duration::from_millis(500));
    assert!(!labelled(&label).is_empty(), "the container should outlive the killed process until the sweep");

    let next = sandbox.run(&["status"]);
    assert!(next.status.success(), "status: {}", stderr(&next));
    assert!(labelled(&label).is_empty(), "the dead process's container is still there: {:?}", labelled(&label));
    assert!(image.containers().is_empty(), "{:?}", image.containers());
}

/// Two Plugboard processes running the same server get two distinct containers, each labelled with its own
/// process; the one that ends first removes only its own, and the other's call still completes.
#[test]
#[ignore = "needs the private Docker engine: make test-rust starts one (tests/harness/docker-engine.sh)"]
fn two_processes_get_distinct_containers_and_keep_their_own() {
    let image = Tagged::of(STDIO_IMAGE, "two");
    let sandbox = sandbox_with("shared", &image, &["--rm", "--network", "none"]);
    let long = long_call(&sandbox, "shared", 8);
    let long_label = format!("dev.plugboard.pid={}", long.id());
    wait_until(Duration::from_secs(30), "the first call's container never appeared", || {
        !labelled(&long_label).is_empty()
    });
    let short = long_call(&sandbox, "shared", 1);
    let short_label = format!("dev.plugboard.pid={}", short.id());
    wait_until(Duration::from_secs(30), "the second call's container never appeared", || {
        !labelled(&short_label).is_empty()
    });
    let (first, second) = (labelled(&long_label), labelled(&short_label));
    assert_ne!(first, second, "each process has its own container");

    let short = short.wait_with_output().expect("second call");
    assert!(short.status.success(), "second call: {}", stderr(&short));
    assert!(labelled(&short_label).is_empty(), "the second process removed its own container");
    assert_eq!(labelled(&long_label), first, "the second process left the first one's container alone");

    let long = long.wait_with_output().expect("first call");
    assert!(long.status.success(), "first call: {}", stderr(&long));
    assert!(stdout(&long).contains("Long running operation completed"), "{}", stdout(&long));
    assert!(image.containers().is_empty(), "{:?}", image.containers());
}

/// `plugboard status` with an HTTP-only image (no transport configured) reports it ready, and when it exits the
/// HTTP container is gone too (it used to be left running: its stdio handshake never completed).
#[test]
#[ignore = "needs the private Docker engine: make test-rust starts one (tests/harness/docker-engine.sh)"]
fn status_with_an_http_only_image_leaves_nothing_running() {
    let image = Tagged::of(HTTP_IMAGE, "status-http");
    let sandbox = sandbox_with("web", &image, &["--rm", "--network", "none"]);
    let status = sandbox.run(&["status"]);
    let text = stdout(&status);
    assert!(status.status.success(), "status: {text}{}", stderr(&status));
    let line = text.lines().find(|l| l.starts_with("web")).unwrap_or_default();
    assert!(line.contains("ready") && line.contains("tool(s)"), "{text}");
    assert!(image.containers().is_empty(), "left running: {:?}", image.containers());
}

/// The doctor walks a docker server's engine and image before starting it, and with the daemon down says so and
/// what to do, without trying to start the container.
#[test]
#[ignore = "needs the private Docker engine: make test-rust starts one (tests/harness/docker-engine.sh)"]
fn the_doctor_says_what_to_do_when_the_daemon_is_down() {
    let image = Tagged::of(STDIO_IMAGE, "doctor");
    let sandbox = sandbox_with("boxed", &image, &["--rm", "--network", "none"]);
    let healthy = sandbox.run(&["doctor", "boxed"]);
    let text = stdout(&healthy);
    assert!(healthy.status.success(), "doctor: {text}{}", stderr(&healthy));
    assert!(text.lines().any(|l| l.starts_with("ok    docker engine")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("ok    image") && l.contains(&image.tag)), "{text}");
    assert!(text.lines().any(|l| l.starts_with("ok    start and handshake")), "{text}");

    let nowhere = tempfile::tempdir().expect("dir");
    let socket = format!("unix://{}/docker.sock", nowhere.path().display());
    let down = sandbox.command(&["doctor", "boxed"]).env("DOCKER_HOST", &socket).output().expect("doctor");
    let text = stdout(&down);
    assert!(!down.status.success(), "a down daemon is a failed step: {text}");
    assert!(text.contains("FAIL  docker engine") && text.contains("not running"), "{text}");
    assert!(text.contains("start Docker Desktop, or the service"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("-     start and handshake")), "not started: {text}");
    assert!(image.containers().is_empty(), "{:?}", image.containers());
}
