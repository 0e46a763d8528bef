//! A call whose history row cannot be written (the database read-only, as in a read-only data dir) still gives the person its
//! result, saying it was not remembered; against server-everything over stdio and a real SQLite file.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::config::model::{ServerConfig, ServerName, StdioSpec, Transport};
use crate::supervisor::ServerStatus;
use crate::testing::{everything_bin, supervisor};

/// With the history refusing writes, the console's call returns the whole result and says why it is not in the
/// history; nothing was recorded; once writes work again, the next call is recorded as before.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn a_call_the_history_cannot_take_still_returns_its_result() {
    let bin = everything_bin();
    assert!(bin.exists(), "{} is missing: make test installs it", bin.display());
    let dir = tempfile::tempdir().expect("temp dir");
    let history = Arc::new(History::open(&dir.path().join(history::FILE_NAME)).expect("history"));
    let sup = Arc::new(supervisor());
    let config = ServerConfig::new(
        ServerName::parse("everything").expect("name"),
        Transport::Stdio(StdioSpec {
            command: bin.display().to_string(),
            args: vec!["stdio".into()],
            env: Default::default(),
            cwd: None,
        }),
    );
    sup.reconcile(vec![config]).await;
    assert!(matches!(sup.settled("everything", Duration::from_secs(60)).await, Ok(ServerStatus::Ready { .. })));
    let console = Console::new(Arc::clone(&sup), Arc::clone(&history), None);
    let message = json!({ "message": "kept" }).as_object().cloned().unwrap_or_default();

    history.refuse_writes(true);
    let entry = console.run("c-1", "everything", "echo", message.clone(), |_| {}).await.expect("the call returns");
    let CallOutcome::Result { result, is_error: false, .. } = &entry.outcome else { panic!("{:?}", entry.outcome) };
    assert!(result.contains("Echo: kept"), "{result}");
    let why = entry.unrecorded.as_deref().expect("it says it was not recorded");
    assert!(why.contains("readonly"), "{why}");
    assert_eq!(entry.id, 0);
    assert_eq!(console.page(String::new(), None, 10).await.expect("page").total, 0);

    history.refuse_writes(false);
    let entry = console.run("c-2", "everything", "echo", message, |_| {}).await.expect("the call returns");
    assert_eq!(entry.unrecorded, None);
    assert_eq!(console.page(String::new(), None, 10).await.expect("page").total, 1);
    sup.shutdown().await;
}
