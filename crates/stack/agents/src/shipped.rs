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
    find_in(rel, Path::new(""), &roots())
}

/// [`find`] with the current folder `base` (`""`: the process's own, paths kept as given).
fn find_in(rel: &Path, base: &Path, roots: &[Root]) -> Option<PathBuf> {
    if rel.as_os_str().is_empty() {
        return None;
    }
    if rel.is_absolute() {
        return rel.exists().then(|| rel.to_path_buf());
    }
    std::iter::once(base).chain(roots.iter().map(|r| r.dir.as_path())).map(|d| d.join(rel)).find(|p| p.exists())
}

/// Where a file or folder named on the command line is looked for, in order: `rel` as given
/// (under the current folder `base`), a bare name under `checkpoints/` there (folders only),
/// then the same under each root.
fn candidates(rel: &Path, base: &Path, roots: &[Root]) -> Vec<(PathBuf, bool)> {
    // An empty path names nothing (joined to a folder it would name that folder).
    if rel.as_os_str().is_empty() {
        return Vec::new();
    }
    if rel.is_absolute() {
        return vec![(rel.to_path_buf(), false)];
    }
    let bare = rel.components().count() == 1;
    let mut out = Vec::new();
    for dir in std::iter::once(base).chain(roots.iter().map(|r| r.dir.as_path())) {
        out.push((dir.join(rel), false));
        if bare {
            out.push((dir.join(CHECKPOINTS).join(rel), true));
        }
    }
    out
}

/// The one lookup of every file a command takes — `--rules`, `--config`, a scenario, a ladder,
/// a checkpoint or bundle folder (`--init`, `export CHECKPOINT`): found by the rules of this
/// module (as given under the current folder, then under `SABACC_HOME` or the repositories; a
/// bare name of a folder also under `checkpoints/`), or refused with [`Missing`] naming every
/// folder searched. `what` says what the path is for (`--rules`, `the scenario`).
pub fn input(path: &Path, what: &str) -> Result<PathBuf, Missing> {
    input_in(path, what, Path::new(""), &roots())
}

fn input_in(path: &Path, what: &str, base: &Path, roots: &[Root]) -> Result<PathBuf, Missing> {
    candidates(path, base, roots)
        .into_iter()
        .find(|(p, folder_only)| if *folder_only { p.is_dir() } else { p.exists() })
        .map(|(p, _)| p)
        .ok_or_else(|| not_found(path, what, base, roots))
}

/// The error for a file named on the command line and found nowhere: every folder searched.
fn not_found(path: &Path, what: &str, base: &Path, roots: &[Root]) -> Missing {
    if path.is_absolute() {
        return Missing(format!("cannot find `{}` ({what}): there is no such file or folder", path.display()));
    }
    let as_name = if path.components().count() == 1 { " (a bare name also under their checkpoints/)" } else { "" };
    Missing(format!(
        "cannot find `{}` ({what}): it is not under {}{as_name}; check the name, or {}",
        path.display(),
        places(base, roots).join(", nor under "),
        home_hint(path)
    ))
}

/// Every folder searched, for messages: the current one, then the roots with why each is.
fn places(base: &Path, roots: &[Root]) -> Vec<String> {
    let cwd = if base.as_os_str().is_empty() {
        std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_else(|_| "?".into())
    } else {
        base.display().to_string()
    };
    let mut places = vec![format!("the current folder ({cwd})")];
    places.extend(roots.iter().map(|r| format!("{} ({})", r.why, r.dir.display())));
    places
}

fn home_hint(rel: &Path) -> String {
    if std::env::var_os(HOME_VAR).is_some_and(|v| !v.is_empty()) {
        format!("point {HOME_VAR} at a folder holding {}", rel.display())
    } else {
        format!("run from the repository, or set {HOME_VAR} to a folder holding {}", rel.display())
    }
}

/// A shipped file found nowhere ([`missing`]): its message says what it is for, every place
/// searched, and how to go on.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Missing(String);

/// The error for a shipped file found nowhere: what it is for, every place searched, and how
/// to go on (`instead`: the flag that names another file, or the choice that avoids it).
pub fn missing(rel: &Path, needed_for: &str, instead: &str) -> Missing {
    Missing(format!(
        "cannot find `{}` ({needed_for}): it is not under {}; {}, or {instead}",
        rel.display(),
        places(Path::new(""), &roots()).join(", nor under "),
        home_hint(rel)
    ))
}

/// `rel` found by [`find`], or the [`missing`] error.
pub fn require(rel: &Path, needed_for: &str, instead: &str) -> Result<PathBuf, Missing> {
    find(rel).ok_or_else(|| missing(rel, needed_for, instead))
}

