//! Doctor steps of a `docker run` server, between finding the docker CLI and starting it: whether the engine
//! answers (and what to do when it does not: start it, or join the docker group), and whether the image is on this
//! computer (else the first start pulls it). It only asks the engine; it never pulls, runs or removes anything.

use std::path::Path;

use crate::transport::{docker_engine_version, docker_image_ports};

use super::Step;

/// The steps a docker server adds after "program".
pub(super) const STEPS: [&str; 2] = ["docker engine", "image"];

/// The engine and image steps for `docker` (the resolved CLI) running `args` with the entry's `env`, and whether
/// the handshake is worth trying (not when the engine does not answer: it would only fail the same way).
pub(super) async fn walk(
    docker: &Path,
    args: &[String],
    env: &std::collections::BTreeMap<String, String>,
) -> (Vec<Step>, bool) {
    let (docker, args, env) = (docker.to_path_buf(), args.to_vec(), env.clone());
    let probed = tokio::task::spawn_blocking(move || {
        let version = docker_engine_version(&docker, &env);
        let image = match &version {
            Ok(_) => Some(docker_image_ports(&docker, &env, &args)),
            Err(_) => None,
        };
        (version, image)
    })
    .await;
    let Ok((version, image)) = probed else {
        return (vec![Step::failed(STEPS[0], "the check was interrupted", "retry")], false);
    };
    let mut steps = Vec::new();
    match version {
        Ok(version) => steps.push(Step::passed(STEPS[0], format!("Docker {version} answers"))),
        Err(problem) => {
            let what_to_do = problem.what_to_do();
            steps.push(Step::failed(STEPS[0], problem.to_string(), what_to_do));
            return (steps, false);
        }
    }
    steps.push(match image {
        Some(Ok((image, Some(ports)))) if ports.is_empty() => {
            Step::passed(STEPS[1], format!("{image} is on this computer"))
        }
        Some(Ok((image, Some(ports)))) => Step::passed(
            STEPS[1],
            format!(
                "{image} is on this computer; it exposes {} (it may serve HTTP: Plugboard finds out at start)",
                ports.iter().map(|p| format!("{p}/tcp")).collect::<Vec<_>>().join(", ")
            ),
        ),
        Some(Ok((image, None))) => {
            Step::warning(STEPS[1], format!("{image} is not on this computer yet: the first start pulls it"))
        }
        Some(Err(message)) => Step::warning(STEPS[1], message),
        None => Step::skipped(STEPS[1]),
    });
    (steps, true)
}
