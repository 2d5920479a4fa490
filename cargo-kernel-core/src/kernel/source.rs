// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Kernel sources: Debian's `linux-source-*` packages, fetched through the private apt of
//! [`crate::kernel::apt`] and extracted once into the cache, with a manifest of the files the
//! runner executes from them, checked before each use.

use crate::infra::cache;
use crate::infra::command;
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::{lock, progress};
use crate::kernel::{apt, setup};
use crate::model::arch::Kernel;
use crate::model::build::Source;
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Reads `VERSION.PATCHLEVEL.SUBLEVEL` from a kernel tree's Makefile.
fn makefile_version(dir: &Path) -> Result<String> {
    let makefile = fs::read_to_string(dir.join("Makefile")).at(dir.join("Makefile"))?;
    let field = |name: &str| {
        makefile
            .lines()
            .find_map(|l| {
                l.strip_prefix(name)?
                    .trim_start()
                    .strip_prefix('=')
                    .map(|v| v.trim().to_string())
            })
            .ok_or_else(|| anyhow::anyhow!("{}/Makefile has no {name}", dir.display()))
    };
    Ok(format!(
        "{}.{}.{}",
        field("VERSION")?,
        field("PATCHLEVEL")?,
        field("SUBLEVEL")?
    ))
}

/// The source of `kernel`, fetched from Debian and extracted into the cache if needed.
pub fn fetch(kernel: &Kernel) -> Result<Source> {
    if let Some(source) = cached(kernel)? {
        return Ok(source);
    }
    let cache = cache::dir();
    let _lock = lock::Lock::exclusive(
        &cache.join("src").join(format!("{}.lock", kernel.package)),
        "a kernel source's extraction",
    )?;
    if let Some(source) = cached(kernel)? {
        return Ok(source);
    }
    let dir = dir(kernel);
    fs::create_dir_all(cache.join("src")).at(cache.join("src"))?;
    setup::ensure_space(&cache.join("src"), 3 << 30, "a kernel source tree")?;
    let start = progress::step(&format!("fetching {} ({})", kernel.package, kernel.suite));
    // Through the private apt configuration (no /etc/apt edits), checked against the index.
    let apt = apt::Apt::new(kernel.suite, kernel.archive, "amd64");
    let stanza = apt
        .show(kernel.package)?
        .ok_or_else(|| anyhow::anyhow!("Debian {} has no {}", kernel.suite, kernel.package))?;
    let deb = apt.fetch(&stanza, &cache.join("debs"))?;
    let source = extract(&deb, &dir)?;
    progress::done(
        &format!(
            "Linux {} source in {}",
            source.version,
            source.dir.display()
        ),
        start,
    );
    Ok(source)
}

/// Extracts the kernel tree of the `linux-source-*` package `deb` (checked against Debian's
/// index) into `dir`, the caller holding the lock of its extraction.
///
/// What an extraction that was killed left is removed first: its scratch, and `dir` if it is
/// there (a tree without the stamp, never used). The package is unpacked and its tarball
/// extracted in a scratch directory beside `dir`, where the tree gets its manifest and its
/// stamp, which names the package; then it is renamed to `dir`, so that `dir` is whole or
/// missing. The scratch is removed when this ends, however it ends.
fn extract(deb: &Path, dir: &Path) -> Result<Source> {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        bail!("{} is not a directory in the cache", dir.display());
    };
    let name = name.to_string_lossy();
    fs::create_dir_all(parent).at(parent)?;
    // `.<package>-unpack.<random>`; `.<package>-unpack` and `.<package>-extract` of older
    // versions.
    let (unpack_prefix, extract_prefix) = (format!(".{name}-unpack"), format!(".{name}-extract"));
    apt::remove_killed(parent, |n| {
        n.starts_with(&unpack_prefix) || n.starts_with(&extract_prefix)
    })?;
    if dir.exists() {
        fs::remove_dir_all(dir).at(dir)?;
    }
    let scratch = tempfile::Builder::new()
        .prefix(&format!("{unpack_prefix}."))
        .tempdir_in(parent)
        .at(parent)?;
    let unpack = scratch.path().join("deb");
    command::run(
        Command::new("dpkg-deb").arg("-x").arg(deb).arg(&unpack),
        "the .deb may be truncated: delete it from the cache and retry",
    )?;
    let tarball = fs::read_dir(unpack.join("usr/src"))
        .at(unpack.join("usr/src"))?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".tar.xz"))
        .ok_or_else(|| anyhow::anyhow!("{} holds no usr/src/*.tar.xz", deb.display()))?;
    let extract = scratch.path().join("tree");
    fs::create_dir_all(&extract).at(&extract)?;
    command::run(
        Command::new("tar")
            .arg("xf")
            .arg(&tarball)
            .arg("-C")
            .arg(&extract),
        "is xz-utils installed and is there disk space?",
    )?;
    let top = fs::read_dir(&extract)
        .at(&extract)?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .ok_or_else(|| anyhow::anyhow!("{} held no directory", tarball.display()))?;
    let version = makefile_version(&top)?;
    fs::write(top.join(MANIFEST), manifest(&top)?).at(top.join(MANIFEST))?;
    // The stamp names the package it came from: a distribution kernel's headers must be of
    // exactly that version.
    let deb_name = deb
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stamp = top.join(EXTRACTED);
    fs::write(&stamp, format!("{deb_name}\n")).at(&stamp)?;
    fs::rename(&top, dir).at(dir)?;
    Ok(Source {
        dir: dir.to_path_buf(),
        version,
    })
}

