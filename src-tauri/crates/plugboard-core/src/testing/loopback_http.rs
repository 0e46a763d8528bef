//! For tests: the one hand-written HTTP/1.1 server, on 127.0.0.1 (or another loopback address) and an ephemeral
//! port. Each connection carries one request, which is recorded (method, path, headers, body) and then either
//! answered from a routing function ([`LoopbackServer::replying`]) or handed with its socket to the test, which
//! writes what it likes, an endless event stream included ([`LoopbackServer::start`]). It must never bind a non-loopback address nor outlive its test:
//! dropping it stops the accept loop and every connection.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};

/// What the client sent, as the server saw it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// With the query.
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A complete response for [`LoopbackServer::replying`].
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

    /// A redirect (`status` 301, 302, 307, …) to `location`.
    pub fn redirect(status: u16, location: impl Into<String>) -> Self {
        Self { status, headers: vec![("location".into(), location.into())], body: String::new() }
    }
}

/// A running server.
pub struct LoopbackServer {
    pub addr: SocketAddr,
    /// `http://127.0.0.1:<port>` (or the other loopback address), no trailing slash.
    pub base: String,
    requests: Arc<Mutex<Vec<Request>>>,
    task: JoinHandle<()>,
}

impl Drop for LoopbackServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl LoopbackServer {
    /// Answers each request with `route(method, path with query, base URL)`, then closes the connection.
    pub async fn replying(route: impl Fn(&str, &str, &str) -> Reply + Send + Sync + 'static) -> Self {
        Self::replying_at(Ipv4Addr::LOCALHOST, route).await
    }

    /// [`Self::replying`] on another loopback address: 127.0.0.2 is this machine too (Linux answers all of
    /// 127.0.0.0/8), but another host for the network guard.
    pub async fn replying_at(ip: Ipv4Addr, route: impl Fn(&str, &str, &str) -> Reply + Send + Sync + 'static) -> Self {
        Self::replying_to_at(ip, move |request, base| route(&request.method, &request.path, base)).await
    }

    /// Answers each request with `route(the whole request, base URL)`, for routes that read headers or the body.
    pub async fn replying_to(route: impl Fn(&Request, &str) -> Reply + Send + Sync + 'static) -> Self {
        Self::replying_to_at(Ipv4Addr::LOCALHOST, route).await
    }

    async fn replying_to_at(ip: Ipv4Addr, route: impl Fn(&Request, &str) -> Reply + Send + Sync + 'static) -> Self {
        assert!(ip.is_loopback(), "test servers listen on loopback only");
        let listener = TcpListener::bind((ip, 0)).await.expect("bind loopback");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let route = Arc::new(route);
        Self::serve(listener, move |request, mut stream| {
            let reply = route(&request, &base);
            async move {
                let headers: Vec<(&str, &str)> = reply.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
                respond(&mut stream, reply.status, &headers, reply.body.as_bytes()).await;
                let _ = stream.shutdown().await;
            }
        })
    }

    /// Hands each connection's first request and its socket to `handler`, which writes the raw response itself.
    pub async fn start<F, Fut>(handler: F) -> Self
    where
        F: Fn(Request, TcpStream) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        Self::start_at(std::net::SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), handler).await
    }

    /// [`Self::start`] on `addr` (a loopback address; port 0 for a free one), e.g. the port of a server that went
    /// away, to bring it back.
    pub async fn start_at<F, Fut>(addr: SocketAddr, handler: F) -> Self
    where
        F: Fn(Request, TcpStream) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        assert!(addr.ip().is_loopback(), "test servers listen on loopback only");
        Self::serve(TcpListener::bind(addr).await.expect("bind loopback"), handler)
    }

    fn serve<F, Fut>(listener: TcpListener, handler: F) -> Self
    where
        F: Fn(Request, TcpStream) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let addr = listener.local_addr().expect("addr");
        let handler = Arc::new(handler);
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        let task = tokio::spawn(async move {
            // Owned here so that aborting this task drops (and aborts) every connection task.
            let mut connections = JoinSet::new();
            while let Ok((mut stream, _)) = listener.accept().await {
                let (handler, seen) = (handler.clone(), seen.clone());
                connections.spawn(async move {
                    if let Some(request) = read_request(&mut stream).await {
                        seen.lock().expect("requests").push(request.clone());
                        handler(request, stream).await;
                    }
                });
            }
        });
        Self { addr, base: format!("http://{addr}"), requests, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().expect("requests").clone()
    }

    /// `"METHOD /path?query"` of every request so far.
    pub fn request_lines(&self) -> Vec<String> {
        self.requests().iter().map(|r| format!("{} {}", r.method, r.path)).collect()
    }
}

/// A complete response with a body; the connection closes after it.
pub async fn respond(stream: &mut TcpStream, status: u16, headers: &[(&str, &str)], body: &[u8]) {
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
pub fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().expect("client")
}

/// The head and, by its Content-Length, the whole body: closing with unread bytes would reset the connection under
/// the reply.
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
