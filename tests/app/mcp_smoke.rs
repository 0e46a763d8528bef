//! The core talks MCP over stdio to the reference `server-everything`, installed by `make test` under tests/.

use std::path::PathBuf;

use plugboard_core::transport::{StdioLaunch, connect_stdio};

fn server_everything() -> PathBuf {
    let bin = crate::repo_root().join("tests/node_modules/.bin/mcp-server-everything");
    assert!(bin.exists(), "{} is missing: run `make deps` (npm ci in tests/)", bin.display());
    bin
}

/// Connects, lists every tool (echo among them) and calls `echo`, getting the message back as text.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn stdio_everything_lists_tools_and_echoes() {
    let launch = StdioLaunch { program: server_everything(), args: vec!["stdio".into()], ..StdioLaunch::default() };
    let session = connect_stdio(&launch).await.expect("connect");
    assert!(session.server_name().is_some_and(|n| !n.is_empty()));

    let tools = session.list_tools().await.expect("list tools");
    let names: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
    assert!(names.iter().any(|n| n == "echo"), "{names:?}");

    let args = serde_json::json!({ "message": "hello from plugboard" });
    let result = session.call_tool("echo", args.as_object().cloned().unwrap_or_default()).await.expect("call");
    assert_ne!(result.is_error, Some(true));
    let texts: Vec<_> = result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["Echo: hello from plugboard"]);
    session.close().await.expect("close");
}
