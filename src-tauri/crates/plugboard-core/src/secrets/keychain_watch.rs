//! Waiting for a locked keychain to be unlocked, so a server that could not read its secrets comes up by itself. On
//! Linux the Secret Service announces every collection it locks or unlocks (`CollectionChanged`); one D-Bus
//! connection of the watch's own hears it, and whether the default collection is locked is a property read. Where
//! nothing can be heard, a slow timer stands in. It must never read a secret or unlock anything: unlocking is the
//! person's, and an unlock request would put a password prompt in front of them on every retry.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::watch;

/// How long to wait before trying again where the keychain's lock state cannot be heard (no Secret Service on the
/// bus, or another platform): slow, since each attempt may put an unlock prompt in front of the person.
pub const UNHEARD_RETRY: Duration = Duration::from_secs(60);

/// Hears the keychain's lock changes; cheap to clone (clones share one D-Bus listener, started at first use).
#[derive(Clone, Default)]
pub struct KeychainWatch {
    inner: Arc<Inner>,
}

struct Inner {
    /// Counts the lock changes heard.
    changes: watch::Sender<u64>,
    /// The listener's connection, for asking whether the default collection is locked (`None`: nothing to hear).
    bus: OnceLock<Option<bus::Bus>>,
}

impl Default for Inner {
    fn default() -> Self {
        Self { changes: watch::channel(0).0, bus: OnceLock::new() }
    }
}

impl std::fmt::Debug for KeychainWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeychainWatch").field("listening", &self.inner.bus.get().map(Option::is_some)).finish()
    }
}

impl KeychainWatch {
    pub fn new() -> Self {
        Self::default()
    }

    /// Resolves once the keychain may be usable again: at once when its default collection is not locked now,
    /// else at the first unlock the Secret Service announces; after [`UNHEARD_RETRY`] where nothing can be heard.
    pub async fn unlocked(&self) {
        // Subscribed before looking, so an unlock between the look and the wait is not missed.
        let mut heard = self.inner.changes.subscribe();
        let inner = Arc::clone(&self.inner);
        let listening = tokio::task::spawn_blocking(move || inner.bus().is_some()).await.unwrap_or(false);
        if !listening {
            tokio::time::sleep(UNHEARD_RETRY).await;
            return;
        }
        loop {
            let inner = Arc::clone(&self.inner);
            let locked = tokio::task::spawn_blocking(move || inner.bus().as_ref().map(bus::Bus::default_locked))
                .await
                .ok()
                .flatten();
            // Not locked, or it cannot be told: trying again is the way to find out.
            if !matches!(locked, Some(Ok(true))) {
                return;
            }
            if heard.changed().await.is_err() {
                return;
            }
        }
    }
}

impl Inner {
    /// The listener, started the first time (blocking: it connects to the session bus).
    fn bus(self: &Arc<Self>) -> &Option<bus::Bus> {
        self.bus.get_or_init(|| {
            // Weak: the listener thread must not keep the watch alive once every connector let go of it.
            let watch = Arc::downgrade(self);
            let heard = move || {
                if let Some(inner) = watch.upgrade() {
                    inner.changes.send_modify(|n| *n += 1);
                }
            };
            match bus::Bus::listen(heard) {
                Ok(bus) => Some(bus),
                Err(e) => {
                    tracing::info!(error = %e, "cannot hear the keychain's lock changes; a locked keychain is retried every minute");
                    None
                }
            }
        })
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
mod bus {
    //! The Secret Service on the session bus.

    use zbus::MatchRule;
    use zbus::blocking::{Connection, MessageIterator};
    use zbus::message::Type;
    use zbus::zvariant::{OwnedObjectPath, OwnedValue};

    const SERVICE: &str = "org.freedesktop.secrets";
    const SERVICE_PATH: &str = "/org/freedesktop/secrets";
    const SERVICE_INTERFACE: &str = "org.freedesktop.Secret.Service";
    const COLLECTION_INTERFACE: &str = "org.freedesktop.Secret.Collection";

    pub struct Bus {
        connection: Connection,
    }

    impl Bus {
        /// Connects and calls `heard` (on a thread of its own) at every collection change the service announces.
        pub fn listen(heard: impl Fn() + Send + 'static) -> zbus::Result<Self> {
            let connection = Connection::session()?;
            let rule = MatchRule::builder()
                .msg_type(Type::Signal)
                .sender(SERVICE)?
                .interface(SERVICE_INTERFACE)?
                .member("CollectionChanged")?
                .build();
            let signals = MessageIterator::for_match_rule(rule, &connection, Some(16))?;
            std::thread::Builder::new()
                .name("keychain-watch".into())
                .spawn(move || {
                    for signal in signals {
                        if signal.is_ok() {
                            heard();
                        }
                    }
                })
                .map_err(|e| zbus::Error::Failure(e.to_string()))?;
            Ok(Self { connection })
        }

        /// Whether the default collection (where the keychain's entries go) is locked: a property read, which
        /// never prompts.
        pub fn default_locked(&self) -> zbus::Result<bool> {
            let alias = self.connection.call_method(
                Some(SERVICE),
                SERVICE_PATH,
                Some(SERVICE_INTERFACE),
                "ReadAlias",
                &("default",),
            )?;
            let path: OwnedObjectPath = alias.body().deserialize()?;
            if path.as_str() == "/" {
                return Ok(false);
            }
            let reply = self.connection.call_method(
                Some(SERVICE),
                path.as_str(),
                Some("org.freedesktop.DBus.Properties"),
                "Get",
                &(COLLECTION_INTERFACE, "Locked"),
            )?;
            let value: OwnedValue = reply.body().deserialize()?;
            Ok(bool::try_from(value)?)
        }
    }
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
mod bus {
    //! No Secret Service to hear: the watch falls back to its timer.

    pub struct Bus;

    impl Bus {
        pub fn listen(_heard: impl Fn() + Send + 'static) -> Result<Self, &'static str> {
            Err("this platform's keychain does not announce its lock changes")
        }

        pub fn default_locked(&self) -> Result<bool, &'static str> {
            Ok(false)
        }
    }
}
