//! The window's capability stays least-privilege: event listening and our own commands, each one the app really
//! registers, and no permission of any plugin (no shell, file system, opener, autostart or notification command the
//! page could call: those go through our commands, which take a place or a flag, never a path).

use crate::repo_root;

/// Every permission of main-window.json is event listening or `allow-<command>` for a command the IPC registers
/// (as the generated bindings invoke it); no plugin permission (`plugin:allow-…`) is granted.
#[test]
fn the_window_gets_our_commands_and_no_plugin_permission() {
    let path = repo_root().join("src-tauri/capabilities/main-window.json");
    let capability: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    let bindings = std::fs::read_to_string(repo_root().join(plugboard_app::ipc::BINDINGS_PATH)).expect("bindings");
    assert_eq!(capability["windows"], serde_json::json!(["main"]));
    let permissions = capability["permissions"].as_array().expect("permissions");
    for permission in permissions {
        let permission = permission.as_str().expect("a plain permission, no scoped object");
        if ["core:event:allow-listen", "core:event:allow-unlisten"].contains(&permission) {
            continue;
        }
        let command = permission
            .strip_prefix("allow-")
            .filter(|c| !c.contains(':'))
            .unwrap_or_else(|| panic!("{permission} is not one of our commands"))
            .replace('-', "_");
        assert!(bindings.contains(&format!("__TAURI_INVOKE(\"{command}\"")), "{permission}: no such command");
    }
    // And every command the page can invoke is granted: nothing registered is left unreachable by accident.
    let granted = permissions.len() - 2;
    assert_eq!(bindings.matches("__TAURI_INVOKE(\"").count(), granted);
}
