//! `plugboard import` on a HOME with Cursor, Claude Desktop and VS Code files full of literal secrets.

use plugboard_core::secrets::Vault;

use crate::support::{Sandbox, files_containing, stderr, stdout};

const GITHUB_TOKEN: &str = "ghp_Zx81u7Qm2LkT0pWv9RbYc3NdHf6GsJ4aEo5K";
const OPENAI_KEY: &str = "sk-proj-9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c";
const BEARER: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbHVnYm9hcmQifQ.c2lnbmF0dXJlLXZhbHVl";
const VSCODE_PASSWORD_INPUT: &str = "api-key";

fn plant_clients(sandbox: &Sandbox) -> Vec<std::path::PathBuf> {
    vec![
        sandbox.write_home_file(
            ".cursor/mcp.json",
            &format!(
                r#"{{
  // Cursor
  "mcpServers": {{
    "github": {{ "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                "env": {{ "GITHUB_PERSONAL_ACCESS_TOKEN": "{GITHUB_TOKEN}" }} }},
    "internal": {{ "url": "https://tools.example/mcp", "headers": {{ "Authorization": "Bearer {BEARER}" }} }},
  }}
}}"#
            ),
        ),
        sandbox.write_home_file(
            ".config/Claude/claude_desktop_config.json",
            &format!(
                "\u{feff}{{\r\n  \"mcpServers\": {{\r\n    \"openai-tools\": {{ \"command\": \"uvx\", \"args\": [\"openai-mcp\"], \"env\": {{ \"OPENAI_API_KEY\": \"{OPENAI_KEY}\" }} }},\r\n    \"github\": {{ \"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"], \"env\": {{ \"GITHUB_PERSONAL_ACCESS_TOKEN\": \"{GITHUB_TOKEN}\" }} }}\r\n  }}\r\n}}\r\n"
            ),
        ),
        sandbox.write_home_file(
            ".config/Code/User/mcp.json",
            &format!(
                r#"{{
  "inputs": [{{ "type": "promptString", "id": "{VSCODE_PASSWORD_INPUT}", "description": "Search API key", "password": true }}],
  "servers": {{
    "search": {{ "type": "http", "url": "https://search.example/mcp", "headers": {{ "X-Api-Key": "${{input:{VSCODE_PASSWORD_INPUT}}}" }} }}
  }}
}}"#
            ),
        ),
    ]
}

/// The dry run prints a plan a person understands and writes nothing.
#[test]
fn dry_run_prints_the_plan_and_writes_nothing() {
    let sandbox = Sandbox::new();
    let sources = plant_clients(&sandbox);
    let out = sandbox.run(&["import", "--dry-run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plan = stdout(&out);
    for expected in [
        "Cursor —",
        "Claude Desktop —",
        "VS Code",
        "+ github",
        "+ internal",
        "+ openai-tools",
        "+ search",
        "moved to the keychain",
        "Dry run: nothing was changed",
    ] {
        assert!(plan.contains(expected), "missing {expected:?} in:\n{plan}");
    }
    assert!(plan.contains("= github") || plan.contains("identical"), "the second github is identical:\n{plan}");
    assert!(!sandbox.config_dir().join("servers.json").exists());
    for secret in [GITHUB_TOKEN, OPENAI_KEY, BEARER] {
        assert!(!plan.contains(secret), "the plan shows a secret:\n{plan}");
        assert_eq!(files_containing(sandbox.root(), secret, &sources), Vec::<String>::new());
    }
}

/// Applying the import leaves no literal secret in any file the app wrote; the values are in the real keychain,
/// servers.json round-trips, and a second import finds everything identical.
#[test]
#[ignore = "needs a Secret Service; make test runs it in tests/harness/isolated-env.sh"]
fn import_keeps_secrets_in_the_keychain_only() {
    let sandbox = Sandbox::new();
    let sources = plant_clients(&sandbox);
    let out = sandbox.run(&["import"]);
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    let config_path = sandbox.config_dir().join("servers.json");
    let text = std::fs::read_to_string(&config_path).expect("servers.json written");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    for name in ["github", "internal", "openai-tools", "search"] {
        assert!(json["mcpServers"].get(name).is_some(), "{name} missing in {text}");
    }
    assert!(text.contains("${secret:"), "{text}");

    let home = std::env::var_os("HOME").map(std::path::PathBuf::from).expect("HOME");
    for secret in [GITHUB_TOKEN, OPENAI_KEY, BEARER] {
        assert_eq!(files_containing(sandbox.root(), secret, &sources), Vec::<String>::new(), "{secret} leaked");
        assert_eq!(files_containing(&home, secret, &sources), Vec::<String>::new(), "{secret} leaked into HOME");
    }

    let vault = Vault::keychain().expect("keychain");
    let env_ref = json["mcpServers"]["github"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"].as_str().expect("ref");
    let name = env_ref.trim_start_matches("${secret:").trim_end_matches('}');
    assert_eq!(vault.get("github", name).expect("get").expect("stored").expose(), GITHUB_TOKEN);

    let again = sandbox.run(&["import", "--dry-run"]);
    let plan = stdout(&again);
    assert!(plan.contains("0 new"), "{plan}");
    assert!(plan.contains("0 conflict"), "{plan}");

    for server in ["github", "internal", "openai-tools", "search"] {
        assert!(sandbox.run(&["remove", server]).status.success());
    }
    assert_eq!(vault.get("github", name).expect("get"), None, "remove deleted the secret");
}
