//! The server's stdout as rmcp reads it, cut off once a line grows past [`MAX_MESSAGE_BYTES`]: the read fails (rmcp
//! then ends the session) and the session's wire says why. rmcp alone would drop the oversized line and read on,
//! so a server stuck writing one endless line would look healthy while every request to it hung. It must never
//! hand rmcp a byte of a line past the limit, nor count anything but the bytes since the last newline.

use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

use crate::transport::limits::{LimitExceeded, Tripwire};

#[cfg(doc)]
use crate::transport::limits::MAX_MESSAGE_BYTES;

/// `inner`, with lines of at most `limit` bytes (the newline not counted).
pub(crate) struct LineLimit<R> {
    inner: R,
    limit: usize,
    /// Bytes since the last newline, over every read so far.
    open_line: usize,
    wire: Tripwire,
}

impl<R> LineLimit<R> {
    pub(crate) fn new(inner: R, limit: usize, wire: Tripwire) -> Self {
        Self { inner, limit, open_line: 0, wire }
    }
}

/// The open line's length after `bytes`, and the longest line they hold (counting the open line they continue).
/// Every byte a server writes passes here, so newlines are found with `memchr` (a vector at a time): a byte-wise
/// search took about half as long as rmcp's own newline search in a 5 MiB result.
fn scan(open_line: usize, bytes: &[u8]) -> (usize, usize) {
    let mut newlines = memchr::memchr_iter(b'\n', bytes);
    let Some(first) = newlines.next() else {
        let open = open_line.saturating_add(bytes.len());
        return (open, open);
    };
    // The bytes before the first newline continue the open line.
    let mut longest = open_line.saturating_add(first);
    let mut line_start = first + 1;
    for newline in newlines {
        longest = longest.max(newline - line_start);
        line_start = newline + 1;
    }
    let open = bytes.len() - line_start;
    (open, longest.max(open))
}

impl<R: AsyncRead + Unpin> AsyncRead for LineLimit<R> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        if let Some(cause) = this.wire.cause() {
            return Poll::Ready(Err(std::io::Error::other(cause.clone())));
        }
        let before = buf.filled().len();
        std::task::ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        let (open, longest) = scan(this.open_line, &buf.filled()[before..]);
        if longest > this.limit {
            // Not one byte of this read reaches rmcp.
            buf.set_filled(before);
            let cause = LimitExceeded::StdoutLine { limit: this.limit };
            this.wire.trip(cause.clone());
            return Poll::Ready(Err(std::io::Error::other(cause)));
        }
        this.open_line = open;
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt;

    use super::*;

    /// The meaning `scan` must keep, written the plain way: split at every newline, the first piece continuing the
    /// open line.
    fn scan_by_splitting(open_line: usize, bytes: &[u8]) -> (usize, usize) {
        let mut pieces = bytes.split(|b| *b == b'\n');
        let mut open = open_line + pieces.next().map_or(0, <[u8]>::len);
        let mut longest = open;
        for piece in pieces {
            open = piece.len();
            longest = longest.max(open);
        }
        (open, longest)
    }

    /// Reads that end mid-line, on a newline, hold no newline, start with one, or hold nothing: the same lengths as
    /// splitting gives, whatever line was open before.
    #[test]
    fn scan_measures_lines_as_splitting_does() {
        let reads: [&[u8]; 9] =
            [b"", b"\n", b"\n\n", b"abc", b"abc\n", b"\nabc", b"ab\ncdefg\nh", b"abcdef\nab\n", b"a\n\nbcd\n\n"];
        for open_line in [0, 3, 100] {
            for bytes in reads {
                assert_eq!(scan(open_line, bytes), scan_by_splitting(open_line, bytes), "{open_line} {bytes:?}");
            }
        }
    }

    /// Lines up to the limit pass whole, however the reads split them; one byte more fails the read, trips the
    /// wire and hands nothing of the oversized line on.
    #[tokio::test]
    async fn a_line_past_the_limit_fails_the_read() {
        let ok = b"0123456789\nabc\n0123456789\n".to_vec();
        let wire = Tripwire::default();
        let mut reader = LineLimit::new(tokio::io::BufReader::with_capacity(4, &ok[..]), 10, wire.clone());
        let mut out = Vec::new();
        reader.read_to_end(&mut out).await.expect("lines of 10 pass");
        assert_eq!(out, ok);
        assert!(wire.cause().is_none());

        let long = b"0123456789\nthis line has 21 bytes\n".to_vec();
        let wire = Tripwire::default();
        let mut reader = LineLimit::new(tokio::io::BufReader::with_capacity(4, &long[..]), 10, wire.clone());
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).await.expect_err("21 > 10");
        assert!(err.to_string().contains("without a newline"), "{err}");
        assert_eq!(wire.cause(), Some(&LimitExceeded::StdoutLine { limit: 10 }));
        assert!(out.len() <= 10 + 1 + 10, "no byte past the limit was handed on: {}", out.len());
    }
}
