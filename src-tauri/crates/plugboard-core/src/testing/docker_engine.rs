//! For tests: the private Docker engine `tests/harness/docker-engine.sh` starts (DOCKER_HOST points at it) and the
//! images it loads. A test takes its own tag of an image and, when done, removes every container made from it and
//! the tag: it must never leave a container or an image behind, nor touch another engine.

use std::process::{Command, Output};

/// The harness's images: server-everything over stdio, and the same in streamableHttp mode (port 3001 exposed).
pub const STDIO_IMAGE: &str = "plugboard-test/everything-stdio:1";
pub const HTTP_IMAGE: &str = "plugboard-test/everything-http:1";

/// `docker args` against the test engine; panics (naming the harness) when there is none.
pub fn docker(args: &[&str]) -> Output {
    assert!(
        std::env::var_os("PLUGBOARD_TEST_DOCKER").is_some(),
        "this test needs the private Docker engine: run it through tests/harness/docker-engine.sh (make test-rust does)"
    );
    Command::new("docker").args(args).output().expect("run docker")
}

/// `docker args`, which must succeed; its stdout.
pub fn docker_ok(args: &[&str]) -> String {
    let output = docker(args);
    assert!(output.status.success(), "docker {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The names of the containers (running or not) `docker ps -a --filter <filter>` lists.
pub fn containers(filter: &str) -> Vec<String> {
    docker_ok(&["ps", "-a", "--filter", filter, "--format", "{{.Names}}"]).lines().map(str::to_owned).collect()
}

/// A test's own tag of a harness image; dropping it removes its containers, then the tag.
pub struct TestImage {
    pub tag: String,
}

impl TestImage {
    /// Tags `base` as `plugboard-test/<test>-<pid>:1`.
    pub fn of(base: &str, test: &str) -> Self {
        let tag = format!("plugboard-test/{test}-{}:1", std::process::id());
        docker_ok(&["tag", base, &tag]);
        Self { tag }
    }

    /// Containers run from this tag (docker's `ancestor` filter would also list those of images built on it).
    pub fn containers(&self) -> Vec<String> {
        let listing = docker_ok(&[
            "ps",
            "-a",
            "--filter",
            &format!("ancestor={}", self.tag),
            "--format",
            "{{.Names}}\t{{.Image}}",
        ]);
        listing
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .filter(|(_, image)| *image == self.tag)
            .map(|(name, _)| name.to_owned())
            .collect()
    }
}

impl Drop for TestImage {
    fn drop(&mut self) {
        let leftovers = self.containers();
        if !leftovers.is_empty() {
            let mut args = vec!["rm", "-f"];
            args.extend(leftovers.iter().map(String::as_str));
            docker(&args);
        }
        docker(&["rmi", &self.tag]);
    }
}
