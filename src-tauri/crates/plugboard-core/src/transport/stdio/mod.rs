//! Launching a local MCP server as a child process and speaking JSON-RPC over its stdin/stdout: argv only, never
//! a shell; a minimal environment; the binary resolved against the login shell's PATH; its own process group,
//! stopped in stages by our guard, under the keeper on Linux (containment.rs); stdout read a bounded line at a time
//! and stderr kept as a bounded tail. It must never let the child outlive its session.

mod containment;
mod docker;
mod env;
mod guard;
#[cfg(target_os = "linux")]
mod keeper;
#[cfg_attr(not(target_os = "linux"), allow(dead_code, reason = "only the keeper, on Linux, takes a launch"))]
mod launch;
mod launches;
mod line_limit;
mod login_path_cache;
mod path_resolution;
mod stderr_tail;
#[cfg(test)]
mod tests;
mod warm_keepers;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use process_wrap::tokio::{ChildWrapper, CommandWrap};
use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitationCapability, Implementation, ProtocolVersion, SamplingCapability,
};
use rmcp::service::{ClientServiceExt, RoleClient};
use tokio::process::{ChildStdin, ChildStdout};

pub use containment::start_spawner_thread;
pub use containment::{Containment, KEEPER_BINARY};
pub use docker::engine::{EngineProblem, docker_engine_version, docker_image_ports};
#[cfg(test)]
pub(crate) use docker::sweep_with;
pub use docker::{DockerSweepError, SweepReport, hardened_args, is_docker_run, sweep_docker_leftovers};
pub use guard::{ShutdownReport, ShutdownStage};
#[cfg(target_os = "linux")]
pub use keeper::run_keeper;
pub use launches::launches;
pub use stderr_tail::StderrTail;
pub use warm_keepers::warm_keepers;

use super::era::{Opening, refusal_in_words, stdio_falls_back};
use super::guarded::Guarded;
use super::limits::MAX_MESSAGE_BYTES;
use super::line_transport::LineTransport;
use super::{Answerer, McpSession, TransportError, client_handler};
use containment::ContainmentPolicy;
use docker::DockerCleanup;
use guard::ProcessGuard;
use launch::Launch;
use line_limit::LineLimit;

/// What to run: a program and its arguments (never a shell line), the configured environment (references already
/// expanded by the caller; values may be secrets) and the working directory.
#[derive(Clone, Default)]
pub struct StdioLaunch {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    pub cwd: Option<PathBuf>,
}

impl std::fmt::Debug for StdioLaunch {
    // Args and env values may carry expanded secrets: only their shape is printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StdioLaunch")
            .field("program", &self.program)
            .field("args", &format_args!("[{} args]", self.args.len()))
            .field("env", &self.env.keys().collect::<Vec<_>>())
            .field("cwd", &self.cwd)
            .finish()
    }
}

/// How a server was started, for logs and for the person ("which npx did it use?").
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Launched {
    /// The binary the program name resolved to.
    pub resolved_program: PathBuf,
    /// The PATH it was resolved against (and that the server got).
    pub search_path: OsString,
    /// The leader's pid; on Unix also its process group id.
    pub pid: u32,
    pub containment: Containment,
    /// The container name when this is a `docker run` server.
    pub docker_container: Option<String>,
}

/// A running server process: the guard that stops its group, its stderr tail and how it was launched.
#[derive(Debug)]
pub(crate) struct StdioProcess {
    guard: ProcessGuard,
    stderr: StderrTail,
    launched: Launched,
}

impl StdioProcess {
    pub(crate) fn launched(&self) -> &Launched {
        &self.launched
    }
    pub(crate) fn stderr(&self) -> &StderrTail {
        &self.stderr
    }
    pub(crate) fn leader_exited(&self) -> bool {
        self.guard.leader_exited()
    }
    /// Its container (an HTTP server's, which does not end at stdin's EOF) is removed first when it stops.
    pub(crate) fn remove_container_first(&self) {
        self.guard.remove_container_first();
    }
    /// Process group id while the guard owns it.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn pgid(&self) -> Option<i32> {
        self.guard.pgid()
    }
    /// The staged shutdown (stdin must already be closed), then a short wait so the stderr tail is complete.
    pub(crate) async fn shutdown(&self) -> ShutdownReport {
        let report = self.guard.shutdown().await;
        self.stderr.drained(Duration::from_millis(250)).await;
        report
    }
}

/// A spawned server before the MCP handshake: its stdio pipes and the process.
pub(crate) struct Spawned {
    pub stdin: ChildStdin,
    pub stdout: ChildStdout,
    pub process: StdioProcess,
}

/// Knobs tests turn; the app uses the defaults.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SpawnOptions {
    pub containment: ContainmentPolicy,
}

