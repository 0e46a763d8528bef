//! Doctor steps of a remote server: DNS, TCP, the HTTP answer (and any auth challenge), then the real handshake.

use std::sync::Arc;
use std::time::Duration;

use crate::config::model::{Auth, HttpMode, HttpSpec, ServerConfig};
use crate::config::references::expand;
use crate::net::pooled_http_client;
use crate::secrets::{ServerReferences, Vault};

use super::{Step, skip_rest, stdio::handshake};

/// The steps after config and references.
pub(super) const STEPS: [&str; 4] = ["dns", "tcp", "http", "start and handshake"];
const LIMIT: Duration = Duration::from_secs(10);

pub(super) async fn walk(config: &ServerConfig, http: &HttpSpec, vault: Arc<Vault>) -> Vec<Step> {
    let mut steps = Vec::new();
    let source = ServerReferences { server: config.name.as_str(), vault: &vault };
    let url = expand(&http.url, &source).map(|e| e.value.expose().clone()).unwrap_or_default();
    let Ok(parsed) = url::Url::parse(&url) else {
        steps.push(Step::failed("dns", format!("{url:?} is not a URL after expansion"), "fix \"url\""));
        skip_rest(&mut steps, &STEPS);
        return steps;
    };
    let host = parsed.host_str().unwrap_or_default().to_owned();
    let port = parsed.port_or_known_default().unwrap_or(443);

    let looked_up = match tokio::time::timeout(LIMIT, tokio::net::lookup_host((host.as_str(), port))).await {
        Ok(Ok(addresses)) => Ok(addresses.collect::<Vec<_>>()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("no answer within 10 s".to_owned()),
    };
    let addresses = match looked_up {
        Ok(addresses) if !addresses.is_empty() => addresses,
        Ok(_) | Err(_) => {
            let why = looked_up.err().unwrap_or_else(|| "no address".to_owned());
            steps.push(Step::failed(
                "dns",
                format!("{host} cannot be resolved: {why}"),
                "check the host name and your network",
            ));
            skip_rest(&mut steps, &STEPS);
            return steps;
        }
    };
    let shown: Vec<String> = addresses.iter().map(ToString::to_string).collect();
    steps.push(Step::passed("dns", format!("{host} is {}", shown.join(", "))));

    match tokio::time::timeout(LIMIT, tokio::net::TcpStream::connect(addresses[0])).await {
        Ok(Ok(_)) => steps.push(Step::passed("tcp", format!("{} accepts connections", addresses[0]))),
        Ok(Err(e)) => {
            steps.push(Step::failed("tcp", format!("{}: {e}", addresses[0]), "is the server running, on this port?"));
            skip_rest(&mut steps, &STEPS);
            return steps;
        }
        Err(_) => {
            steps.push(Step::failed("tcp", "no answer within 10 s", "a firewall or proxy may drop the connection"));
            skip_rest(&mut steps, &STEPS);
            return steps;
        }
    }

    let http_step = probe_http(config, http, &url, &source).await;
    let stop = http_step.is_failed();
    steps.push(http_step);
    if stop {
        skip_rest(&mut steps, &STEPS);
        return steps;
    }
    steps.push(handshake(config, vault).await);
    steps
}

/// What the endpoint answers to the first request the transport would send.
async fn probe_http(config: &ServerConfig, http: &HttpSpec, url: &str, source: &ServerReferences<'_>) -> Step {
    const STEP: &str = "http";
    let send = |body: &'static str, modern: bool| {
        let client = pooled_http_client();
        let mut request = match http.mode {
            HttpMode::Sse => client.get(url).header("Accept", "text/event-stream"),
            HttpMode::StreamableHttp | HttpMode::Probe => client
                .post(url)
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .body(body),
        };
        if modern {
            // 2026-07-28's routing headers, which a server of that era checks against the body.
            request = request.header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "server/discover");
        }
        for (name, value) in &http.headers {
            if let Ok(value) = expand(value, source) {
                request = request.header(name.as_str(), value.value.expose().as_str());
            }
        }
        if let Auth::BearerEnv { var } = &config.auth
            && let Ok(token) = std::env::var(var)
        {
            request = request.bearer_auth(token);
        }
        tokio::time::timeout(LIMIT, request.send())
    };
    let response = match send(INITIALIZE, false).await {
        Ok(Ok(response)) => response,
        Ok(Err(e)) => {
            return Step::failed(STEP, root_cause(&e), "check the URL (http vs https) and any proxy or certificate");
        }
        Err(_) => {
            return Step::failed(
                STEP,
                "no answer within 10 s",
                "the server accepts connections but does not answer HTTP",
            );
        }
    };
    // A server of the 2026-07-28 era only refuses `initialize`: it is asked `server/discover` instead.
    if http.mode != HttpMode::Sse
        && matches!(response.status().as_u16(), 400 | 404 | 405)
        && let Ok(Ok(modern)) = send(DISCOVER, true).await
        && modern.status().is_success()
    {
        return Step::passed(
            STEP,
            format!("the endpoint answered {} to server/discover (2026-07-28)", modern.status()),
        );
    }
    let status = response.status();
    let challenge = response.headers().get("www-authenticate").and_then(|v| v.to_str().ok()).map(str::to_owned);
    match status.as_u16() {
        200..=299 => Step::passed(STEP, format!("the endpoint answered {status}")),
        401 | 403 => Step::failed(
            STEP,
            format!(
                "the endpoint answered {status}{}",
                challenge.as_ref().map(|c| format!(" ({c})")).unwrap_or_default()
            ),
            match &config.auth {
                Auth::BearerEnv { var } => format!("set the environment variable {var} to a valid token"),
                Auth::OAuth(_) => crate::auth::login_hint(config.name.as_str()),
                Auth::Headers => "check the credentials in \"headers\" (plugboard secret set …)".to_owned(),
                // A challenge makes it an OAuth server, which logs in without an `oauth` section.
                Auth::None if status.as_u16() == 401 && challenge.is_some() => {
                    crate::auth::login_hint(config.name.as_str())
                }
                Auth::None => {
                    "this server needs credentials: add \"oauth\", \"bearerTokenEnvVar\" or headers".to_owned()
                }
            },
        ),
        400 | 404 | 405 if http.mode != HttpMode::Sse => Step::warning(
            STEP,
            format!(
                "the endpoint answered {status} to a Streamable HTTP request: it may be a legacy SSE endpoint (\"type\": \"sse\")"
            ),
        ),
        _ => Step::failed(STEP, format!("the endpoint answered {status}"), "check the URL's path (often /mcp or /sse)"),
    }
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut current = e;
    while let Some(next) = current.source() {
        current = next;
    }
    current.to_string()
}

const DISCOVER: &str = r#"{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"plugboard-doctor","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"plugboard-doctor","version":"0"}}}"#;
