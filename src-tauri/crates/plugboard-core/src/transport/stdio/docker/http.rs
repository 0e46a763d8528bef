//! Docker images that serve MCP over HTTP instead of stdio, found without configuration: while the stdio handshake
//! runs, the container's first output is read for a URL or a port (signs.rs) and the image's exposed ports are
//! asked of the engine; when HTTP wins, the probe container is removed and the image runs again under a second,
//! distinct name, reachable on a free 127.0.0.1 port (published there where the engine has a bridge network; on
//! the host's network with the port passed in as `PORT` where it has none), and the session speaks Streamable HTTP
//! to it. The decision is remembered per image (memory.rs). The container belongs to the session: it is removed
//! with `docker rm -f` when the session ends. It must never reach a container on anything but 127.0.0.1.

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, ReadBuf};

use super::engine::{ImageFacts, has_bridge, image_facts};
use super::memory::{HttpImage, Memory};
use super::signs::http_sign;
use super::split_run;
use crate::transport::stdio::{SpawnOptions, Spawned, StdioLaunch, StdioProcess, spawn_server};
use crate::transport::{Answerer, McpSession, TransportError};
use crate::transport::{RemoteOptions, RemoteSpec, connect_remote};

/// How much of the container's first stdout is kept to look for a sign.
const FIRST_OUTPUT: usize = 16 * 1024;
/// How long a container whose image exposes a port may stay silent on stdio before it is taken for an HTTP server
/// (one that names its port in its output is taken at once).
const EXPOSED_SILENCE: Duration = Duration::from_secs(10);
/// How long the HTTP container gets to answer the handshake.
const HTTP_STARTUP: Duration = Duration::from_secs(45);
const POLL: Duration = Duration::from_millis(100);
/// The path asked when the output named only a port: the MCP spec's usual endpoint.
const DEFAULT_PATH: &str = "/mcp";

/// The image `docker run` args (starting with `run`) name.
pub(crate) fn image_of(args: &[String]) -> Option<String> {
    let after_run = args.get(1..)?;
    split_run(after_run).image.map(|i| after_run[i].clone())
}

/// Where a remembered image serves HTTP, when `program args` runs it.
pub(crate) fn remembered(launch: &StdioLaunch) -> Option<HttpImage> {
    if !super::is_docker_run(&launch.program, &launch.args) {
        return None;
    }
    Memory::app().http(&image_of(&launch.args)?)
}

/// A container's stdout as the MCP session reads it, with its first bytes kept for [`Probe`].
pub(crate) struct Tapped<R> {
    inner: R,
    seen: Option<Arc<Mutex<Vec<u8>>>>,
}

impl<R: AsyncRead + Unpin> AsyncRead for Tapped<R> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Some(seen) = &self.seen {
            let mut seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
            let room = FIRST_OUTPUT.saturating_sub(seen.len());
            let new = &buf.filled()[before..];
            seen.extend_from_slice(&new[..new.len().min(room)]);
        }
        polled
    }
}

/// Watches a docker server's start for signs that it serves HTTP.
pub(crate) struct Probe {
    image: String,
    seen: Arc<Mutex<Vec<u8>>>,
    facts: tokio::task::JoinHandle<Option<ImageFacts>>,
}

/// How the race between the stdio handshake and the signs of HTTP ended.
pub(crate) enum Raced<T> {
    Stdio(T),
    Http(HttpImage),
}

impl Probe {
    /// `stdout` tapped, and a probe when `process` runs a container (asking the engine for the image's exposed
    /// ports meanwhile).
    pub(crate) fn watch<R>(stdout: R, launch: &StdioLaunch, process: &StdioProcess) -> (Tapped<R>, Option<Self>) {
        let launched = process.launched();
        let image = image_of(&launch.args).filter(|_| launched.docker_container.is_some());
        let Some(image) = image else { return (Tapped { inner: stdout, seen: None }, None) };
        let seen = Arc::new(Mutex::new(Vec::new()));
        let docker = launched.resolved_program.clone();
        let env = super::client_environment(&launched.search_path, &launch.env);
        let inspected = image.clone();
        let facts = tokio::task::spawn_blocking(move || image_facts(&docker, &env, &inspected).ok().flatten());
        (Tapped { inner: stdout, seen: Some(Arc::clone(&seen)) }, Some(Self { image, seen, facts }))
    }