/// Starts the server and completes the MCP handshake. Docker containers get the generic name `plugboard-mcp-…`;
/// the supervisor should use [`connect_stdio_named`].
pub async fn connect_stdio(launch: &StdioLaunch) -> Result<McpSession, TransportError> {
    connect_stdio_named("mcp", launch).await
}

/// Starts the server `server` (the name is used in logs and Docker container names) and completes the handshake.
/// On failure the server is stopped and its stderr tail is kept in the error ([`TransportError::stderr_tail`]).
pub async fn connect_stdio_named(server: &str, launch: &StdioLaunch) -> Result<McpSession, TransportError> {
    connect_with(server, launch, SpawnOptions::default()).await
}

/// [`connect_stdio_named`], with the server's requests for a person answered by `answerer`, opened as `opening`
/// says (a probe for 2026-07-28 unless the server is known to be of the earlier era).
pub async fn connect_stdio_answered(
    server: &str,
    launch: &StdioLaunch,
    answerer: Answerer,
    opening: Opening,
) -> Result<McpSession, TransportError> {
    connect_answered(server, launch, SpawnOptions::default(), answerer, opening).await
}

pub(crate) async fn connect_with(
    server: &str,
    launch: &StdioLaunch,
    options: SpawnOptions,
) -> Result<McpSession, TransportError> {
    connect_answered(server, launch, options, Answerer::default(), Opening::Probe).await
}

/// Opens the session; a server whose probe failed in a way rmcp cannot fall back from on the same pipes (an empty
/// result, an exit, garbage) is started once more and opened with `initialize` (`era.rs`).
async fn connect_answered(
    server: &str,
    launch: &StdioLaunch,
    options: SpawnOptions,
    answerer: Answerer,
    opening: Opening,
) -> Result<McpSession, TransportError> {
    // Boxed: two handshakes inline would make every caller's future some 16 KiB.
    match Box::pin(attempt(server, launch, options, answerer.clone(), opening)).await {
        Ok(session) => Ok(session),
        Err(Failed::ProbeRefused(_)) => {
            Box::pin(attempt(server, launch, options, answerer, Opening::Initialize)).await.map_err(Failed::into_error)
        }
        Err(failed) => Err(failed.into_error()),
    }
}

/// How one start of the server failed.
enum Failed {
    /// The probe failed short of a modern refusal (`era::stdio_falls_back`): one more start, with `initialize`.
    ProbeRefused(TransportError),
    Final(TransportError),
}

impl Failed {
    fn into_error(self) -> TransportError {
        match self {
            Self::ProbeRefused(e) | Self::Final(e) => e,
        }
    }
}

async fn attempt(
    server: &str,
    launch: &StdioLaunch,
    options: SpawnOptions,
    answerer: Answerer,
    opening: Opening,
) -> Result<McpSession, Failed> {
    if let Some(found) = docker::http::remembered(launch) {
        return docker::http::connect(server, launch, found, answerer, options).await.map_err(Failed::Final);
    }
    let Spawned { stdin, stdout, process } = spawn_server(server, launch, options).await.map_err(Failed::Final)?;
    // A container may serve HTTP instead: its first output and its image's ports race the stdio handshake.
    let (stdout, probe) = docker::http::Probe::watch(stdout, launch, &process);
    let (handler, notices) = client_handler(answerer.clone());
    let (wire, tap) = (handler.tripwire(), handler.call_tap());
    let stdout = LineLimit::new(stdout, MAX_MESSAGE_BYTES, wire.clone());
    // The transport would drop an oversized line and read on; the line limit beneath it, at the same size, sees the
    // bytes first and ends the session instead.
    let transport = LineTransport::<RoleClient, _, _>::new(stdout, stdin, MAX_MESSAGE_BYTES);
    let serving = handler.serve_with_lifecycle(Guarded::new(transport, wire.clone(), tap), opening.for_stdio());
    let served = match probe {
        None => serving.await,
        Some(probe) => match probe.race(serving, &process).await {
            docker::http::Raced::Stdio(served) => served,
            docker::http::Raced::Http(found) => {
                process.remove_container_first();
                process.shutdown().await;
                return docker::http::connect(server, launch, found, answerer, options).await.map_err(Failed::Final);
            }
        },
    };
    match served {
        Ok(service) => Ok(McpSession::with_process(service, notices, process)),
        Err(e) => {
            // The failed transport was dropped with its stdin, so this is the ordinary staged shutdown.
            process.shutdown().await;
            if let Some(cause) = wire.cause() {
                return Err(Failed::Final(TransportError::LimitExceeded(cause.clone())));
            }
            let tail = process.stderr().snapshot();
            let stderr_tail = (!tail.is_empty()).then_some(tail);
            if let Some(refused) = refusal_in_words("the server", &e) {
                return Err(Failed::Final(refused));
            }
            let error = TransportError::StartupFailed { message: e.to_string(), stderr_tail };
            if opening == Opening::Probe && stdio_falls_back(&e) {
                return Err(Failed::ProbeRefused(error));
            }
            Err(Failed::Final(error))
        }
    }
}

