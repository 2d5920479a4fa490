// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A local apt archive for the tests, made without the network: real packages built with
//! `dpkg-deb --build`, a `Packages` index, and a `Release` file that lists the index and is
//! signed into `InRelease` with a throwaway GPG key, whose public key is the keyring the tests'
//! [`Apt`] names in `Signed-By:`; apt checks a real signature and real SHA256 sums, through its
//! `file:` method.
//!
//! The archive holds two packages: [`HELLO`], a tiny one, and [`SOURCE`], a fake
//! `linux-source-9.9` whose `usr/src/linux-source-9.9.tar.xz` holds a kernel tree of a
//! `Makefile` (Linux 9.9.1) and the files the runner executes from a tree.
//!
//! It is made once and shared by the tests of every process (nextest runs each test in a
//! process of its own): in the target directory, under a name keyed by this file's text, made
//! aside and renamed into place. It is never changed: a test that damages an archive damages
//! its own [`LocalArchive::copy`].
//!
//! The tools it needs are checked first: a missing one fails the test, naming the Debian
//! package to install.

use super::Apt;
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::files;
use crate::infra::hash::{fnv, sha256, FNV_START};
use crate::model::arch::Archive;
use std::fmt::Write as _;
use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The suite of the local archive.
pub(crate) const SUITE: &str = "kernel-core-test";

/// The tiny package, and its version.
pub(crate) const HELLO: (&str, &str) = ("kernel-core-hello", "1.0-1");

/// The file [`HELLO`] installs, and its text.
pub(crate) const HELLO_FILE: (&str, &str) = (
    "usr/share/kernel-core-hello/hello.txt",
    "hello from a local archive\n",
);

/// The fake kernel source package, and its version.
pub(crate) const SOURCE: (&str, &str) = ("linux-source-9.9", "9.9.1-1");

/// The files of the kernel tree in [`SOURCE`]'s tarball, below `linux-source-9.9/`.
pub(crate) const SOURCE_TREE: &[(&str, &str)] = &[
    (
        "Makefile",
        "# SPDX-License-Identifier: GPL-2.0\nVERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 1\nEXTRAVERSION =\nNAME = Test Archive\n",
    ),
    ("scripts/kconfig/merge_config.sh", "#!/bin/sh\nexit 0\n"),
    ("tools/testing/kunit/kunit.py", "#!/usr/bin/env python3\nprint('kunit')\n"),
    ("tools/testing/kunit/kunit_parser.py", "# the parser\n"),
];

/// The tools the archive and the tests need, with the Debian package of each.
const TOOLS: &[(&str, &str)] = &[
    ("dpkg-deb", "dpkg"),
    ("apt-get", "apt"),
    ("apt-cache", "apt"),
    ("gpg", "gpg"),
    ("gpg-agent", "gpg-agent"),
    ("gpgconf", "gpgconf"),
    ("tar", "tar"),
    ("xz", "xz-utils"),
];

/// The architecture of the archive's index.
const ARCH: &str = "amd64";

/// A local apt archive: `archive/` (what apt fetches: `dists/`, `pool/`) and `keyring.gpg`.
pub(crate) struct LocalArchive {
    /// The directory of the archive and its keyring.
    pub(crate) dir: PathBuf,
    /// A copy's directory, removed when the copy is dropped.
    _copy: Option<files::TempDir>,
}

impl LocalArchive {
    /// The archive's URL, as a sources file names it.
    pub(crate) fn url(&self) -> String {
        format!("file://{}", self.dir.join("archive").display())
    }

    /// The public key that signed the archive's `InRelease`.
    pub(crate) fn keyring(&self) -> PathBuf {
        self.dir.join("keyring.gpg")
    }

    /// The file of `package` in the archive's pool.
    pub(crate) fn pool_file(&self, package: (&str, &str)) -> PathBuf {
        self.dir.join("archive").join(pool_path(package))
    }

