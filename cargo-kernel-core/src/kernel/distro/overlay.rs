// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The metadata overlay: what Debian's `linux-headers-$KREL` lacks for Rust modules, as a
//! package to install next to it (what Ubuntu's `linux-lib-rust-*` gives its users).
//!
//! It holds the rebuilt `rust/*.rmeta` and the proc-macro `.so` files under
//! `/usr/src/linux-headers-$KREL/`, so that `make -C /lib/modules/$KREL/build M=$PWD` builds
//! Rust modules on a Debian machine with the kernel's own toolchain installed, and a record of
//! what it was built for (`rust/metadata-overlay`: the headers' version, the SHA256 of their
//! `.config` and `Module.symvers`), which the preflight ([`super::preflight`]) compares with
//! the headers installed beside it.
//!
//! Its name and dependencies tie it to its headers: `linux-rust-metadata-$KREL` depends on
//! `linux-headers-$KREL` of exactly its version, so apt removes the overlay with the headers
//! and upgrades the two together. `scripts/target.json` lives in the `linux-kbuild-*` package
//! that the flavours of a release share (Debian's headers link `scripts` there), so it gets a
//! package of its own, `linux-rust-kbuild-*`, on which each flavour's overlay depends: two
//! overlays cannot own one file. Once installed, the overlay asks DKMS to build its modules
//! for the release.

use super::Release;
use crate::infra::deb;
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};

/// The files of a metadata build that the overlay carries, relative to the build directory.
pub fn files(build: &Path) -> Result<Vec<PathBuf>> {
    let rust = build.join("rust");
    let mut found = Vec::new();
    for entry in fs::read_dir(&rust).at(&rust)? {
        let path = entry.at(&rust)?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.ends_with(".rmeta") || name.ends_with(".so") {
            found.push(PathBuf::from("rust").join(name));
        }
    }
    found.sort();
    let target = PathBuf::from("scripts/target.json");
    if build.join(&target).exists() {
        found.push(target);
    }
    if !found.iter().any(|f| f.ends_with("libkernel.rmeta")) {
        bail!(
            "{} has no rust/libkernel.rmeta: not a finished metadata build",
            build.display()
        );
    }
    Ok(found)
}

/// `path` with its `..` components resolved, if it stays relative and inside its root.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            std::path::Component::Normal(p) => out.push(p),
            _ => return None,
        }
    }
    Some(out)
}

/// The overlay package's name.
pub fn package(release: &str) -> String {
    format!("linux-rust-metadata-{release}")
}

/// The name of the package that carries what the overlays of one `linux-kbuild-*` package
/// share (`scripts/target.json`): `linux-rust-kbuild-7.3.4+deb13` for `linux-kbuild-7.3.4+deb13`.
pub fn kbuild_package(kbuild: &str) -> String {
    kbuild.replacen("linux-kbuild-", "linux-rust-kbuild-", 1)
}

/// The `linux-kbuild-*` package that Debian's headers link `scripts` into
/// (`../../lib/linux-kbuild-7.3.4+deb13/scripts`), and where that link points from the root.
fn kbuild_of(headers_path: &str, link: &Path) -> Option<(String, PathBuf)> {
    let target = normalize(&Path::new(headers_path).join(link))?;
    let name = target
        .parent()?
        .file_name()?
        .to_str()?
        .strip_prefix("linux-kbuild-")?;
    Some((format!("linux-kbuild-{name}"), target))
}

/// What the overlay package runs once installed: DKMS builds its modules for the release now
/// that the metadata is there (the headers' own hook ran when they were installed, perhaps
/// before the overlay). A module DKMS cannot build does not undo the installation: DKMS says
/// why, and the module's own preflight names what is missing.
fn postinst(release: &str) -> String {
    format!(
        "#!/bin/sh\n\
         # Written by cargo kernel-core: DKMS builds its modules for {release} now that the Rust metadata is here.\n\
         set -e\n\
         if [ \"$1\" = configure ] && [ -x /usr/lib/dkms/dkms_autoinstaller ]; then\n\
         \x20   /usr/lib/dkms/dkms_autoinstaller start {release} ||\n\
         \x20       echo \"{package}: DKMS could not build every module for {release} (see above)\" >&2\n\
         fi\n",
        package = package(release)
    )
}

