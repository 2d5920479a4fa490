// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Whether everything the matrix fetches can be fetched, checked from nothing in a minute.
//!
//! A run whose cache already holds a package never fetches it again, so a broken fetch path
//! (an archive that moved, a suite served from another archive) stays hidden until a fresh
//! machine meets it, an hour into its first run. This check resolves, from empty apt roots of
//! its own (never the cache's), every package the matrix's kernels fetch: each suite's signed
//! lists (`apt-get update`, checked against Debian's keyring), each package's entry, its size
//! and SHA256, and a `HEAD` of the file's URL, whose length must be the entry's size. Nothing
//! is downloaded but the lists. Its failures name the package, the suite, the URL and the
//! variable that points the suite's archive elsewhere.
//!
//! The packages are those the kernel rows name ([`crate::model::arch::KERNELS`]): each row's
//! `linux-source-*`, and for a distribution's stock kernel on each of its architectures, the
//! headers its `linux-headers-<flavour>` names and the boot image of that release, found as
//! [`crate::kernel::distro`] finds them; Debian's own rustc that a stock kernel's metadata is
//! built with ([`crate::kernel::distro::suite_rustc`]: rustc, rust-src and their libraries, in
//! each suite that may hold the kernel's); and every package of the Debian root file system in
//! which DKMS packages are proven ([`crate::kernel::distro::rootfs`]): what `debootstrap
//! --variant=minbase` installs, the root's packages and both kernels' headers, as apt resolves
//! their closure on an empty system from the suite and its backports. The `HEAD`s go 8 at a
//! time, through one HTTP agent.

use crate::infra::error::Result;
use crate::infra::progress;
use crate::kernel::apt::{self, Apt, Stanza};
use crate::kernel::distro::{rootfs, suite_rustc};
use crate::model::arch::{Arch, Kernel, KERNELS};
use std::path::Path;
use std::time::Duration;

/// One package, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The suite and Debian architecture whose lists hold it.
    pub suite: String,
    pub arch: String,
    pub package: String,
    pub version: String,
    /// Its size in bytes and SHA256, from the signed index.
    pub size: u64,
    pub sha256: String,
    /// Where its file is served.
    pub url: String,
}

/// The packages `kernel` fetches, as `(Debian architecture, package)`: its source for the
/// kernels built here; for a stock kernel, on each architecture, its headers and image (found
/// through the lists of `apt_of`).
fn packages(kernel: &Kernel, apt_of: &mut dyn FnMut(&str) -> Result<Apt>) -> Result<Vec<Resolved>> {
    let mut found = Vec::new();
    if kernel.stock.is_none() {
        let apt = apt_of("amd64")?;
        found.push(resolve(&apt, kernel.package)?);
        return Ok(found);
    }
    for arch in kernel.arches {
        let arch: Arch = crate::model::arch::arch(arch)?;
        let (Some(debian), Some(flavour)) = (
            crate::kernel::distro::debian_arch(&arch),
            crate::kernel::distro::flavour(kernel, &arch),
        ) else {
            continue;
        };
        let apt = apt_of(debian)?;
        let krel = newest_release(kernel, &flavour, &apt)?;
        found.push(resolve(&apt, &format!("linux-headers-{krel}"))?);
        found.push(
            resolve(&apt, &format!("linux-binary-{krel}")).or_else(|first| {
                resolve(&apt, &format!("linux-image-{krel}-unsigned")).map_err(|_| first)
            })?,
        );
        found.push(resolve(&apt, kernel.package)?);
    }
    Ok(found)
}

