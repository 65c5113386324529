//! A report's finished studies kept on disk while it runs, so that a report stopped part way
//! (a signal, a reboot, an error in a late study) resumes where it stopped instead of replaying
//! an hour of games.
//!
//! Each study is a *stage*: when it finishes, its result is written to
//! `token-research/.stages/NAME.cbor` (CBOR rather than JSON: a study's unbounded intervals are
//! infinities, which JSON cannot hold) with a key made of everything that decides it — the
//! program's commit, the checkpoints' weight hashes, the budgets and the study's own settings.
//! A resumed report reuses a stage only when its key is the same, and only for a clean, known
//! commit: the same code, the same agents and the same inputs replay the same games, so a reused
//! result is the one the report would have computed. The folder is removed once the document is
//! written.

use crate::ResearchError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The stages of one report.
pub struct Stages {
    dir: PathBuf,
    /// What every stage's key starts with: commit, checkpoints, budgets.
    prefix: String,
    /// Whether finished stages found on disk may be reused.
    reuse: bool,
    /// Names of the stages taken from disk, in order.
    pub reused: Vec<String>,
    /// Seconds the reused stages took when they were computed.
    pub reused_seconds: f64,
    /// Stages passed through so far, reused or computed.
    pub count: usize,
}

/// One stage as kept on disk.
#[derive(Serialize, serde::Deserialize)]
struct Kept<T> {
    key: String,
    seconds: f64,
    result: T,
}

impl Stages {
    /// The stages of a report writing into `study_dir` (`…/token-research`). `prefix` names what
    /// all its studies share (commit, checkpoint hashes, budgets); `resume` allows reusing kept
    /// stages, which is refused for a commit that is unknown or has uncommitted changes.
    pub fn new(study_dir: &Path, commit: &str, prefix: String, resume: bool) -> Stages {
        let clean = !commit.is_empty() && commit != "unknown" && !commit.ends_with("-dirty");
        Stages {
            dir: study_dir.join(".stages"),
            prefix: format!("commit {commit}\n{prefix}"),
            reuse: resume && clean,
            reused: Vec::new(),
            reused_seconds: 0.0,
            count: 0,
        }
    }

    /// Whether kept stages are reused (asked for, and the commit is clean).
    pub fn reuses(&self) -> bool {
        self.reuse
    }

    fn path(&self, name: &str) -> PathBuf {
        let slug: String =
            name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
        self.dir.join(format!("{slug}.cbor"))
    }

    /// The stage `name` decided by `inputs`: reused from disk when allowed and its key matches
    /// (`reused` is then called), else computed by `compute` and kept.
    pub fn run<T: Serialize + DeserializeOwned>(
        &mut self,
        name: &str,
        inputs: &dyn Debug,
        reused: impl FnOnce(&T),
        compute: impl FnOnce() -> Result<T, ResearchError>,
    ) -> Result<T, ResearchError> {
        self.count += 1;
        let key = format!("{}\nstage {name}\n{inputs:?}", self.prefix);
        let path = self.path(name);
        if self.reuse
            && let Some(kept) = std::fs::read(&path)
                .ok()
                .and_then(|bytes| ciborium::from_reader::<Kept<T>, _>(bytes.as_slice()).ok())
                .filter(|k| k.key == key)
        {
            self.reused.push(name.to_string());
            self.reused_seconds += kept.seconds;
            reused(&kept.result);
            return Ok(kept.result);
        }
        let started = Instant::now();
        let result = compute()?;
        let kept = Kept { key, seconds: started.elapsed().as_secs_f64(), result };
        let mut bytes = Vec::new();
        ciborium::into_writer(&kept, &mut bytes)
            .map_err(|e| ResearchError::Output { path: path.display().to_string(), message: e.to_string() })?;
        std::fs::create_dir_all(&self.dir)
            .and_then(|()| eval::report::write_atomic(&path, &bytes))
            .map_err(|e| ResearchError::Output { path: path.display().to_string(), message: e.to_string() })?;
        Ok(kept.result)
    }

    /// Removes the kept stages (the report is written; they have served).
    pub fn clear(&self) -> Result<(), ResearchError> {
        match std::fs::remove_dir_all(&self.dir) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(ResearchError::Output { path: self.dir.display().to_string(), message: e.to_string() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stages(dir: &Path, commit: &str, resume: bool) -> Stages {
        Stages::new(dir, commit, "budgets full".into(), resume)
    }

    #[test]
    fn a_kept_stage_is_reused_only_for_the_same_key_and_a_clean_commit() {
        let dir = tempfile::tempdir().unwrap();
        let mut first = stages(dir.path(), "abc1234", false);
        assert_eq!(first.run("value, 2 seats", &("seed", 1), |_: &u64| {}, || Ok(41u64)).unwrap(), 41);
        // Resumed with the same inputs: the kept result, not a new computation.
        let mut again = stages(dir.path(), "abc1234", true);
        let mut seen = None;
        let r = again.run("value, 2 seats", &("seed", 1), |v: &u64| seen = Some(*v), || Ok(99u64)).unwrap();
        assert_eq!((r, seen), (41, Some(41)));
        assert_eq!(again.reused, ["value, 2 seats"]);
        // Other inputs, another commit, a dirty tree or no --resume: computed afresh.
        let fresh = |s: &mut Stages, inputs: &dyn Debug| s.run("value, 2 seats", inputs, |_: &u64| {}, || Ok(7u64));
        assert_eq!(fresh(&mut stages(dir.path(), "abc1234", true), &("seed", 2)).unwrap(), 7);
        assert_eq!(fresh(&mut stages(dir.path(), "def5678", true), &("seed", 2)).unwrap(), 7);
        assert_eq!(fresh(&mut stages(dir.path(), "abc1234-dirty", true), &("seed", 2)).unwrap(), 7);
        assert_eq!(fresh(&mut stages(dir.path(), "abc1234", false), &("seed", 2)).unwrap(), 7);
        assert!(!stages(dir.path(), "unknown", true).reuses());
    }

    #[test]
    fn a_failed_stage_keeps_nothing_and_clear_removes_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = stages(dir.path(), "abc1234", true);
        let e = s.run("race", &1, |_: &u64| {}, || Err(ResearchError::Settings("stopped".into())));
        assert!(e.is_err());
        assert!(!dir.path().join(".stages").join("race.cbor").exists());
        s.run("race", &1, |_: &u64| {}, || Ok(3u64)).unwrap();
        assert!(dir.path().join(".stages").join("race.cbor").exists());
        // A damaged file is not trusted: the stage is computed again.
        std::fs::write(dir.path().join(".stages").join("race.cbor"), b"not cbor").unwrap();
        assert_eq!(s.run("race", &1, |_: &u64| {}, || Ok(4u64)).unwrap(), 4);
        s.clear().unwrap();
        assert!(!dir.path().join(".stages").exists());
        s.clear().unwrap();
    }
}
