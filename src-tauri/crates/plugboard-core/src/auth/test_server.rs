//! For tests: a tiny HTTP/1.1 server on 127.0.0.1 that answers each request from a routing function and records the
//! method and path of every request, so a test can assert what was (and was never) asked for. One request per
//! connection; stopped when dropped.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A response: status, extra headers, JSON (or other) body.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    #[allow(clippy::needless_pass_by_value, reason = "called with `json!(..)` temporaries")]
    pub fn json(value: serde_json::Value) -> Self {
        Self { status: 200, headers: vec![("content-type".into(), "application/json".into())], body: value.to_string() }
    }

    pub fn status(status: u16) -> Self {
        Self { status, headers: Vec::new(), body: String::new() }
    }
}

/// Routes `(method, path with query, base URL)` to a reply.
type Route = dyn Fn(&str, &str, &str) -> Reply + Send + Sync;

/// A running server.
pub struct TestServer {
    pub base: String,
    requests: Arc<Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    pub async fn start(route: impl Fn(&str, &str, &str) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let route: Arc<Route> = Arc::new(route);
        let (seen, served_base) = (requests.clone(), base.clone());
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let (seen, route, base) = (seen.clone(), route.clone(), served_base.clone());
                tokio::spawn(async move {
                    let mut buffer = vec![0u8; 16 * 1024];
                    let mut read = 0;
                    // Headers end with a blank line; the bodies sent to this server are small and come with them.
                    while !buffer[..read].windows(4).any(|w| w == b"\r\n\r\n") && read < buffer.len() {
                        match stream.read(&mut buffer[read..]).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => read += n,
                        }
                    }
                    let head = String::from_utf8_lossy(&buffer[..read]).into_owned();
                    // Read the body too: closing with unread bytes would reset the connection under the reply.
                    let header_end = head.find("\r\n\r\n").map_or(read, |i| i + 4);
                    let length = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned())
                        })
                        .and_then(|v| v.parse::<usize>().ok())
                        .unwrap_or(0);
                    let mut remaining = (header_end + length).saturating_sub(read);
                    while remaining > 0 {
                        match stream.read(&mut buffer[..remaining.min(16 * 1024)]).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => remaining = remaining.saturating_sub(n),
                        }
                    }
                    let mut parts = head.split_whitespace();
                    let (method, path) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
                    seen.lock().unwrap().push(format!("{method} {path}"));
                    let reply = route(method, path, &base);
                    let mut response = format!(
                        "HTTP/1.1 {} X\r\ncontent-length: {}\r\nconnection: close\r\n",
                        reply.status,
                        reply.body.len()
                    );
                    for (name, value) in &reply.headers {
                        response.push_str(&format!("{name}: {value}\r\n"));
                    }
                    response.push_str("\r\n");
                    response.push_str(&reply.body);
                    let _ = stream.write_all(response.as_bytes()).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        Self { base, requests, task }
    }

    /// `"METHOD /path?query"` of every request so far.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
