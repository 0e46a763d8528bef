//! What the person approves before a server runs or is sent a secret: a stdio server's launch definition (the
//! program as it resolves, its arguments, environment and working directory, all as configured) or a remote
//! server's origin with the headers and references that travel to it. Its digest is SHA-256 over the RFC 8785
//! canonical JSON, so the same definition always has the same digest in every process. It must never hold an
//! expanded value: references stay as written (`${secret:token}`), so neither the definition nor its digest carries
//! a secret.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::Serialize;

use crate::config::model::{Auth, HttpSpec, ServerConfig, StdioSpec, Transport};
use crate::config::references::references;

/// The parts of a server that decide what runs, or where its secrets go, as configured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum LaunchDefinition {
    Stdio {
        /// The server's name: `${secret:…}` references resolve among this name's secrets, so a rename changes
        /// which secrets the program would be given.
        server: String,
        /// The command as written in the config.
        command: String,
        /// Where the command resolves on this machine (`None` when it does not resolve, and so cannot run).
        program: Option<String>,
        args: Vec<String>,
        /// Every variable with its configured value (references unexpanded; servers.json holds no literal secret).
        env: BTreeMap<String, String>,
        cwd: Option<String>,
        /// For `docker run`: the arguments as they will run, with the safe defaults Plugboard adds and host folders
        /// mounted read-only unless marked writable (absent for any other program, whose digest is as it was).
        #[serde(skip_serializing_if = "Option::is_none")]
        container_args: Option<Vec<String>>,
    },
    Remote {
        server: String,
        /// `scheme://host[:port]`: what the secrets and tokens are bound to.
        origin: String,
        /// The `${…}` references the URL's path and query draw on (a changed path alone does not ask again).
        url_references: Vec<String>,
        /// Every header with its configured value.
        headers: BTreeMap<String, String>,
        /// How it authenticates: `none`, `headers`, `oauth`, or `bearer-env:VAR`.
        auth: String,
    },
}

/// SHA-256 of a definition's canonical JSON, as 64 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct DefinitionDigest(pub(super) String);

impl DefinitionDigest {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DefinitionDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl LaunchDefinition {
    /// The definition of `config`, resolving its command on this machine's search path.
    pub fn of(config: &ServerConfig) -> Self {
        Self::with_resolver(config, |command, env| {
            crate::transport::resolve_program(Path::new(command), env).ok().map(|p| p.display().to_string())
        })
    }

    /// The definition with `resolve` standing in for the search path (for tests).
    pub(crate) fn with_resolver(
        config: &ServerConfig,
        resolve: impl Fn(&str, &BTreeMap<String, String>) -> Option<String>,
    ) -> Self {
        let server = config.name.as_str().to_owned();
        match &config.transport {
            Transport::Stdio(StdioSpec { command, args, env, cwd }) => {
                // Only a literal PATH of the entry steers the search; one built from references is expanded at
                // spawn time, where the program is resolved again.
                let literal_env: BTreeMap<String, String> =
                    env.iter().filter(|(_, v)| !v.contains("${")).map(|(k, v)| (k.clone(), v.clone())).collect();
                let program = if command.contains("${") { None } else { resolve(command, &literal_env) };
                let container_args = crate::transport::is_docker_run(Path::new(command), args)
                    .then(|| crate::transport::hardened_args(args))
                    .flatten();
                Self::Stdio {
                    server,
                    command: command.clone(),
                    program,
                    args: args.clone(),
                    env: env.clone(),
                    cwd: cwd.clone(),
                    container_args,
                }
            }
            Transport::Http(HttpSpec { url, headers, .. }) => Self::Remote {
                server,
                origin: origin_of(url),
                url_references: reference_texts(url),
                headers: headers.clone(),
                auth: auth_label(&config.auth),
            },
        }
    }

    /// The digest approvals are kept under.
    pub fn digest(&self) -> DefinitionDigest {
        // Serialising a derived Serialize of strings and maps cannot fail; an empty input would still be a digest
        // no approval was recorded under, so nothing is approved by accident.
        let canonical = serde_jcs::to_vec(self).unwrap_or_default();
        DefinitionDigest(super::store::sha256_hex(&canonical))
    }

