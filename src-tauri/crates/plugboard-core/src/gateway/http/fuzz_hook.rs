//! The gateway's HTTP request handling for the fuzz targets only (feature `fuzzing`): raw bytes go through hyper's
//! HTTP/1 server, as the endpoint's connections do, to the endpoint's screen (path, Host, Origin, size, token,
//! session binding); a request it admits is answered by a stand-in for rmcp. Asserted: nothing is admitted without
//! the token and a Host naming the endpoint.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use http::{Request, Response, header};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::endpoint::{HttpResponse, refused, screen};
use super::guard::Admission;
use super::sessions::SessionBindings;
use super::token::TokenDigest;

/// The token the fuzzed endpoint accepts; inputs that carry it reach the stand-in.
pub const FUZZ_TOKEN: &str = "pbg_fuzz0123456789";
const PORT: u16 = 7450;

/// Serves `raw` (one or more requests, as a client sent them on one connection) and reads the answers.
pub(crate) fn fuzz_request(raw: &[u8]) {
    crate::fuzzing::runtime().block_on(async {
        let admission = Arc::new(Admission::new(PORT, &["http://localhost:5173".to_owned()]));
        let sessions = Arc::new(SessionBindings::default());
        sessions.bind("opened-with-another-token".to_owned(), TokenDigest::of("pbg_another"));
        let token = TokenDigest::of(FUZZ_TOKEN);
        let service = service_fn(move |request: Request<Incoming>| {
            let answer = answer(&admission, &sessions, &token, &request);
            async move { Ok::<_, Infallible>(answer) }
        });
        let (client, server) = tokio::io::duplex(1 << 20);
        let (mut from_server, mut to_server) = tokio::io::split(client);
        let sent = async {
            drop(to_server.write_all(raw).await);
            drop(to_server.shutdown().await);
        };
        let served = http1::Builder::new().serve_connection(TokioIo::new(server), service);
        let answers = async {
            let mut answers = Vec::new();
            drop(from_server.read_to_end(&mut answers).await);
        };
        let all = async { tokio::join!(sent, served, answers) };
        // A connection still open after this long is a finding of its own (libFuzzer reports slow inputs).
        drop(tokio::time::timeout(Duration::from_secs(5), all).await);
    });
}

fn answer(
    admission: &Admission,
    sessions: &SessionBindings,
    token: &TokenDigest,
    request: &Request<Incoming>,
) -> HttpResponse {
    match screen(admission, sessions, Some(token), request.uri().path(), request.headers()) {
        Ok((presented, _)) => {
            assert!(presented.matches(token), "admitted under another token");
            let host = request.headers().get(header::HOST).and_then(|h| h.to_str().ok()).map(str::to_ascii_lowercase);
            assert!(host.as_ref().is_some_and(|h| admission.hosts().contains(h)), "admitted with Host {host:?}");
            Response::new(Full::new(Bytes::from_static(b"admitted\n")).boxed())
        }
        Err(refusal) => refused(&refusal),
    }
}