    /// A private apt under `dir` that fetches [`SUITE`] from this archive, checked with its
    /// keyring (failures name the main archive's override variable).
    pub(crate) fn apt(&self, dir: &Path) -> Apt {
        Apt::serving(
            dir,
            SUITE,
            Archive::Main,
            ARCH,
            &self.url(),
            &self.keyring(),
        )
    }

    /// A copy of the archive that a test may damage, removed when dropped.
    pub(crate) fn copy(&self) -> LocalArchive {
        let scratch = files::scratch_dir("kernel-core-archive-").unwrap();
        copy_tree(&self.dir, scratch.path()).unwrap();
        LocalArchive {
            dir: scratch.path().to_path_buf(),
            _copy: Some(scratch),
        }
    }
}

/// The shared local archive, made if it is not there yet (see the module's documentation).
pub(crate) fn archive() -> &'static LocalArchive {
    static ARCHIVE: OnceLock<LocalArchive> = OnceLock::new();
    ARCHIVE.get_or_init(|| {
        need_tools();
        let key = fnv(include_str!("fixture.rs").as_bytes(), FNV_START);
        let exe = std::env::current_exe().unwrap();
        // target/<profile>/deps/<test binary>: beside deps/, removed by `cargo clean`.
        let base = exe
            .parent()
            .and_then(Path::parent)
            .map_or_else(std::env::temp_dir, Path::to_path_buf);
        let dir = base.join(format!("kernel-core-test-archive-{key:016x}"));
        files::create_dir_atomic(&dir, make)
            .unwrap_or_else(|e| panic!("making the local apt archive {}: {e:#}", dir.display()));
        LocalArchive { dir, _copy: None }
    })
}

/// Fails, naming the Debian package to install, unless every tool of [`TOOLS`] runs.
fn need_tools() {
    for (tool, package) in TOOLS {
        if let Err(e) = Command::new(tool).arg("--version").output() {
            panic!(
                "`{tool}` cannot run ({e}): install the Debian package {package} (`sudo apt-get install {package}`); the tests of the private apt need it for their local archive"
            );
        }
    }
}

/// Where `package` is in the pool, as the index's `Filename:` says.
fn pool_path((name, version): (&str, &str)) -> String {
    let arch = if name == SOURCE.0 { "all" } else { ARCH };
    format!(
        "pool/main/{}/{name}/{name}_{version}_{arch}.deb",
        &name[..1]
    )
}