/// Writes the overlay of the metadata build `build` for `release` into `out`:
/// `linux-rust-metadata-$KREL_<version>_<arch>.deb`, and where Debian's headers link
/// `scripts` into a `linux-kbuild-*` package shared by the flavours of a release (amd64,
/// rt-amd64), `linux-rust-kbuild-*_<version>_<arch>.deb` with the files of `scripts/`, which
/// every flavour's overlay depends on (two packages cannot own one file). Returns the packages.
pub fn write(release: &Release, build: &Path, arch: &str, out: &Path) -> Result<Vec<PathBuf>> {
    let name = package(&release.release);
    let root = out.join(format!(".{name}-root"));
    let _ = fs::remove_dir_all(&root);
    let headers_path = format!("usr/src/linux-headers-{}", release.release);
    let headers = root.join(&headers_path);
    let kbuild = fs::read_link(release.headers.join("scripts"))
        .ok()
        .and_then(|link| kbuild_of(&headers_path, &link));
    let mut shared = Vec::new();
    for file in files(build)? {
        if kbuild.is_some() && file.starts_with("scripts") {
            shared.push(file);
            continue;
        }
        let to = headers.join(&file);
        fs::create_dir_all(to.parent().expect("in a directory")).at(&to)?;
        // Linked, not copied: dpkg-deb only reads them.
        crate::infra::files::link_or_copy(&build.join(&file), &to)?;
    }
    let rustc = release
        .config
        .get("CONFIG_RUSTC_VERSION_TEXT")
        .unwrap_or_default()
        .to_string();
    let record = headers.join(super::preflight::OVERLAY_RECORD);
    fs::write(
        &record,
        super::preflight::overlay_record(&name, &release.version, &rustc, &release.headers)?,
    )
    .at(&record)?;
    let mut debs = Vec::new();
    let mut depends = format!("linux-headers-{} (= {})", release.release, release.version);
    if let (Some((kbuild, scripts)), false) = (&kbuild, shared.is_empty()) {
        let deb = write_kbuild(release, build, &shared, kbuild, scripts, arch, out)?;
        depends.push_str(&format!(
            ", {} (= {})",
            kbuild_package(kbuild),
            release.version
        ));
        debs.push(deb);
    }
    let host = std::env::consts::ARCH;
    let description = format!(
        "rust/*.rmeta and the proc-macro libraries (for {host} machines), rebuilt by\n\
         cargo kernel-core from linux-source with Debian's configuration and checked\n\
         against the kernel's Module.symvers, for linux-headers-{} {} only.",
        release.release, release.version
    );
    let deb = out.join(format!(
        "{name}_{}_{arch}.deb",
        super::sanitize(&release.version)
    ));
    deb::build(
        &root,
        &deb::Control {
            package: &name,
            version: &release.version,
            architecture: arch,
            relations: vec![("Depends", depends)],
            summary: &format!(
                "Rust metadata for building out-of-tree Rust modules for Linux {}",
                release.release
            ),
            description: &description,
        },
        &[("postinst", &postinst(&release.release))],
        deb::Compression::Zstd,
        &deb,
    )?;
    debs.insert(0, deb);
    Ok(debs)
}

/// Writes `linux-rust-kbuild-*`: the `shared` files of the metadata build (`scripts/...`) under
/// the `linux-kbuild-*` package's `scripts` directory. A package of that name and version
/// already in `out` (written for another flavour of the release) must hold the same files.
fn write_kbuild(
    release: &Release,
    build: &Path,
    shared: &[PathBuf],
    kbuild: &str,
    scripts: &Path,
    arch: &str,
    out: &Path,
) -> Result<PathBuf> {
    let name = kbuild_package(kbuild);
    let deb = out.join(format!(
        "{name}_{}_{arch}.deb",
        super::sanitize(&release.version)
    ));
    let root = out.join(format!(".{name}-root"));
    let _ = fs::remove_dir_all(&root);
    for file in shared {
        let rest = file.strip_prefix("scripts").expect("a file of scripts/");
        let to = root.join(scripts).join(rest);
        fs::create_dir_all(to.parent().expect("in a directory")).at(&to)?;
        crate::infra::files::link_or_copy(&build.join(file), &to)?;
    }
    if deb.exists() {
        let old = out.join(format!(".{name}-old"));
        let _ = fs::remove_dir_all(&old);
        super::super::apt::unpack(&deb, &old)?;
        for file in shared {
            let rest = file.strip_prefix("scripts").expect("a file of scripts/");
            let (ours, theirs) = (root.join(scripts).join(rest), old.join(scripts).join(rest));
            if fs::read(&ours).at(&ours)? != fs::read(&theirs).unwrap_or_default() {
                let _ = fs::remove_dir_all(&old);
                bail!(
                    "{} of {} differs from the one in {} (another flavour of the same release): the flavours' overlays cannot share {kbuild}'s scripts/",
                    file.display(),
                    release.release,
                    deb.display()
                );
            }
        }
        let _ = fs::remove_dir_all(&old);
        let _ = fs::remove_dir_all(&root);
        return Ok(deb);
    }
    deb::build(
        &root,
        &deb::Control {
            package: &name,
            version: &release.version,
            architecture: arch,
            relations: vec![("Depends", format!("{kbuild} (= {})", release.version))],
            summary: &format!("Rust build files for {kbuild}"),
            description: &format!(
                "What the Rust metadata overlays of every flavour of Linux {} share\n\
                 under {kbuild}'s scripts/ (scripts/target.json), made by cargo kernel-core.",
                release.release
            ),
        },
        &[],
        deb::Compression::Zstd,
        &deb,
    )?;
    Ok(deb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_follow_debian_s_link_into_kbuild() {
        let link = Path::new("usr/src/linux-headers-7.3.4+deb13-amd64")
            .join("../../lib/linux-kbuild-7.3.4+deb13/scripts");
        assert_eq!(
            normalize(&link).unwrap(),
            Path::new("usr/lib/linux-kbuild-7.3.4+deb13/scripts")
        );
        assert!(normalize(Path::new("a/../../b")).is_none());
        let (kbuild, scripts) = kbuild_of(
            "usr/src/linux-headers-7.3.4+deb13-rt-amd64",
            Path::new("../../lib/linux-kbuild-7.3.4+deb13/scripts"),
        )
        .unwrap();
        assert_eq!(kbuild, "linux-kbuild-7.3.4+deb13");
        assert_eq!(kbuild_package(&kbuild), "linux-rust-kbuild-7.3.4+deb13");
        assert_eq!(
            scripts,
            Path::new("usr/lib/linux-kbuild-7.3.4+deb13/scripts")
        );
        assert!(kbuild_of("usr/src/linux-headers-x", Path::new("scripts-elsewhere")).is_none());
    }

    #[test]
    fn once_installed_dkms_builds_for_the_release() {
        let script = postinst("7.3.4+deb13-amd64");
        assert!(
            script.contains("/usr/lib/dkms/dkms_autoinstaller start 7.3.4+deb13-amd64 ||"),
            "{script}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("postinst");
        fs::write(&path, &script).unwrap();
        let out = std::process::Command::new("sh")
            .arg("-n")
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{script}");
    }
}
