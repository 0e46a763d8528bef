//! Docker servers against a real engine (the private one `tests/harness/docker-engine.sh` starts): a stdio image
//! answers a call, an HTTP-only image is found and reached over HTTP without configuration, every container is
//! removed when its session ends, and the sweep removes only containers of Plugboard processes that are gone. Each
//! test uses its own tag of the harness's images and removes its containers and that tag.

use std::time::{Duration, Instant};

use super::{STRONGEST, echo_args};
use crate::testing::{HTTP_IMAGE, STDIO_IMAGE, TestImage, containers, docker_ok};
use crate::transport::stdio::{StdioLaunch, connect_with};

fn run_launch(image: &TestImage, options: &[&str]) -> StdioLaunch {
    let mut args: Vec<String> = ["run", "-i", "--rm"].map(String::from).to_vec();
    args.extend(options.iter().map(|o| (*o).to_owned()));
    args.push(image.tag.clone());
    StdioLaunch { program: "docker".into(), args, ..StdioLaunch::default() }
}

/// Polls (≤ 10 s) until `image` has no container left; panics naming them.
fn assert_no_container(image: &TestImage) {
    let started = Instant::now();
    while !image.containers().is_empty() {
        assert!(started.elapsed() < Duration::from_secs(10), "containers left behind: {:?}", image.containers());
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A stdio image answers a call over the container's stdin/stdout; its container carries Plugboard's name,
/// labels and safe defaults while it runs, and is gone once the session is closed.
#[tokio::test]
#[ignore = "needs the private Docker engine: make test-rust starts one (tests/harness/docker-engine.sh)"]
async fn docker_engine_stdio_image_answers_a_call() {
    let image = TestImage::of(STDIO_IMAGE, "stdio-call");
    let session = connect_with("everything", &run_launch(&image, &["--network", "none"]), STRONGEST).await.unwrap();
    let result = session.call_tool("echo", echo_args("through docker")).await.unwrap();
    assert_eq!(result.content[0].as_text().unwrap().text, "Echo: through docker");
    let name = session.launched().unwrap().docker_container.clone().unwrap();
    assert!(name.starts_with(&format!("plugboard-everything-{}-", std::process::id())), "{name}");
    let format = "{{index .Config.Labels \"dev.plugboard.pid\"}} {{.HostConfig.SecurityOpt}} {{.HostConfig.Memory}} \
                  {{.HostConfig.NanoCpus}} {{.HostConfig.PidsLimit}}";
    let facts = docker_ok(&["inspect", "--format", format, &name]);
    assert_eq!(facts.trim(), format!("{} [no-new-privileges] 1073741824 1000000000 512", std::process::id()));
    session.close().await.unwrap();
    assert!(containers(&format!("name={name}")).is_empty(), "the container outlived its session");
    assert_no_container(&image);
}

/// An image that serves HTTP (server-everything in streamableHttp mode, which ignores stdin) is found from its
/// first output without any transport configured, runs again under a second name on the host's network (the
/// test engine has no bridge) on a free loopback port, and answers over Streamable HTTP; the probe container is
/// gone, and so is the HTTP one after close. The next start goes straight to HTTP (the decision is remembered).
#[tokio::test]
#[ignore = "needs the private Docker engine: make test-rust starts one (tests/harness/docker-engine.sh)"]
async fn docker_engine_http_only_image_is_reached_over_http() {
    let image = TestImage::of(HTTP_IMAGE, "http-only");
    let launch = run_launch(&image, &["--network", "none"]);
    let started = Instant::now();
    let session = connect_with("web", &launch, STRONGEST).await.unwrap();
    let first = started.elapsed();
    assert!(session.server_name().is_some_and(|n| n.contains("everything")), "{:?}", session.server_name());
    let result = session.call_tool("echo", echo_args("over http")).await.unwrap();
    assert_eq!(result.content[0].as_text().unwrap().text, "Echo: over http");
    let running = image.containers();
    assert_eq!(running.len(), 1, "only the HTTP container runs (the probe is gone): {running:?}");
    assert!(running[0].starts_with(&format!("plugboard-web-{}-", std::process::id())), "{running:?}");
    assert!(running[0].ends_with("-http"), "a second, distinct name: {running:?}");
    let network = docker_ok(&["inspect", "--format", "{{.HostConfig.NetworkMode}}", &running[0]]);
    assert_eq!(network.trim(), "host");
    session.close().await.unwrap();
    assert_no_container(&image);

    let again = Instant::now();
    let session = connect_with("web", &launch, STRONGEST).await.unwrap();
    eprintln!("first start (probe, then HTTP) {first:?}; remembered start {:?}", again.elapsed());
    assert_eq!(
        session.call_tool("echo", echo_args("again")).await.unwrap().content[0].as_text().unwrap().text,
        "Echo: again"
    );
    drop(session);
    assert_no_container(&image);
}

/// The start-up sweep removes a labelled container whose Plugboard process is gone, and keeps one whose process
/// runs and one without our label.
#[test]
#[ignore = "needs the private Docker engine: make test-rust starts one (tests/harness/docker-engine.sh)"]
fn docker_engine_sweep_removes_only_containers_of_dead_processes() {
    let image = TestImage::of(STDIO_IMAGE, "sweep");
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let dead_pid = gone.id();
    gone.wait().unwrap();
    let idle = ["/usr/bin/node", "-e", "setInterval(() => {}, 1000)"];
    let start = |name: &str, labels: &[String]| {
        let mut args = vec!["run", "-d", "--network", "none", "--name", name];
        for label in labels {
            args.extend(["--label", label.as_str()]);
        }
        args.push(&image.tag);
        args.extend(idle);
        docker_ok(&args);
    };
    let pid = std::process::id();
    let (orphan, owned, foreign) =
        (format!("sweep-orphan-{pid}"), format!("sweep-owned-{pid}"), format!("sweep-foreign-{pid}"));
    let managed = "dev.plugboard.managed=1".to_owned();
    start(&orphan, &[managed.clone(), format!("dev.plugboard.pid={dead_pid}")]);
    start(&owned, &[managed, format!("dev.plugboard.pid={pid}")]);
    start(&foreign, &[]);
    let report = crate::transport::sweep_docker_leftovers().unwrap();
    assert!(report.removed.contains(&orphan), "{report:?}");
    assert!(report.kept.contains(&owned), "{report:?}");
    assert!(!report.removed.contains(&owned) && !report.removed.contains(&foreign), "{report:?}");
    let left = image.containers();
    assert!(!left.contains(&orphan), "{left:?}");
    assert!(left.contains(&owned) && left.contains(&foreign), "{left:?}");
}
