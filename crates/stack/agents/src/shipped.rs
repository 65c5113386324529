//! Where the shipped files are: the `checkpoints/`, `experiments/`, `ladder/` and `docs/`
//! folders of the repository, looked up so that the `sabacc` program, the play server, the
//! levels and the Python package work from any folder. Every front-end resolves a shipped name
//! here.
//!
//! A relative path that a verb takes by default (`experiments/quick.toml`, `checkpoints/champion`)
//! or that the user names (`--agents checkpoints/champion@argmax`, a bare `champion`) is found,
//! in this order:
//!
//! 1. under the current folder, as given;
//! 2. under `SABACC_HOME` when that variable is set, and then nowhere else;
//! 3. otherwise under the repository that holds the running program (a clone's
//!    `target/debug/sabacc` or `target/release/sabacc`),
//! 4. and under the repository the program was built from (what `cargo install --path
//!    crates/frontends/cli` leaves behind still finds the clone it came from; the Python package's native
//!    module finds the clone it was built from, editable or not).
//!
//! A bare name such as `champion` also means `checkpoints/champion` at each of these places.
//! What is found nowhere is left as given, so the caller's own error names it; the defaults that
//! cannot do without their file are refused with [`missing`], which names every place searched.

use std::path::{Path, PathBuf};

/// The variable that names the folder holding `checkpoints/` and `experiments/`.
pub const HOME_VAR: &str = "SABACC_HOME";

/// The folder of shipped checkpoints in every root.
const CHECKPOINTS: &str = "checkpoints";

/// One place searched after the current folder, and why it is searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// The folder (holds `checkpoints/`, `experiments/`, …).
    pub dir: PathBuf,
    /// How it was found, for messages.
    pub why: String,
}

