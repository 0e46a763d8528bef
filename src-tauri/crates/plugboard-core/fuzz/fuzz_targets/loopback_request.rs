//! Fuzzes the loopback redirect receiver's request handling: whatever a local process sends (cut at the blank line,
//! as the receiver reads it, or refused when none comes within the limit), the reply is one of its fixed pages, and
//! a login is completed only by `GET /callback` carrying its state.
#![no_main]

use plugboard_core::auth::loopback::{MAX_HEAD_LEN, reply_to};
use plugboard_core::auth::{Expectation, PendingFlows};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let flows = PendingFlows::new();
    let _waiting = flows.register("fuzz-state", "fuzzed", Expectation::default());
    let end = data.windows(4).position(|w| w == b"\r\n\r\n").map(|at| at + 4);
    let head = end.filter(|end| *end <= MAX_HEAD_LEN).map(|end| &data[..end]);
    let reply = reply_to(head, 8123, &flows);
    assert!(matches!(reply.status, 200 | 400 | 404), "{reply:?}");
    if reply.delivered {
        let head = String::from_utf8_lossy(head.expect("a delivered callback had a head"));
        assert!(head.starts_with("GET /callback?"), "{head:?}");
        assert!(flows.is_empty(), "the login took it, once");
    }
    assert!(reply.message.len() < 200 && !reply.message.contains('<'), "{reply:?}");
});
