//! Records the commit the trainer is built from as `SABACC_BUILD_COMMIT`, so a checkpoint names
//! the source of the program that trained it, not whatever repository it happens to run in (a
//! binary built from one commit and run in a checkout of another recorded the other).

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Build again when HEAD moves: HEAD itself (a checkout), the branch it names (a commit), and
    // packed refs. A missing file would make cargo rerun this script on every build: skip those.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]).filter(|p| Path::new(p).exists()) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    if let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) {
        println!("cargo:rustc-env=SABACC_BUILD_COMMIT={commit}");
    }
}
