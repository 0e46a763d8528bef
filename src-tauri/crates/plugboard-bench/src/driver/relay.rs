//! `relay COMMAND…`: a process between a client and its stdio server that only copies bytes, each way on a thread
//! of its own, as they arrive. It is the floor of any gateway's hop: what a second process and a second pair of pipes
//! cost with no MCP work at all. It must never read, buffer or change a message.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::Context;

/// Runs `program args` and relays until the client closes its side; returns once the server exited.
pub fn run(program: &Path, args: &[String]) -> anyhow::Result<()> {
    let mut server = crate::spawn_piped(program, args)?;
    let to_server = server.stdin.take().context("the server's stdin")?;
    let from_server = server.stdout.take().context("the server's stdout")?;
    let upstream = std::thread::spawn(move || copy(std::io::stdin().lock(), to_server));
    let downstream = std::thread::spawn(move || copy(from_server, std::io::stdout().lock()));
    // The client's EOF ends the upstream copy and drops the server's stdin: the server then exits, which ends the
    // downstream copy.
    let _ = upstream.join();
    let _ = downstream.join();
    server.wait()?;
    Ok(())
}

/// Copies what `from` gives to `to` at once, one read at a time, until `from` ends or `to` is closed.
fn copy(mut from: impl Read, mut to: impl Write) {
    let mut buffer = vec![0; 64 * 1024];
    loop {
        match from.read(&mut buffer) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if to.write_all(&buffer[..n]).and_then(|()| to.flush()).is_err() {
                    return;
                }
            }
        }
    }
}
