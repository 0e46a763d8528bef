//! `plugboard presets` against the real keychain and the reference server: a secret input lands in the
//! Secret Service and nowhere on disk, and the "everything" preset yields a server that connects.

use plugboard_core::secrets::Vault;
use plugboard_core::transport::{StdioLaunch, connect_stdio};

use crate::support::{Sandbox, files_containing, repo_root, stderr, stdout};

const TOKEN: &str = "ghp_PresetCanary0123456789abcdefABCDEF";

/// A secret input piped on stdin is stored in the keychain under the new server and appears in no file of the
/// sandbox (servers.json holds only `${secret:…}`); on the command line it is refused before anything is written.
#[test]
#[ignore = "needs a Secret Service; make test runs it in tests/harness/isolated-env.sh"]
fn secret_input_goes_to_the_keychain_only() {
    let sandbox = Sandbox::new();
    let refused =
        sandbox.run(&["presets", "add", "github-docker", "--input", &format!("GITHUB_PERSONAL_ACCESS_TOKEN={TOKEN}")]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--secret-stdin GITHUB_PERSONAL_ACCESS_TOKEN"), "{}", stderr(&refused));

    let server = format!("gh-{}", std::process::id());
    let out = sandbox.run_with_stdin(
        &["presets", "add", "github-docker", "--name", &server, "--secret-stdin", "GITHUB_PERSONAL_ACCESS_TOKEN"],
        &format!("{TOKEN}\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("added {server}")), "{}", stdout(&out));

    let config = std::fs::read_to_string(sandbox.config_dir().join("servers.json")).expect("config");
    assert!(config.contains("${secret:GITHUB_PERSONAL_ACCESS_TOKEN}"), "{config}");
    assert_eq!(files_containing(sandbox.root(), TOKEN, &[]), Vec::<String>::new(), "the token leaked to disk");
    let vault = Vault::keychain().expect("keychain");
    assert_eq!(
        vault.get(&server, "GITHUB_PERSONAL_ACCESS_TOKEN").expect("get").map(|v| v.expose().clone()),
        Some(TOKEN.to_owned())
    );

    let listed = sandbox.run(&["presets", "list"]);
    assert!(stdout(&listed).contains(&format!("(added as {server})")), "{}", stdout(&listed));
    assert!(sandbox.run(&["remove", &server]).status.success());
    assert_eq!(vault.get(&server, "GITHUB_PERSONAL_ACCESS_TOKEN").expect("get"), None);
}

/// The "everything" preset is saved as `npx -y @modelcontextprotocol/server-everything@<version>`. There is no
/// internet here, so npx cannot download it: the same package at the SAME version, installed in tests/node_modules,
/// stands in for what npx would fetch, run with the saved entry's remaining arguments; it connects and echoes.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn everything_preset_connects() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["presets", "add", "everything"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sandbox.config_dir().join("servers.json")).expect("config"))
            .expect("json");
    let entry = &config["mcpServers"]["everything"];
    assert_eq!(entry["command"], "npx");
    let args: Vec<String> = serde_json::from_value(entry["args"].clone()).expect("args");
    let (pinned, rest) = match args.as_slice() {
        [yes, pinned, rest @ ..] if yes == "-y" => (pinned.clone(), rest.to_vec()),
        other => panic!("unexpected args {other:?}"),
    };
    let version = pinned.strip_prefix("@modelcontextprotocol/server-everything@").expect("pinned package");

    let package = repo_root().join("tests/node_modules/@modelcontextprotocol/server-everything");
    let installed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(package.join("package.json")).expect("installed package"))
            .expect("json");
    assert_eq!(installed["version"], version, "tests/ must install the version the preset pins");

    let program = repo_root().join("tests/node_modules/.bin/mcp-server-everything");
    let session = connect_stdio(&StdioLaunch { program, args: rest, ..StdioLaunch::default() }).await.expect("connect");
    let echo = serde_json::json!({ "message": "from a preset" });
    let result = session.call_tool("echo", echo.as_object().cloned().unwrap_or_default()).await.expect("call");
    let texts: Vec<_> = result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["Echo: from a preset"]);
    session.close().await.expect("close");
}

/// `presets list --search` keeps only the presets holding every word (any case), and says so when none does.
#[test]
fn presets_list_searches() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["presets", "list", "--search", "FIGMA"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let names: Vec<String> =
        stdout(&out).lines().filter_map(|l| l.split_whitespace().next()).map(str::to_owned).collect();
    assert_eq!(names, ["figma", "figma-desktop"]);
    let out = sandbox.run(&["presets", "list", "--search", "figma nothing-like-this"]);
    assert_eq!(stdout(&out).trim(), "No preset matches \"figma nothing-like-this\".");
}
