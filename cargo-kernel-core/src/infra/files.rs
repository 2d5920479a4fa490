// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Writing files: generated files so that `make` and cargo rebuild only what changed, and
//! files and directories that others read while they may be written, atomically.
//!
//! An atomic write goes to a file (or directory) of a unique name beside its destination,
//! then is renamed into place: a reader sees the old one or the new one, never a part, and a
//! run that is killed halfway leaves no file under the final name. Two writers at once (two
//! cells, two runs) each write their own, and the last rename wins.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use std::fs;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

/// A directory removed with everything in it when dropped ([`scratch_dir`]).
pub use tempfile::TempDir;

/// Writes `contents` to `path`, creating its directory, unless the file already holds exactly
/// that: an unchanged file keeps its modification time, so `make` and cargo see it as
/// unchanged. Returns whether it wrote.
pub fn write_if_changed(path: &Path, contents: impl AsRef<[u8]>) -> Result<bool> {
    let contents = contents.as_ref();
    if fs::read(path).is_ok_and(|old| old == contents) {
        return Ok(false);
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).at(dir)?;
    }
    fs::write(path, contents).at(path)?;
    Ok(true)
}

/// Makes `to` hold the file `from`: a hard link where both are on one file system (nothing
/// copied: a metadata overlay's 190 MB from the cache), else a copy. `to` must not exist, and
/// neither may be written in place afterwards (the link would change both).
pub fn link_or_copy(from: &Path, to: &Path) -> Result {
    if fs::hard_link(from, to).is_err() {
        fs::copy(from, to).at(from)?;
    }
    Ok(())
}

/// Writes `contents` to `path` atomically, creating its directory; with `mode`, the file's
/// permissions (an executable script, `0o755`).
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>, mode: Option<u32>) -> Result {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).at(dir)?;
    let mut file = tempfile::Builder::new()
        .prefix(&format!(".{}.", name_of(path)))
        .tempfile_in(dir)
        .at(dir)?;
    file.write_all(contents.as_ref()).at(file.path())?;
    if let Some(mode) = mode {
        fs::set_permissions(file.path(), fs::Permissions::from_mode(mode)).at(file.path())?;
    }
    file.persist(path).map_err(|e| e.error).at(path)?;
    Ok(())
}

/// Makes the directory `dir` atomically if it is not there: `fill` fills a directory of a
/// unique name beside it, which is then renamed to `dir`. If another writer made `dir`
/// meanwhile, theirs is kept. Returns `dir`.
pub fn create_dir_atomic(dir: &Path, fill: impl FnOnce(&Path) -> Result) -> Result<PathBuf> {
    if dir.is_dir() {
        return Ok(dir.to_path_buf());
    }
    let parent = dir.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).at(parent)?;
    let aside = tempfile::Builder::new()
        .prefix(&format!(".{}.", name_of(dir)))
        .tempdir_in(parent)
        .at(parent)?;
    fill(aside.path())?;
    if let Err(e) = fs::rename(aside.path(), dir) {
        // Another writer got there first; `aside` is removed when dropped.
        if !dir.is_dir() {
            return Err(e).at(dir);
        }
    } else {
        // Renamed: nothing is left to remove.
        let _ = aside.keep();
    }
    Ok(dir.to_path_buf())
}

/// A new directory of a unique name, starting with `prefix`, in the system's temporary
/// directory: removed with everything in it when the returned guard is dropped. For scratch
/// work, tests most of all (no name is ever shared, as a process id would be).
pub fn scratch_dir(prefix: &str) -> Result<TempDir> {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .doing("making a scratch directory")
}

/// The file name of `path`, for the names of what is written beside it.
fn name_of(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_what_changed() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let path = dir.join("sub/file.txt");
        assert!(write_if_changed(&path, "one").unwrap());
        assert!(!write_if_changed(&path, "one").unwrap());
        assert!(write_if_changed(&path, b"two").unwrap());
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        let err = write_if_changed(&dir.join("sub/file.txt/below"), "x").unwrap_err();
        assert!(err.to_string().contains("sub/file.txt"), "{err}");
    }

    #[test]
    fn atomic_writes_leave_nothing_beside_and_race_safely() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/run.json");
        std::thread::scope(|scope| {
            for i in 0..8 {
                let path = &path;
                scope.spawn(move || write_atomic(path, format!("{i}\n"), None).unwrap());
            }
        });
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.trim().parse::<u32>().is_ok_and(|i| i < 8), "{text}");
        write_atomic(&dir.path().join("sub/script"), "#!/bin/sh\n", Some(0o755)).unwrap();
        let mode = fs::metadata(dir.path().join("sub/script"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        let names: Vec<String> = fs::read_dir(dir.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "nothing left beside: {names:?}");
        let e = write_atomic(&path.join("below"), "x", None).unwrap_err();
        assert!(e.to_string().contains("run.json"), "{e}");
    }

    #[test]
    fn a_directory_is_made_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let tree = dir.path().join("tree");
        let e = create_dir_atomic(&tree, |aside| {
            fs::write(aside.join("half"), "").at(aside)?;
            anyhow::bail!("killed halfway")
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "killed halfway");
        assert!(!tree.exists());
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            0,
            "nothing left beside"
        );
        create_dir_atomic(&tree, |aside| fs::write(aside.join("whole"), "").at(aside)).unwrap();
        // Made already: kept as it is.
        create_dir_atomic(&tree, |_| unreachable!()).unwrap();
        assert!(tree.join("whole").is_file());
    }
}
