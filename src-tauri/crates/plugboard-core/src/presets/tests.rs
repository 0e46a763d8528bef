//! The catalog, validation and conversion of presets, and adding them through a real config file and a vault.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::*;
use crate::config::ConfigStore;
use crate::secrets::{MemoryStore, Sensitive, Vault};

fn preset(name: &str) -> &'static Preset {
    &catalog().iter().find(|e| e.preset.name == name).expect("in the catalog").preset
}

fn inputs(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

fn argv(entry: &RawServer) -> Vec<&str> {
    entry.command.iter().chain(entry.args.iter().flatten()).map(String::as_str).collect()
}

fn registry() -> (tempfile::TempDir, Registry) {
    let dir = tempfile::tempdir().expect("dir");
    let store = ConfigStore::open(dir.path().join("servers.json")).expect("open");
    (dir, Registry::new(store, Arc::new(Vault::with_store(Arc::new(MemoryStore::default())))))
}

fn invalid(json: &str) -> String {
    Preset::from_json(json).expect_err("invalid").reason
}

/// Every embedded server.json validates, names are unique and each default server name is a valid name.
#[test]
fn every_embedded_preset_is_valid() {
    for (default_name, text) in EMBEDDED {
        let preset = Preset::from_json(text).unwrap_or_else(|e| panic!("{default_name}: {e}"));
        assert!(!preset.title.is_empty() && !preset.description.is_empty(), "{default_name}");
        assert_eq!(ServerName::parse(default_name).map(|n| n.to_string()).as_deref(), Ok(*default_name));
    }
    assert_eq!(catalog().len(), EMBEDDED.len());
    let mut names: Vec<&str> = catalog().iter().map(|e| e.preset.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), EMBEDDED.len(), "preset names are unique");
}

/// An npm package runs as `npx -y pkg@version`, with no input asked for.
#[test]
fn npm_runs_with_npx_pinned() {
    let everything = preset("io.github.modelcontextprotocol/everything");
    assert!(everything.inputs.is_empty());
    let c = convert(everything, &BTreeMap::new()).expect("convert");
    assert_eq!(argv(&c.entry), ["npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31"]);
    assert!(c.secrets.is_empty() && c.entry.env.is_none());
}

/// A required input left empty is refused with its name; given, it becomes the positional argument.
#[test]
fn required_folder_argument() {
    let fs = preset("io.github.modelcontextprotocol/filesystem");
    let err = convert(fs, &inputs(&[("allowed_folder", "  ")])).expect_err("missing");
    assert!(matches!(&err, PresetError::MissingInput { input, .. } if input == "allowed_folder"), "{err}");
    assert!(err.to_string().starts_with("\"allowed_folder\" is required: The folder"), "{err}");
    let c = convert(fs, &inputs(&[("allowed_folder", " /home/me/notes ")])).expect("convert");
    assert_eq!(argv(&c.entry), ["npx", "-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/home/me/notes"]);
}