/// Resolves, wraps and spawns the server with piped stdio; no MCP yet.
pub(crate) async fn spawn_server(
    server: &str,
    launch: &StdioLaunch,
    options: SpawnOptions,
) -> Result<Spawned, TransportError> {
    let display = launch.program.display().to_string();
    let spawn_error = |source| TransportError::Spawn { command: display.clone(), source };
    let plan = {
        let (server, launch) = (server.to_owned(), launch.clone());
        // Asking the login shell (once) and probing wrappers block: not on the runtime's threads.
        tokio::task::spawn_blocking(move || plan(&server, &launch, options))
            .await
            .map_err(|e| spawn_error(std::io::Error::other(e.to_string())))?
            .map_err(spawn_error)?
    };
    let child = spawn_on_long_lived_thread(&plan).await.map_err(spawn_error)?;
    let (child, mut stdin, stdout, stderr) = take_pipes(child).map_err(spawn_error)?;
    let pid = child.id().unwrap_or_default();
    if let Some(launch) = &plan.launch {
        // First on the keeper's stdin: it starts the server with what follows.
        let frame = launch.frame().map_err(spawn_error)?;
        tokio::io::AsyncWriteExt::write_all(&mut stdin, &frame).await.map_err(spawn_error)?;
    }
    let docker = plan.docker_container.clone().map(|container| DockerCleanup {
        docker: plan.resolved_program.clone(),
        container,
        env: plan.env.clone(),
        first: false,
    });
    let guard = ProcessGuard::new(child, docker, server);
    let launched = Launched {
        resolved_program: plan.resolved_program,
        search_path: plan.search_path,
        pid,
        containment: plan.containment,
        docker_container: plan.docker_container,
    };
    launches::count_launch();
    tracing::info!(
        server,
        program = %launch.program.display(),
        resolved = %launched.resolved_program.display(),
        pid,
        containment = ?launched.containment,
        env = ?env::names(&plan.env),
        "launched stdio server"
    );
    Ok(Spawned { stdin, stdout, process: StdioProcess { guard, stderr: StderrTail::drain(stderr), launched } })
}

/// Everything decided before the fork.
struct Plan {
    resolved_program: PathBuf,
    search_path: OsString,
    /// What is spawned: the server itself, or the keeper (`launch` then says what it is to start).
    program: PathBuf,
    args: Vec<OsString>,
    /// The server's environment and folder (the keeper's own are empty: it passes the launch's on).
    env: Vec<(OsString, OsString)>,
    cwd: Option<PathBuf>,
    launch: Option<Launch>,
    containment: Containment,
    docker_container: Option<String>,
}

fn plan(server: &str, launch: &StdioLaunch, options: SpawnOptions) -> std::io::Result<Plan> {
    if launch.program.as_os_str().is_empty() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "the command is empty"));
    }
    if let Some(cwd) = &launch.cwd
        && !cwd.is_dir()
    {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("the folder {} does not exist. Create it, or fix \"cwd\".", cwd.display()),
        ));
    }
    let search_path = path_resolution::search_path(launch.env.get("PATH").map(String::as_str));
    let resolved = path_resolution::resolve_program(&launch.program, &search_path, launch.cwd.as_deref())
        .map_err(|e| e.into_io(&launch.program))?;
    let docker = docker::plan_run(&resolved, &launch.args, server, std::process::id());
    let env = match docker {
        // The docker CLI must reach the engine Plugboard's environment names; the container sees only what `-e` names.
        Some(_) => docker::client_environment(&search_path, &launch.env),
        None => env::child_environment(std::env::vars_os(), &search_path, &launch.env),
    };
    let args = docker.as_ref().map_or(&launch.args, |d| &d.args);
    let (program, wrapped_args, containment) = containment::wrap(options.containment, &resolved, args);
    let launch_for_keeper = (containment == Containment::Keeper).then(|| Launch {
        program: resolved.clone().into_os_string(),
        args: args.iter().map(OsString::from).collect(),
        env: env.clone(),
        cwd: launch.cwd.clone().map(PathBuf::into_os_string),
    });
    Ok(Plan {
        resolved_program: resolved,
        search_path,
        program,
        args: wrapped_args,
        env,
        cwd: launch.cwd.clone(),
        launch: launch_for_keeper,
        containment,
        docker_container: docker.map(|d| d.container),
    })
}

