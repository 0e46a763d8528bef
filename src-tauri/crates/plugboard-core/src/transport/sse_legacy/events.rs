//! A push parser for `text/event-stream` (WHATWG "server-sent events") with a hard cap on what one event may hold.
//! It must never buffer more than the cap, whatever the server sends (a 20 MB line without a newline included).
//!
//! Why not `sse_stream`: it buffers an unfinished line without limit, and a parse error (invalid UTF-8, an unknown
//! field) drops the rest of the chunk, so the stream cannot continue past it. Here bytes stay bytes until the
//! consumer decodes an event's data, unknown fields are ignored as the spec says, and the cap is enforced before
//! anything is appended.

use std::collections::VecDeque;

/// One dispatched event: its type (`message` when the server named none) and its data lines joined by `\n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SseEvent {
    pub event: String,
    pub data: Vec<u8>,
}

/// The event being assembled grew past the cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TooLarge;

/// Feed it chunks as they arrive; it yields whole events. `id:` and `retry:` are ignored: this transport never resumes.
#[derive(Debug)]
pub(super) struct EventParser {
    max_event_bytes: usize,
    /// The current, not yet terminated line.
    line: Vec<u8>,
    /// The current event's data so far (lines joined by `\n`, plus a trailing `\n` removed at dispatch).
    data: Vec<u8>,
    event_type: Option<String>,
    /// The previous chunk ended in `\r`: a leading `\n` in the next one belongs to the same line break.
    skip_lf: bool,
    first_line: bool,
    ready: VecDeque<SseEvent>,
}

impl EventParser {
    pub(super) fn new(max_event_bytes: usize) -> Self {
        Self {
            max_event_bytes,
            line: Vec::new(),
            data: Vec::new(),
            event_type: None,
            skip_lf: false,
            first_line: true,
            ready: VecDeque::new(),
        }
    }

    /// Parses one chunk. After `Err(TooLarge)` the parser's state is meaningless: drop the stream.
    pub(super) fn push(&mut self, mut chunk: &[u8]) -> Result<(), TooLarge> {
        if chunk.is_empty() {
            // Keep `skip_lf` for the next non-empty chunk.
            return Ok(());
        }
        if self.skip_lf {
            self.skip_lf = false;
            if let Some(rest) = chunk.strip_prefix(b"\n") {
                chunk = rest;
            }
        }
        while !chunk.is_empty() {
            let Some(end) = chunk.iter().position(|b| *b == b'\n' || *b == b'\r') else {
                self.reserve_check(chunk.len())?;
                self.line.extend_from_slice(chunk);
                return Ok(());
            };
            self.reserve_check(end)?;
            if self.line.is_empty() {
                self.process_line(&chunk[..end])?;
            } else {
                self.line.extend_from_slice(&chunk[..end]);
                let line = std::mem::take(&mut self.line);
                let result = self.process_line(&line);
                // Keep the allocation for the next long line; it is bounded by the cap.
                self.line = line;
                self.line.clear();
                result?;
            }
            let crlf_split = chunk[end] == b'\r';
            chunk = &chunk[end + 1..];
            if crlf_split {
                match chunk.first() {
                    Some(b'\n') => chunk = &chunk[1..],
                    None => self.skip_lf = true,
                    Some(_) => {}
                }
            }
        }
        Ok(())
    }

    /// The next complete event, if any.
    pub(super) fn next_event(&mut self) -> Option<SseEvent> {
        self.ready.pop_front()
    }

    /// Bytes held for the event in progress: what the cap bounds.
    #[cfg(any(test, feature = "fuzzing"))]
    pub(super) fn buffered_len(&self) -> usize {
        self.line.len() + self.data.len()
    }

    fn reserve_check(&self, more: usize) -> Result<(), TooLarge> {
        let held = self.line.len() + self.data.len();
        if held.saturating_add(more) > self.max_event_bytes { Err(TooLarge) } else { Ok(()) }
    }