    pub fn server(&self) -> &str {
        match self {
            Self::Stdio { server, .. } | Self::Remote { server, .. } => server,
        }
    }

    /// What the person reads: the exact command line (the resolved program, then each argument quoted when it
    /// needs to be; a container's with the defaults Plugboard adds), or the origin.
    pub fn summary(&self) -> String {
        match self {
            Self::Stdio { command, program, args, container_args, .. } => {
                let args = container_args.as_ref().unwrap_or(args);
                let head = program.as_deref().unwrap_or(command);
                std::iter::once(head)
                    .chain(args.iter().map(String::as_str))
                    .map(shell_quoted)
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            Self::Remote { origin, .. } => origin.clone(),
        }
    }

    /// The environment as it may be shown: each name with its references, never a literal value (an external edit
    /// may have put a literal secret there).
    pub fn env_shown(&self) -> Vec<String> {
        match self {
            Self::Stdio { env, .. } => env.iter().map(|(name, value)| shown_value(name, value)).collect(),
            Self::Remote { headers, .. } => headers.iter().map(|(name, value)| shown_value(name, value)).collect(),
        }
    }
}

fn shown_value(name: &str, value: &str) -> String {
    let refs = reference_texts(value);
    if refs.is_empty() { format!("{name} (a literal value)") } else { format!("{name} = {}", refs.join(", ")) }
}

/// `scheme://host[:port]` of `url`; the whole text when it does not parse (it then cannot connect either, and any
/// edit still changes the digest).
fn origin_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) if parsed.has_host() => parsed.origin().ascii_serialization(),
        _ => url.to_owned(),
    }
}

/// Each reference of `text` as written (`${secret:token}`); a malformed text counts as itself.
fn reference_texts(text: &str) -> Vec<String> {
    use crate::config::references::Reference;
    match references(text) {
        Ok(found) => found
            .into_iter()
            .map(|r| match r {
                Reference::Secret(name) => format!("${{secret:{name}}}"),
                Reference::Env { var, .. } => format!("${{env:{var}}}"),
            })
            .collect(),
        Err(_) => vec![text.to_owned()],
    }
}

fn auth_label(auth: &Auth) -> String {
    match auth {
        Auth::None => "none".into(),
        Auth::Headers => "headers".into(),
        Auth::OAuth(_) => "oauth".into(),
        Auth::BearerEnv { var } => format!("bearer-env:{var}"),
    }
}

