//! Reading and hardening `docker run`'s arguments: where docker's options end (the image), and the safe defaults
//! every container gets unless the entry says otherwise (no new privileges, memory, CPU and process limits, host
//! folders mounted read-only unless marked writable). The hardened arguments are what runs and what the person
//! approves. It must never drop or reorder what the person wrote, only add to it.

/// What each container gets unless the entry sets the same option itself: the option names that count as set, and
/// the arguments added. `--security-opt` counts only when it speaks of `no-new-privileges`.
const SAFE_DEFAULTS: &[(&[&str], &[&str])] = &[
    (&["--security-opt"], &["--security-opt", "no-new-privileges"]),
    (&["--memory", "-m"], &["--memory", "1g"]),
    (&["--cpus", "--cpu-quota", "--cpu-period", "--cpuset-cpus", "-c", "--cpu-shares"], &["--cpus", "1"]),
    (&["--pids-limit"], &["--pids-limit", "512"]),
];

/// `docker run`'s options as written: each option with its value, where the image is, and the `--name`.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct RunArgs {
    /// `(flag, value)` per option, a flag written `--x=v` split at the `=`.
    pub options: Vec<(String, Option<String>)>,
    /// Index of the image in the arguments after `run` (`None` when there is none).
    pub image: Option<usize>,
    pub name: Option<String>,
}

impl RunArgs {
    /// Whether the option `flag` (any of its spellings in `flags`) is set.
    pub fn has(&self, flags: &[&str]) -> bool {
        self.options.iter().any(|(flag, _)| flags.contains(&flag.as_str()))
    }

    /// The values of `flags`.
    pub fn values<'a>(&'a self, flags: &'a [&str]) -> impl Iterator<Item = &'a str> + 'a {
        self.options.iter().filter(move |(f, _)| flags.contains(&f.as_str())).filter_map(|(_, v)| v.as_deref())
    }
}

/// Reads the arguments after `run`: options end at the first word that is not one (the image); a `--name` after
/// the image belongs to the server, not to docker.
pub(crate) fn split_run(after_run: &[String]) -> RunArgs {
    let mut parsed = RunArgs::default();
    let mut i = 0;
    while i < after_run.len() {
        let arg = &after_run[i];
        if arg == "--" {
            parsed.image = (i + 1 < after_run.len()).then_some(i + 1);
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            parsed.image = Some(i);
            break;
        }
        let (flag, value) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_owned(), Some(value.to_owned())),
            _ if arg.contains('=') => (arg[..2].to_owned(), Some(arg[2..].to_owned())),
            _ if is_boolean_flag(arg) => (arg.clone(), None),
            _ => {
                // `-e TOKEN`, `-v a:b`: the next argument is this flag's value, not the image.
                i += 1;
                (arg.clone(), after_run.get(i).cloned())
            }
        };
        if flag == "--name" {
            parsed.name.clone_from(&value);
        }
        parsed.options.push((flag, value));
        i += 1;
    }
    parsed
}

/// `docker run`'s flags that take no value (`-it` is `-i -t`).
fn is_boolean_flag(arg: &str) -> bool {
    const LONG: &[&str] = &[
        "--detach",
        "--interactive",
        "--tty",
        "--rm",
        "--init",
        "--privileged",
        "--read-only",
        "--publish-all",
        "--oom-kill-disable",
        "--no-healthcheck",
        "--sig-proxy",
        "--quiet",
        "--help",
        "--use-api-socket",
    ];
    match arg.strip_prefix("--") {
        Some(_) => LONG.contains(&arg),
        None => arg.len() > 1 && arg[1..].chars().all(|c| "dithPq".contains(c)),
    }
}

/// `args` (starting with `run`) as they will run: the [`SAFE_DEFAULTS`] the entry does not set, right after `run`,
/// then every argument as written except that a host folder mounted without `rw` (or `readonly=false`) is mounted
/// read-only. `None` when `args` is not `run …`.
pub fn hardened_args(args: &[String]) -> Option<Vec<String>> {
    if args.first().map(String::as_str) != Some("run") {
        return None;
    }
    let after_run = &args[1..];
    let parsed = split_run(after_run);
    let mut hardened = vec!["run".to_owned()];
    for (flags, added) in SAFE_DEFAULTS {
        let set = if flags == &["--security-opt"] {
            parsed.values(flags).any(|v| v.starts_with("no-new-privileges"))
        } else {
            parsed.has(flags)
        };
        if !set {
            hardened.extend(added.iter().map(|a| (*a).to_owned()));
        }
    }
    let options_end = parsed.image.unwrap_or(after_run.len());
    let mut i = 0;
    while i < after_run.len() {
        let arg = &after_run[i];
        if i >= options_end {
            hardened.push(arg.clone());
        } else if let Some((flag, value)) = arg.split_once('=').filter(|(f, _)| is_mount_flag(f)) {
            hardened.push(format!("{flag}={}", read_only_mount(flag, value)));
        } else if is_mount_flag(arg) && i + 1 < options_end {
            hardened.push(arg.clone());
            i += 1;
            hardened.push(read_only_mount(arg, &after_run[i]));
        } else {
            hardened.push(arg.clone());
        }
        i += 1;
    }
    Some(hardened)
}

