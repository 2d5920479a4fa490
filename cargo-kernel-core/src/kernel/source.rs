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
    let stamp = dir.join(EXTRACTED);
    fs::create_dir_all(cache.join("src")).at(cache.join("src"))?;
    setup::ensure_space(&cache.join("src"), 3 << 30, "a kernel source tree")?;
    let start = progress::step(&format!("fetching {} ({})", kernel.package, kernel.suite));
    // Through the private apt configuration (no /etc/apt edits), checked against the index.
    let apt = apt::Apt::new(kernel.suite, kernel.archive, "amd64");
    let stanza = apt
        .show(kernel.package)?
        .ok_or_else(|| anyhow::anyhow!("Debian {} has no {}", kernel.suite, kernel.package))?;
    let deb = apt.fetch(&stanza, &cache.join("debs"))?;
    let unpack = cache
        .join("src")
        .join(format!(".{}-unpack", kernel.package));
    let _ = fs::remove_dir_all(&unpack);
    command::run(
        Command::new("dpkg-deb").arg("-x").arg(&deb).arg(&unpack),
        "the .deb may be truncated: delete it from the cache and retry",
    )?;
    let tarball = fs::read_dir(unpack.join("usr/src"))
        .at(unpack.join("usr/src"))?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".tar.xz"))
        .ok_or_else(|| anyhow::anyhow!("{} holds no usr/src/*.tar.xz", deb.display()))?;
    let _ = fs::remove_dir_all(&dir);
    let extract = cache
        .join("src")
        .join(format!(".{}-extract", kernel.package));
    let _ = fs::remove_dir_all(&extract);
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
    fs::rename(&top, &dir).at(&dir)?;
    let _ = fs::remove_dir_all(&extract);
    let _ = fs::remove_dir_all(&unpack);
    // The stamp names the package it came from: a distribution kernel's headers must be of
    // exactly that version.
    let deb_name = deb
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    fs::write(dir.join(MANIFEST), manifest(&dir)?).at(dir.join(MANIFEST))?;
    fs::write(&stamp, format!("{deb_name}\n")).at(&stamp)?;
    let version = makefile_version(&dir)?;
    progress::done(
        &format!("Linux {version} source in {}", dir.display()),
        start,
    );
    Ok(Source { dir, version })
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
    let dir = dir(kernel);
    if !dir.join(EXTRACTED).exists() {
        return Ok(None);
    }
    let version = makefile_version(&dir)?;
    Ok(Some(Source { dir, version }))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