/// `word` as a POSIX shell would need it written to mean itself.
fn shell_quoted(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
    if plain { word.to_owned() } else { format!("'{}'", word.replace('\'', r"'\''")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::model::{HttpMode, ServerName};

    fn stdio(name: &str, command: &str, args: &[&str], env: &[(&str, &str)]) -> ServerConfig {
        let spec = StdioSpec {
            command: command.into(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
            cwd: None,
        };
        ServerConfig::new(ServerName::parse(name).expect("name"), Transport::Stdio(spec))
    }

    fn remote(name: &str, url: &str, headers: &[(&str, &str)]) -> ServerConfig {
        let spec = HttpSpec {
            url: url.into(),
            headers: headers.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
            mode: HttpMode::StreamableHttp,
        };
        ServerConfig::new(ServerName::parse(name).expect("name"), Transport::Http(spec))
    }

    fn digest(config: &ServerConfig) -> DefinitionDigest {
        LaunchDefinition::with_resolver(config, |c, _| Some(format!("/usr/bin/{c}"))).digest()
    }

    /// The same definition has the same digest, and the digest is 64 hex digits (stable across processes).
    #[test]
    fn the_digest_is_stable() {
        let a = digest(&stdio("files", "npx", &["-y", "pkg"], &[("A", "1")]));
        let b = digest(&stdio("files", "npx", &["-y", "pkg"], &[("A", "1")]));
        assert_eq!(a, b);
        assert_eq!(a.as_str().len(), 64);
        assert!(a.as_str().chars().all(|c| c.is_ascii_hexdigit()));
    }

    /// Every part of a launch changes the digest: the program, an argument, an env value or name, the name.
    #[test]
    fn any_change_to_a_launch_changes_the_digest() {
        let base = digest(&stdio("files", "npx", &["-y", "pkg"], &[("A", "1")]));
        let changed = [
            stdio("files", "node", &["-y", "pkg"], &[("A", "1")]),
            stdio("files", "npx", &["-y", "pkg@2"], &[("A", "1")]),
            stdio("files", "npx", &["-y", "pkg"], &[("A", "2")]),
            stdio("files", "npx", &["-y", "pkg"], &[("NODE_OPTIONS", "1")]),
            stdio("other", "npx", &["-y", "pkg"], &[("A", "1")]),
        ];
        for config in &changed {
            assert_ne!(digest(config), base, "{config:?}");
        }
        let mut with_cwd = stdio("files", "npx", &["-y", "pkg"], &[("A", "1")]);
        if let Transport::Stdio(spec) = &mut with_cwd.transport {
            spec.cwd = Some("/tmp".into());
        }
        assert_ne!(digest(&with_cwd), base);
    }

    /// The same command resolving to another program (a different PATH) is another definition.
    #[test]
    fn where_the_program_resolves_is_part_of_it() {
        let config = stdio("files", "npx", &[], &[]);
        let here = LaunchDefinition::with_resolver(&config, |_, _| Some("/usr/bin/npx".into())).digest();
        let there = LaunchDefinition::with_resolver(&config, |_, _| Some("/tmp/evil/npx".into())).digest();
        assert_ne!(here, there);
    }

    /// A remote server's definition is its origin: another path is the same approval, another host is not, and
    /// a header or a reference in the URL added later asks again.
    #[test]
    fn a_remote_definition_is_bound_to_the_origin() {
        let base = digest(&remote("linear", "https://mcp.linear.app/mcp", &[]));
        assert_eq!(digest(&remote("linear", "https://mcp.linear.app/other", &[])), base);
        assert_ne!(digest(&remote("linear", "https://evil.example/mcp", &[])), base);
        assert_ne!(digest(&remote("linear", "https://mcp.linear.app:8443/mcp", &[])), base);
        assert_ne!(digest(&remote("linear", "https://mcp.linear.app/mcp?k=${env:AWS_SECRET}", &[])), base);
        assert_ne!(digest(&remote("linear", "https://mcp.linear.app/mcp", &[("X", "${secret:t}")])), base);
    }

    /// The summary is the exact command line with the resolved program; the env shows names and references only.
    #[test]
    fn what_the_person_reads() {
        let config = stdio("files", "npx", &["-y", "it's here", "--flag=1"], &[("TOKEN", "${secret:t}"), ("B", "x")]);
        let definition = LaunchDefinition::with_resolver(&config, |_, _| Some("/usr/bin/npx".into()));
        assert_eq!(definition.summary(), r"/usr/bin/npx -y 'it'\''s here' --flag=1");
        assert_eq!(definition.env_shown(), ["B (a literal value)", "TOKEN = ${secret:t}"]);
    }

    /// A container's definition is what runs: the safe defaults are in its summary and its digest, an entry
    /// changing one is another definition, and other programs' digests do not carry the field at all.
    #[test]
    fn a_container_is_approved_with_its_defaults() {
        let config = stdio("gh", "docker", &["run", "-i", "--rm", "-v", "/home/me:/work", "ghcr.io/x/y:1"], &[]);
        let definition = LaunchDefinition::with_resolver(&config, |_, _| Some("/usr/bin/docker".into()));
        assert_eq!(
            definition.summary(),
            "/usr/bin/docker run --security-opt no-new-privileges --memory 1g --cpus 1 --pids-limit 512 -i --rm \
             -v /home/me:/work:ro ghcr.io/x/y:1"
        );
        let roomier = stdio("gh", "docker", &["run", "-i", "--memory", "4g", "ghcr.io/x/y:1"], &[]);
        assert_ne!(digest(&roomier), digest(&stdio("gh", "docker", &["run", "-i", "ghcr.io/x/y:1"], &[])));
        let plain =
            LaunchDefinition::with_resolver(&stdio("f", "npx", &["pkg"], &[]), |_, _| Some("/usr/bin/npx".into()));
        let json = serde_json::to_string(&plain).expect("json");
        assert!(!json.contains("containerArgs"), "{json}");
    }
}
