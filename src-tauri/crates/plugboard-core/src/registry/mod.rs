//! The server registry: every operation a person does on their servers (add, update, rename, remove, enable,
//! secrets), over the config store and the vault together, so that a removed or renamed server never leaves
//! its secrets behind. Both the window's commands and the CLI call this; neither touches the file directly.

mod error;
mod secret_refs;

use std::sync::Arc;

pub use error::RegistryError;
pub use secret_refs::{SecretState, secret_names};

use crate::config::model::ServerConfig;
use crate::config::raw::{RawConfigFile, RawServer};
use crate::config::{ConfigStore, EntryError, ServerList, validate_server};
use crate::import::move_literal_secrets;
use crate::secrets::{Sensitive, Vault};

/// The config file and the secrets of the servers in it.
#[derive(Debug)]
pub struct Registry {
    store: ConfigStore,
    vault: Arc<Vault>,
}

impl Registry {
    pub fn new(store: ConfigStore, vault: Arc<Vault>) -> Self {
        Self { store, vault }
    }

    pub fn store(&self) -> &ConfigStore {
        &self.store
    }

    pub fn vault(&self) -> &Vault {
        &self.vault
    }

    /// Every server, validated, with the file's path and any problem with the file.
    pub fn list(&self) -> ServerList {
        let file = self.store.snapshot();
        ServerList::from_file(self.store.path().display().to_string(), &file, self.store.problem())
    }

    /// Every valid server, ready for the supervisor (invalid entries are listed by [`Registry::list`]).
    pub fn configs(&self) -> Vec<ServerConfig> {
        self.store.snapshot().servers.iter().filter_map(|(name, raw)| validate_server(name, raw).ok()).collect()
    }

    /// One entry exactly as it is in the file.
    pub fn get(&self, name: &str) -> Result<RawServer, RegistryError> {
        self.store.snapshot().servers.remove(name).ok_or_else(|| RegistryError::not_found(name))
    }

    /// One entry as pretty JSON, for the raw editor: an entry Plugboard cannot read too, exactly as written, so the
    /// person can fix it there.
    pub fn entry_text(&self, name: &str) -> Result<String, RegistryError> {
        let mut file = self.store.snapshot();
        let written = match file.servers.remove(name) {
            Some(server) => serde_json::to_value(server).ok(),
            None => file.unreadable.remove(name).map(|entry| entry.written),
        };
        let written = written.ok_or_else(|| RegistryError::not_found(name))?;
        Ok(serde_json::to_string_pretty(&written).unwrap_or_else(|_| "{}".to_owned()))
    }

    /// Adds a new server; the entry must validate and the name must be free.
    pub fn add(&self, name: &str, server: RawServer) -> Result<(), RegistryError> {
        self.add_with_secrets(name, server, &[])
    }

    /// Adds a new server with the secrets its `${secret:…}` references name, stored in the vault first; a failure
    /// leaves neither the entry nor a secret behind.
    pub fn add_with_secrets(
        &self,
        name: &str,
        server: RawServer,
        secrets: &[(String, Sensitive<String>)],
    ) -> Result<(), RegistryError> {
        validate_server(name, &server)?;
        let referenced = secret_names(&server);
        if let Some((unused, _)) = secrets.iter().find(|(secret, _)| !referenced.contains(secret)) {
            // A secret no reference names would sit in the keychain unused (and unseen by removal).
            return Err(EntryError {
                server: name.to_owned(),
                field: "secrets".into(),
                message: format!("no ${{secret:{unused}}} in the entry uses the secret {unused:?}"),
            }
            .into());
        }
        if self.store.snapshot().has_entry(name) {
            // Checked before any secret is stored: the existing server's secrets must not be replaced.
            return Err(RegistryError::AlreadyExists { name: name.to_owned() });
        }
        let secrets: Vec<(&str, &str, &Sensitive<String>)> =
            secrets.iter().map(|(secret, value)| (name, secret.as_str(), value)).collect();
        self.write_with_secrets(&secrets, |file| {
            if file.has_entry(name) {
                return Err(RegistryError::AlreadyExists { name: name.to_owned() });
            }
            file.servers.insert(name.to_owned(), server);
            Ok(())
        })
    }

    /// [`Registry::add_with_secrets`], after moving every literal secret the entry holds (a token pasted into a
    /// header, an env value, an argument or the URL) into the vault behind a `${secret:…}` reference, the way an
    /// import does: servers.json (and so its backup) never holds one. Returns where each moved secret was.
    pub fn add_moving_secrets(
        &self,
        name: &str,
        mut server: RawServer,
        secrets: &[(String, Sensitive<String>)],
    ) -> Result<Vec<String>, RegistryError> {
        let found = move_literal_secrets(name, &mut server);
        let mut all = secrets.to_vec();
        all.extend(found.iter().map(|f| (f.name.clone(), f.value.clone())));
        self.add_with_secrets(name, server, &all)?;
        Ok(found.into_iter().map(|f| f.location).collect())
    }

    /// [`Registry::update`], moving the entry's literal secrets into the vault first (the raw entry editor); a
    /// failure leaves neither the change nor a moved secret behind. Returns where each moved secret was.
    pub fn update_moving_secrets(&self, name: &str, mut server: RawServer) -> Result<Vec<String>, RegistryError> {
        let found = move_literal_secrets(name, &mut server);
        validate_server(name, &server)?;
        let secrets: Vec<(&str, &str, &Sensitive<String>)> =
            found.iter().map(|f| (name, f.name.as_str(), &f.value)).collect();
        self.write_with_secrets(&secrets, |file| replace(file, name, server))?;
        Ok(found.into_iter().map(|f| f.location).collect())
    }

