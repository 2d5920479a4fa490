// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The metadata overlay: what Debian's `linux-headers-$KREL` lacks for Rust modules, as a
//! package to install next to it (what Ubuntu's `linux-lib-rust-*` gives its users).
//!
//! It holds the rebuilt `rust/*.rmeta`, the proc-macro `.so` files and `scripts/target.json`
//! under `/usr/src/linux-headers-$KREL/`, so that `make -C /lib/modules/$KREL/build M=$PWD`
//! builds Rust modules on a Debian machine with the kernel's own toolchain installed.

use super::Release;
use crate::infra::command;
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// Writes `<out>/linux-rust-metadata-$KREL_<version>_<arch>.deb` from the metadata build `build`.
pub fn write(release: &Release, build: &Path, arch: &str, out: &Path) -> Result<PathBuf> {
    let name = package(&release.release);
    let root = out.join(format!(".{name}-root"));
    let _ = fs::remove_dir_all(&root);
    let headers_path = format!("usr/src/linux-headers-{}", release.release);
    let headers = root.join(&headers_path);
    // Debian's headers have `scripts` as a link into the shared `linux-kbuild-*` package: files
    // of `scripts/` go where it points, so that installing the overlay keeps the link.
    let scripts = fs::read_link(release.headers.join("scripts")).ok();
    for file in files(build)? {
        let to = match (file.strip_prefix("scripts"), &scripts) {
            (Ok(rest), Some(link)) => normalize(&Path::new(&headers_path).join(link)).map_or_else(
                || headers.join(&file),
                |target| root.join(target).join(rest),
            ),
            _ => headers.join(&file),
        };
        fs::create_dir_all(to.parent().expect("in a directory")).at(&to)?;
        fs::copy(build.join(&file), &to).at(build.join(&file))?;
    }
    let control = root.join("DEBIAN/control");
    fs::create_dir_all(control.parent().expect("DEBIAN")).at(&control)?;
    fs::write(
        &control,
        format!(
            "Package: {name}\nVersion: {}\nArchitecture: {arch}\nDepends: linux-headers-{} (= {0})\nSection: kernel\nPriority: optional\nMaintainer: cargo kernel-core <nobody@invalid>\nDescription: Rust metadata for building out-of-tree Rust modules for Linux {1}\n rust/*.rmeta, the proc-macro libraries and scripts/target.json, rebuilt by\n cargo kernel-core from linux-source with Debian's configuration and checked\n against the kernel's Module.symvers.\n",
            release.version, release.release
        ),
    )
    .at(&control)?;
    let deb = out.join(format!(
        "{name}_{}_{arch}.deb",
        super::sanitize(&release.version)
    ));
    command::run(
        Command::new("dpkg-deb")
            .args(["--root-owner-group", "-Zgzip", "--build"])
            .arg(&root)
            .arg(&deb),
        "dpkg-deb could not build the overlay package",
    )?;
    let _ = fs::remove_dir_all(&root);
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
    }
}