    /// Runs the stdio handshake `serving` until it ends, or until the container shows it serves HTTP: it names a
    /// port or URL in its output, or its image exposes a port and it stays silent on stdio for
    /// [`EXPOSED_SILENCE`]. A container that exits leaves the handshake to fail as it would.
    pub(crate) async fn race<F: Future>(mut self, serving: F, process: &StdioProcess) -> Raced<F::Output> {
        let started = Instant::now();
        let mut serving = std::pin::pin!(serving);
        let mut exposed: Option<Vec<u16>> = None;
        loop {
            tokio::select! {
                served = &mut serving => return Raced::Stdio(served),
                () = tokio::time::sleep(POLL) => {}
            }
            if exposed.is_none() && self.facts.is_finished() {
                exposed = Some((&mut self.facts).await.ok().flatten().map(|f| f.exposed_tcp).unwrap_or_default());
            }
            let output = {
                let seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
                format!("{}\n{}", String::from_utf8_lossy(&seen), process.stderr().snapshot())
            };
            let silent = self.seen.lock().unwrap_or_else(PoisonError::into_inner).is_empty();
            let found = match http_sign(&output) {
                Some(sign) => Some(HttpImage { port: sign.port, path: sign.path.unwrap_or_else(default_path) }),
                None => exposed
                    .as_ref()
                    .and_then(|ports| ports.first())
                    .filter(|_| silent && started.elapsed() >= EXPOSED_SILENCE && !process.leader_exited())
                    .map(|port| HttpImage { port: *port, path: default_path() }),
            };
            if let Some(found) = found {
                tracing::info!(image = %self.image, port = found.port, path = %found.path, "the image serves HTTP");
                Memory::app().remember_http(&self.image, found.clone());
                return Raced::Http(found);
            }
        }
    }
}

fn default_path() -> String {
    DEFAULT_PATH.to_owned()
}