/// The newest release of `kernel`'s `flavour` in `apt`'s lists, as its `linux-headers-<flavour>`
/// names it (`7.3.4+deb13-rt-amd64`), found as [`crate::kernel::distro`] finds it.
fn newest_release(kernel: &Kernel, flavour: &str, apt: &Apt) -> Result<String> {
    let meta = resolve_stanza(apt, &format!("linux-headers-{flavour}"))?;
    let krel = apt::depends(meta.get("Depends").map_or("", String::as_str))
        .into_iter()
        .find_map(|d| d.strip_prefix("linux-headers-").map(str::to_string))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "linux-headers-{flavour} of Debian {} ({}) names no headers package",
                kernel.suite,
                apt.archive.url()
            )
        })?;
    let series = kernel.stock.map_or("", |s| s.series);
    if !krel.starts_with(&format!("{series}.")) {
        anyhow::bail!(
            "Debian {}'s newest {flavour} kernel is {krel}, not of the row's series {series}: update the row {}",
            kernel.suite,
            kernel.name
        );
    }
    Ok(krel)
}

/// The stanza of `package` in `apt`'s lists, or an error naming the package, suite and URL.
fn resolve_stanza(apt: &Apt, package: &str) -> Result<Stanza> {
    apt.show(package)?.ok_or_else(|| {
        anyhow::anyhow!(
            "{package}: not in Debian {} ({}, {}); set {} if packages come from a mirror",
            apt.suite,
            apt.arch,
            apt.archive.url(),
            apt.archive.override_var()
        )
    })
}

/// `package` resolved in `apt`'s lists.
fn resolve(apt: &Apt, package: &str) -> Result<Resolved> {
    let stanza = resolve_stanza(apt, package)?;
    resolve_from(apt, package, &stanza)
}

/// `package`, whose stanza in `apt`'s lists is `stanza`, resolved.
fn resolve_from(apt: &Apt, package: &str, stanza: &apt::Stanza) -> Result<Resolved> {
    let field = |name: &str| {
        stanza.get(name).cloned().ok_or_else(|| {
            anyhow::anyhow!(
                "{package} of Debian {} ({}) has no {name} in its index entry",
                apt.suite,
                apt.archive.url()
            )
        })
    };
    let size = field("Size")?;
    Ok(Resolved {
        suite: apt.suite.clone(),
        arch: apt.arch.clone(),
        package: package.to_string(),
        version: field("Version")?,
        size: size.parse().map_err(|_| {
            anyhow::anyhow!(
                "{package} of Debian {}: Size `{size}` is no number",
                apt.suite
            )
        })?,
        sha256: field("SHA256")?,
        url: format!("{}/{}", apt.archive.url(), field("Filename")?),
    })
}

/// What a resolved package is, for messages.
fn describe(p: &Resolved) -> String {
    format!("{} {} (Debian {})", p.package, p.version, p.suite)
}

/// [`served`] for each `(url, size, what)`, 8 at a time through one agent (whose connections
/// are kept and reused: 8 new connections at a time each took seconds here, 159 `HEAD`s
/// through one agent take about 2 s); the failures.
fn all_served(items: Vec<(String, u64, String)>) -> Vec<String> {
    let agent = agent();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((url, size, what)) = items.get(i) else {
                    break;
                };
                if let Err(e) = served(&agent, url, *size, what) {
                    if let Ok(mut failures) = failures.lock() {
                        failures.push(e.to_string());
                    }
                }
            });
        }
    });
    failures.into_inner().unwrap_or_default()
}

/// The HTTP agent of the `HEAD`s (through the proxy of `http_proxy` if one is set).
fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(HEAD_TIMEOUT)
        .try_proxy_from_env(true)
        .build()
}

/// How long one `HEAD` may take.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);

/// Fails unless `url` serves a file of `resolved.size` bytes (a `HEAD` request).
fn check_served(resolved: &Resolved) -> Result {
    served(&agent(), &resolved.url, resolved.size, &describe(resolved))
}