fn command(plan: &Plan) -> CommandWrap {
    let mut command = tokio::process::Command::new(&plan.program);
    command.args(&plan.args).env_clear();
    if plan.launch.is_none() {
        command.envs(plan.env.iter().cloned());
        if let Some(cwd) = &plan.cwd {
            command.current_dir(cwd);
        }
    }
    #[cfg(target_os = "linux")]
    containment::tie_to_app(&mut command, plan.containment);
    group_leader(command)
}

/// `command` with piped stdio, leading a process group of its own (a Job Object on Windows).
fn group_leader(mut command: tokio::process::Command) -> CommandWrap {
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut wrapped = CommandWrap::from(command);
    #[cfg(unix)]
    wrapped.wrap(process_wrap::tokio::ProcessGroup::leader());
    #[cfg(windows)]
    {
        // Untested here (no Windows machine or CI yet): with KillOnDrop the Job Object is created with
        // KILL_ON_JOB_CLOSE, so the tree dies when our handle closes, including when the app crashes.
        wrapped.wrap(process_wrap::tokio::JobObject);
        wrapped.wrap(process_wrap::tokio::KillOnDrop);
    }
    wrapped
}

/// Forks from the spawner thread (see `containment::on_spawner_thread` for why), inside this runtime's context so
/// the pipes register with its reactor. A keeper started ahead for this runtime (warm_keepers.rs) is taken instead
/// when there is one: here when it is waiting already (no trip to the spawner thread), else on the spawner thread,
/// which runs jobs in order, so one asked for before this spawn is there by then.
async fn spawn_on_long_lived_thread(plan: &Plan) -> std::io::Result<Box<dyn ChildWrapper>> {
    let to_keeper = plan.launch.is_some();
    let runtime = tokio::runtime::Handle::current();
    if to_keeper && let Some(warm) = warm_keepers::take(runtime.id()) {
        return Ok(warm);
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    let mut wrapped = command(plan);
    let job: Box<dyn FnOnce() + Send> = Box::new(move || {
        let _entered = runtime.enter();
        let warm = if to_keeper { warm_keepers::take(runtime.id()) } else { None };
        let _ = tx.send(warm.map_or_else(|| wrapped.spawn(), Ok));
    });
    match containment::on_spawner_thread(job) {
        Ok(()) => rx.await.map_err(|_| std::io::Error::other("the spawner thread is gone"))?,
        Err(job) => {
            tracing::warn!("no spawner thread: spawning inline (the death signal then follows this thread)");
            job();
            rx.await.map_err(|_| std::io::Error::other("spawn failed"))?
        }
    }
}

type Pipes = (Box<dyn ChildWrapper>, ChildStdin, ChildStdout, tokio::process::ChildStderr);

fn take_pipes(mut child: Box<dyn ChildWrapper>) -> std::io::Result<Pipes> {
    let missing = || std::io::Error::other("a stdio pipe of the child is missing");
    let stdin = child.stdin().take().ok_or_else(missing)?;
    let stdout = child.stdout().take().ok_or_else(missing)?;
    let stderr = child.stderr().take().ok_or_else(missing)?;
    Ok((child, stdin, stdout, stderr))
}

/// What Plugboard announces: in `initialize`, protocol 2025-11-25, the newest version with a handshake (rmcp's
/// default, 2026-07-28, has none); 2026-07-28 itself is asked for by the `server/discover` probe (`era.rs`), with the
/// same capabilities in every request's `_meta`.
/// Form elicitation is always declared (`"elicitation": {}`) so servers ask rather than fail; the handler
/// (`transport::client_handler`) answers, declining when no person is there. Sampling is declared only when `person`
/// (a window-backed session), since only a person can answer it. Roots are answered by the person when a server
/// asks, but not declared: servers that see the capability ask at every connect (server-everything does, 350 ms
/// after `initialized`), which would put a dialog over the window at each (re)connect until the answer is
/// remembered per server.
#[allow(deprecated)] // Sampling is deprecated by SEP-2577; servers of 2025-11-25 still use it.
pub(crate) fn client_config(person: bool) -> ClientConfig {
    let mut capabilities = ClientCapabilities::default();
    capabilities.elicitation = Some(ElicitationCapability::new());
    if person {
        capabilities.sampling = Some(SamplingCapability::default());
    }
    ClientConfig::new(capabilities, Implementation::new("plugboard", env!("CARGO_PKG_VERSION")))
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
}

pub use path_resolution::install_hint;

/// Where `program` would resolve for a launch configured with `env` (no spawn), e.g. for `plugboard doctor`.
pub fn resolve_program(program: &Path, env: &BTreeMap<String, String>) -> Result<PathBuf, TransportError> {
    let search_path = path_resolution::search_path(env.get("PATH").map(String::as_str));
    path_resolution::resolve_program(program, &search_path, None)
        .map_err(|e| TransportError::Spawn { command: program.display().to_string(), source: e.into_io(program) })
}
