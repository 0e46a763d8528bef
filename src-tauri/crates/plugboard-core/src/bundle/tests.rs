//! Bundles built by the tests: what the offer shows, installing into its own folder with the secret apart and the
//! server waiting for approval, a damaged signature, and the refusals (a path escaping its folder, an oversized entry,
//! no manifest, another platform, an unknown variable, a missing input) that leave nothing behind.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use super::*;
use crate::config::ConfigStore;
use crate::secrets::{MemoryStore, Vault};

const MANIFEST: &str = r#"{
  "manifest_version": "0.3", "name": "hello-bundle", "display_name": "Hello", "version": "1.0.0",
  "description": "Says hello.", "author": { "name": "Ada" },
  "server": { "type": "node", "entry_point": "server/index.js",
    "mcp_config": { "command": "node", "args": ["${__dirname}/server/index.js"], "env": { "API_KEY": "${user_config.api_key}" } } },
  "tools": [ { "name": "hello", "description": "Greets." } ],
  "compatibility": { "platforms": ["darwin", "linux", "win32"], "runtimes": { "node": ">=18" } },
  "user_config": { "api_key": { "type": "string", "title": "API key", "description": "Your key.", "sensitive": true, "required": true } }
}"#;

/// Writes a bundle with `files` (`(name, text)`) to `path`. The zip writer cleans names as it writes them, so a name
/// written as `XX/…` has those bytes replaced by `../` afterwards (in the local and the central header alike): the
/// hostile name a hand-made zip can carry.
fn bundle(path: &Path, files: &[(&str, &str)]) {
    write_zip(path, files);
    let bytes = std::fs::read(path).expect("read");
    let mut patched = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"XX|") {
            patched.extend_from_slice(b"../");
            i += 3;
        } else {
            patched.push(bytes[i]);
            i += 1;
        }
    }
    std::fs::write(path, patched).expect("write");
}

fn write_zip(path: &Path, files: &[(&str, &str)]) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).expect("create"));
    for (name, text) in files {
        zip.start_file(*name, zip::write::SimpleFileOptions::default()).expect("entry");
        zip.write_all(text.as_bytes()).expect("write");
    }
    zip.finish().expect("finish");
}

fn registry(dir: &Path) -> Registry {
    let store = ConfigStore::open(dir.join("servers.json")).expect("open");
    Registry::new(store, Arc::new(Vault::with_store(Arc::new(MemoryStore::default()))))
}

/// The offer names the bundle, its author, declared tools, signature and platforms, and the exact command with the
/// unpacked folder; installing unpacks it there, stores the sensitive value in the vault only, and the server waits
/// for approval.
#[test]
fn a_bundle_installs_into_its_own_folder() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("hello.mcpb");
    bundle(&path, &[("manifest.json", MANIFEST), ("server/index.js", "console.log('hi')")]);
    let reg = registry(dir.path());
    let bundles = dir.path().join("bundles");
    let offer = offer(&reg, &path, &bundles).expect("offer");
    assert_eq!((offer.display_name.as_str(), offer.author.as_str(), offer.spec.as_str()), ("Hello", "Ada", "0.3"));
    assert_eq!(offer.tools[0].name, "hello");
    assert_eq!(offer.signature, Signature::Unsigned);
    assert_eq!(offer.compatibility, "platforms: darwin, linux, win32; node >=18");
    let folder = bundles.join("hello-bundle-1.0.0");
    assert_eq!(offer.preview.target, format!("node {}/server/index.js", folder.display()));
    assert_eq!(offer.preview.env[0].template, "${secret:api_key}");
    assert!(offer.preset.input("api_key").is_some_and(|i| i.secret && i.required));

    let inputs: BTreeMap<String, String> = [("api_key".to_owned(), "k_secret".to_owned())].into();
    install(&reg, &path, &bundles, "hello", &inputs).expect("install");
    assert_eq!(std::fs::read_to_string(folder.join("server/index.js")).expect("unpacked"), "console.log('hi')");
    let entry = reg.get("hello").expect("entry");
    assert_eq!(entry.command.as_deref(), Some("node"));
    assert_eq!(entry.args, Some(vec![format!("{}/server/index.js", folder.display())]));
    assert!(!std::fs::read_to_string(reg.store().path()).expect("config").contains("k_secret"));
    assert_eq!(
        reg.vault().get("hello", "api_key").expect("vault").map(|v| v.expose().clone()),
        Some("k_secret".into())
    );
    let approvals = crate::trust::Approvals::at(dir.path().join("trust.json"));
    let config = crate::config::validate_server("hello", &entry).expect("valid");
    assert!(matches!(crate::trust::gate(&approvals, &config), Err(crate::trust::Unapproved::Pending { .. })));
    assert!(matches!(install(&reg, &path, &bundles, "hello-2", &inputs), Err(BundleError::AlreadyInstalled(_))));
}