fn is_mount_flag(flag: &str) -> bool {
    ["-v", "--volume", "--mount"].contains(&flag)
}

/// Whether a mount's source is a folder of this computer rather than a named volume.
pub(crate) fn is_host_source(source: &str) -> bool {
    source.starts_with('/') || source.starts_with('~') || source.starts_with('.') || source.starts_with('$')
}

/// A host folder's mount made read-only unless it is marked writable (`:rw`, `readonly=false`); named volumes and
/// anything already saying `ro`/`rw` are left as written.
fn read_only_mount(flag: &str, value: &str) -> String {
    if flag == "--mount" {
        let fields: Vec<&str> = value.split(',').collect();
        let bind = fields.contains(&"type=bind");
        let decided = fields.iter().any(|f| {
            let key = f.split('=').next().unwrap_or_default();
            key == "readonly" || key == "ro"
        });
        return if bind && !decided { format!("{value},readonly") } else { value.to_owned() };
    }
    let mut parts = value.splitn(3, ':');
    let (source, target, options) = (parts.next().unwrap_or_default(), parts.next(), parts.next());
    if !is_host_source(source) || target.is_none() {
        return value.to_owned();
    }
    match options {
        None => format!("{value}:ro"),
        Some(options) if options.split(',').any(|o| o == "ro" || o == "rw") => value.to_owned(),
        Some(_) => format!("{value},ro"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| (*a).to_owned()).collect()
    }

    fn hardened(args: &[&str]) -> Vec<String> {
        hardened_args(&strings(args)).expect("a run")
    }

    /// A bare `docker run -i --rm image` gets every safe default right after `run`, and nothing else changes.
    #[test]
    fn every_default_is_added_to_a_bare_run() {
        assert_eq!(
            hardened(&["run", "-i", "--rm", "-e", "TOKEN", "ghcr.io/x/y:1", "--flag"]),
            strings(&[
                "run",
                "--security-opt",
                "no-new-privileges",
                "--memory",
                "1g",
                "--cpus",
                "1",
                "--pids-limit",
                "512",
                "-i",
                "--rm",
                "-e",
                "TOKEN",
                "ghcr.io/x/y:1",
                "--flag"
            ])
        );
    }

    /// What the entry sets itself is kept and its default is not added (a changed limit, no-new-privileges
    /// turned off), in either spelling.
    #[test]
    fn the_entry_overrides_each_default() {
        let own = [
            "run",
            "--memory=4g",
            "--cpus",
            "2",
            "--pids-limit",
            "-1",
            "--security-opt",
            "no-new-privileges=false",
            "i",
        ];
        assert_eq!(hardened(&own), strings(&own), "nothing added to an entry that sets every default itself");
        // Another security option does not stand in for no-new-privileges.
        assert!(
            hardened(&["run", "--security-opt", "seccomp=unconfined", "-m", "1g", "img"])
                .contains(&"no-new-privileges".to_owned())
        );
    }

    /// Host folders are mounted read-only unless marked writable; named volumes, and arguments after the image,
    /// are left alone.
    #[test]
    fn host_folders_are_read_only_unless_marked_writable() {
        let got = hardened(&[
            "run",
            "-v",
            "/home/me/notes:/notes",
            "--volume=/srv:/srv:z",
            "-v",
            "/data:/data:rw",
            "-v",
            "cache:/cache",
            "--mount",
            "type=bind,source=/etc/app,target=/app",
            "--mount",
            "type=bind,src=/w,dst=/w,readonly=false",
            "img",
            "-v",
            "/not/a/mount:/x",
        ]);
        let options: Vec<&str> = got[9..].iter().map(String::as_str).collect();
        assert_eq!(
            options,
            [
                "-v",
                "/home/me/notes:/notes:ro",
                "--volume=/srv:/srv:z,ro",
                "-v",
                "/data:/data:rw",
                "-v",
                "cache:/cache",
                "--mount",
                "type=bind,source=/etc/app,target=/app,readonly",
                "--mount",
                "type=bind,src=/w,dst=/w,readonly=false",
                "img",
                "-v",
                "/not/a/mount:/x"
            ]
        );
    }

    /// The options end at the image; flag values are skipped; `--name` is found in either spelling.
    #[test]
    fn the_options_end_at_the_image() {
        let parsed = split_run(&strings(&["-it", "-e", "X", "--name=box", "-p", "3000:3000", "img", "--name", "arg"]));
        assert_eq!(parsed.image, Some(6));
        assert_eq!(parsed.name.as_deref(), Some("box"));
        assert!(parsed.has(&["-p"]));
        assert_eq!(split_run(&strings(&["-i", "--", "img"])).image, Some(2));
        assert_eq!(split_run(&strings(&["-i"])).image, None);
        assert_eq!(hardened_args(&strings(&["ps"])), None);
    }
}