/// The places searched after the current folder, in order: `SABACC_HOME` alone when it is set,
/// else the repository holding the running program and the one it was built from.
pub fn roots() -> Vec<Root> {
    if let Some(home) = std::env::var_os(HOME_VAR).filter(|v| !v.is_empty()) {
        return vec![Root { dir: PathBuf::from(home), why: HOME_VAR.to_string() }];
    }
    let mut out: Vec<Root> = Vec::new();
    let mut push = |dir: PathBuf, why: String| {
        let same = |r: &Root| same_dir(&r.dir, &dir);
        if !out.iter().any(same) {
            out.push(Root { dir, why });
        }
    };
    if let Some(repo) = std::env::current_exe().ok().and_then(|exe| repository_above(&exe)) {
        push(repo, "the repository of this program".to_string());
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    if is_repository(&built) {
        let dir = built.canonicalize().unwrap_or(built);
        push(dir, "the repository this program was built from".to_string());
    }
    out
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// A folder that looks like this project's repository: its checkpoints and its experiments.
fn is_repository(dir: &Path) -> bool {
    dir.join(CHECKPOINTS).is_dir() && dir.join("experiments").is_dir()
}

/// The nearest folder above `exe` that is the repository (`REPO/target/debug/sabacc`).
fn repository_above(exe: &Path) -> Option<PathBuf> {
    let exe = exe.canonicalize().ok()?;
    exe.ancestors().skip(1).find(|d| is_repository(d)).map(Path::to_path_buf)
}

/// `rel` under the current folder when it exists there (or is absolute), else under the first
/// root that holds it; `None` when it is nowhere.
pub fn find(rel: &Path) -> Option<PathBuf> {
    find_in(rel, &roots())
}

fn find_in(rel: &Path, roots: &[Root]) -> Option<PathBuf> {
    if rel.exists() || rel.is_absolute() {
        return rel.exists().then(|| rel.to_path_buf());
    }
    roots.iter().map(|r| r.dir.join(rel)).find(|p| p.exists())
}

/// A shipped file found nowhere ([`missing`]): its message says what it is for, every place
/// searched, and how to go on.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Missing(String);

/// The error for a shipped file found nowhere: what it is for, every place searched, and how
/// to go on (`instead`: the flag that names another file, or the choice that avoids it).
pub fn missing(rel: &Path, needed_for: &str, instead: &str) -> Missing {
    let cwd = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_else(|_| "?".into());
    let mut places = vec![format!("the current folder ({cwd})")];
    let roots = roots();
    for r in &roots {
        places.push(format!("{} ({})", r.why, r.dir.display()));
    }
    let hint = if std::env::var_os(HOME_VAR).is_some_and(|v| !v.is_empty()) {
        format!("point {HOME_VAR} at a folder holding {}", rel.display())
    } else {
        format!("run from the repository, or set {HOME_VAR} to a folder holding {}", rel.display())
    };
    Missing(format!(
        "cannot find `{}` ({needed_for}): it is not under {}; {hint}, or {instead}",
        rel.display(),
        places.join(", nor under ")
    ))
}

/// `rel` found by [`find`], or the [`missing`] error.
pub fn require(rel: &Path, needed_for: &str, instead: &str) -> Result<PathBuf, Missing> {
    find(rel).ok_or_else(|| missing(rel, needed_for, instead))
}

/// An agent spec whose folder is found by the rules above: `checkpoints/champion@argmax`,
/// `champion`, `search:64+checkpoints/champion` from any folder. A spec the agents layer already
/// accepts, or whose folder is nowhere, comes back unchanged (so its own error still names it).
pub fn spec<G: game::Game>(s: &str) -> String {
    spec_in::<G>(s, &roots())
}

fn spec_in<G: game::Game>(s: &str, roots: &[Root]) -> String {
    let t = s.trim();
    match crate::AgentSpec::parse::<G>(t) {
        Err(crate::SpecError::Unknown { .. } | crate::SpecError::MissingGuide { .. }) => {}
        _ => return s.to_string(),
    }
    if let Some((search, guide)) = t.split_once('+') {
        return match folder(guide.trim(), roots) {
            Some(p) => format!("{search}+{}", p.display()),
            None => s.to_string(),
        };
    }
    let (path, mode) = match t.rsplit_once('@') {
        Some((p, m)) => (p, Some(m)),
        None => (t, None),
    };
    match folder(path, roots) {
        Some(p) => match mode {
            Some(m) => format!("{}@{m}", p.display()),
            None => p.display().to_string(),
        },
        None => s.to_string(),
    }
}

/// A checkpoint folder given on the command line (`--init`, `export CHECKPOINT`), found by the
/// rules above (a bare name under `checkpoints/`); as given when it is nowhere, so the caller's
/// error names it.
pub fn checkpoint(path: &Path) -> PathBuf {
    if path.exists() {
        return path.to_path_buf();
    }
    path.to_str().and_then(|s| folder(s, &roots())).unwrap_or_else(|| path.to_path_buf())
}

/// The folder a spec's path names: as given, or a bare name under `checkpoints/`, in the
/// current folder first and then in each root.
fn folder(path: &str, roots: &[Root]) -> Option<PathBuf> {
    let p = Path::new(path);
    if path.is_empty() || p.is_absolute() {
        return None;
    }
    let bare = p.components().count() == 1;
    let mut candidates = Vec::new();
    if bare {
        candidates.push(Path::new(CHECKPOINTS).join(p));
    }
    for r in roots {
        candidates.push(r.dir.join(p));
        if bare {
            candidates.push(r.dir.join(CHECKPOINTS).join(p));
        }
    }
    candidates.into_iter().find(|c| c.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(policy::METADATA_FILE), "{}").unwrap();
    }

    #[test]
    fn specs_find_folders_under_a_root_and_bare_names_under_its_checkpoints() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("home");
        checkpoint(&home.join("checkpoints/alpha"));
        let roots = [Root { dir: home.clone(), why: "test".into() }];
        let alpha = home.join("checkpoints/alpha").display().to_string();
        assert_eq!(spec_in::<games::kessel::Kessel>("checkpoints/alpha", &roots), alpha);
        assert_eq!(spec_in::<games::kessel::Kessel>("alpha@argmax", &roots), format!("{alpha}@argmax"));
        assert_eq!(spec_in::<games::kessel::Kessel>("search:8+alpha", &roots), format!("search:8+{alpha}"));
        assert_eq!(spec_in::<games::kessel::Kessel>("search+checkpoints/alpha", &roots), format!("search+{alpha}"));
        // Bots, and names found nowhere, are left for the agents layer to accept or refuse.
        assert_eq!(spec_in::<games::kessel::Kessel>("expert", &roots), "expert");
        assert_eq!(spec_in::<games::kessel::Kessel>("search:16", &roots), "search:16");
        assert_eq!(spec_in::<games::kessel::Kessel>("beta", &roots), "beta");
        assert_eq!(spec_in::<games::kessel::Kessel>("search+beta", &roots), "search+beta");
        assert_eq!(spec_in::<games::kessel::Kessel>("alpha", &[]), "alpha");
    }

    #[test]
    fn files_are_found_under_the_current_folder_first_then_the_roots() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("experiments")).unwrap();
        std::fs::write(d.path().join("experiments/x.toml"), "").unwrap();
        let roots = [Root { dir: d.path().to_path_buf(), why: "test".into() }];
        assert_eq!(find_in(Path::new("experiments/x.toml"), &roots), Some(d.path().join("experiments/x.toml")));
        assert_eq!(find_in(Path::new("experiments/none.toml"), &roots), None);
        // This crate's own manifest exists relative to where the tests run, so it is taken as given.
        assert_eq!(find_in(Path::new("Cargo.toml"), &roots), Some(PathBuf::from("Cargo.toml")));
    }

    #[test]
    fn the_repository_is_found_above_a_program_inside_it() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().join("clone");
        std::fs::create_dir_all(repo.join("checkpoints")).unwrap();
        std::fs::create_dir_all(repo.join("experiments")).unwrap();
        std::fs::create_dir_all(repo.join("target/debug")).unwrap();
        let exe = repo.join("target/debug/sabacc");
        std::fs::write(&exe, "").unwrap();
        assert_eq!(repository_above(&exe), Some(repo.canonicalize().unwrap()));
        let elsewhere = d.path().join("bin/sabacc");
        std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
        std::fs::write(&elsewhere, "").unwrap();
        assert_eq!(repository_above(&elsewhere), None);
    }
}
