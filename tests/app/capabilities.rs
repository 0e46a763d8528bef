//! The window's lockdown, read from what the build generated: the capabilities (src-tauri/capabilities/ as
//! tauri-build resolved them into gen/schemas, with tauri.conf.json's own capability list) over every permission
//! manifest (gen/schemas/acl-manifests.json). A page in the window — or script injected into it — may invoke
//! Plugboard's own commands and listen for events, and nothing else unless it is on the reviewed list below.
#![allow(clippy::expect_used, reason = "in these helpers too a panic is the test's report")]

use std::collections::{BTreeMap, BTreeSet};

use tauri::utils::acl::ExecutionContext;
use tauri::utils::acl::capability::Capability;
use tauri::utils::acl::manifest::Manifest;
use tauri::utils::acl::resolved::Resolved;
use tauri::utils::config::Config;
use tauri::utils::platform::Target;

use crate::repo_root;

/// Every plugin command a page may invoke, with the scope it is confined to (as JSON; `None`: unscoped). Adding a
/// line is a security decision, reviewed like one: a compromised page can call anything here with any arguments
/// the scope allows. Say why in a comment beside it.
const REVIEWED_PLUGIN_GRANTS: &[(&str, Option<&str>)] = &[
    // The page hears the backend's typed events (server status, tools, logs, refused links, …).
    ("plugin:event|listen", None),
    ("plugin:event|unlisten", None),
];

/// The one window, the only one any capability may name.
const MAIN_WINDOW: &str = "main";

/// Everything the generated ACL allows, as the app resolves it at compile time.
fn resolved_acl() -> (Resolved, BTreeMap<String, Capability>) {
    let schemas = repo_root().join("gen/schemas");
    let read = |name: &str| {
        let path = schemas.join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{} (written by the build): {e}", path.display()))
    };
    let manifests: BTreeMap<String, Manifest> = serde_json::from_str(&read("acl-manifests.json")).expect("manifests");
    let from_files: BTreeMap<String, Capability> =
        serde_json::from_str(&read("capabilities.json")).expect("capabilities");
    let config_text = std::fs::read_to_string(repo_root().join("tauri.conf.json")).expect("tauri.conf.json");
    let config: Config = serde_json::from_str(&config_text).expect("tauri.conf.json parses");
    let capabilities = tauri::utils::acl::get_capabilities(&config, from_files, None).expect("capabilities");
    let resolved = Resolved::resolve(&manifests, capabilities.clone(), Target::current()).expect("resolve");
    (resolved, capabilities)
}

/// The commands the UI's generated bindings invoke: Plugboard's own (ui/src/ipc/bindings.ts is kept fresh by
/// bindings.rs).
fn plugboard_commands() -> BTreeSet<String> {
    let bindings = std::fs::read_to_string(repo_root().join("ui/src/ipc/bindings.ts")).expect("bindings");
    bindings
        .split("TAURI_INVOKE(\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(name, _)| name.to_owned()))
        .collect()
}

/// The main window is granted Plugboard's own commands (every one the UI invokes, none it does not), event
/// listening and the reviewed plugin grants with exactly their scopes, for local pages only: no other plugin
/// command, no global scope, no remote origin, no other window, no runtime-added capability, no asset protocol.
#[test]
fn the_window_gets_only_its_own_commands_and_event_listening() {
    let (resolved, capabilities) = resolved_acl();
    let ours = plugboard_commands();
    let reviewed: BTreeMap<&str, Option<serde_json::Value>> = REVIEWED_PLUGIN_GRANTS
        .iter()
        .map(|(command, scope)| (*command, scope.map(|s| serde_json::from_str(s).expect("reviewed scope is JSON"))))
        .collect();

    let mut problems = Vec::new();
    let mut granted_app = BTreeSet::new();
    for (command, grants) in &resolved.allowed_commands {
        for grant in grants {
            if let ExecutionContext::Remote { url } = &grant.context {
                problems.push(format!("{command} may be invoked by remote pages at {}", url.as_str()));
            }
            let windows: Vec<String> = grant.windows.iter().map(|w| w.as_str().to_owned()).collect();
            if windows.iter().any(|w| w != MAIN_WINDOW) || !grant.webviews.is_empty() {
                problems.push(format!("{command} is granted beyond the main window: {windows:?} {:?}", grant.webviews));
            }
            let scope = grant.scope_id.and_then(|id| resolved.command_scope.get(&id)).map(|scope| {
                serde_json::json!({
                    "allow": serde_json::to_value(&scope.allow).expect("scope"),
                    "deny": serde_json::to_value(&scope.deny).expect("scope"),
                })
            });
            if command.starts_with("plugin:") {
                match reviewed.get(command.as_str()) {
                    None => problems.push(format!("{command} is granted but not on the reviewed list")),
                    Some(expected) if *expected != scope => {
                        problems.push(format!("{command} is scoped {scope:?}, reviewed as {expected:?}"));
                    }
                    Some(_) => {}
                }
            } else {
                granted_app.insert(command.clone());
            }
        }
    }
    for command in granted_app.difference(&ours) {
        problems.push(format!("{command} is granted but is not one of Plugboard's commands (ui/src/ipc/bindings.ts)"));
    }
    for command in ours.difference(&granted_app) {
        problems.push(format!("{command} is a Plugboard command the window is not granted (the UI would fail)"));
    }
    for (command, _) in REVIEWED_PLUGIN_GRANTS {
        if !resolved.allowed_commands.contains_key(*command) {
            problems.push(format!("{command} is on the reviewed list but not granted: remove it from the list"));
        }
    }
    if !resolved.global_scope.is_empty() {
        let keys: Vec<&String> = resolved.global_scope.keys().collect();
        problems.push(format!("global scopes are granted: {keys:?}"));
    }
    for capability in capabilities.values() {
        if capability.windows != [MAIN_WINDOW] || !capability.webviews.is_empty() || capability.remote.is_some() {
            problems.push(format!(
                "capability {} applies to windows {:?}, webviews {:?}, remote {:?}: only the main window's local pages",
                capability.identifier, capability.windows, capability.webviews, capability.remote
            ));
        }
    }
    assert!(problems.is_empty(), "the window's lockdown is broken:\n  {}", problems.join("\n  "));
}

/// Nothing outside the ACL widens what the page can reach: no capability is added at run time, and the asset
/// protocol (which serves files from disk to the page) is off.
#[test]
fn nothing_widens_the_window_outside_the_acl() {
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo_root().join("tauri.conf.json")).expect("config"))
            .expect("tauri.conf.json parses");
    let asset_protocol = &config["app"]["security"]["assetProtocol"]["enable"];
    assert!(asset_protocol.is_null() || *asset_protocol == false, "the asset protocol is on: {asset_protocol}");

    let mut added = Vec::new();
    let mut dirs = vec![repo_root().join("src-tauri/src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("shell sources") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if std::fs::read_to_string(&path).is_ok_and(|text| text.contains("add_capability")) {
                added.push(path.display().to_string());
            }
        }
    }
    assert!(
        added.is_empty(),
        "capabilities are added at run time in {added:?}: declare them in src-tauri/capabilities/"
    );
}