/// A bundle whose `mcpb sign` block holds no valid signature is refused (signatures themselves: signature_tests.rs).
#[test]
fn a_bundle_with_a_damaged_signature_is_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("signed.mcpb");
    bundle(&path, &[("manifest.json", MANIFEST)]);
    let mut bytes = std::fs::read(&path).expect("read");
    bytes.extend_from_slice(b"MCPB_SIG_V1\x04\x00\x00\x00fakeMCPB_SIG_END");
    std::fs::write(&path, bytes).expect("write");
    let refused = offer(&registry(dir.path()), &path, &dir.path().join("bundles")).expect_err("refused");
    assert!(matches!(refused, BundleError::Signature(_)), "{refused}");
    assert!(!dir.path().join("bundles").exists());
}

/// Each broken or hostile bundle is refused with its reason, and nothing is unpacked.
#[test]
fn hostile_bundles_are_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let reg = registry(dir.path());
    let bundles = dir.path().join("bundles");
    let inputs: BTreeMap<String, String> = [("api_key".to_owned(), "k".to_owned())].into();
    let refused = |files: &[(&str, &str)]| -> String {
        let path = dir.path().join("b.mcpb");
        bundle(&path, files);
        install(&reg, &path, &bundles, "b", &inputs).expect_err("refused").to_string()
    };
    let escape = refused(&[("manifest.json", MANIFEST), ("XX|evil.sh", "rm -rf ~")]);
    assert!(escape.contains("escapes its folder") && escape.contains("../evil.sh"), "{escape}");
    let deeper = refused(&[("manifest.json", MANIFEST), ("server/XX|XX|evil.sh", "x")]);
    assert!(deeper.contains("escapes its folder"), "{deeper}");
    assert!(refused(&[("server/index.js", "x")]).contains("no manifest.json"));
    let mac = MANIFEST.replace(r#"["darwin", "linux", "win32"]"#, r#"["darwin"]"#);
    assert!(refused(&[("manifest.json", &mac)]).contains("made for darwin only"));
    let unknown = MANIFEST.replace("${__dirname}/server", "${SECRETS}/server");
    assert!(refused(&[("manifest.json", &unknown)]).contains("unknown variable ${SECRETS}"));
    assert!(!dir.path().join("evil.sh").exists() && !bundles.exists(), "nothing was unpacked");

    let path = dir.path().join("b.mcpb");
    bundle(&path, &[("manifest.json", MANIFEST), ("big.bin", &"x".repeat(2048))]);
    let small = Limits { entry_bytes: 1024, ..Limits::default() };
    assert!(matches!(archive::open(&path, small), Err(BundleError::Oversized(_))));
    let missing = install(&reg, &path, &bundles, "b", &BTreeMap::new()).expect_err("the key is required");
    assert!(matches!(missing, BundleError::Preset(_)), "{missing}");
    assert!(!bundles.exists(), "a refused input leaves nothing unpacked");
}