/// An agent spec whose folders are found by the rules above: `checkpoints/champion@argmax`,
/// `champion`, `search:64+checkpoints/champion`, `mistakes:20+champion@argmax`,
/// `classic:classic-champion`, `exports/level-3@level` from any folder. A spec the agents layer
/// already accepts, or whose folder is nowhere, comes back unchanged (so its own error still
/// names it).
pub fn spec<G: game::Game>(s: &str) -> String {
    resolve::<G>(s, s, Path::new(""), &roots()).unwrap_or_else(|_| s.to_string())
}

/// [`spec`], but a folder written as a path (`runs/x/checkpoint`, `exports/bot@level`) that is
/// nowhere is refused naming every folder searched; bot names, and bare names that are no
/// folder anywhere, are left for the agents layer to refuse with its list of valid agents.
pub fn agent<G: game::Game>(s: &str) -> Result<String, Missing> {
    resolve::<G>(s, s, Path::new(""), &roots())
}

/// `s`, a part of the spec `whole`, with its folders found under `base` and `roots`.
fn resolve<G: game::Game>(s: &str, whole: &str, base: &Path, roots: &[Root]) -> Result<String, Missing> {
    let t = s.trim();
    let here = |p: &str| if base.as_os_str().is_empty() { PathBuf::from(p) } else { base.join(p) };
    // The structure of the spec (crate::spec): a game prefix, deliberate mistakes and guided
    // search wrap another spec; each folder inside is found on its own.
    if let Some((g, rest)) = t.split_once(':').filter(|(g, _)| games::GameId::all().any(|id| id.name() == *g)) {
        return Ok(format!("{g}:{}", resolve::<G>(rest, whole, base, roots)?));
    }
    if let Some((share, inner)) = t.strip_prefix("mistakes:").and_then(|r| r.split_once('+')) {
        return Ok(format!("mistakes:{share}+{}", resolve::<G>(inner, whole, base, roots)?));
    }
    if let Some((search, guide)) = t.split_once('+').filter(|_| !here(t).is_dir()) {
        return Ok(format!("{search}+{}", resolve::<G>(guide, whole, base, roots)?));
    }
    let (path, mode) = match t.rsplit_once('@') {
        Some((p, m)) if !here(t).is_dir() => (p, Some(m)),
        _ => (t, None),
    };
    let with_mode = |p: PathBuf| match mode {
        Some(m) => format!("{}@{m}", p.display()),
        None => p.display().to_string(),
    };
    if path.is_empty() || crate::AgentSpec::parse::<G>(path).is_ok() {
        return Ok(s.to_string());
    }
    if here(path).exists() {
        // Under the current folder: as written (the agents layer refuses a file that is no agent).
        return Ok(if base.as_os_str().is_empty() { s.to_string() } else { with_mode(here(path)) });
    }
    match candidates(Path::new(path), base, roots).into_iter().map(|(p, _)| p).find(|p| p.is_dir()) {
        Some(p) => Ok(with_mode(p)),
        None if path.contains(['/', '\\']) => {
            Err(not_found(Path::new(path), &format!("agent `{}`", whole.trim()), base, roots))
        }
        None => Ok(s.to_string()),
    }
}

