//! `plugboard-testserver`: one MCP server over stdio that misbehaves on request (crashes, hangs, garbage on
//! stdout, a slow start, …), so the supervisor's fault handling can be tested against a real process. It must
//! never be shipped or started by the app itself.

#![allow(clippy::print_stderr, reason = "a stdio MCP server's only channel for diagnostics is stderr")]

mod era;
mod extras;
mod garbage;
mod hostile;
mod journal;
mod lists;
mod options;
mod person;
mod server;
mod tools;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use rmcp::ServiceExt;
use tokio::io::AsyncWrite;

use options::Options;
use server::TestServer;

#[tokio::main]
async fn main() -> ExitCode {
    let options = Options::parse();
    if options.exit_with_stderr {
        eprintln!("fatal: the configuration file /nonexistent/testserver.toml is missing");
        eprintln!("fatal: cannot continue without a configuration");
        return ExitCode::from(1);
    }
    if let Some(ms) = options.slow_start {
        // Before reading stdin, as a server that loads a large index would.
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    let stdout: Box<dyn AsyncWrite + Send + Unpin> =
        if options.garbage_stdout { Box::new(garbage::stdout()) } else { Box::new(tokio::io::stdout()) };
    let server = TestServer::new(&options);
    let served = match server.serve((tokio::io::stdin(), stdout)).await {
        Ok(running) => running.waiting().await.map(drop).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("plugboard-testserver: {message}");
            ExitCode::FAILURE
        }
    }
}
