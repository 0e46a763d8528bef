//! The typed IPC surface: every command and event the UI may use, and the TypeScript bindings made from them.

use specta_typescript::Typescript;
use tauri_specta::{Builder, collect_commands, collect_events};

use crate::commands::{
    auth, bundle, clients, console, desktop, engine, gateway, import, inspect, install, mcp_registry, person, presets,
    secrets, servers, settings, trust,
};
use crate::events;

/// Where the generated bindings are committed, relative to the repository root.
pub const BINDINGS_PATH: &str = "ui/src/ipc/bindings.ts";

/// The one registry of commands and events, shared by the app and the bindings generator.
/// Every command here must also be in build.rs's COMMANDS and granted in capabilities/main-window.json.
pub fn specta_builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new()
        // Commands only send their types to the UI, so one shape per type (not serialize/deserialize pairs).
        .disable_serde_phases()
        .commands(collect_commands![
            servers::list_servers,
            servers::get_server,
            servers::add_server,
            servers::update_server,
            servers::set_server_tools,
            servers::check_server_entry,
            servers::check_server_program,
            servers::remove_server,
            servers::rename_server,
            servers::set_server_enabled,
            secrets::vault_status,
            secrets::set_secret,
            secrets::delete_secret,
            secrets::server_secrets,
            import::detect_import_sources,
            import::plan_import,
            import::apply_import,
            presets::list_presets,
            presets::add_preset,
            presets::preview_preset,
            mcp_registry::search_registry,
            mcp_registry::preview_registry_entry,
            mcp_registry::add_registry_entry,
            mcp_registry::list_registry_sources,
            mcp_registry::add_registry_source,
            mcp_registry::remove_registry_source,
            install::missed_install_offers,
            install::preview_install_link,
            install::add_from_install_link,
            install::install_link_for,
            install::client_config_for,
            bundle::missed_bundles,
            bundle::open_bundle,
            bundle::preview_bundle,
            bundle::add_bundle,
            engine::server_statuses,
            engine::connect_server,
            engine::disconnect_server,
            engine::restart_server,
            engine::diagnose_server,
            engine::server_tools,
            engine::server_allowlist,
            engine::call_tool,
            console::run_tool_call,
            console::cancel_tool_call,
            console::call_history,
            console::history_entry,
            console::clear_call_history,
            auth::login_server,
            auth::cancel_login,
            auth::logout_server,
            settings::app_paths,
            settings::startup_problem,
            gateway::gateway_endpoint,
            gateway::set_gateway_endpoint,
            gateway::gateway_token,
            gateway::rotate_gateway_token,
            trust::pending_approvals,
            trust::decide_approval,
            trust::tool_changes,
            trust::approve_tool_changes,
            auth::missed_deep_link_rejections,
            auth::server_login_state,
            inspect::server_info,
            inspect::server_resources,
            inspect::server_resource_templates,
            inspect::read_resource,
            inspect::server_prompts,
            inspect::get_prompt,
            inspect::server_log,
            person::pending_requests,
            person::answer_elicitation,
            person::answer_link,
            person::answer_sampling,
            person::answer_roots,
            clients::list_clients,
            clients::plan_client_change,
            clients::apply_client_change,
            clients::choose_client_limit,
            desktop::launch_at_login,
            desktop::set_launch_at_login,
            desktop::show_in_folder,
            desktop::choose_path,
        ])
        .events(collect_events![
            events::ConfigChanged,
            events::ServerStatusChanged,
            events::ToolsChanged,
            events::ResourcesChanged,
            events::PromptsChanged,
            events::ServerMessaged,
            events::LoginStarted,
            events::DeepLinkRejected,
            events::InstallOffered,
            events::BundleDropped,
            events::PendingRequestArrived,
            events::PendingRequestWithdrawn
        ])
}

/// The TypeScript exporter settings used for `ui/src/ipc/bindings.ts`.
pub fn typescript() -> Typescript {
    Typescript::default()
        .header("// Generated from the Rust commands (src-tauri/src/ipc.rs): regenerate with `make bindings`.")
}
