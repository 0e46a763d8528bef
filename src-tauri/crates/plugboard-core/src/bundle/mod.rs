//! `.mcpb` bundles (Claude Desktop extensions, manifest spec 0.1 to 0.4): open one safely (`archive.rs`), show what
//! it is (name, author, the tools it declares, who signed it and who vouches for them, where it runs), turn its `mcp_config` into a
//! preset whose inputs are its `user_config` (sensitive fields to the keychain), unpack it into the data dir's
//! `bundles/` and add the server, which waits for approval like any other. It never runs anything and never
//! unpacks outside its own folder.

mod archive;
mod manifest;
mod pkcs7;
mod signature;

#[cfg(test)]
mod signature_tests;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub use archive::Limits;
pub use manifest::{Manifest, Tool};
#[cfg(feature = "fuzzing")]
pub(crate) use signature::{Authorities, check as check_signature};
pub use signature::{Signature, Signer};

use crate::config::model::ServerName;
use crate::presets::{self, Launch, NamedTemplate, PathKind, Preset, PresetError, PresetInput, PresetPreview};
use crate::registry::Registry;
use crate::trust::ReviewFlag;

/// Why a bundle cannot be installed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BundleError {
    #[error("the bundle cannot be read: {0}")]
    Unreadable(String),
    #[error("the bundle is malformed: {0}")]
    Malformed(String),
    #[error("the bundle is too big: {0}")]
    Oversized(String),
    #[error("the bundle holds a path that escapes its folder: {0}")]
    PathEscape(String),
    #[error("the bundle cannot run here: {0}")]
    Incompatible(String),
    /// A signature block that is damaged or does not cover the bundle: it was changed after it was signed.
    #[error("the bundle's signature does not hold: {0}")]
    Signature(String),
    #[error("this version of the bundle is already unpacked at {0}: remove that server first")]
    AlreadyInstalled(String),
    #[error(transparent)]
    Preset(#[from] PresetError),
}

/// The folder bundles are unpacked into.
pub fn bundles_dir() -> PathBuf {
    crate::paths::data_dir().join("bundles")
}

/// A bundle as the person is asked about it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct BundleOffer {
    pub path: String,
    pub display_name: String,
    pub version: String,
    pub author: String,
    pub description: String,
    /// The manifest's spec version.
    pub spec: String,
    /// The tools the manifest declares (the server's own list may differ; pinning covers what it really offers).
    pub tools: Vec<Tool>,
    pub signature: Signature,
    /// Platforms and runtimes it names, in words.
    pub compatibility: String,
    pub preset: Preset,
    pub suggested_name: String,
    pub preview: PresetPreview,
    pub flags: Vec<ReviewFlag>,
}

/// Opens the bundle at `path` and says what installing it would do.
pub fn offer(registry: &Registry, path: &Path, dir: &Path) -> Result<BundleOffer, BundleError> {
    let opened = archive::open(path, Limits::default())?;
    let m = &opened.manifest;
    let preset = preset_for(m, &install_dir(dir, m))?;
    let taken: Vec<String> = registry.store().snapshot().servers.into_keys().collect();
    let suggested_name = presets::suggest_name(&ServerName::sanitize(&m.name).to_string(), &taken);
    let preview = presets::preview_of(&preset, &BTreeMap::new())?;
    let flags = crate::install::flags_of(&preset, &suggested_name);
    Ok(BundleOffer {
        path: path.display().to_string(),
        display_name: m.display_name.clone().unwrap_or_else(|| m.name.clone()),
        version: m.version.clone(),
        author: m.author.name.clone(),
        description: m.description.clone(),
        spec: m.spec_version().unwrap_or("?").to_owned(),
        tools: m.tools.clone(),
        signature: opened.signature,
        compatibility: compatibility_text(m),
        preset,
        suggested_name,
        preview,
        flags,
    })
}

/// What installing the bundle with `inputs` would run (a filled secret input may be any text).
pub fn preview(path: &Path, dir: &Path, inputs: &BTreeMap<String, String>) -> Result<PresetPreview, BundleError> {
    let opened = archive::open(path, Limits::default())?;
    Ok(presets::preview_of(&preset_for(&opened.manifest, &install_dir(dir, &opened.manifest))?, inputs)?)
}

/// Unpacks the bundle into `dir` and adds it as the server `name` with `inputs`; it waits for approval.
pub fn install(
    registry: &Registry,
    path: &Path,
    dir: &Path,
    name: &str,
    inputs: &BTreeMap<String, String>,
) -> Result<String, BundleError> {
    let opened = archive::open(path, Limits::default())?;
    install_opened(registry, &opened, dir, name, inputs)
}

fn install_opened(
    registry: &Registry,
    opened: &archive::Opened,
    dir: &Path,
    name: &str,
    inputs: &BTreeMap<String, String>,
) -> Result<String, BundleError> {
    let target = install_dir(dir, &opened.manifest);
    let preset = preset_for(&opened.manifest, &target)?;
    // Checked before unpacking, so a missing input leaves nothing on disk.
    presets::convert(&preset, inputs)?;
    opened.unpack(&target)?;
    presets::add_from(registry, &preset, name, inputs)
        .inspect_err(|_| {
            let _ = std::fs::remove_dir_all(&target);
        })
        .map_err(Into::into)
}

