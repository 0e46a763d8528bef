//! Executable scripts for tests (stand-ins for docker, stub servers), written so that running them never fails
//! with "Text file busy" (ETXTBSY) while other test threads start processes.

use std::path::Path;

/// Writes `body` to `path` as an executable. `cp` writes it from a draft beside it, so `path` is never open for
/// writing in this process: a child another test thread forks meanwhile would hold it open until its own exec, and
/// running the script then fails with ETXTBSY, as a CI run saw.
pub fn write_executable(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let name = path.file_name().expect("a file name").to_string_lossy();
    let draft = path.with_file_name(format!(".{name}.draft"));
    std::fs::write(&draft, body).expect("write the draft");
    std::fs::set_permissions(&draft, std::fs::Permissions::from_mode(0o755)).expect("chmod the draft");
    let copied = std::process::Command::new("cp").arg(&draft).arg(path).status().expect("run cp");
    assert!(copied.success(), "cp {} {}", draft.display(), path.display());
}
