// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Locks on the shared cache, so that runs in parallel (two terminals, two CI jobs on one
//! machine) never build into the same directory at once.
//!
//! A lock is `flock(2)` on a file next to what it guards: the kernel releases it when the
//! process ends, however it ends, so a run that is killed never leaves a stale lock behind.
//! What it guards is made safe against a kill by its own means: a finished kernel build is
//! marked by a stamp written last, so a killed build is resumed by the next run (`make` is
//! incremental), and files are written aside and renamed into place.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::progress;
use fs4::fs_std::FileExt as _;
use std::fs::{self, File};
use std::path::{Path, PathBuf};

/// An exclusive lock, released when dropped (or when the process ends).
#[derive(Debug)]
pub struct Lock {
    file: File,
    path: PathBuf,
}

impl Lock {
    /// Takes the exclusive lock `path` (created if needed), waiting for whoever holds it and
    /// saying so, with what the lock guards.
    pub fn exclusive(path: &Path, guards: &str) -> Result<Self> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).at(parent)?;
        }
        let file = Self::open(path)?;
        if !file.try_lock_exclusive().at(path)? {
            let start = progress::step(&format!(
                "waiting for another run, which holds {} ({guards})",
                path.display()
            ));
            file.lock_exclusive().at(path)?;
            progress::done("got the lock", start);
        }
        Ok(Self {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Takes the exclusive lock `path` if nobody holds it, without waiting: `None` if another
    /// process holds it. A missing lock file is created, so the lock is taken.
    pub fn try_exclusive(path: &Path) -> Result<Option<Self>> {
        let file = Self::open(path)?;
        Ok(file.try_lock_exclusive().at(path)?.then(|| Self {
            file,
            path: path.to_path_buf(),
        }))
    }

    /// Opens the lock file `path`, created if needed (never truncated: it holds nothing).
    fn open(path: &Path) -> Result<File> {
        File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .at(path)
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether another process holds the lock `path` now (what `kernels list` shows as a
    /// build in progress). A missing lock file is not held.
    pub fn is_held(path: &Path) -> bool {
        let Ok(file) = File::options().read(true).open(path) else {
            return false;
        };
        match fs4::fs_std::FileExt::try_lock_shared(&file) {
            Ok(true) => {
                let _ = fs4::fs_std::FileExt::unlock(&file);
                false
            }
            _ => true,
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs4::fs_std::FileExt::unlock(&self.file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn two_holders_never_overlap() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let path = dir.join("build.lock");
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (path, inside, most) = (path.clone(), inside.clone(), most.clone());
                std::thread::spawn(move || {
                    for _ in 0..5 {
                        // Each thread opens the file itself, as another process would: flock
                        // locks belong to the open file.
                        let _lock = Lock::exclusive(&path, "a test").unwrap();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(5));
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 1, "two holders at once");
    }

    #[test]
    fn trying_a_held_lock_does_not_wait() {
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("build.lock");
        let held = Lock::exclusive(&path, "a test").unwrap();
        // Another open file description, as another process would have.
        assert!(Lock::try_exclusive(&path).unwrap().is_none());
        drop(held);
        assert!(Lock::try_exclusive(&path).unwrap().is_some());
    }

    #[test]
    fn a_dead_holder_leaves_no_lock() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let path = dir.join("build.lock");
        fs::create_dir_all(&dir).unwrap();
        // `flock` in a child process that is killed while it holds the lock (`-F`: the lock
        // is held by `sleep` itself, not by a child of it that the kill would leave).
        let mut child = std::process::Command::new("flock")
            .arg("-F")
            .arg(&path)
            .args(["sleep", "30"])
            .spawn()
            .expect("flock(1) from util-linux");
        std::thread::sleep(Duration::from_millis(300));
        let held = File::open(&path).unwrap();
        assert!(!held.try_lock_exclusive().unwrap(), "the child holds it");
        child.kill().unwrap();
        child.wait().unwrap();
        let _lock = Lock::exclusive(&path, "a test").unwrap();
    }
}
