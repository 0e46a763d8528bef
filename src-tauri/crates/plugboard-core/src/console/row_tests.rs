//! The history's row of a big result: only its start is kept, and a secret or a token that begins before the cut
//! is redacted whole, never stored in part.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};

use super::history::RESULT_CAP;
use super::*;
use crate::secrets::{KnownSecret, SecretIndex, Sensitive};

const SERVER: &str = "files";

fn finished(secrets: ServerSecrets) -> Finished {
    Finished {
        server: SERVER.into(),
        tool: "read".into(),
        arguments: JsonObject::new(),
        started_at_ms: 1_700_000_000_000.0,
        duration_ms: 1,
        origin: None,
        secrets,
    }
}

/// A result whose text has `secret` starting `before` bytes ahead of the history's cap in the row's JSON text, and a
/// long tail after it.
fn result_with(secret: &str, before: usize) -> Result<CallToolResult, SupervisorError> {
    let head = serde_json::to_string(&CallToolResult::success(vec![ContentBlock::text("MARK")]))
        .expect("serialize")
        .find("MARK")
        .expect("the text's place");
    let filler = " ".repeat(RESULT_CAP - before - head);
    let text = format!("{filler}{secret} {}", "tail ".repeat(RESULT_CAP));
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
}

/// The row as a real history file keeps it, read back: its result text and whether it is marked cut.
fn stored(call: NewCall) -> (String, bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    let history = History::open(&dir.path().join(history::FILE_NAME)).expect("history");
    let id = history.record(call).expect("record").id;
    match history.get(id).expect("read back").outcome {
        CallOutcome::Result { result, truncated, .. } => (result, truncated),
        other => panic!("not a result: {other:?}"),
    }
}

/// A result several times the cap is kept up to the cap, marked cut.
#[test]
fn a_big_result_is_cut_at_the_cap() {
    let result = result_with("plain", 100);
    let (text, truncated) = stored(finished(ServerSecrets::default()).row(&result));
    assert!(truncated);
    let whole = serde_json::to_string(result.as_ref().expect("a result")).expect("serialize");
    assert_eq!(text, whole[..RESULT_CAP], "the start of the whole text, cut at the cap");
}

/// A token the tool echoed, beginning just before the cap: redacted whole, so not even its start is stored.
#[test]
fn a_token_across_the_cap_is_redacted_whole() {
    let token = format!("ghp_{}", "A1b2C3d4E5".repeat(4));
    let (text, truncated) = stored(finished(ServerSecrets::default()).row(&result_with(&token, 10)));
    assert!(truncated);
    assert!(!text.contains("ghp_"), "the token's start was stored: …{}", &text[text.len() - 40..]);
}

/// A managed secret longer than the token margin, beginning just before the cap: replaced by its reference whole.
#[test]
fn a_long_secret_across_the_cap_is_replaced_whole() {
    // Random letters, as a key is: a periodic value makes the search's automaton slow to build.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let value: String = (0..TOKEN_MARGIN + 4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(b'a' + (state % 26) as u8)
        })
        .collect();
    let index = SecretIndex::new([KnownSecret {
        server: SERVER.into(),
        name: "KEY".into(),
        value: Sensitive::new(value.clone()),
    }]);
    let secrets = ServerSecrets::new(Arc::new(index), SERVER);
    assert!(secrets.longest_form() > TOKEN_MARGIN, "the secret outgrows the token margin");
    let (text, _) = stored(finished(secrets).row(&result_with(&value, 10)));
    assert!(!text.contains(&value[..10]), "the secret's start was stored");
}