/// Fails unless `url` serves a file of `size` bytes (a `HEAD` request through `agent`);
/// `what` it is, for the message.
fn served(agent: &ureq::Agent, url: &str, size: u64, what: &str) -> Result {
    let response = agent
        .head(url)
        .call()
        .map_err(|e| anyhow::anyhow!("{what}: {url} is not served: {e}"))?;
    if let Some(length) = response.header("Content-Length") {
        if length.trim().parse::<u64>().ok() != Some(size) {
            anyhow::bail!("{what}: {url} is {length} bytes, but the signed index says {size}");
        }
    }
    Ok(())
}

/// Resolves every package of `kernels` from empty apt roots under `dir` and checks that each
/// is served; returns them, or fails with every package that could not be resolved.
pub fn check(kernels: &[Kernel], dir: &Path) -> Result<Vec<Resolved>> {
    let start = progress::step(&format!(
        "resolving every package the matrix fetches, from empty apt roots in {}",
        dir.display()
    ));
    let mut resolved = Vec::new();
    // Packages checked beyond `resolved` (the DKMS root's closure, by URL and size only).
    let mut resolved_count = 0;
    let mut failures = Vec::new();
    for kernel in kernels {
        let mut apt_of = |arch: &str| -> Result<Apt> {
            let apt = Apt::at(dir, kernel.suite, kernel.archive, arch);
            // Empty: the signed lists are fetched now, by this check.
            if !apt.root.join("updated").exists() {
                apt.update()?;
            }
            Ok(apt)
        };
        match packages(kernel, &mut apt_of) {
            Ok(found) => {
                for package in found {
                    // The same file through another architecture's lists.
                    if resolved.iter().any(|r: &Resolved| r.url == package.url) {
                        continue;
                    }
                    match check_served(&package) {
                        Ok(()) => {
                            crate::note!(
                                "    {} {} (Debian {}, {}): {} bytes, sha256 {}, {}",
                                package.package,
                                package.version,
                                package.suite,
                                package.arch,
                                package.size,
                                package.sha256,
                                package.url
                            );
                            resolved.push(package);
                        }
                        Err(e) => failures.push(e.to_string()),
                    }
                }
            }
            Err(e) => failures.push(format!(
                "{} ({} from Debian {}, {}): {e}",
                kernel.name,
                kernel.package,
                kernel.suite,
                kernel.archive.url()
            )),
        }
    }
    // Debian's own rustc for the stock kernels' metadata builds (unpacked by
    // `distro::suite_rustc`, run on x86_64 hosts only): of each suite that may hold the
    // kernel's (its own, and the suite its backports extend), what is fetched to run it.
    // Which one is the kernel's, its `.config` says, which only the headers' download has:
    // every candidate is resolved.
    if std::env::consts::ARCH == "x86_64" {
        let mut suites: Vec<(String, crate::model::arch::Archive)> = Vec::new();
        for kernel in kernels.iter().filter(|k| k.stock.is_some()) {
            for suite in suite_rustc::suites(kernel.suite) {
                if !suites.contains(&(suite.clone(), kernel.archive)) {
                    suites.push((suite, kernel.archive));
                }
            }
        }
        for (suite, archive) in suites {
            let apt = Apt::at(dir, &suite, archive, "amd64");
            let found = (|| -> Result<Vec<Resolved>> {
                if !apt.root.join("updated").exists() {
                    apt.update()?;
                }
                if apt.show_listed(&["rustc".to_string()])?.is_empty() {
                    return Ok(Vec::new());
                }
                suite_rustc::packages(|level| apt.show_listed(level))?
                    .iter()
                    .map(|stanza| {
                        let package = stanza.get("Package").cloned().unwrap_or_default();
                        resolve_from(&apt, &package, stanza)
                    })
                    .collect()
            })();
            match found {
                Ok(found) => {
                    let found: Vec<Resolved> = found
                        .into_iter()
                        .filter(|p| !resolved.iter().any(|r| r.url == p.url))
                        .collect();
                    let count = found.len();
                    let bytes: u64 = found.iter().map(|p| p.size).sum();
                    let served = all_served(
                        found
                            .iter()
                            .map(|p| (p.url.clone(), p.size, describe(p)))
                            .collect(),
                    );
                    if count > 0 && served.is_empty() {
                        crate::note!(
                            "    Debian {suite}'s rustc, rust-src and their libraries (a stock kernel's rustc, if its own): {count} packages, {} MB, served",
                            bytes >> 20
                        );
                    }
                    failures.extend(served);
                    resolved.extend(found);
                }
                Err(e) => failures.push(format!(
                    "Debian {suite}'s own rustc ({}): {e}",
                    archive.url()
                )),
            }
        }
    }
    // The Debian root file system of the DKMS check (`distro::rootfs`): what `debootstrap
    // --variant=minbase` installs (the suite's required packages and apt), then its packages
    // and both kernels' headers, installed there with apt from the suite and its backports;
    // every package of that closure, as apt resolves it on an empty system.
    if let Some((first, second)) = rootfs::dkms_kernels(kernels) {
        let base = rootfs::base_suite(&first);
        let mut suites = vec![base];
        if first.suite != base {
            suites.push(first.suite);
        }
        let found = (|| -> Result<Vec<(String, u64, String)>> {
            let x86 = crate::model::arch::x86_64();
            let mut headers = Vec::new();
            for kernel in [&first, &second] {
                let apt = Apt::at(dir, kernel.suite, kernel.archive, "amd64");
                if !apt.root.join("updated").exists() {
                    apt.update()?;
                }
                let flavour = crate::kernel::distro::flavour(kernel, &x86)
                    .ok_or_else(|| anyhow::anyhow!("{} has no amd64 flavour", kernel.name))?;
                headers.push(format!(
                    "linux-headers-{}",
                    newest_release(kernel, &flavour, &apt)?
                ));
            }
            let apt = Apt::with_suites(dir, &suites, first.archive, "amd64");
            if !apt.root.join("updated").exists() {
                apt.update()?;
            }
            let mut install: Vec<&str> = vec!["?priority(required)", "apt"];
            install.extend(rootfs::DKMS_PACKAGES);
            install.extend(headers.iter().map(String::as_str));
            let uris = apt.install_uris(&install)?;
            Ok(uris
                .into_iter()
                .map(|(url, size)| {
                    let what = format!(
                        "{} (Debian {}, the DKMS check's root)",
                        url.rsplit('/').next().unwrap_or(&url),
                        suites.join(" + ")
                    );
                    (url, size, what)
                })
                .collect())
        })();
        match found {
            Ok(found) => {
                let count = found.len();
                let bytes: u64 = found.iter().map(|(_, size, _)| size).sum();
                let served = all_served(found);
                if served.is_empty() {
                    crate::note!(
                        "    the DKMS check's Debian {} root (debootstrap --variant=minbase, {}, both kernels' headers): {count} packages, {} MB, served",
                        suites.join(" + "),
                        rootfs::DKMS_PACKAGES.join(" "),
                        bytes >> 20
                    );
                }
                resolved_count += count;
                failures.extend(served);
            }
            Err(e) => failures.push(format!(
                "the Debian {base} root file system of the DKMS check ({}): {e}",
                first.archive.url()
            )),
        }
    }
    if !failures.is_empty() {
        anyhow::bail!(
            "{} of the matrix's packages cannot be fetched:\n  {}",
            failures.len(),
            failures.join("\n  ")
        );
    }
    progress::done(
        &format!(
            "{} packages resolved and served",
            resolved.len() + resolved_count
        ),
        start,
    );
    Ok(resolved)
}

/// [`check`] on every kernel of the matrix, in a temporary directory.
pub fn check_all() -> Result<Vec<Resolved>> {
    let dir = tempfile::Builder::new()
        .prefix("kernel-core-fetch-check-")
        .tempdir()
        .map_err(|e| anyhow::anyhow!("a temporary directory for the fetch check: {e}"))?;
    check(KERNELS, dir.path())
}
