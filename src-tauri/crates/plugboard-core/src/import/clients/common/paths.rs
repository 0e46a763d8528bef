//! Where desktop apps keep per-user files on each OS, computed only from a `PathContext` (never the real
//! environment) so every OS can be tested on any host.

use std::path::{Path, PathBuf};

use crate::import::{Os, PathContext};

/// The per-user settings dir of a desktop app: `$XDG_CONFIG_HOME` or `~/.config` on Linux,
/// `~/Library/Application Support` on macOS, `%APPDATA%` on Windows.
pub(crate) fn app_config_dir(ctx: &PathContext) -> PathBuf {
    match ctx.os {
        Os::Linux => xdg_config_dir(ctx),
        Os::MacOs => ctx.home.join("Library").join("Application Support"),
        Os::Windows => roaming_app_data(ctx),
    }
}

/// `$XDG_CONFIG_HOME`, else `~/.config` (also what some cross-platform tools use on macOS).
pub(crate) fn xdg_config_dir(ctx: &PathContext) -> PathBuf {
    match &ctx.xdg_config_home {
        Some(dir) if ctx.os == Os::Linux && dir.is_absolute() => dir.clone(),
        _ => ctx.home.join(".config"),
    }
}

/// `%APPDATA%`, else its usual place under the profile.
pub(crate) fn roaming_app_data(ctx: &PathContext) -> PathBuf {
    ctx.app_data.clone().unwrap_or_else(|| ctx.home.join("AppData").join("Roaming"))
}

/// `%LOCALAPPDATA%`, else its usual place under the profile.
pub(crate) fn local_app_data(ctx: &PathContext) -> PathBuf {
    ctx.local_app_data.clone().unwrap_or_else(|| ctx.home.join("AppData").join("Local"))
}

/// `relative` inside each project folder, in the order the projects were given.
pub(crate) fn in_projects(ctx: &PathContext, relative: &[&str]) -> Vec<PathBuf> {
    ctx.projects.iter().map(|project| join_all(project, relative)).collect()
}

/// The `User` dirs of the VS Code family on this OS: desktop builds, then remote servers (not on Windows).
/// `products` are the app folder names (`Code`, `Code - Insiders`, `Cursor`…).
pub(crate) fn editor_user_dirs(ctx: &PathContext, products: &[&str]) -> Vec<PathBuf> {
    let base = app_config_dir(ctx);
    let mut dirs: Vec<PathBuf> = products.iter().map(|p| base.join(p).join("User")).collect();
    if ctx.os != Os::Windows {
        // VS Code Remote (SSH, WSL, containers) keeps the remote side's user settings here.
        for server in [".vscode-server", ".vscode-server-insiders"] {
            dirs.push(ctx.home.join(server).join("data").join("User"));
        }
    }
    dirs
}

/// The desktop editors whose user dir can hold an extension's settings (Cline, Roo run in all of them).
pub(crate) const EDITORS_WITH_EXTENSIONS: &[&str] = &["Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"];

pub(crate) fn join_all(base: &Path, parts: &[&str]) -> PathBuf {
    parts.iter().fold(base.to_path_buf(), |path, part| path.join(part))
}

#[cfg(test)]
pub(crate) mod testing {
    //! Hand-built contexts for the three OSes, shared by every client's path test.
    use super::*;

    pub(crate) fn linux() -> PathContext {
        PathContext {
            os: Os::Linux,
            home: PathBuf::from("/home/ada"),
            app_data: None,
            local_app_data: None,
            xdg_config_home: None,
            projects: vec![PathBuf::from("/home/ada/src/app")],
        }
    }

    pub(crate) fn linux_xdg() -> PathContext {
        PathContext { xdg_config_home: Some(PathBuf::from("/home/ada/.xdg")), ..linux() }
    }

    pub(crate) fn macos() -> PathContext {
        PathContext {
            os: Os::MacOs,
            home: PathBuf::from("/Users/ada"),
            app_data: None,
            local_app_data: None,
            // Ignored on macOS even when set: apps there do not follow XDG.
            xdg_config_home: Some(PathBuf::from("/Users/ada/.xdg")),
            projects: vec![PathBuf::from("/Users/ada/src/app")],
        }
    }

    pub(crate) fn windows() -> PathContext {
        PathContext {
            os: Os::Windows,
            home: PathBuf::from(r"C:\Users\ada"),
            app_data: Some(PathBuf::from(r"C:\Users\ada\AppData\Roaming")),
            local_app_data: Some(PathBuf::from(r"C:\Users\ada\AppData\Local")),
            xdg_config_home: None,
            projects: vec![PathBuf::from(r"C:\src\app")],
        }
    }

    /// `base` joined with `parts`, for building expected paths the same way on any host.
    pub(crate) fn p(base: &str, parts: &[&str]) -> PathBuf {
        join_all(Path::new(base), parts)
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;

    /// The app config dir follows each OS's convention and XDG only on Linux.
    #[test]
    fn app_config_dir_per_os() {
        assert_eq!(app_config_dir(&linux()), p("/home/ada", &[".config"]));
        assert_eq!(app_config_dir(&linux_xdg()), p("/home/ada/.xdg", &[]));
        assert_eq!(app_config_dir(&macos()), p("/Users/ada", &["Library", "Application Support"]));
        assert_eq!(app_config_dir(&windows()), p(r"C:\Users\ada\AppData\Roaming", &[]));
        let bare = PathContext { app_data: None, ..windows() };
        assert_eq!(app_config_dir(&bare), p(r"C:\Users\ada", &["AppData", "Roaming"]));
    }
}
