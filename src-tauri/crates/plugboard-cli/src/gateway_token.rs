//! `plugboard gateway token [--rotate]`: prints the bearer token that opens the gateway's HTTP endpoint (made and
//! kept in the keychain on first use), or replaces it. The token goes to stdout only, for the person to paste
//! into a client; it is never logged.

use std::io::Write;

use clap::Subcommand;
use plugboard_core::engine::Engine;
use plugboard_core::gateway::http::{gateway_token, rotate_gateway_token};

#[derive(Debug, Subcommand)]
pub enum GatewayAction {
    /// Print the token HTTP clients send as `Authorization: Bearer <token>`.
    Token {
        /// Replace it: every client holding the old one is refused from now on, by every running gateway.
        #[arg(long)]
        rotate: bool,
    },
}

pub fn run(out: &mut impl Write, engine: &Engine, action: &GatewayAction) -> anyhow::Result<()> {
    let GatewayAction::Token { rotate } = action;
    let token = if *rotate { rotate_gateway_token(engine.vault())? } else { gateway_token(engine.vault())? };
    writeln!(out, "{}", token.expose())?;
    Ok(())
}
