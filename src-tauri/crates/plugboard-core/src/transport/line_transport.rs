//! Newline-delimited JSON-RPC over a reader and a writer: the client's end of a stdio server, and the gateway's end
//! of its stdio client. rmcp's own line transport reads every message through its generic types, which try one
//! result type after another (2.8 µs for an echo's answer, most of it failed attempts) and buffer every request's
//! fields before reading them (2.5 µs for a `tools/call`). This one reads the messages of a tool call, the answer a
//! client waits for and the request a server is sent, straight into their types (0.4 and 0.9 µs), and every other
//! line through rmcp's. It must never reorder lines, answer a notification or a response, nor keep more than one
//! line's bytes.

use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    CallToolRequest, CallToolResult, ClientJsonRpcMessage, ClientNotification, ClientRequest, ErrorData,
    JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, RequestId, ServerJsonRpcMessage, ServerResult,
};
use rmcp::service::{RoleClient, RoleServer, RxJsonRpcMessage, ServiceRole, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// What a role reads straight into its types, and what it must remember of what it sent to know it.
pub(crate) trait ToolCallLines: ServiceRole {
    /// What the role remembers of the messages it sent.
    type Sent: Default + Send + 'static;
    /// Called as `message` goes out, before it is written.
    fn note_sent(sent: &mut Self::Sent, message: &TxJsonRpcMessage<Self>);
    /// `line` read straight into its type, when it is a message of a tool call; `None` leaves it to rmcp's types.
    fn tool_call(sent: &mut Self::Sent, line: &[u8]) -> Option<RxJsonRpcMessage<Self>>;
    /// Called with each message rmcp's types read.
    fn note_received(sent: &mut Self::Sent, message: &RxJsonRpcMessage<Self>);
}

/// A client remembers the ids of its `tools/call` requests not yet answered (or cancelled): only an answer with one
/// of them is read as a `CallToolResult`, since a tool list, say, can parse as a contentless call result.
impl ToolCallLines for RoleClient {
    type Sent = HashSet<RequestId>;

    fn note_sent(calls: &mut Self::Sent, message: &ClientJsonRpcMessage) {
        match message {
            JsonRpcMessage::Request(request) if matches!(request.request, ClientRequest::CallToolRequest(_)) => {
                calls.insert(request.id.clone());
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) = &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    calls.remove(id);
                }
            }
            _ => {}
        }
    }

    /// A complete `CallToolResult` only: a task, a request for input or an empty result is rmcp's to sort out.
    fn tool_call(calls: &mut Self::Sent, line: &[u8]) -> Option<ServerJsonRpcMessage> {
        if calls.is_empty() {
            return None;
        }
        let JsonRpcResponse { jsonrpc, id, result } =
            serde_json::from_slice::<JsonRpcResponse<CallToolResult>>(line).ok()?;
        if !calls.remove(&id) {
            return None;
        }
        Some(JsonRpcMessage::Response(JsonRpcResponse { jsonrpc, id, result: ServerResult::CallToolResult(result) }))
    }

    fn note_received(calls: &mut Self::Sent, message: &ServerJsonRpcMessage) {
        match message {
            JsonRpcMessage::Response(response) => {
                calls.remove(&response.id);
            }
            JsonRpcMessage::Error(error) => {
                if let Some(id) = &error.id {
                    calls.remove(id);
                }
            }
            _ => {}
        }
    }
}

/// A server reads a line naming `tools/call` as that request; anything else, or a call request its type refuses,
/// goes through rmcp's types, which decide.
impl ToolCallLines for RoleServer {
    type Sent = ();

    fn note_sent((): &mut (), _: &ServerJsonRpcMessage) {}

    fn tool_call((): &mut (), line: &[u8]) -> Option<ClientJsonRpcMessage> {
        memchr::memmem::find(line, b"\"tools/call\"")?;
        let JsonRpcRequest { jsonrpc, id, request } =
            serde_json::from_slice::<JsonRpcRequest<CallToolRequest>>(line).ok()?;
        Some(JsonRpcMessage::Request(JsonRpcRequest { jsonrpc, id, request: ClientRequest::CallToolRequest(request) }))
    }

    fn note_received((): &mut (), _: &ClientJsonRpcMessage) {}
}

/// The transport over what the peer writes (`read`) and what it reads (`write`).
pub(crate) struct LineTransport<Role: ToolCallLines, R, W> {
    read: BufReader<R>,
    /// The line being read; cleared only once it is whole and parsed, so a `receive` dropped mid-line (rmcp polls
    /// it in a `select!`) resumes the same line.
    line: Vec<u8>,
    /// The longest line kept, its newline included.
    max_line: usize,
    /// Skipping the rest of a line that grew past `max_line`.
    discarding: bool,
    /// `None` once closed: dropping the writer ends the peer's input.
    write: Arc<tokio::sync::Mutex<Option<Writer<W>>>>,
    sent: Arc<Mutex<Role::Sent>>,
}

/// The peer's input, and the buffer each message is written into first. The buffer keeps its size between
/// messages: a fresh one for each large result (a 5 MiB one, say) would fault in new pages every time.
struct Writer<W> {
    out: W,
    buffer: Vec<u8>,
}

