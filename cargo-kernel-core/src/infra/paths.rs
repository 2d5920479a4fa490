// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Paths are data, never make code.
//!
//! Kbuild takes paths as make variables (`M=`, `KERNEL_CORE_SRC=`, flags) and pastes them into
//! shell commands unquoted, so a `$` in a path is expanded by make (`$(HOME)`, or
//! `$(shell ...)`, which runs) and again by the shell, and a space, `#` or `:` breaks the
//! build in other ways ("building multiple external modules is not supported"). So no path
//! the runner hands to make may hold anything but letters, digits and `/._-+@`:
//!
//! - the module's build directory is the driver's `target/kernel-core/<cell>/` if its path
//!   is safe, and a directory of the cache otherwise (`modules/<hash of the driver's path>/`,
//!   linked from `target/kernel-core/<cell>/module`);
//! - the kernel-core sources are reached through a link of a safe name in the build
//!   directory when their own path is not safe;
//! - the file names in the module's messages are relative to the driver's directory
//!   (`src/ring.rs:12`), so the driver's path never reaches make at all;
//! - a path that cannot be made safe (the cache's, the toolchain's) is refused before
//!   anything runs, with a message that names the character.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use std::path::{Path, PathBuf};

/// The first character of `path` that make or its shell would not take as it is.
pub fn unsafe_char(path: &Path) -> Option<char> {
    path.to_string_lossy()
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || "/._-+@".contains(*c)))
}

/// Describes `c` for messages: `'$'`, `a space`, `a tab`.
fn describe(c: char) -> String {
    match c {
        ' ' => "a space".to_string(),
        '\t' => "a tab".to_string(),
        '\n' => "a newline".to_string(),
        c if c.is_control() => format!("the control character U+{:04X}", c as u32),
        c => format!("'{c}'"),
    }
}

/// Fails unless `path` (`what` it is) is safe to hand to make.
pub fn check(path: &Path, what: &str) -> Result {
    match unsafe_char(path) {
        None => Ok(()),
        Some(c) => anyhow::bail!(
            "{what} {} holds {}, which make would expand or split: Kbuild cannot be given \
             such a path. Use a directory whose path has only letters, digits and /._-+@",
            path.display(),
            describe(c)
        ),
    }
}

/// `path` itself if it is safe, else a link to it named `link` (which must be safe), made or
/// remade to point at `path`.
pub fn safe_or_link(path: &Path, link: &Path) -> Result<PathBuf> {
    if unsafe_char(path).is_none() {
        return Ok(path.to_path_buf());
    }
    check(link, "the link")?;
    if let Some(parent) = link.parent() {
        std::fs::create_dir_all(parent).at(parent)?;
    }
    if std::fs::read_link(link).ok().as_deref() != Some(path) {
        let _ = std::fs::remove_file(link);
        std::os::unix::fs::symlink(path, link).at(link)?;
    }
    Ok(link.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_make_would_expand_or_split_is_named() {
        for (path, c) in [
            ("/a/d$(shell\ttouch\tx)x", '$'),
            ("/a/d$(HOME)x", '$'),
            ("/a/b c", ' '),
            ("/a/b\tc", '\t'),
            ("/a/b#c", '#'),
            ("/a/b:c", ':'),
            ("/a/b%c", '%'),
            ("/a/b'c", '\''),
        ] {
            assert_eq!(unsafe_char(Path::new(path)), Some(c), "{path}");
        }
        assert_eq!(
            unsafe_char(Path::new("/root/.cache/kernel-core/x_y-1.2+3@4")),
            None
        );
        let e = check(Path::new("/a/b c"), "the cache")
            .unwrap_err()
            .to_string();
        assert!(e.contains("holds a space"), "{e}");
        let e = check(Path::new("/a/d$(HOME)x"), "the cache")
            .unwrap_err()
            .to_string();
        assert!(e.contains("holds '$'"), "{e}");
    }

    #[test]
    fn an_unsafe_path_is_reached_through_a_safe_link() {
        let root = tempfile::tempdir().unwrap();
        let weird = root.path().join("d$(shell touch x)x");
        std::fs::create_dir_all(&weird).unwrap();
        std::fs::write(weird.join("f"), "hi").unwrap();
        let link = root.path().join("safe/link");
        let reached = safe_or_link(&weird, &link).unwrap();
        assert_eq!(reached, link);
        assert_eq!(std::fs::read_to_string(link.join("f")).unwrap(), "hi");
        // Again: the link is kept.
        assert_eq!(safe_or_link(&weird, &link).unwrap(), link);
        let plain = root.path().join("plain");
        assert_eq!(safe_or_link(&plain, &link).unwrap(), plain);
    }
}
