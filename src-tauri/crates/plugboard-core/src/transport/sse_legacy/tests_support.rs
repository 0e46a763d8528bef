//! The legacy SSE tests' script over the shared loopback server (`testing::LoopbackServer`): an event stream that
//! starts with `endpoint` and relays what the test pushes, and POSTs answered with a fixed status. It must never
//! grow a server of its own.

use std::sync::Arc;

use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;

use crate::testing::{LoopbackServer, respond};

/// A server started by [`scripted_sse`] with its control.
pub(super) struct Scripted {
    pub server: LoopbackServer,
    /// Bytes to write on the event stream; drop it to end the stream.
    pub push: mpsc::UnboundedSender<Vec<u8>>,
}

/// The usual script: `GET` answers with an event stream that starts with `endpoint` (if given) and then relays
/// whatever the test pushes, ending when the test drops the sender; `POST` answers `post_status`.
pub(super) async fn scripted_sse(endpoint: Option<&str>, post_status: u16) -> Scripted {
    let (push, pushed) = mpsc::unbounded_channel::<Vec<u8>>();
    let pushed = Arc::new(tokio::sync::Mutex::new(pushed));
    let endpoint = endpoint.map(|e| event("endpoint", e));
    let server = LoopbackServer::start(move |request, mut stream| {
        let (endpoint, pushed) = (endpoint.clone(), pushed.clone());
        async move {
            if request.method == "POST" {
                respond(&mut stream, post_status, &[], b"").await;
                return;
            }
            let _ = stream.write_all(SSE_HEAD.as_bytes()).await;
            if let Some(endpoint) = endpoint {
                let _ = stream.write_all(endpoint.as_bytes()).await;
            }
            let mut pushed = pushed.lock().await;
            while let Some(bytes) = pushed.recv().await {
                if stream.write_all(&bytes).await.is_err() {
                    return;
                }
            }
        }
    })
    .await;
    Scripted { server, push }
}

/// The head of an event stream whose body ends when the connection closes.
pub(super) const SSE_HEAD: &str =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";

/// One SSE event, as a server would frame it.
pub(super) fn event(name: &str, data: &str) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}