/// The catalog says what its path inputs name, so the window offers the right picker; a registry entry's bare
/// `filepath` offers either, and the catalog naming an input that takes no path is refused.
#[test]
fn path_inputs_say_what_they_name() {
    let kind = |preset_name: &str, key: &str| preset(preset_name).input(key).and_then(|i| i.path);
    assert_eq!(kind("io.github.modelcontextprotocol/filesystem", "allowed_folder"), Some(PathKind::Folder));
    assert_eq!(kind("io.github.modelcontextprotocol/git", "repository"), Some(PathKind::Folder));
    assert_eq!(kind("io.github.modelcontextprotocol/memory", "MEMORY_FILE_PATH"), Some(PathKind::File));
    let entry = |meta: &str| {
        format!(
            r#"{{"name":"a/b","description":"d","packages":[{{"registryType":"npm","identifier":"p","version":"1.0.0",
            "transport":{{"type":"stdio"}},"packageArguments":[{{"type":"positional","valueHint":"dir","format":"filepath"}},
            {{"type":"positional","valueHint":"word"}}]}}]{meta}}}"#
        )
    };
    let bare = Preset::from_json(&entry("")).expect("valid");
    assert_eq!(bare.input("dir").and_then(|i| i.path), Some(PathKind::Any));
    assert_eq!(bare.input("word").and_then(|i| i.path), None);
    assert!(
        invalid(&entry(r#","_meta":{"dev.plugboard/preset":{"paths":{"word":"folder"}}}"#))
            .contains("no filepath input")
    );
}

/// A pypi package runs as `uvx pkg==version`; an optional named argument is dropped whole when left empty.
#[test]
fn pypi_runs_with_uvx_and_optional_flags() {
    let time = preset("io.github.modelcontextprotocol/time");
    let c = convert(time, &BTreeMap::new()).expect("convert");
    assert_eq!(argv(&c.entry), ["uvx", "mcp-server-time==2026.10.19"]);
    let c = convert(time, &inputs(&[("local_timezone", "Europe/Paris")])).expect("convert");
    assert_eq!(argv(&c.entry), ["uvx", "mcp-server-time==2026.10.19", "--local-timezone", "Europe/Paris"]);
}

/// An OCI image runs with `docker run -i --rm -e VAR image`; the secret is a reference in `env` and a value bound
/// for the vault, never on the command line.
#[test]
fn oci_passes_secret_env_by_name() {
    let gh = preset("io.github.github/github-mcp-server-local");
    assert!(matches!(convert(gh, &BTreeMap::new()), Err(PresetError::MissingInput { .. })));
    let c = convert(gh, &inputs(&[("GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_secret")])).expect("convert");
    assert_eq!(
        argv(&c.entry),
        [
            "docker",
            "run",
            "-i",
            "--rm",
            "-e",
            "GITHUB_PERSONAL_ACCESS_TOKEN",
            "ghcr.io/github/github-mcp-server:0.28.1"
        ]
    );
    let env = c.entry.env.as_ref().expect("env");
    assert_eq!(env["GITHUB_PERSONAL_ACCESS_TOKEN"], "${secret:GITHUB_PERSONAL_ACCESS_TOKEN}");
    assert_eq!(c.secrets.len(), 1);
    assert_eq!(
        (c.secrets[0].0.as_str(), c.secrets[0].1.expose().as_str()),
        ("GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_secret")
    );
    assert!(!serde_json::to_string(&c.entry).expect("json").contains("ghp_secret"));
}

/// A remote becomes `type: http` with its URL; an optional secret header is a reference when given and absent
/// (with nothing to store) when not, leaving the server to ask for an OAuth login.
#[test]
fn remote_with_optional_secret_header() {
    let gh = preset("io.github.github/github-mcp-server");
    let c = convert(gh, &BTreeMap::new()).expect("convert");
    assert_eq!(
        (c.entry.kind.as_deref(), c.entry.url.as_deref()),
        (Some("http"), Some("https://api.githubcopilot.com/mcp/"))
    );
    assert!(c.entry.headers.is_none() && c.secrets.is_empty());
    let c = convert(gh, &inputs(&[("github_token", "ghp_x")])).expect("convert");
    assert_eq!(c.entry.headers.expect("headers")["Authorization"], "Bearer ${secret:github_token}");
    assert_eq!(c.secrets.len(), 1);
    let err = convert(gh, &inputs(&[("nope", "x")])).expect_err("unknown");
    assert!(matches!(err, PresetError::UnknownInput { .. }), "{err}");
}

/// Validation refuses what Plugboard could not run as promised: floating versions, plain http, typos in
/// placeholders, no usable package or remote.
#[test]
fn validation_refuses_unusable_presets() {
    let pkg = |version: &str| {
        format!(
            r#"{{"name":"a/b","description":"d","packages":[{{"registryType":"npm","identifier":"p","version":"{version}","transport":{{"type":"stdio"}}}}]}}"#
        )
    };
    assert!(Preset::from_json(&pkg("1.2.3")).is_ok());
    assert!(invalid(&pkg("latest")).contains("exact version"));
    assert!(invalid(&pkg("^1.2.3")).contains("exact version"));
    assert!(
        invalid(r#"{"name":"a/b","description":"d","remotes":[{"type":"sse","url":"http://x.example/sse"}]}"#)
            .contains("https")
    );
    assert!(
        invalid(r#"{"name":"a/b","description":"d","remotes":[{"type":"streamable-http","url":"https://x.example","headers":[{"name":"A","value":"Bearer {tok}"}]}]}"#)
            .contains("{tok}")
    );
    assert!(invalid(r#"{"name":"a/b","description":"d","packages":[{"registryType":"nuget","identifier":"p","version":"1","transport":{"type":"stdio"}}]}"#)
        .contains("no npm"));
    assert!(invalid(r#"{"name":"ab","description":"d"}"#).contains("namespace/server"));
    let image = |identifier: &str| {
        format!(
            r#"{{"name":"a/b","description":"d","packages":[{{"registryType":"oci","identifier":"{identifier}","transport":{{"type":"stdio"}}}}]}}"#
        )
    };
    assert!(invalid(&image("ghcr.io/o/i")).contains("pinned by a tag"));
    assert!(invalid(&image("ghcr.io/o/i:latest")).contains("pinned by a tag"));
    assert!(invalid(&image("localhost:5000/o/i")).contains("pinned by a tag"));
    assert!(Preset::from_json(&image("localhost:5000/o/i:1.2")).is_ok());
    assert!(Preset::from_json(&image("ghcr.io/o/i@sha256:0123")).is_ok());
    assert!(invalid(&pkg("1.x")).contains("exact version"));
    let url = |url: &str| {
        format!(r#"{{"name":"a/b","description":"d","remotes":[{{"type":"streamable-http","url":"{url}"}}]}}"#)
    };
    assert!(Preset::from_json(&url("http://127.0.0.1:3845/mcp")).is_ok());
    assert!(invalid(&url("http://mcp.example/mcp")).contains("https"));
    assert!(invalid(r#"{"name":"a/b","remotes":[]}"#).contains("description"));
}

/// Adding stores the secret in the vault and only a reference in servers.json; the listing then shows the preset
/// as added and suggests a free name; adding under a taken name is refused with that suggestion.
#[test]
fn add_stores_secrets_apart_and_lists_added() {
    let (_dir, reg) = registry();
    let name =
        add_preset(&reg, "io.github.github/github-mcp-server", "github", &inputs(&[("github_token", "ghp_topsecret")]))
            .expect("add");
    assert_eq!(name, "github");
    let text = std::fs::read_to_string(reg.store().path()).expect("file");
    assert!(!text.contains("ghp_topsecret") && text.contains("${secret:github_token}"), "{text}");
    assert_eq!(reg.vault().get("github", "github_token").expect("get"), Some(Sensitive::new("ghp_topsecret".into())));

    let listing = list_presets(&reg);
    let gh = listing.iter().find(|l| l.preset.name == "io.github.github/github-mcp-server").expect("listed");
    assert_eq!((gh.added_as.as_slice(), gh.suggested_name.as_str()), (&["github".to_owned()][..], "github-2"));
    let everything = listing.iter().find(|l| l.preset.name.ends_with("/everything")).expect("listed");
    assert!(everything.added_as.is_empty());

    let err = add_preset(&reg, "io.github.github/github-mcp-server", "github", &BTreeMap::new()).expect_err("taken");
    assert!(matches!(&err, PresetError::NameTaken { suggestion, .. } if suggestion == "github-2"), "{err}");
    assert!(matches!(add_preset(&reg, "nope/nope", "x", &BTreeMap::new()), Err(PresetError::UnknownPreset { .. })));
}

/// When the file cannot be written (changed underneath), the secret stored for the add is deleted again.
#[test]
fn a_failed_write_leaves_no_secret() {
    let (_dir, reg) = registry();
    std::fs::write(reg.store().path(), r#"{"mcpServers":{}}"#).expect("external edit");
    let err = add_preset(
        &reg,
        "io.github.github/github-mcp-server-local",
        "gh",
        &inputs(&[("GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_gone")]),
    )
    .expect_err("changed on disk");
    assert!(matches!(err, PresetError::Registry(RegistryError::Config(_))), "{err}");
    assert_eq!(reg.vault().get("gh", "GITHUB_PERSONAL_ACCESS_TOKEN").expect("get"), None);
}

/// The preview shows the exact command with `<key>` for a required input not yet given and a reference for a
/// secret, and the URL (with the header reference) of a remote.
#[test]
fn preview_shows_the_command_before_adding() {
    let fs = preview_preset("io.github.modelcontextprotocol/filesystem", &BTreeMap::new()).expect("preview");
    assert_eq!(fs.target, "npx -y @modelcontextprotocol/server-filesystem@2026.8.31 <allowed_folder>");
    let fs = preview_preset("io.github.modelcontextprotocol/filesystem", &inputs(&[("allowed_folder", "/my notes")]))
        .expect("preview");
    assert_eq!(fs.target, "npx -y @modelcontextprotocol/server-filesystem@2026.8.31 '/my notes'");
    let gh = preview_preset("io.github.github/github-mcp-server-local", &BTreeMap::new()).expect("preview");
    assert_eq!(gh.target, "docker run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN ghcr.io/github/github-mcp-server:0.28.1");
    assert_eq!(gh.env[0].template, "${secret:GITHUB_PERSONAL_ACCESS_TOKEN}");
    let remote =
        preview_preset("io.github.github/github-mcp-server", &inputs(&[("github_token", "set")])).expect("preview");
    assert_eq!(
        (remote.target.as_str(), remote.headers[0].template.as_str()),
        ("https://api.githubcopilot.com/mcp/", "Bearer ${secret:github_token}")
    );
}

/// A preset whose publisher needs the person's own OAuth app asks for its client id and secret: the id lands in the
/// entry's `oauth`, the secret in the vault under the name logins read, never in the entry.
#[test]
fn own_oauth_app_inputs() {
    let asana = preset("com.asana/mcp");
    assert!(asana.auth_note.as_deref().is_some_and(|n| n.contains("pre-registered")), "{:?}", asana.auth_note);
    let err = convert(asana, &BTreeMap::new()).expect_err("the client id is required");
    assert!(matches!(&err, PresetError::MissingInput { input, .. } if input == OAUTH_CLIENT_ID_INPUT), "{err}");
    let c = convert(asana, &inputs(&[(OAUTH_CLIENT_ID_INPUT, "1234"), (OAUTH_CLIENT_SECRET_INPUT, "s3cret")]))
        .expect("convert");
    assert_eq!(c.entry.oauth.as_ref().and_then(|o| o.client_id.as_deref()), Some("1234"));
    let stored: Vec<(&str, &str)> = c.secrets.iter().map(|(k, v)| (k.as_str(), v.expose().as_str())).collect();
    assert_eq!(stored, [(crate::auth::CLIENT_SECRET_SECRET, "s3cret")]);
    assert!(!serde_json::to_string(&c.entry).expect("json").contains("s3cret"));

    // GitHub's client is optional: without it the entry has no oauth block (a token or nothing).
    let gh = convert(preset("io.github.github/github-mcp-server"), &BTreeMap::new()).expect("convert");
    assert!(gh.entry.oauth.is_none() && gh.secrets.is_empty());
}

/// An input with choices takes only one of them; an optional one left empty is simply absent.
#[test]
fn choices_are_enforced() {
    let square = preset("io.github.square/square-mcp-server");
    let err = convert(square, &inputs(&[("ACCESS_TOKEN", "t"), ("SANDBOX", "yes")])).expect_err("not a choice");
    assert!(matches!(&err, PresetError::NotAChoice { input, .. } if input == "SANDBOX"), "{err}");
    let c = convert(square, &inputs(&[("ACCESS_TOKEN", "t"), ("SANDBOX", "true")])).expect("convert");
    assert_eq!(argv(&c.entry), ["npx", "-y", "square-mcp-server@0.1.2", "start"]);
    let env = c.entry.env.expect("env");
    assert_eq!((env["SANDBOX"].as_str(), env.get("DISALLOW_WRITES")), ("true", None));
}

/// A runner's own arguments go between the runner and the package (docker: after the `-e` names, before the
/// image), each group dropped whole when its optional input is empty.
#[test]
fn runtime_arguments_precede_the_package() {
    let text = r#"{"name":"a/b","description":"d","packages":[{"registryType":"oci","identifier":"ghcr.io/o/i:1",
        "transport":{"type":"stdio"},
        "runtimeArguments":[{"type":"named","name":"--network","value":"none"},
                            {"type":"named","name":"-v","valueHint":"volume","isRequired":false}],
        "environmentVariables":[{"name":"TOKEN","isSecret":true,"isRequired":true}]}]}"#;
    let p = Preset::from_json(text).expect("valid");
    let c = convert(&p, &inputs(&[("TOKEN", "x")])).expect("convert");
    assert_eq!(argv(&c.entry), ["docker", "run", "-i", "--rm", "-e", "TOKEN", "--network", "none", "ghcr.io/o/i:1"]);
}

/// The clients the brief names as unable to log in with one click say so in plain words.
#[test]
fn presets_that_cannot_log_in_with_one_click_say_so() {
    for (name, words) in [
        ("io.github.github/github-mcp-server", "personal access token"),
        ("com.asana/mcp", "client id"),
        ("com.box/mcp", "client"),
        ("com.figma/mcp", "desktop"),
        ("com.vercel/mcp", "refused"),
    ] {
        let note = preset(name).auth_note.clone().unwrap_or_default();
        assert!(note.contains(words), "{name}: {note:?}");
    }
}

/// Every preset, its required inputs filled (a choice where it has choices), becomes a servers.json entry that the
/// config accepts, with no secret value in it.
#[test]
fn every_preset_converts_into_a_valid_server() {
    for entry in catalog() {
        let filled: BTreeMap<String, String> = entry
            .preset
            .inputs
            .iter()
            .filter(|i| i.required)
            .map(|i| (i.key.clone(), i.choices.first().cloned().unwrap_or_else(|| format!("value-of-{}", i.key))))
            .collect();
        let c = convert(&entry.preset, &filled).unwrap_or_else(|e| panic!("{}: {e}", entry.default_name));
        validate_server(entry.default_name, &c.entry).unwrap_or_else(|e| panic!("{}: {e}", entry.default_name));
        let text = serde_json::to_string(&c.entry).expect("json");
        for input in entry.preset.inputs.iter().filter(|i| i.secret && i.required) {
            assert!(!text.contains(&format!("value-of-{}", input.key)), "{}: {text}", entry.default_name);
        }
    }
}