/// Runs `cmd`, failing with its output if it fails.
fn run(cmd: &mut Command) -> Result {
    let out = cmd
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run {:?}: {e}", cmd.get_program()))?;
    if !out.status.success() {
        anyhow::bail!(
            "`{cmd:?}` failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(())
}

/// Writes `text` to `root/path`, creating its directory, with `mode`.
fn write(root: &Path, path: &str, text: &str, mode: u32) -> Result {
    let path = root.join(path);
    let dir = path.parent().expect("a file in a directory");
    fs::create_dir_all(dir).at(dir)?;
    fs::write(&path, text).at(&path)?;
    fs::set_permissions(&path, fs::Permissions::from_mode(mode)).at(&path)
}

/// Copies the tree `from` into the directory `to`.
fn copy_tree(from: &Path, to: &Path) -> Result {
    fs::create_dir_all(to).at(to)?;
    for entry in fs::read_dir(from).at(from)? {
        let entry = entry.at(from)?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() {
            copy_tree(&source, &target)?;
        } else {
            fs::copy(&source, &target).at(&target)?;
        }
    }
    Ok(())
}

/// Builds the package `package` of the files under `root` (`DEBIAN/control` written here)
/// into the pool of the archive `archive`; returns its index stanza.
fn build_package(archive: &Path, root: &Path, package: (&str, &str)) -> Result<String> {
    let (name, version) = package;
    let arch = if name == SOURCE.0 { "all" } else { ARCH };
    let control = format!(
        "Package: {name}\nVersion: {version}\nArchitecture: {arch}\nMaintainer: kernel-core tests <tests@kernel-core.invalid>\nDescription: a package of the local archive of kernel-core's tests\n"
    );
    write(root, "DEBIAN/control", &control, 0o644)?;
    let filename = pool_path(package);
    let deb = archive.join(&filename);
    let pool = deb.parent().expect("a file in the pool");
    fs::create_dir_all(pool).at(pool)?;
    run(Command::new("dpkg-deb")
        .args(["--root-owner-group", "--build"])
        .arg(root)
        .arg(&deb))?;
    let size = fs::metadata(&deb).at(&deb)?.len();
    Ok(format!(
        "{}Filename: {filename}\nSize: {size}\nSHA256: {}\n",
        control,
        sha256(&deb)?
    ))
}

/// Makes the archive in `dir` (see the module's documentation).
fn make(dir: &Path) -> Result {
    let archive = dir.join("archive");
    let scratch = files::scratch_dir("kernel-core-archive-")?;
    let scratch = scratch.path();

    // The packages.
    let hello = scratch.join("hello");
    write(&hello, HELLO_FILE.0, HELLO_FILE.1, 0o644)?;
    let mut index = build_package(&archive, &hello, HELLO)?;
    let tree = scratch.join("tree");
    for (path, text) in SOURCE_TREE {
        let mode = if path.ends_with(".sh") || path.ends_with("kunit.py") {
            0o755
        } else {
            0o644
        };
        write(&tree.join(SOURCE.0), path, text, mode)?;
    }
    let source = scratch.join("source");
    let src = source.join("usr/src");
    fs::create_dir_all(&src).at(&src)?;
    run(Command::new("tar")
        .arg("cJf")
        .arg(src.join(format!("{}.tar.xz", SOURCE.0)))
        .arg("-C")
        .arg(&tree)
        .arg(SOURCE.0))?;
    index.push('\n');
    index.push_str(&build_package(&archive, &source, SOURCE)?);

    // The index, and the Release file that lists it.
    let dists = archive.join("dists").join(SUITE);
    let packages = format!("main/binary-{ARCH}/Packages");
    write(&dists, &packages, &index, 0o644)?;
    let packages_file = dists.join(&packages);
    let mut release = format!(
        "Origin: kernel-core tests\nLabel: kernel-core tests\nSuite: {SUITE}\nCodename: {SUITE}\nDate: Thu, 01 Jan 2026 00:00:00 UTC\nArchitectures: {ARCH}\nComponents: main\nDescription: the local archive of kernel-core's tests\nSHA256:\n"
    );
    writeln!(
        release,
        " {} {} {packages}",
        sha256(&packages_file)?,
        fs::metadata(&packages_file).at(&packages_file)?.len()
    )?;
    write(&dists, "Release", &release, 0o644)?;

    // A throwaway key signs it; its public key is the keyring.
    let home = scratch.join("gnupg");
    fs::create_dir_all(&home).at(&home)?;
    fs::set_permissions(&home, fs::Permissions::from_mode(0o700)).at(&home)?;
    let gpg = |args: &[&str]| {
        let mut cmd = Command::new("gpg");
        cmd.env("GNUPGHOME", &home)
            .args(["--batch", "--quiet", "--pinentry-mode", "loopback"])
            .args(["--passphrase", ""])
            .args(args);
        cmd
    };
    let signed = (|| {
        let user = "kernel-core test archive <tests@kernel-core.invalid>";
        run(&mut gpg(&[
            "--quick-gen-key",
            user,
            "ed25519",
            "sign",
            "never",
        ]))?;
        run(gpg(&["--export", "--output"])
            .arg(dir.join("keyring.gpg"))
            .arg(user))?;
        run(
            gpg(&["--yes", "--local-user", user, "--clearsign", "--output"])
                .arg(dists.join("InRelease"))
                .arg(dists.join("Release")),
        )
    })();
    // The key's agent ends with its home.
    let _ = Command::new("gpgconf")
        .env("GNUPGHOME", &home)
        .args(["--kill", "all"])
        .output();
    signed
}
