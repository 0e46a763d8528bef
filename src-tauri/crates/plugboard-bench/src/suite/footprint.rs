//! What Plugboard costs on disk: the release binaries and the .deb, from the release folder as the last builds
//! left them (`make bundle` makes the .deb; the suite never builds one: that takes minutes). It must never report
//! a file it did not find: a missing one says how to make it.

use std::path::{Path, PathBuf};

use crate::sides::Programs;
use crate::stats::{Goal, Summary};

pub fn footprint(programs: &Programs, summary: &mut Summary) {
    println!("\nfootprint on disk (release builds)");
    let title = "footprint on disk";
    let release = &programs.release;
    for (label, path, how) in [
        ("plugboard (CLI and gateway)", release.join("plugboard"), "cargo build --release -p plugboard-cli"),
        ("plugboard-desktop (the window)", release.join("plugboard-desktop"), "make bundle"),
    ] {
        match size_mib(&path) {
            Some(mib) => {
                println!("  {label:<34} {mib:>7.1} MiB");
                summary.row(&[
                    title.into(),
                    label.into(),
                    String::new(),
                    String::new(),
                    format!("{mib:.1} MiB"),
                    String::new(),
                ]);
            }
            None => println!("  {label:<34} not built ({how})"),
        }
    }
    match newest_deb(release) {
        Some(deb) => {
            let mb = std::fs::metadata(&deb).map_or(0.0, |m| m.len() as f64 / 1e6);
            let name = deb.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            println!("  {:<34} {mb:>7.1} MB", format!(".deb ({name})"));
            summary.row(&[
                title.into(),
                ".deb".into(),
                String::new(),
                String::new(),
                format!("{mb:.1} MB"),
                String::new(),
            ]);
            summary.goal(&Goal::at_most(".deb size in MB ÷ 1 MB", Some(mb), 15.0));
        }
        None => println!("  {:<34} not built (make bench-bundle builds it and runs this part)", ".deb"),
    }
}

fn size_mib(path: &Path) -> Option<f64> {
    std::fs::metadata(path).ok().map(|m| m.len() as f64 / (1024.0 * 1024.0))
}

/// The newest .deb the Tauri bundler left in the release folder.
fn newest_deb(release: &Path) -> Option<PathBuf> {
    let debs = std::fs::read_dir(release.join("bundle/deb")).ok()?;
    debs.flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "deb"))
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
}
