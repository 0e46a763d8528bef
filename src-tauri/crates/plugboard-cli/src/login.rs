//! `plugboard login SERVER` and `plugboard logout SERVER`. Login prints the authorization URL on its own line (so it
//! can be opened by hand, e.g. over SSH), opens a browser when there is one, and waits — bounded — for the redirect
//! on the loopback receiver.

use std::io::Write;

use anyhow::Context;
use plugboard_core::auth::Revocation;
use plugboard_core::engine::Engine;

use crate::browser;

pub fn login(out: &mut impl Write, engine: &Engine, server: &str) -> anyhow::Result<()> {
    super::require_persistent_secrets(engine.registry())?;
    let open = |url: &url::Url| {
        // Straight to stdout, flushed: the person (or a script) needs the URL while the login waits.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "Open this URL to log in to {server}:\n{url}");
        let _ = stdout.flush();
        browser::open(url)
    };
    // This command runs no servers, so the login has nothing to connect afterwards.
    super::runtimes::one_shot()?
        .block_on(engine.login_and_connect(server, &open))
        .with_context(|| format!("logging in to {server}"))?;
    writeln!(out, "Logged in to {server}; the tokens are in the keychain.")?;
    Ok(())
}

pub fn logout(out: &mut impl Write, engine: &Engine, server: &str) -> anyhow::Result<()> {
    let outcome = super::runtimes::one_shot()?.block_on(engine.logout_and_disconnect(server))?;
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
