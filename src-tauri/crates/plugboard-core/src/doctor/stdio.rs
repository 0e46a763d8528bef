//! Doctor steps of a local server: which program would run (for a container, the engine and the image too:
//! docker.rs), then a real start with the MCP handshake.

use std::path::Path;
use std::sync::Arc;

use crate::config::model::{ServerConfig, Transport};
use crate::config::references::expand;
use crate::secrets::{ServerReferences, Vault};
use crate::supervisor::{ConnectError, Connector, LiveConnector};
use crate::transport::{TransportError, install_hint, is_docker_run, resolve_program};

use super::{Step, skip_rest};

/// The steps after config and references.
pub(super) const STEPS: [&str; 2] = ["program", "start and handshake"];

pub(super) async fn walk(config: &ServerConfig, vault: Arc<Vault>) -> Vec<Step> {
    let mut steps = Vec::new();
    let Transport::Stdio(spec) = &config.transport else { return steps };
    let source = ServerReferences { server: config.name.as_str(), vault: &vault };
    let program = expand(&spec.command, &source).map(|e| e.value.expose().clone()).unwrap_or_default();
    let env = spec
        .env
        .iter()
        .map(|(k, v)| (k.clone(), expand(v, &source).map(|e| e.value.expose().clone()).unwrap_or_default()))
        .collect();
    let resolved = match resolve_program(Path::new(&program), &env) {
        Ok(path) => {
            steps.push(Step::passed("program", format!("{program} is {}", path.display())));
            path
        }
        Err(e) => {
            let what_to_do = match &e {
                TransportError::Spawn { source, .. } if source.kind() == std::io::ErrorKind::PermissionDenied => {
                    "make the program executable (chmod +x), or fix \"command\"".to_owned()
                }
                _ => install_hint(Path::new(&program)),
            };
            steps.push(Step::failed("program", e.to_string(), what_to_do));
            skip_rest(&mut steps, &STEPS);
            return steps;
        }
    };
    if is_docker_run(&resolved, &spec.args) {
        let (docker_steps, go_on) = super::docker::walk(&resolved, &spec.args, &env).await;
        steps.extend(docker_steps);
        if !go_on {
            let all: Vec<&str> = ["program"].into_iter().chain(super::docker::STEPS).chain([STEPS[1]]).collect();
            skip_rest(&mut steps, &all);
            return steps;
        }
    }
    steps.push(handshake(config, vault).await);
    steps
}

/// Starts the server exactly as the engine does, lists its tools, and stops it again.
pub(super) async fn handshake(config: &ServerConfig, vault: Arc<Vault>) -> Step {
    const STEP: &str = "start and handshake";
    // Exactly as the engine starts it: an unapproved server is reported as such, never run to diagnose it.
    let connector = LiveConnector::new(vault, crate::trust::Approvals::for_this_user());
    let connected = tokio::time::timeout(std::time::Duration::from_secs(60), connector.connect(config)).await;
    match connected {
        Ok(Ok(connected)) => {
            let session = connected.session;
            let name = session.server_name().unwrap_or_else(|| "the server".into());
            let protocol = session.protocol_version().unwrap_or_default();
            let step = match session.list_tools().await {
                Ok(tools) => {
                    Step::passed(STEP, format!("{name} speaks MCP {protocol} and offers {} tool(s)", tools.len()))
                }
                Err(e) => {
                    Step::failed(STEP, format!("{name} answered the handshake but not tools/list: {e}"), "see its logs")
                }
            };
            drop(session.close().await);
            step
        }
        Ok(Err(e)) => {
            // The server's own last words say most about why it stopped: show them under the error.
            let detail = match &e {
                ConnectError::Transport { stderr_tail: Some(tail), .. } => {
                    format!("{e}\nits stderr ended with:\n{tail}")
                }
                _ => e.to_string(),
            };
            Step::failed(STEP, detail, "read the server's error above; run its command in a terminal")
        }
        Err(_) => {
            Step::failed(STEP, "no answer within 60 s", "the server may wait for input or a login: run it by hand")
        }
    }
}
