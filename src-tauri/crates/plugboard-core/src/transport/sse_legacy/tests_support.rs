//! A tiny scripted HTTP/1.1 server for the legacy SSE tests, written on a raw `TcpListener`.
//! Must never bind anything but 127.0.0.1 on an ephemeral port, and never outlive its test (dropping it stops it).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::{JoinHandle, JoinSet};

/// What the client sent, as the server saw it.
#[derive(Debug, Clone)]
pub(super) struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A running fake server; dropping it aborts the accept loop and every connection.
pub(super) struct FakeServer {
    pub addr: SocketAddr,
    task: JoinHandle<()>,
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakeServer {
    /// Serves each connection's first request with `handler`, which writes the raw response itself.
    pub(super) async fn start<F, Fut>(handler: F) -> Self
    where
        F: Fn(Request, TcpStream) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
        let addr = listener.local_addr().expect("addr");
        let handler = Arc::new(handler);
        let task = tokio::spawn(async move {
            // Owned here so that aborting this task drops (and aborts) every connection task.
            let mut connections = JoinSet::new();
            while let Ok((mut stream, _)) = listener.accept().await {
                let handler = handler.clone();
                connections.spawn(async move {
                    if let Some(request) = read_request(&mut stream).await {
                        handler(request, stream).await;
                    }
                });
            }
        });
        Self { addr, task }
    }

    pub(super) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The usual script: `GET /sse` answers with an event stream that starts with `endpoint` (if given) and then
    /// relays whatever the test pushes, ending when the test drops the sender; `POST` answers `post_status`.
    /// Every request is recorded.
    pub(super) async fn sse(endpoint: Option<&str>, post_status: u16) -> Scripted {
        let (push, pushed) = mpsc::unbounded_channel::<Vec<u8>>();
        let pushed = Arc::new(tokio::sync::Mutex::new(pushed));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let endpoint = endpoint.map(|e| event("endpoint", e));
        let seen = requests.clone();
        let server = Self::start(move |request, mut stream| {
            seen.lock().expect("lock").push(request.clone());
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
        Scripted { server, push, requests }
    }
}

/// A server started by [`FakeServer::sse`] with its controls.
pub(super) struct Scripted {
    pub server: FakeServer,
    /// Bytes to write on the event stream; drop it to end the stream.
    pub push: mpsc::UnboundedSender<Vec<u8>>,
    pub requests: Arc<Mutex<Vec<Request>>>,
}

/// The head of an event stream whose body ends when the connection closes.
pub(super) const SSE_HEAD: &str =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";

/// One SSE event, as a server would frame it.
pub(super) fn event(name: &str, data: &str) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// A complete response with a body, then the connection closes.
pub(super) async fn respond(stream: &mut TcpStream, status: u16, headers: &[(&str, &str)], body: &[u8]) {
    let mut head = format!("HTTP/1.1 {status} Whatever\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes()).await;
    let _ = stream.write_all(body).await;
    let _ = stream.flush().await;
}

/// A client that ignores any proxy settings of the machine running the tests.
pub(super) fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().expect("client")
}

async fn read_request(stream: &mut TcpStream) -> Option<Request> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut start = lines.next()?.split(' ');
    let (method, path) = (start.next()?.to_owned(), start.next()?.to_owned());
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned())).collect();
    let length = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = buffer[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Request { method, path, headers, body })
}
