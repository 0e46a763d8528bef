//! The login shell's PATH is learned by the first `plugboard` process and read from the data dir by the next ones,
//! observed with a stand-in `$SHELL` that counts its runs.

use std::os::unix::fs::PermissionsExt;

use crate::support::{Sandbox, stderr, stdout, write_executable};

/// Two `plugboard status` runs that each launch a server by a bare name start the login shell once between them;
/// the cache they share is the user's alone.
#[test]
fn the_second_process_does_not_start_a_login_shell() {
    let sandbox = Sandbox::new();
    let runs = sandbox.root().join("shell-runs");
    let shell = sandbox.root().join("counting-shell");
    let body = format!(
        "#!/bin/sh\necho run >> '{}'\nprintf '%s%s%s' __PLUGBOARD_PATH_BEGIN__ \"$PATH\" __PLUGBOARD_PATH_END__\n",
        runs.display()
    );
    write_executable(&shell, &body);
    assert!(sandbox.run(&["add", "broken", "--", "plugboard-no-such-program"]).status.success());

    for _ in 0..2 {
        let status = sandbox.command(&["status"]).env("SHELL", &shell).output().expect("run");
        assert!(stdout(&status).contains("plugboard-no-such-program"), "{}{}", stdout(&status), stderr(&status));
    }
    let count = std::fs::read_to_string(&runs).map_or(0, |t| t.lines().count());
    assert_eq!(count, 1, "the second process read the cache");
    let cache = sandbox.data_dir().join("login-path.json");
    assert_eq!(std::fs::metadata(&cache).expect("cache").permissions().mode() & 0o777, 0o600);
}