/// `bundles/<name>-<version>`, both made safe as one folder name.
fn install_dir(dir: &Path, m: &Manifest) -> PathBuf {
    let clean = |t: &str| -> String {
        t.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '-' }).collect()
    };
    let folder = format!("{}-{}", clean(&m.name), clean(&m.version)).trim_start_matches('.').to_owned();
    dir.join(if folder.is_empty() { "bundle".to_owned() } else { folder })
}

fn compatibility_text(m: &Manifest) -> String {
    let Some(c) = &m.compatibility else { return "no platform named".into() };
    let mut parts = Vec::new();
    if !c.platforms.is_empty() {
        parts.push(format!("platforms: {}", c.platforms.join(", ")));
    }
    for (runtime, version) in &c.runtimes {
        parts.push(format!("{runtime} {version}"));
    }
    if parts.is_empty() { "no platform named".into() } else { parts.join("; ") }
}

/// The manifest's `mcp_config` as a preset: `${__dirname}` is the unpacked folder, `${user_config.KEY}` an input.
fn preset_for(m: &Manifest, folder: &Path) -> Result<Preset, BundleError> {
    if let Some(c) = &m.compatibility
        && !c.platforms.is_empty()
        && !c.platforms.iter().any(|p| {
            p == std::env::consts::OS || (p == "darwin" && cfg!(target_os = "macos")) || (p == "win32" && cfg!(windows))
        })
    {
        return Err(BundleError::Incompatible(format!("it is made for {} only", c.platforms.join(", "))));
    }
    if !matches!(m.server.kind.as_str(), "node" | "python" | "binary" | "uv") {
        return Err(BundleError::Incompatible(format!("its server type {:?} is unknown", m.server.kind)));
    }
    let folder = folder.display().to_string();
    let inputs: Vec<PresetInput> = m.user_config.iter().map(|(key, option)| user_input(key, option)).collect();
    let fill = |text: &str| substitute(text, &folder, &inputs);
    let config = &m.server.mcp_config;
    let command = fill(&config.command)?;
    let args = config.args.iter().map(|a| fill(a).map(|a| vec![a])).collect::<Result<_, _>>()?;
    let env = config
        .env
        .iter()
        .map(|(name, value)| Ok(NamedTemplate { name: name.clone(), template: fill(value)? }))
        .collect::<Result<_, BundleError>>()?;
    Ok(Preset {
        name: format!("mcpb/{}", m.name),
        title: m.display_name.clone().unwrap_or_else(|| m.name.clone()),
        description: m.description.clone(),
        version: m.version.clone(),
        website_url: None,
        repository_url: None,
        launch: Launch::Command { command, args, env },
        inputs,
        auth_note: None,
        sources: Vec::new(),
    })
}

fn user_input(key: &str, option: &manifest::UserConfigOption) -> PresetInput {
    let default = match &option.default {
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        Some(serde_json::Value::Bool(b)) => Some(b.to_string()),
        _ => None,
    };
    PresetInput {
        key: key.to_owned(),
        description: Some(format!("{}: {}", option.title, option.description)),
        required: option.required,
        secret: option.sensitive,
        default,
        path: match option.kind.as_str() {
            "directory" => Some(PathKind::Folder),
            "file" => Some(PathKind::File),
            _ => None,
        },
        placeholder: None,
        choices: if option.kind == "boolean" { vec!["true".into(), "false".into()] } else { Vec::new() },
    }
}

/// Replaces the manifest's variables; an unknown one, or a brace of Plugboard's own template syntax, is refused.
fn substitute(text: &str, folder: &str, inputs: &[PresetInput]) -> Result<String, BundleError> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let end = rest[start..].find('}').map(|i| start + i).ok_or_else(|| braces(text))?;
        literal(&mut out, &rest[..start], text)?;
        let variable = &rest[start + 2..end];
        let home = || dirs::home_dir().map(|h| h.display().to_string()).unwrap_or_default();
        let value = match variable {
            "__dirname" => folder.to_owned(),
            "HOME" => home(),
            "DESKTOP" => dirs::desktop_dir().map(|d| d.display().to_string()).unwrap_or_else(home),
            "DOCUMENTS" => dirs::document_dir().map(|d| d.display().to_string()).unwrap_or_else(home),
            "DOWNLOADS" => dirs::download_dir().map(|d| d.display().to_string()).unwrap_or_else(home),
            "/" | "pathSeparator" => std::path::MAIN_SEPARATOR.to_string(),
            other => match other.strip_prefix("user_config.") {
                Some(key) if inputs.iter().any(|i| i.key == key) => format!("{{{key}}}"),
                _ => {
                    return Err(BundleError::Malformed(format!(
                        "its mcp_config uses the unknown variable ${{{}}}",
                        variable.chars().take(40).collect::<String>()
                    )));
                }
            },
        };
        out.push_str(&value);
        rest = &rest[end + 1..];
    }
    literal(&mut out, rest, text)?;
    Ok(out)
}

fn literal(out: &mut String, text: &str, whole: &str) -> Result<(), BundleError> {
    if text.contains(['{', '}']) {
        return Err(braces(whole));
    }
    out.push_str(text);
    Ok(())
}

fn braces(_text: &str) -> BundleError {
    BundleError::Malformed("its mcp_config holds braces that are not a ${…} variable".into())
}
