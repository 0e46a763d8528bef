//! A whole process timed from spawn to exit, with its peak memory: the measure of cold use. This process starts
//! only that one child, so the children's peak RSS the kernel keeps (getrusage) is that command's (or, if larger,
//! a process it started and waited for).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use nix::sys::resource::{UsageWho, getrusage};

/// Runs `program args` with stdout discarded; returns its wall time and peak RSS (KiB).
pub fn run(program: &Path, args: &[String]) -> anyhow::Result<(Duration, i64)> {
    let begun = Instant::now();
    let status = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .with_context(|| format!("cannot start {}", program.display()))?;
    let took = begun.elapsed();
    if !status.success() {
        bail!("{} {args:?} failed: {status}", program.display());
    }
    Ok((took, getrusage(UsageWho::RUSAGE_CHILDREN)?.max_rss()))
}
