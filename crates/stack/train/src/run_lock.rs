//! One trainer per run folder. Two trainers writing one folder would interleave checkpoints,
//! metrics and pool snapshots, so the trainer holds an exclusive lock on `<run>/train.lock`
//! for as long as it runs.
//!
//! The lock is an OS file lock (`flock` on Unix), which the kernel releases when its holder
//! exits, however it exits: a lock file left behind by a killed trainer (SIGKILL, power loss)
//! is therefore recognised as stale and taken over, with a message naming the process that
//! left it. The file holds the holder's process id, for that message and for people.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Name of the lock file inside a run folder.
pub const LOCK_FILE: &str = "train.lock";

/// Why the run folder could not be locked.
#[derive(Debug, Error)]
pub enum RunLockError {
    /// Another live trainer holds the folder.
    #[error(
        "run folder {dir} is in use by another trainer (process {pid}); wait for it to finish or stop it \
         (Ctrl-C saves a checkpoint) before starting another trainer on this folder"
    )]
    Busy {
        /// The run folder.
        dir: PathBuf,
        /// The holder's process id as written in the lock file (`unknown` if unreadable).
        pid: String,
    },
    /// The lock file could not be created or locked.
    #[error("cannot lock run folder {dir} ({file}): {source}")]
    Io {
        /// The run folder.
        dir: PathBuf,
        /// The lock file.
        file: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// An exclusive hold on a run folder, released (and its file removed) on drop.
#[derive(Debug)]
pub struct RunLock {
    file: File,
    path: PathBuf,
    /// Process id found in a stale lock file this lock took over, if any.
    pub took_over_from: Option<String>,
}

fn same_file(a: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (a.metadata(), std::fs::metadata(path)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (a, path);
        true
    }
}

impl RunLock {
    /// Locks `dir` (which must exist) for this process, or says who holds it.
    pub fn acquire(dir: &Path) -> Result<RunLock, RunLockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| RunLockError::Io { dir: dir.to_path_buf(), file: path.clone(), source };
        // A holder that releases between our open and our lock removes the file it locked; the
        // retry then opens the new file instead of holding a lock on a deleted one.
        for _ in 0..10 {
            let mut file =
                OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut pid = String::new();
                    let _ = file.read_to_string(&mut pid);
                    let pid = pid.trim();
                    let pid = if pid.is_empty() { "unknown".to_string() } else { pid.to_string() };
                    return Err(RunLockError::Busy { dir: dir.to_path_buf(), pid });
                }
                Err(TryLockError::Error(e)) => return Err(io(e)),
            }
            if !same_file(&file, &path) {
                continue;
            }
            let mut previous = String::new();
            file.read_to_string(&mut previous).map_err(io)?;
            let previous = previous.trim().to_string();
            let me = std::process::id().to_string();
            file.set_len(0).map_err(io)?;
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            file.write_all(format!("{me}\n").as_bytes()).map_err(io)?;
            file.sync_all().map_err(io)?;
            let took_over_from = (!previous.is_empty() && previous != me).then_some(previous);
            return Ok(RunLock { file, path, took_over_from });
        }
        Err(io(std::io::Error::other("the lock file kept being replaced while locking it")))
    }

    /// A sentence about a stale lock this lock replaced, for the user.
    pub fn stale_message(&self) -> Option<String> {
        self.took_over_from.as_ref().map(|pid| {
            format!(
                "note: {} was left by process {pid}, which is no longer running (killed?); taking it over",
                self.path.display()
            )
        })
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Remove first, then unlock: a trainer waiting on this file retries on the new one.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_folder_second_lock_is_refused_and_released_on_drop() {
        let d = tempfile::tempdir().unwrap();
        let first = RunLock::acquire(d.path()).unwrap();
        assert!(first.took_over_from.is_none());
        let e = RunLock::acquire(d.path()).unwrap_err().to_string();
        assert!(e.contains("in use by another trainer") && e.contains(&std::process::id().to_string()), "{e}");
        drop(first);
        assert!(!d.path().join(LOCK_FILE).exists(), "a released lock leaves no file");
        RunLock::acquire(d.path()).unwrap();
    }

    #[test]
    fn run_folder_stale_lock_file_is_taken_over_with_a_message() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join(LOCK_FILE), "4194999\n").unwrap();
        let lock = RunLock::acquire(d.path()).unwrap();
        assert_eq!(lock.took_over_from.as_deref(), Some("4194999"));
        let m = lock.stale_message().unwrap();
        assert!(m.contains("4194999") && m.contains("no longer running"), "{m}");
        assert_eq!(std::fs::read_to_string(d.path().join(LOCK_FILE)).unwrap().trim(), std::process::id().to_string());
    }
}
