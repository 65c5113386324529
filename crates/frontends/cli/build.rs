//! Records the commit the program is built from, for `sabacc --version`: the short hash from
//! `git rev-parse --short HEAD` when git and the repository's `.git` are there, "unknown commit"
//! otherwise (a build from a source archive).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("../../..");
    let git = root.join(".git");
    let commit = if git.exists() { commit(&root) } else { None };
    if git.is_dir() {
        // Rebuild when HEAD moves: a checkout changes HEAD, a commit changes the branch's ref.
        watch(&git.join("HEAD"));
        if let Ok(head) = std::fs::read_to_string(git.join("HEAD"))
            && let Some(r) = head.strip_prefix("ref:")
        {
            watch(&git.join(r.trim()));
        }
        watch(&git.join("packed-refs"));
    } else if git.is_file() {
        // A worktree's `.git` file names its git folder.
        watch(&git);
    }
    let text = match commit {
        Some(c) => format!("commit {c}"),
        None => "unknown commit".to_string(),
    };
    println!("cargo:rustc-env=SABACC_COMMIT={text}");
}

/// Asks cargo to rerun this script when `path` changes; a missing path is not watched, since
/// cargo would then rerun the script on every build.
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The short hash of HEAD, or `None` when git is missing or fails.
fn commit(root: &Path) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(root).args(["rev-parse", "--short", "HEAD"]).output().ok()?;
    let hash = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !hash.is_empty()).then_some(hash)
}
