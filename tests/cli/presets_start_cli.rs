//! The local presets whose packages install here really start: each is added with `plugboard presets add` exactly
//! as a person would (`npx -y pkg@version`, `uvx pkg==version`), approved, and `plugboard status` must see it Ready
//! with its tools. The packages come from the npm registry and PyPI; their downloads are cached outside the sandbox
//! (npm's and uv's caches, set by the test harness) so a second run starts from the cache.

use crate::support::{Sandbox, repo_root, stderr, stdout};

/// `(preset, --input pairs)`; `{dir}` stands for a folder of the sandbox.
const LOCAL_PRESETS: &[(&str, &[&str])] = &[
    ("filesystem", &["allowed_folder={dir}"]),
    ("memory", &["MEMORY_FILE_PATH={dir}/memory.jsonl"]),
    ("everything", &[]),
    ("sequential-thinking", &[]),
    ("fetch", &[]),
    ("time", &["local_timezone=UTC"]),
];

/// The folder holding `uvx` (src-tauri/scripts/install-deps.sh --for-tests puts uv in .tools/uv).
fn uv_bin() -> std::path::PathBuf {
    let bin = repo_root().join(".tools/uv/bin");
    assert!(bin.join("uvx").exists(), "{} is missing: run `make deps-tests`", bin.join("uvx").display());
    bin
}

/// Every local preset of the list starts from its pinned package and answers with at least one tool.
#[test]
#[ignore = "fetches the packages from npm and PyPI and needs uv; make test runs it with install-deps' uv"]
fn local_presets_start_and_list_tools() {
    let sandbox = Sandbox::new();
    let dir = sandbox.root().join("notes");
    std::fs::create_dir_all(&dir).expect("dir");
    for (preset, inputs) in LOCAL_PRESETS {
        let mut args = vec!["presets".to_owned(), "add".to_owned(), (*preset).to_owned()];
        for input in *inputs {
            args.extend(["--input".to_owned(), input.replace("{dir}", &dir.display().to_string())]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = sandbox.run(&args);
        assert!(out.status.success(), "{preset}: {}", stderr(&out));
    }

    // The runners need the caches and uv's folder: a literal PATH in an entry steers where its command is found.
    let path = sandbox.config_dir().join("servers.json");
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("config")).expect("json");
    let system_path = std::env::var("PATH").unwrap_or_default();
    let caches =
        [("npm_config_cache", std::env::var("npm_config_cache")), ("UV_CACHE_DIR", std::env::var("UV_CACHE_DIR"))];
    for (name, entry) in config["mcpServers"].as_object_mut().expect("servers") {
        let env = entry.as_object_mut().expect("entry").entry("env").or_insert_with(|| serde_json::json!({}));
        env["PATH"] = format!("{}:{system_path}", uv_bin().display()).into();
        // uv trusts only its bundled roots unless told otherwise; a network behind a TLS-inspecting proxy (CI here)
        // needs the system's store, which pip and npm already use.
        env["UV_SYSTEM_CERTS"] = "true".into();
        for (var, value) in &caches {
            if let Ok(value) = value {
                env[*var] = value.clone().into();
            }
        }
        assert!(LOCAL_PRESETS.iter().any(|(p, _)| p == name), "{name}");
    }
    std::fs::write(&path, serde_json::to_string_pretty(&config).expect("json")).expect("write");
    sandbox.approve_all();

    let out = sandbox.run(&["status"]);
    let report = stdout(&out);
    assert!(out.status.success(), "{report}\n{}", stderr(&out));
    for (preset, _) in LOCAL_PRESETS {
        let line = report.lines().find(|l| l.split_whitespace().next() == Some(preset)).unwrap_or_default();
        let tools: usize = line
            .split_whitespace()
            .skip_while(|w| *w != "ready")
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or_default();
        assert!(tools > 0, "{preset} is not Ready with tools:\n{report}");
    }
}
