// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Writing generated files so that `make` and cargo rebuild only what changed.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use std::fs;
use std::path::Path;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_what_changed() {
        let dir = std::env::temp_dir().join(format!("kc-files-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let path = dir.join("sub/file.txt");
        assert!(write_if_changed(&path, "one").unwrap());
        assert!(!write_if_changed(&path, "one").unwrap());
        assert!(write_if_changed(&path, b"two").unwrap());
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        let err = write_if_changed(&dir.join("sub/file.txt/below"), "x").unwrap_err();
        assert!(err.to_string().contains("sub/file.txt"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