/// What one whole line turned out to be.
enum Line<Role: ServiceRole> {
    Message(RxJsonRpcMessage<Role>),
    /// A request that fits no message type: it gets an Invalid Request error, as rmcp answers it.
    InvalidRequest(RequestId),
    Skipped,
}

impl<Role: ToolCallLines, R: AsyncRead + Unpin, W: AsyncWrite + Unpin> LineTransport<Role, R, W> {
    /// A message longer than `max_message` bytes (its newline not counted) is dropped, and reading goes on.
    pub(crate) fn new(read: R, write: W, max_message: usize) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            max_line: max_message + 1,
            discarding: false,
            write: Arc::new(tokio::sync::Mutex::new(Some(Writer { out: write, buffer: Vec::new() }))),
            sent: Arc::default(),
        }
    }

    /// Reads until `self.line` holds a whole line (its newline included); `false` at the end of the stream or on
    /// a read error.
    async fn read_line(&mut self) -> bool {
        loop {
            let available = match self.read.fill_buf().await {
                Ok([]) => return false,
                Ok(available) => available,
                Err(error) => {
                    tracing::debug!(%error, "reading the peer's messages failed");
                    return false;
                }
            };
            let newline = available.iter().position(|&b| b == b'\n');
            let taken = newline.map_or(available.len(), |at| at + 1);
            if self.discarding {
                self.discarding = newline.is_none();
            } else if self.line.len() + taken > self.max_line {
                tracing::error!(max_line = self.max_line, "a message from the peer was too long: dropped");
                self.line.clear();
                self.discarding = newline.is_none();
            } else {
                self.line.extend_from_slice(&available[..taken]);
                if newline.is_some() {
                    self.read.consume(taken);
                    return true;
                }
            }
            self.read.consume(taken);
        }
    }

    /// The line just read, as a message.
    fn parse_line(&self) -> Line<Role> {
        let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = line.strip_prefix(UTF8_BOM).unwrap_or(line);
        if line.is_empty() {
            return Line::Skipped;
        }
        let mut sent = self.lock_sent();
        if let Some(message) = Role::tool_call(&mut sent, line) {
            return Line::Message(message);
        }
        match serde_json::from_slice::<RxJsonRpcMessage<Role>>(line) {
            Ok(message) => {
                Role::note_received(&mut sent, &message);
                Line::Message(message)
            }
            Err(error) if error.is_data() => match request_id_of(line) {
                Some(id) => {
                    tracing::debug!(%error, "the peer sent a request that fits no message type");
                    Line::InvalidRequest(id)
                }
                None => {
                    tracing::debug!(%error, "ignored a message from the peer that fits no message type");
                    Line::Skipped
                }
            },
            // Not JSON: there is no id to answer, and answering garbage can start an error storm (rmcp and the
            // other SDKs ignore it too).
            Err(error) => {
                tracing::debug!(%error, "ignored a line from the peer that is not JSON");
                Line::Skipped
            }
        }
    }

    fn lock_sent(&self) -> std::sync::MutexGuard<'_, Role::Sent> {
        // Every change is one insert or remove: a panic elsewhere cannot leave it half-changed.
        self.sent.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The `id` of a line that is a request (it has a `method`), read only on the rare path of a request that failed
/// to parse.
fn request_id_of(line: &[u8]) -> Option<RequestId> {
    let value: serde_json::Value = serde_json::from_slice(line).ok()?;
    value.get("method")?;
    serde_json::from_value(value.get("id")?.clone()).ok()
}

async fn write_line<W: AsyncWrite + Unpin>(
    write: &tokio::sync::Mutex<Option<Writer<W>>>,
    message: &impl serde::Serialize,
) -> std::io::Result<()> {
    let mut write = write.lock().await;
    let Some(Writer { out, buffer }) = write.as_mut() else {
        return Err(std::io::Error::new(std::io::ErrorKind::NotConnected, "the transport is closed"));
    };
    buffer.clear();
    serde_json::to_writer(&mut *buffer, message)?;
    buffer.push(b'\n');
    out.write_all(buffer).await?;
    out.flush().await
}

impl<Role, R, W> Transport<Role> for LineTransport<Role, R, W>
where
    Role: ToolCallLines,
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(&mut self, item: TxJsonRpcMessage<Role>) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Before the write: the answer may be read before this future is next polled.
        Role::note_sent(&mut self.lock_sent(), &item);
        let write = Arc::clone(&self.write);
        async move { write_line(&write, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<Role>> {
        loop {
            if !self.read_line().await {
                return None;
            }
            let line = self.parse_line();
            self.line.clear();
            match line {
                Line::Message(message) => return Some(message),
                Line::Skipped => {}
                Line::InvalidRequest(id) => {
                    let error = ErrorData::invalid_request("Invalid request", None);
                    let answer = TxJsonRpcMessage::<Role>::error(error, Some(id));
                    if write_line(&self.write, &answer).await.is_err() {
                        return None;
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.write.lock().await.take());
        Ok(())
    }
}

#[cfg(test)]
#[path = "line_transport_tests.rs"]
mod tests;