/// The manifest, in an extracted kernel tree, of the files the runner executes from it.
const MANIFEST: &str = ".kernel-core-manifest";

/// The files of a kernel tree the runner executes (`merge_config.sh` for a configuration,
/// `kunit.py` and its modules for `kunit.py parse`), relative to the tree.
fn executed_files(tree: &Path) -> Result<Vec<PathBuf>> {
    let mut files = vec![PathBuf::from("scripts/kconfig/merge_config.sh")];
    let kunit = tree.join("tools/testing/kunit");
    let mut scripts: Vec<PathBuf> = fs::read_dir(&kunit)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .filter_map(|p| p.strip_prefix(tree).ok().map(Path::to_path_buf))
        .collect();
    scripts.sort();
    files.extend(scripts);
    Ok(files)
}

/// The manifest's text for `tree`: `<sha256>  <path>` per executed file.
fn manifest(tree: &Path) -> Result<String> {
    let mut text = String::new();
    for file in executed_files(tree)? {
        let hash = crate::infra::hash::sha256(&tree.join(&file))?;
        text.push_str(&format!("{hash}  {}\n", file.display()));
    }
    Ok(text)
}

/// Checks the files the runner executes from the cached kernel `tree` against the manifest
/// written when it was extracted (from a `.deb` checked against Debian's index): a tree that
/// was changed since fails, naming the file. A tree extracted by an older version, without a
/// manifest, gets one now.
pub fn verify_executed(tree: &Path) -> Result {
    let path = tree.join(MANIFEST);
    let now = manifest(tree)?;
    let Ok(recorded) = fs::read_to_string(&path) else {
        return fs::write(&path, now).at(&path);
    };
    if recorded != now {
        let changed: Vec<&str> = now
            .lines()
            .filter(|l| !recorded.lines().any(|r| r == *l))
            .filter_map(|l| l.split_once("  ").map(|(_, f)| f))
            .collect();
        bail!(
            "{}: {} changed since the tree was extracted ({}): remove the tree to fetch it again",
            tree.display(),
            changed.join(", "),
            path.display()
        );
    }
    Ok(())
}

/// The Debian package version of the cached source of `kernel`: from the package its
/// extraction stamp names, or for an older stamp that names none, from the one package of it
/// in the cache's `debs/`; `None` if it cannot be told.
pub fn package_version(kernel: &Kernel) -> Result<Option<String>> {
    let stamp = dir(kernel).join(EXTRACTED);
    let named = fs::read_to_string(&stamp)
        .unwrap_or_default()
        .trim()
        .to_string();
    let version_of = |file: &str| {
        file.strip_prefix(&format!("{}_", kernel.package))
            .and_then(|rest| rest.split('_').next())
            .map(|v| v.replace("%3a", ":"))
    };
    if !named.is_empty() {
        return Ok(version_of(&named));
    }
    let debs = cache::dir().join("debs");
    let found: Vec<String> = fs::read_dir(&debs)
        .at(&debs)?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!("{}_", kernel.package)) && n.ends_with(".deb"))
        .collect();
    Ok(match found.as_slice() {
        [one] => version_of(one),
        _ => None,
    })
}

/// The file that marks a finished extraction of a kernel source in its directory.
const EXTRACTED: &str = ".kernel-core-extracted";

/// Where the source of `kernel` is extracted in the cache.
fn dir(kernel: &Kernel) -> PathBuf {
    cache::dir().join("src").join(kernel.package)
}

/// The source of `kernel`, if it is already extracted in the cache.
pub fn cached(kernel: &Kernel) -> Result<Option<Source>> {
    cached_in(dir(kernel))
}

