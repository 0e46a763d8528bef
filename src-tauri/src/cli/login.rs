//! `plugboard login SERVER` and `plugboard logout SERVER`. Login prints the authorization URL on its own line (so it
//! can be opened by hand, e.g. over SSH), opens a browser when there is one, and waits — bounded — for the redirect
//! on the loopback receiver.

use std::io::Write;
use std::sync::Arc;

use anyhow::Context;
use plugboard_core::auth::{self, LoginContext, PendingFlows, Revocation};
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
    let open = |url: &Url| -> Result<(), auth::BrowserUnavailable> {
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
    let config = registry
        .configs()
        .into_iter()
        .find(|c| c.name.as_str() == server && auth::oauth_target(c, registry.vault()).is_ok());
    let Some(config) = config else {
        // Not (or no longer) an OAuth server: its stored login, if any, is simply deleted.
        let had = auth::logout(registry.vault(), server)?;
        writeln!(
            out,
            "{}",
            if had { format!("Logged out of {server}.") } else { format!("{server} had no stored login.") }
        )?;
        return Ok(());
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let outcome = runtime.block_on(auth::logout_server(&config, Arc::new(registry.vault().clone())))?;
    if !outcome.had_login {
        writeln!(out, "{server} had no stored login.")?;
        return Ok(());
    }
    let revocation = match outcome.revocation {
        Revocation::Revoked => "revoked at the authorization server and deleted from the keychain".to_owned(),
        Revocation::NotOffered => {
            "deleted from the keychain (the server offers no revocation; they expire on their own)".to_owned()
        }
        Revocation::Failed(why) => format!("deleted from the keychain, but revoking them failed: {why}"),
        Revocation::NothingStored => "already gone".to_owned(),
    };
    writeln!(out, "Logged out of {server}: its tokens were {revocation}.")?;
    Ok(())
}
