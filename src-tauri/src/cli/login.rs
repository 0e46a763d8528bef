//! `plugboard login SERVER` and `plugboard logout SERVER`. Login prints the authorization URL on its own line (so it
//! can be opened by hand, e.g. over SSH), opens a browser when there is one, and waits — bounded — for the redirect
//! on the loopback receiver.

use std::io::Write;
use std::sync::Arc;

use anyhow::Context;
use plugboard_core::auth::{self, LoginContext, PendingFlows};
use plugboard_core::registry::Registry;
use plugboard_core::supervisor::pooled_http_client;
use url::Url;

use crate::browser;

pub fn login(out: &mut impl Write, registry: &Registry, server: &str) -> anyhow::Result<()> {
    super::require_persistent_secrets(registry)?;
    let config = registry
        .configs()
        .into_iter()
        .find(|c| c.name.as_str() == server)
        .with_context(|| format!("there is no valid server named {server:?} (see `plugboard list`)"))?;
    let open = |url: &Url| -> Result<(), String> {
        // Straight to stdout, flushed: the person (or a script) needs the URL while the login waits.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "Open this URL to log in to {server}:\n{url}");
        let _ = stdout.flush();
        browser::open(url)
    };
    let context = LoginContext {
        vault: Arc::new(registry.vault().clone()),
        flows: Arc::new(PendingFlows::new()),
        http: pooled_http_client(),
        open: &open,
        timeout: auth::LOGIN_TIMEOUT,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(auth::login_server(&config, context)).with_context(|| format!("logging in to {server}"))?;
    writeln!(out, "Logged in to {server}; the tokens are in the keychain.")?;
    Ok(())
}

pub fn logout(out: &mut impl Write, registry: &Registry, server: &str) -> anyhow::Result<()> {
    if auth::logout(registry.vault(), server)? {
        writeln!(out, "Logged out of {server}: its tokens were deleted from the keychain.")?;
    } else {
        writeln!(out, "{server} had no stored login.")?;
    }
    Ok(())
}