/// The kernel tree `dir`, if its extraction finished (its stamp is there).
fn cached_in(dir: PathBuf) -> Result<Option<Source>> {
    if !dir.join(EXTRACTED).exists() {
        return Ok(None);
    }
    let version = makefile_version(&dir)?;
    Ok(Some(Source { dir, version }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::apt::fixture::{self, SOURCE, SOURCE_TREE};

    #[test]
    fn executed_files_are_checked_against_the_manifest() {
        let tree = tempfile::tempdir().unwrap();
        let tree = tree.path();
        for (file, text) in [
            ("scripts/kconfig/merge_config.sh", "#!/bin/sh\n"),
            ("tools/testing/kunit/kunit.py", "print()\n"),
            ("tools/testing/kunit/kunit_parser.py", "\n"),
        ] {
            fs::create_dir_all(tree.join(file).parent().unwrap()).unwrap();
            fs::write(tree.join(file), text).unwrap();
        }
        verify_executed(tree).unwrap();
        assert!(tree.join(MANIFEST).is_file(), "written on first use");
        verify_executed(tree).unwrap();
        fs::write(
            tree.join("tools/testing/kunit/kunit_parser.py"),
            "import os\n",
        )
        .unwrap();
        let e = verify_executed(tree).unwrap_err().to_string();
        assert!(
            e.contains("tools/testing/kunit/kunit_parser.py changed since the tree was extracted"),
            "{e}"
        );
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Leaves in `src` what an extraction of [`SOURCE`] killed halfway leaves: half a tree
    /// without the stamp, and scratch directories (of this version and of older ones).
    fn killed_extraction(src: &Path) {
        for (file, text) in [
            ("linux-source-9.9/Makefile", "VERSION = 9\n"),
            ("linux-source-9.9/half-written.c", "int"),
            (".linux-source-9.9-unpack.AbC123/deb/usr/src/x.tar.xz", "x"),
            (
                ".linux-source-9.9-unpack.AbC123/tree/linux-source-9.9/Makefile",
                "",
            ),
            (
                ".linux-source-9.9-unpack/usr/src/linux-source-9.9.tar.xz",
                "x",
            ),
            (".linux-source-9.9-extract/linux-source-9.9/Makefile", ""),
        ] {
            let path = src.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
    }

    #[test]
    fn an_extraction_that_was_killed_is_done_again_in_full() {
        let archive = fixture::archive();
        let scratch = tempfile::tempdir().unwrap();
        // The package, fetched from the local archive and checked as Debian's is.
        let apt = archive.apt(&scratch.path().join("apt"));
        let stanza = apt.show(SOURCE.0).unwrap().unwrap();
        let deb = apt.fetch(&stanza, &scratch.path().join("debs")).unwrap();
        let src = scratch.path().join("src");
        let dir = src.join(SOURCE.0);
        killed_extraction(&src);
        // Another package's extraction, which may be running, is left alone.
        let other = src.join(".linux-source-9.10-unpack.XyZ789");
        fs::create_dir_all(&other).unwrap();
        assert!(
            cached_in(dir.clone()).unwrap().is_none(),
            "no stamp: not used"
        );

        let source = extract(&deb, &dir).unwrap();
        assert_eq!(
            (source.dir.as_path(), source.version.as_str()),
            (dir.as_path(), "9.9.1")
        );
        for (file, text) in SOURCE_TREE {
            assert_eq!(fs::read_to_string(dir.join(file)).unwrap(), *text, "{file}");
        }
        assert!(!dir.join("half-written.c").exists());
        assert_eq!(
            fs::read_to_string(dir.join(EXTRACTED)).unwrap(),
            format!("{}\n", deb.file_name().unwrap().to_string_lossy())
        );
        verify_executed(&dir).unwrap();
        assert!(fs::read_to_string(dir.join(MANIFEST))
            .unwrap()
            .contains("  tools/testing/kunit/kunit.py\n"));
        assert_eq!(
            names(&src),
            [".linux-source-9.10-unpack.XyZ789", SOURCE.0],
            "the killed run's scratch is gone, and this one's"
        );
        let cached = cached_in(dir.clone()).unwrap().expect("stamped");
        assert_eq!(cached.version, "9.9.1");
    }

    #[test]
    fn an_extraction_that_fails_leaves_nothing_that_is_used() {
        let archive = fixture::archive();
        let scratch = tempfile::tempdir().unwrap();
        let src = scratch.path().join("src");
        let dir = src.join(SOURCE.0);
        killed_extraction(&src);
        // A .deb cut off in the middle: dpkg-deb fails.
        let whole = fs::read(archive.pool_file(SOURCE)).unwrap();
        let deb = scratch.path().join("cut.deb");
        fs::write(&deb, &whole[..whole.len() / 2]).unwrap();
        let Err(e) = extract(&deb, &dir) else {
            panic!("a cut-off .deb was extracted")
        };
        let e = format!("{e:#}");
        assert!(e.contains("the .deb may be truncated"), "{e}");
        assert!(cached_in(dir.clone()).unwrap().is_none());
        assert!(names(&src).is_empty(), "nothing is left: {:?}", names(&src));
        // The whole one, then.
        let deb = archive.pool_file(SOURCE);
        assert_eq!(extract(&deb, &dir).unwrap().version, "9.9.1");
        assert_eq!(cached_in(dir).unwrap().unwrap().version, "9.9.1");
    }
}
