//! Which servers turned out to be of the earlier protocol era, so a reconnect opens with `initialize` at once instead
//! of probing again (a silent legacy server would cost the probe's whole wait each time). Kept for the life of the
//! process, as the spec suggests (per server process on stdio, per origin on HTTP). It must never pin a server to
//! the earlier era for good: an `initialize` that fails forgets it, so the next attempt probes again.

use std::collections::HashSet;
use std::sync::Mutex;

use crate::transport::{Era, McpSession, Opening, RemoteConnection, StdioLaunch, TransportError};

/// Servers known to be of the earlier era, by [`EraMemory::stdio_key`] or URL.
#[derive(Default)]
pub(super) struct EraMemory(Mutex<HashSet<String>>);

/// What was connected, asked for its era.
pub(super) trait Opened {
    fn era(&self) -> Option<Era>;
}

impl Opened for McpSession {
    fn era(&self) -> Option<Era> {
        McpSession::era(self)
    }
}

impl Opened for RemoteConnection {
    fn era(&self) -> Option<Era> {
        self.session.era()
    }
}

impl EraMemory {
    /// A stdio server is the same server while its name and what it runs stay the same.
    pub(super) fn stdio_key(server: &str, launch: &StdioLaunch) -> String {
        format!("{server}\u{0}{}\u{0}{}", launch.program.display(), launch.args.join("\u{0}"))
    }

    pub(super) fn opening(&self, key: &str) -> Opening {
        let known = self.0.lock().is_ok_and(|legacy| legacy.contains(key));
        if known { Opening::Initialize } else { Opening::Probe }
    }

    /// Remembers what the attempt opened with `opening` found out, and hands its result on.
    pub(super) fn learn<T: Opened>(
        &self,
        key: &str,
        opening: Opening,
        connected: Result<T, TransportError>,
    ) -> Result<T, TransportError> {
        let Ok(mut legacy) = self.0.lock() else { return connected };
        match (&connected, opening) {
            (Ok(opened), _) if opened.era() == Some(Era::Legacy) => {
                legacy.insert(key.to_owned());
            }
            (Ok(_), _) | (Err(_), Opening::Initialize) => {
                legacy.remove(key);
            }
            (Err(_), Opening::Probe) => {}
        }
        connected
    }
}