/// Runs the image of `launch` again as an HTTP server on a free 127.0.0.1 port (see the module docs) and connects
/// to it over Streamable HTTP; the session owns the container.
pub(crate) async fn connect(
    server: &str,
    launch: &StdioLaunch,
    found: HttpImage,
    answerer: Answerer,
    options: SpawnOptions,
) -> Result<McpSession, TransportError> {
    let host_port = free_loopback_port().map_err(|e| spawn_error(launch, e))?;
    let bridge = {
        let docker = launch.program.clone();
        let search = super::super::path_resolution::search_path(launch.env.get("PATH").map(String::as_str));
        let env = super::client_environment(&search, &launch.env);
        let docker = super::super::path_resolution::resolve_program(&docker, &search, launch.cwd.as_deref())
            .map_err(|e| spawn_error(launch, e.into_io(&launch.program)))?;
        tokio::task::spawn_blocking(move || has_bridge(&docker, &env)).await.unwrap_or(false)
    };
    let name = super::fresh_name(server, std::process::id(), "-http");
    let args = http_run_args(&launch.args, &name, host_port, &found, bridge);
    let http_launch = StdioLaunch { args, ..launch.clone() };
    let Spawned { stdin, stdout, process } = spawn_server(server, &http_launch, options).await?;
    // The container's stdin is not used; its stdout is read (and kept for signs) so it never blocks on a full pipe.
    drop(stdin);
    process.remove_container_first();
    let first_output: Arc<Mutex<Vec<u8>>> = Arc::default();
    let mut stdout = Tapped { inner: stdout, seen: Some(Arc::clone(&first_output)) };
    tokio::spawn(async move { tokio::io::copy(&mut stdout, &mut tokio::io::sink()).await });
    let http = crate::net::pooled_http_client();
    let deadline = Instant::now() + HTTP_STARTUP;
    let mut last_error = None;
    while Instant::now() < deadline {
        if process.leader_exited() {
            break;
        }
        // On the host's network a server that ignores PORT listens where its output says.
        let said = {
            let seen = first_output.lock().unwrap_or_else(PoisonError::into_inner);
            http_sign(&format!("{}\n{}", String::from_utf8_lossy(&seen), process.stderr().snapshot()))
        };
        let port = match said {
            Some(sign) if !bridge && sign.port != host_port => sign.port,
            _ => host_port,
        };
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            let url = format!("http://127.0.0.1:{port}{}", found.path);
            let spec = RemoteSpec { url, headers: Vec::new(), mode: crate::config::model::HttpMode::StreamableHttp };
            match connect_remote(spec, RemoteOptions::new(http.clone(), answerer.clone())).await {
                Ok(remote) => {
                    tracing::info!(server, container = %name, port, "connected to the container over HTTP");
                    return Ok(remote.session.owning(process));
                }
                Err(e) => last_error = Some(e),
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    process.shutdown().await;
    if let Some(image) = image_of(&launch.args) {
        Memory::app().forget(&image);
    }
    let tail = process.stderr().snapshot();
    let message = match last_error {
        Some(e) => format!("the container serves HTTP but its handshake failed: {e}"),
        None if process.leader_exited() => "the container stopped before it answered over HTTP".to_owned(),
        None => format!("the container did not answer over HTTP within {} s", HTTP_STARTUP.as_secs()),
    };
    Err(TransportError::StartupFailed { message, stderr_tail: (!tail.is_empty()).then_some(tail) })
}

fn spawn_error(launch: &StdioLaunch, source: std::io::Error) -> TransportError {
    TransportError::Spawn { command: launch.program.display().to_string(), source }
}

/// A port nobody listens on now, on 127.0.0.1.
fn free_loopback_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}

/// `docker run` args (as configured, starting with `run`) for the HTTP run: without stdin or a terminal, without
/// the entry's own network or published ports, under `name`, reachable on 127.0.0.1:`host_port`.
fn http_run_args(args: &[String], name: &str, host_port: u16, found: &HttpImage, bridge: bool) -> Vec<String> {
    let after_run = &args[1..];
    let parsed = split_run(after_run);
    let options_end = parsed.image.unwrap_or(after_run.len());
    let mut rebuilt = vec!["run".to_owned(), "--name".to_owned(), name.to_owned()];
    if bridge {
        rebuilt.extend(["--publish".to_owned(), format!("127.0.0.1:{host_port}:{}", found.port)]);
    } else {
        rebuilt.extend(["--network".to_owned(), "host".to_owned(), "--env".to_owned(), format!("PORT={host_port}")]);
    }
    const DROPPED: &[&str] =
        &["--network", "--net", "-p", "--publish", "--name", "--interactive", "--tty", "--publish-all"];
    for (flag, value) in parsed.options.iter().filter(|(flag, _)| !DROPPED.contains(&flag.as_str())) {
        match value {
            Some(value) if flag.starts_with("--") => rebuilt.push(format!("{flag}={value}")),
            Some(value) => rebuilt.extend([flag.clone(), value.clone()]),
            None if flag.starts_with("--") => rebuilt.push(flag.clone()),
            None => {
                // `-it` and the like: keep what is not about stdin, the terminal or publishing.
                let kept: String = flag[1..].chars().filter(|c| !"itP".contains(*c)).collect();
                if !kept.is_empty() {
                    rebuilt.push(format!("-{kept}"));
                }
            }
        }
    }
    rebuilt.extend(after_run[options_end..].iter().cloned());
    rebuilt
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| (*a).to_owned()).collect()
    }

    /// The HTTP run drops stdin, the terminal, the entry's network and ports and its name, and is reached on
    /// 127.0.0.1 only: published there with a bridge, on the host's network with PORT passed in without one.
    #[test]
    fn the_http_run_is_reached_on_loopback_only() {
        let found = HttpImage { port: 3001, path: "/mcp".into() };
        let args = strings(&[
            "run",
            "-i",
            "--rm",
            "--network",
            "none",
            "-p",
            "9:9",
            "--name=x",
            "-e",
            "K",
            "--publish-all",
            "img",
            "-i",
        ]);
        assert_eq!(
            http_run_args(&args, "plugboard-s-1-0-http", 4567, &found, false),
            strings(&[
                "run",
                "--name",
                "plugboard-s-1-0-http",
                "--network",
                "host",
                "--env",
                "PORT=4567",
                "--rm",
                "-e",
                "K",
                "img",
                "-i"
            ])
        );
        assert_eq!(
            http_run_args(&strings(&["run", "-it", "--net=bridge", "-e", "it", "img"]), "n", 4567, &found, true),
            strings(&["run", "--name", "n", "--publish", "127.0.0.1:4567:3001", "-e", "it", "img"])
        );
    }

    /// The image is the first word after docker's options.
    #[test]
    fn the_image_is_found_after_the_options() {
        assert_eq!(image_of(&strings(&["run", "-i", "-e", "X", "mcp/x:1", "serve"])).as_deref(), Some("mcp/x:1"));
        assert_eq!(image_of(&strings(&["run", "-i"])), None);
    }
}
