//! Tauri's build step: the app's command permissions (ACL) and capabilities, which live under src-tauri/.

/// Every command the UI may invoke; each gets an `allow-<name>` permission granted in capabilities/.
const COMMANDS: &[&str] = &[
    "list_servers",
    "get_server",
    "add_server",
    "update_server",
    "set_server_tools",
    "check_server_entry",
    "check_server_program",
    "remove_server",
    "rename_server",
    "set_server_enabled",
    "vault_status",
    "set_secret",
    "delete_secret",
    "server_secrets",
    "detect_import_sources",
    "plan_import",
    "apply_import",
    "list_presets",
    "add_preset",
    "preview_preset",
    "search_registry",
    "preview_registry_entry",
    "add_registry_entry",
    "list_registry_sources",
    "add_registry_source",
    "remove_registry_source",
    "server_statuses",
    "connect_server",
    "disconnect_server",
    "restart_server",
    "diagnose_server",
    "server_tools",
    "server_allowlist",
    "call_tool",
    "run_tool_call",
    "cancel_tool_call",
    "call_history",
    "history_entry",
    "clear_call_history",
    "login_server",
    "cancel_login",
    "logout_server",
    "app_paths",
    "gateway_endpoint",
    "set_gateway_endpoint",
    "gateway_token",
    "rotate_gateway_token",
    "pending_approvals",
    "decide_approval",
    "tool_changes",
    "approve_tool_changes",
    "missed_deep_link_rejections",
    "server_login_state",
    "server_info",
    "server_resources",
    "server_resource_templates",
    "read_resource",
    "server_prompts",
    "get_prompt",
    "server_log",
    "pending_requests",
    "answer_elicitation",
    "answer_sampling",
    "answer_roots",
];

fn main() {
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        // A build script reports through a panic; the message names what is wrong in the config.
        panic!("tauri build step failed: {e:#}");
    }
}