    /// Replaces a server's entry; the new entry must validate.
    pub fn update(&self, name: &str, server: RawServer) -> Result<(), RegistryError> {
        validate_server(name, &server)?;
        self.store.modify(|file| replace(file, name, server))
    }

    /// Replaces only a server's tool allowlist: `None` removes the `tools` key (every tool, including ones the
    /// server adds later), `Some` writes exactly that list (`[]` is none). The changed entry must validate.
    pub fn set_tools(&self, name: &str, tools: Option<Vec<String>>) -> Result<(), RegistryError> {
        self.store.modify(|file| {
            let slot = existing(file, name)?;
            let changed = RawServer { tools, ..slot.clone() };
            validate_server(name, &changed)?;
            *slot = changed;
            Ok(())
        })
    }

    /// Turns a server on or off without touching anything else in its entry.
    pub fn set_enabled(&self, name: &str, enabled: bool) -> Result<(), RegistryError> {
        self.store.modify(|file| {
            existing(file, name)?.enabled = Some(enabled);
            Ok(())
        })
    }

    /// Removes a server (an unreadable entry too) and then every secret it had; returns how many secrets were
    /// deleted.
    pub fn remove(&self, name: &str) -> Result<usize, RegistryError> {
        let removed = self.store.modify(|file| match file.servers.remove(name) {
            Some(removed) => Ok(removed),
            None => {
                file.unreadable.remove(name).map(|_| RawServer::default()).ok_or_else(|| RegistryError::not_found(name))
            }
        })?;
        let known = secret_names(&removed);
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        Ok(self.vault.delete_server(name, &known)?)
    }

    /// Renames a server, moving its secrets to the new name first so the renamed entry can still reach them.
    pub fn rename(&self, from: &str, to: &str) -> Result<(), RegistryError> {
        let entry = self.get(from)?;
        validate_server(to, &entry)?;
        if self.store.snapshot().has_entry(to) {
            return Err(RegistryError::AlreadyExists { name: to.to_owned() });
        }
        let mut names = secret_names(&entry);
        names.extend(self.vault.names(from)?);
        names.sort();
        names.dedup();
        for secret in &names {
            if let Some(value) = self.vault.get(from, secret)? {
                self.vault.set(to, secret, &value)?;
            }
        }
        self.store.modify(|file| {
            let entry = file.servers.remove(from).ok_or_else(|| RegistryError::not_found(from))?;
            if file.has_entry(to) {
                return Err(RegistryError::AlreadyExists { name: to.to_owned() });
            }
            file.servers.insert(to.to_owned(), entry);
            Ok(())
        })?;
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        self.vault.delete_server(from, &names)?;
        Ok(())
    }

    /// Stores a secret of an existing server (what its `${secret:NAME}` references resolve to).
    pub fn set_secret(&self, server: &str, name: &str, value: &Sensitive<String>) -> Result<(), RegistryError> {
        self.get(server)?;
        Ok(self.vault.set(server, name, value)?)
    }

    /// Stores every `(server, name, value)` secret, then applies `change` in ONE write of the file. When a secret
    /// cannot be stored or the write fails, the secrets stored so far are deleted again: a failed add or import
    /// leaves neither an entry nor a stray secret behind.
    pub fn write_with_secrets<T>(
        &self,
        secrets: &[(&str, &str, &Sensitive<String>)],
        change: impl FnOnce(&mut RawConfigFile) -> Result<T, RegistryError>,
    ) -> Result<T, RegistryError> {
        let mut stored: Vec<(&str, &str)> = Vec::new();
        let result = (|| {
            for &(server, name, value) in secrets {
                self.vault.set(server, name, value)?;
                stored.push((server, name));
            }
            self.store.modify(change)
        })();
        if result.is_err() {
            for (server, name) in &stored {
                // Best effort: the operation failed as a whole, so its secrets must not linger.
                let _ = self.vault.delete(server, name);
            }
        }
        result
    }

    /// The secrets a server's entry refers to, each with whether the vault holds it (for the server's page).
    pub fn secret_states(&self, server: &str) -> Result<Vec<SecretState>, RegistryError> {
        let entry = self.get(server)?;
        secret_names(&entry)
            .into_iter()
            .map(|name| Ok(SecretState { stored: self.vault.get(server, &name)?.is_some(), name }))
            .collect()
    }

    /// Deletes a secret of a server; deleting one that is not there is fine.
    pub fn delete_secret(&self, server: &str, name: &str) -> Result<(), RegistryError> {
        Ok(self.vault.delete(server, name)?)
    }
}

fn existing<'a>(file: &'a mut RawConfigFile, name: &str) -> Result<&'a mut RawServer, RegistryError> {
    file.servers.get_mut(name).ok_or_else(|| RegistryError::not_found(name))
}

/// Puts `server` in place of the entry `name`, an unreadable one included (the person fixed it).
fn replace(file: &mut RawConfigFile, name: &str, server: RawServer) -> Result<(), RegistryError> {
    if file.unreadable.remove(name).is_none() && !file.servers.contains_key(name) {
        return Err(RegistryError::not_found(name));
    }
    file.servers.insert(name.to_owned(), server);
    Ok(())
}

#[cfg(test)]
mod tests;
