//! What every module of the suite does: run the `sabacc` binary as a user would, and find the
//! repository's shipped files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `sabacc` binary with `args` and returns what it printed and its exit status.
pub fn sabacc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sabacc")).args(args).output().expect("the binary runs")
}

/// What the program wrote to standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `args`, which must fail with exit code 1 or 2 (clap's usage errors), no panic, and a
/// message containing every one of `needles`; returns the message.
pub fn fails_with(args: &[&str], needles: &[&str]) -> String {
    let o = sabacc(args);
    let e = stderr(&o);
    assert!(!o.status.success(), "{args:?} succeeded: {e}");
    assert!(matches!(o.status.code(), Some(1 | 2)), "{args:?}: exit {:?}: {e}", o.status.code());
    assert!(!e.contains("panicked"), "{args:?} panicked: {e}");
    for n in needles {
        assert!(e.contains(n), "{args:?}: the message should contain {n:?}: {e}");
    }
    e
}

/// The repository's root, where the shipped checkpoints, ladders and scenarios are.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}
