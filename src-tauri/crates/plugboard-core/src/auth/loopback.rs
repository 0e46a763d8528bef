//! The loopback redirect receiver: a listener on 127.0.0.1 with an ephemeral port that answers `GET /callback?…`
//! by handing the URL to the pending-flow registry, serves a short "return to Plugboard" page, and stops once a
//! login accepted its callback. Stray requests (a favicon, another path, a forged state) get a plain answer and the
//! listener keeps waiting for the real one. What a request gets is decided by [`reply_to`], pure over the bytes read
//! (so it can be fuzzed); the rest is reading at most a bounded head and writing the page.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use super::pending::{MAX_CALLBACK_LEN, PendingFlows};

/// The path the authorization server redirects to.
pub const CALLBACK_PATH: &str = "/callback";
/// How long one connection may take to send its request line and headers.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections answered at once.
const MAX_CONNECTIONS: usize = 16;

/// A bound loopback listener, not yet serving.
pub struct LoopbackReceiver {
    listener: TcpListener,
    port: u16,
}

impl LoopbackReceiver {
    /// Binds 127.0.0.1 on a port the OS picks (never a fixed port another program could hold).
    pub async fn bind() -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        Ok(Self { listener, port })
    }

    /// The redirect URI to register and send: `http://127.0.0.1:<port>/callback`.
    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}{CALLBACK_PATH}", self.port)
    }

    /// Serves callbacks into `flows` until one is accepted; abort the handle to stop earlier.
    pub fn serve(self, flows: Arc<PendingFlows>) -> ServingReceiver {
        let task = tokio::spawn(async move {
            let done = Arc::new(tokio::sync::Notify::new());
            // Connections are answered concurrently, so a silent one cannot hold the real callback back; a bound
            // keeps a local flood from piling up tasks.
            let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
            loop {
                let accepted = tokio::select! {
                    () = done.notified() => return,
                    accepted = self.listener.accept() => accepted,
                };
                let Ok((stream, _)) = accepted else { continue };
                let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else { continue };
                let (flows, done, port) = (Arc::clone(&flows), Arc::clone(&done), self.port);
                tokio::spawn(async move {
                    let _slot = slot;
                    match tokio::time::timeout(REQUEST_TIMEOUT, answer(stream, port, &flows)).await {
                        Ok(Ok(true)) => done.notify_one(),
                        Ok(Ok(false)) => {}
                        Ok(Err(e)) => tracing::debug!(error = %e, "loopback receiver: a connection failed"),
                        Err(_) => tracing::debug!("loopback receiver: a connection sent no request in time"),
                    }
                });
            }
        });
        ServingReceiver { task }
    }
}

/// A serving receiver; dropping it closes the port.
pub struct ServingReceiver {
    task: JoinHandle<()>,
}

impl Drop for ServingReceiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Answers one connection; `true` when it delivered the callback a login was waiting for.
async fn answer(mut stream: TcpStream, port: u16, flows: &PendingFlows) -> std::io::Result<bool> {
    let head = read_head(&mut stream).await?;
    let reply = reply_to(head.as_deref(), port, flows);
    respond(&mut stream, reply.status, reply.title, &reply.message).await?;
    Ok(reply.delivered)
}

/// The most a request head may hold: the longest callback plus room for headers.
pub const MAX_HEAD_LEN: usize = MAX_CALLBACK_LEN + 4096;

/// The bytes of a request up to its blank line, or `None` when the connection ended or grew past
/// [`MAX_HEAD_LEN`] first (whatever it sent, no more than that is held).
async fn read_head(stream: &mut TcpStream) -> std::io::Result<Option<Vec<u8>>> {
    let mut buffer = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    while !buffer.windows(4).any(|w| w == b"\r\n\r\n") {
        let read = stream.read(&mut chunk).await?;
        if read == 0 || buffer.len() + read > MAX_HEAD_LEN {
            return Ok(None);
        }
        buffer.extend_from_slice(&chunk[..read]);
    }
    Ok(Some(buffer))
}

/// What the receiver answers, and whether a login took the callback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub title: &'static str,
    /// Fixed text: nothing from the request is echoed.
    pub message: String,
    pub delivered: bool,
}

/// The reply to a request `head` (as [`read_head`] gives it: `None` for one that never ended within the limit) on
/// the receiver at `port`: only `GET /callback?…` over HTTP/1.x is handed to `flows`, which accepts it only for a
/// login waiting for exactly that state.
pub fn reply_to(head: Option<&[u8]>, port: u16, flows: &PendingFlows) -> Reply {
    let plain = |status, title| Reply {
        status,
        title,
        message: "This address only accepts Plugboard's login redirect.".to_owned(),
        delivered: false,
    };
    let Some(target) = head.and_then(request_target) else { return plain(400, "Bad request") };
    let path = target.split('?').next().unwrap_or_default();
    if path != CALLBACK_PATH {
        return plain(404, "Not found");
    }
    match flows.deliver(&format!("http://127.0.0.1:{port}{target}")) {
        Ok(_) => Reply {
            status: 200,
            title: "Return to Plugboard",
            message: "The login is complete: you can close this tab and return to Plugboard.".to_owned(),
            delivered: true,
        },
        Err(rejected) => {
            tracing::info!(reason = %rejected, "loopback receiver: refused a callback");
            Reply { status: 400, title: "Login not completed", message: rejected.to_string(), delivered: false }
        }
    }
}

/// The target of a `GET` request line, or `None` for anything else.
fn request_target(head: &[u8]) -> Option<String> {
    let head = String::from_utf8_lossy(head);
    let mut request_line = head.lines().next().unwrap_or_default().split(' ');
    match (request_line.next(), request_line.next(), request_line.next()) {
        (Some("GET"), Some(target), Some(version)) if target.starts_with('/') && version.starts_with("HTTP/1.") => {
            Some(target.to_owned())
        }
        _ => None,
    }
}

/// A minimal page; `message` comes from fixed texts, and is escaped anyway.
async fn respond(stream: &mut TcpStream, status: u16, title: &str, message: &str) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        _ => "Bad Request",
    };
    let body = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head>\
         <body style=\"font-family:system-ui,sans-serif;margin:4rem auto;max-width:32rem\"><h1>{title}</h1><p>{}</p></body></html>",
        escape_html(message)
    );
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
#[path = "loopback_tests.rs"]
mod tests;
