//! A server's stderr, drained continuously (so a chatty server never blocks on a full pipe) into a bounded ring
//! whose tail is shown when the server fails. It must never grow with the amount written, nor log the text (it
//! may contain secrets).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::watch;

/// At most this many bytes are kept (whatever the line structure: one 100 MB line keeps only its end).
pub(crate) const MAX_BYTES: usize = 64 * 1024;
/// At most this many lines are shown.
pub(crate) const MAX_LINES: usize = 200;

/// A shared view of the last lines a server wrote to stderr.
#[derive(Clone, Debug)]
pub struct StderrTail {
    ring: Arc<Mutex<Ring>>,
    drained: watch::Receiver<bool>,
}

#[derive(Debug, Default)]
struct Ring {
    bytes: VecDeque<u8>,
    /// How many bytes fell off the front.
    dropped: u64,
}

impl Ring {
    fn push(&mut self, chunk: &[u8]) {
        let keep = chunk.len().min(MAX_BYTES);
        let overflow = (self.bytes.len() + keep).saturating_sub(MAX_BYTES);
        self.bytes.drain(..overflow);
        self.dropped += (overflow + chunk.len() - keep) as u64;
        self.bytes.extend(&chunk[chunk.len() - keep..]);
    }
}

impl StderrTail {
    /// Starts draining `stderr` on the runtime; the task ends at EOF (when every process holding the pipe is gone).
    pub(crate) fn drain(mut stderr: impl AsyncRead + Unpin + Send + 'static) -> Self {
        let ring = Arc::new(Mutex::new(Ring::default()));
        let (done, drained) = watch::channel(false);
        let sink = Arc::clone(&ring);
        tokio::spawn(async move {
            let mut buf = vec![0u8; 8 * 1024];
            loop {
                match stderr.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => sink.lock().unwrap_or_else(PoisonError::into_inner).push(&buf[..n]),
                }
            }
            let _ = done.send(true);
        });
        Self { ring, drained }
    }

    /// A tail fed by hand, for tests of the ring itself.
    #[cfg(test)]
    pub(crate) fn detached() -> (Self, impl Fn(&[u8])) {
        let ring = Arc::new(Mutex::new(Ring::default()));
        let (_done, drained) = watch::channel(true);
        let sink = Arc::clone(&ring);
        (Self { ring, drained }, move |chunk: &[u8]| sink.lock().unwrap_or_else(PoisonError::into_inner).push(chunk))
    }

    /// Waits (at most `limit`) until the pipe reached EOF, so a snapshot after a crash has the last words.
    pub(crate) async fn drained(&self, limit: Duration) {
        let mut drained = self.drained.clone();
        let _ = tokio::time::timeout(limit, drained.wait_for(|done| *done)).await;
    }

    /// The last lines (at most [`MAX_LINES`] and [`MAX_BYTES`]) as text, invalid UTF-8 replaced; a first line says
    /// how much was cut.
    pub fn snapshot(&self) -> String {
        let (bytes, dropped) = {
            let ring = self.ring.lock().unwrap_or_else(PoisonError::into_inner);
            (ring.bytes.iter().copied().collect::<Vec<u8>>(), ring.dropped)
        };
        let mut start = 0;
        if dropped > 0 {
            // The first kept line is a fragment: drop it, unless it is all there is (one endless line).
            if let Some(nl) = bytes.iter().position(|b| *b == b'\n')
                && nl + 1 < bytes.len()
            {
                start = nl + 1;
            }
            // Never start inside a UTF-8 sequence.
            while start < bytes.len() && bytes[start] & 0xC0 == 0x80 {
                start += 1;
            }
        }
        let text = String::from_utf8_lossy(&bytes[start..]);
        let text = text.trim_end();
        let lines: Vec<&str> = text.lines().collect();
        let shown = &lines[lines.len().saturating_sub(MAX_LINES)..];
        let hidden_lines = lines.len() - shown.len();
        let mut out = String::new();
        if dropped > 0 || hidden_lines > 0 {
            let cut = dropped + start as u64;
            out.push_str(&format!("[… earlier output not shown: {cut} bytes, {hidden_lines} more lines]\n"));
        }
        out.push_str(&shown.join("\n"));
        out
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        let ring = self.ring.lock().unwrap_or_else(PoisonError::into_inner);
        ring.bytes.is_empty() && ring.dropped == 0
    }
}