    fn process_line(&mut self, mut line: &[u8]) -> Result<(), TooLarge> {
        if std::mem::take(&mut self.first_line) {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        if line.is_empty() {
            self.dispatch();
            return Ok(());
        }
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(0) => return Ok(()), // a comment, e.g. a keep-alive
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        match field {
            b"data" => {
                // +1 for the `\n` that joins data lines.
                self.reserve_check(value.len() + 1)?;
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
            }
            b"event" => self.event_type = Some(String::from_utf8_lossy(value).into_owned()),
            // `id`, `retry` and unknown fields are ignored (the spec says so for unknown ones).
            _ => {}
        }
        Ok(())
    }

    fn dispatch(&mut self) {
        let event_type = self.event_type.take();
        if self.data.is_empty() {
            // The spec: an event without data is not dispatched.
            return;
        }
        let mut data = std::mem::take(&mut self.data);
        data.pop(); // the trailing `\n`
        let event = match event_type {
            Some(t) if !t.is_empty() => t,
            _ => "message".to_owned(),
        };
        self.ready.push_back(SseEvent { event, data });
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn parse_all(chunks: &[&[u8]], cap: usize) -> Result<Vec<SseEvent>, TooLarge> {
        let mut parser = EventParser::new(cap);
        let mut events = Vec::new();
        for chunk in chunks {
            parser.push(chunk)?;
            events.extend(std::iter::from_fn(|| parser.next_event()));
        }
        Ok(events)
    }

    fn ev(event: &str, data: &str) -> SseEvent {
        SseEvent { event: event.to_owned(), data: data.as_bytes().to_vec() }
    }

    const SAMPLE: &[u8] =
        b"\xEF\xBB\xBF: hello\r\n\r\nevent: endpoint\r\ndata: /m?s=1\r\n\r\ndata: a\rdata:b\r\rid: 7\nretry: x\n\
        foo: bar\nnocolon\ndata\n\nevent: other\n\nevent:\ndata:  two spaces\n\n";

    fn sample_events() -> Vec<SseEvent> {
        vec![ev("endpoint", "/m?s=1"), ev("message", "a\nb"), ev("message", ""), ev("message", " two spaces")]
    }

    /// LF, CRLF and CR line ends, a BOM, comments, multi-line data, `data` without a colon, unknown fields and an
    /// event without data all follow the WHATWG rules.
    #[test]
    fn line_endings_comments_and_fields_follow_the_spec() {
        assert_eq!(parse_all(&[SAMPLE], 1024), Ok(sample_events()));
    }

    /// An event not yet terminated by a blank line is not dispatched.
    #[test]
    fn an_unterminated_event_is_held_back() {
        assert_eq!(parse_all(&[b"data: x\n"], 1024), Ok(vec![]));
    }

    proptest! {
        /// Where the network splits the bytes never changes the events (a CRLF split across chunks included).
        #[test]
        fn events_survive_any_chunking(cuts in proptest::collection::vec(0..SAMPLE.len(), 0..12)) {
            let mut cuts = cuts;
            cuts.sort_unstable();
            let mut chunks = Vec::new();
            let mut from = 0;
            for cut in cuts {
                chunks.push(&SAMPLE[from..cut]);
                from = cut;
            }
            chunks.push(&SAMPLE[from..]);
            prop_assert_eq!(parse_all(&chunks, 1024), Ok(sample_events()));
        }
    }

    /// A line that never ends is refused once it passes the cap, and the parser never holds more than the cap.
    #[test]
    fn an_endless_line_is_cut_off_at_the_cap() {
        let cap = 16 * 1024;
        let mut parser = EventParser::new(cap);
        let chunk = [b'x'; 1000];
        let mut refused = false;
        for _ in 0..100 {
            if parser.push(&chunk).is_err() {
                refused = true;
                break;
            }
            assert!(parser.buffered_len() <= cap);
        }
        assert!(refused);
        assert!(parser.buffered_len() <= cap);
    }

    /// Many short data lines add up: the cap is on the event, not on one line.
    #[test]
    fn many_data_lines_count_towards_the_cap() {
        let event: Vec<u8> = b"data: 0123456789\n".repeat(200);
        assert_eq!(parse_all(&[&event], 1000), Err(TooLarge));
        assert!(parse_all(&[&event, b"\n"], 4000).is_ok_and(|events| events[0].data.len() == 200 * 11 - 1));
    }

    /// Events below the cap pass, one after another, however many: the cap resets at each event.
    #[test]
    fn the_cap_applies_per_event() {
        let one = format!("data: {}\n\n", "y".repeat(900));
        let stream = one.repeat(50);
        let events = parse_all(&[stream.as_bytes()], 1000).expect("each event fits");
        assert_eq!(events.len(), 50);
        assert_eq!(parse_all(&[one.as_bytes()], 800), Err(TooLarge));
    }
}
