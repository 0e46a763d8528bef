//! Whether a request that failed provably never reached the server, so that sending it again cannot make it run
//! twice. Each transport says it for its own failures: a write to a stdio server's stdin that failed (a message is
//! one line, and a line whose newline was never written is never read as a message), an HTTP connection that could
//! not be made, a session the server had already forgotten. It must answer "no" whenever it cannot be sure.

use rmcp::ServiceError;
use rmcp::transport::streamable_http_client::StreamableHttpError;

use super::sse_legacy::LegacySseError;

/// For the error of a request rmcp had accepted (`send_request` succeeded): true only when its transport failed to
/// deliver it. A connection that closed while the request was out (`TransportClosed`) may have run it.
pub fn never_reached(error: &ServiceError) -> bool {
    let ServiceError::TransportSend(failed) = error else { return false };
    let cause: &(dyn std::error::Error + 'static) = failed.error.as_ref();
    if cause.is::<std::io::Error>() {
        // Only the stdio transport fails a send with a bare I/O error: writing the line to stdin.
        return true;
    }
    if let Some(http) = cause.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
        return match http {
            StreamableHttpError::Client(e) => e.is_connect(),
            // A 404 for the session: the server did not take the request (rmcp re-initialises and resends it
            // itself when it can).
            StreamableHttpError::SessionExpired => true,
            _ => false,
        };
    }
    cause.downcast_ref::<LegacySseError>().is_some_and(LegacySseError::never_delivered)
}

#[cfg(test)]
mod tests {
    use std::any::TypeId;

    use rmcp::transport::DynamicTransportError;

    use super::*;

    fn failed_send(error: impl std::error::Error + Send + Sync + 'static) -> ServiceError {
        ServiceError::TransportSend(DynamicTransportError::from_parts("test", TypeId::of::<()>(), Box::new(error)))
    }

    /// Only failures that prove the server never got the request say so: a failed stdin write, a refused
    /// connection, a forgotten session, a legacy stream that had already ended. A connection that broke while the
    /// request was out, or an answer that went wrong, may have run it.
    #[tokio::test]
    async fn only_provable_non_delivery_counts() {
        let port = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
        let refused =
            crate::testing::client().get(format!("http://127.0.0.1:{port}/")).send().await.expect_err("closed");
        assert!(refused.is_connect());
        let never = [
            failed_send(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
            failed_send(StreamableHttpError::<reqwest::Error>::Client(refused)),
            failed_send(StreamableHttpError::<reqwest::Error>::SessionExpired),
            failed_send(LegacySseError::Closed),
        ];
        for error in &never {
            assert!(never_reached(error), "{error}");
        }
        let maybe = [
            ServiceError::TransportClosed,
            failed_send(StreamableHttpError::<reqwest::Error>::TransportChannelClosed),
            failed_send(StreamableHttpError::<reqwest::Error>::UnexpectedEndOfStream),
            failed_send(LegacySseError::Status { status: 502, during: "POST" }),
        ];
        for error in &maybe {
            assert!(!never_reached(error), "{error}");
        }
    }
}