/// A checkpoint folder given on the command line (`--init`, `export CHECKPOINT`), found by the
/// rules above (a bare name under `checkpoints/`); as given when it is nowhere, so the caller's
/// error names it.
pub fn checkpoint(path: &Path) -> PathBuf {
    input(path, "a checkpoint").unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(policy::METADATA_FILE), "{}").unwrap();
    }

    /// A Kessel spec resolved under the roots `roots` (the current folder as the process's).
    fn kessel(s: &str, roots: &[Root]) -> String {
        resolve::<games::kessel::Kessel>(s, s, Path::new(""), roots).unwrap()
    }

    #[test]
    fn specs_find_folders_under_a_root_and_bare_names_under_its_checkpoints() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("home");
        checkpoint(&home.join("checkpoints/alpha"));
        let roots = [Root { dir: home.clone(), why: "test".into() }];
        let alpha = home.join("checkpoints/alpha").display().to_string();
        assert_eq!(kessel("checkpoints/alpha", &roots), alpha);
        assert_eq!(kessel("alpha@argmax", &roots), format!("{alpha}@argmax"));
        assert_eq!(kessel("search:8+alpha", &roots), format!("search:8+{alpha}"));
        assert_eq!(kessel("search+checkpoints/alpha", &roots), format!("search+{alpha}"));
        // Bots, and names found nowhere, are left for the agents layer to accept or refuse.
        assert_eq!(kessel("expert", &roots), "expert");
        assert_eq!(kessel("search:16", &roots), "search:16");
        assert_eq!(kessel("beta", &roots), "beta");
        assert_eq!(kessel("search+beta", &roots), "search+beta");
        assert_eq!(kessel("alpha", &[]), "alpha");
    }

    #[test]
    fn files_are_found_under_the_current_folder_first_then_the_roots() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("experiments")).unwrap();
        std::fs::write(d.path().join("experiments/x.toml"), "").unwrap();
        let roots = [Root { dir: d.path().to_path_buf(), why: "test".into() }];
        assert_eq!(
            find_in(Path::new("experiments/x.toml"), Path::new(""), &roots),
            Some(d.path().join("experiments/x.toml"))
        );
        assert_eq!(find_in(Path::new("experiments/none.toml"), Path::new(""), &roots), None);
        // This crate's own manifest exists relative to where the tests run, so it is taken as given.
        assert_eq!(find_in(Path::new("Cargo.toml"), Path::new(""), &roots), Some(PathBuf::from("Cargo.toml")));
    }

    #[test]
    fn wrapped_specs_find_each_folder_inside() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("home");
        checkpoint(&home.join("checkpoints/alpha"));
        let roots = [Root { dir: home.clone(), why: "test".into() }];
        let alpha = home.join("checkpoints/alpha").display().to_string();
        assert_eq!(kessel("mistakes:20+alpha@argmax", &roots), format!("mistakes:20+{alpha}@argmax"));
        assert_eq!(kessel("kessel:checkpoints/alpha", &roots), format!("kessel:{alpha}"));
        assert_eq!(kessel("classic:alpha@sample", &roots), format!("classic:{alpha}@sample"));
        assert_eq!(kessel("mistakes:5+search:4+alpha", &roots), format!("mistakes:5+search:4+{alpha}"));
        // A bundle played `@level` and found nowhere is left for the agents layer to refuse.
        assert!(
            resolve::<games::kessel::Kessel>("exports/none@level", "exports/none@level", Path::new(""), &[]).is_err()
        );
    }

    #[test]
    fn a_file_is_found_from_another_folder_and_one_found_nowhere_names_every_folder_searched() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().join("repo");
        let elsewhere = d.path().join("elsewhere");
        std::fs::create_dir_all(repo.join("experiments")).unwrap();
        std::fs::create_dir_all(elsewhere.join("rules")).unwrap();
        std::fs::write(repo.join("experiments/most.json"), "{}").unwrap();
        std::fs::write(elsewhere.join("rules/mine.json"), "{}").unwrap();
        checkpoint(&repo.join("checkpoints/alpha"));
        let roots = [Root { dir: repo.clone(), why: "the repository".into() }];
        let found = |p: &str| input_in(Path::new(p), "--rules", &elsewhere, &roots);
        // Under the current folder first, then under the roots; a bare folder name under checkpoints/.
        assert_eq!(found("rules/mine.json").unwrap(), elsewhere.join("rules/mine.json"));
        assert_eq!(found("experiments/most.json").unwrap(), repo.join("experiments/most.json"));
        assert_eq!(found("alpha").unwrap(), repo.join("checkpoints/alpha"));
        let e = found("experiments/none.json").unwrap_err().to_string();
        assert!(e.starts_with("cannot find `experiments/none.json` (--rules)"), "{e}");
        assert!(e.contains(&format!("the current folder ({})", elsewhere.display())), "{e}");
        assert!(e.contains(&format!("the repository ({})", repo.display())), "{e}");
        let e = found("/no/such/rules.json").unwrap_err().to_string();
        assert!(e.contains("`/no/such/rules.json` (--rules): there is no such file"), "{e}");
        // An agent's folder written as a path and found nowhere is refused the same way.
        let e = resolve::<games::kessel::Kessel>(
            "mistakes:5+runs/none/checkpoint@argmax",
            "mistakes:5+runs/none/checkpoint@argmax",
            &elsewhere,
            &roots,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("cannot find `runs/none/checkpoint` (agent `mistakes:5+runs/none/checkpoint@argmax`)"),
            "{e}"
        );
        assert!(e.contains(&repo.display().to_string()) && e.contains(&elsewhere.display().to_string()), "{e}");
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

    #[test]
    fn an_empty_path_is_found_nowhere() {
        let roots = [Root { dir: std::env::temp_dir(), why: "a root".into() }];
        assert_eq!(find_in(Path::new(""), Path::new(""), &roots), None);
        assert!(input_in(Path::new(""), "--rules", Path::new(""), &roots).is_err());
        assert_eq!(
            super::checkpoint(Path::new("")),
            PathBuf::new(),
            "an empty init_from stays empty, for its own error"
        );
    }
}
