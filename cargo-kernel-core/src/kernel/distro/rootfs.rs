// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A Debian root file system, made with `debootstrap` and kept in the cache, in which packages
//! are installed with apt and commands run as on a user's Debian machine: where a DKMS package
//! is proven (its build by DKMS, against Debian's own headers, with Debian's own rustc).
//!
//! The base ([`Rootfs::ensure`]): `debootstrap --variant=minbase` of the suite, apt's sources
//! (the suite, and its backports at apt's default low priority for backports), then the
//! packages asked for, installed with `apt-get install`. It is kept in
//! `<cache>/rootfs/<suite>-<arch>-<key>/` under a key of everything that makes it: the
//! mirror, debootstrap's version, the suites and each package's version in the suite's signed
//! index (looked up through the private apt of [`crate::kernel::apt`]), so a new upload makes
//! a new base and the old one is removed. It is built aside and renamed into place under a
//! lock, so a killed build leaves nothing that is used.
//!
//! A [`Session`] runs commands in the base without changing it: each in a mount namespace of
//! its own (`unshare --mount --pid --fork`), where the base is the lower layer of an overlay
//! whose upper layer is the session's, `/proc` is mounted, apt's download cache is the cache's
//! (`<cache>/rootfs/archives-<suite>-<arch>/`, so packages are fetched once) and a directory of
//! the host is `/kernel-core`; then `chroot`. The mounts end with the namespace, however the
//! run ends, and the namespace's processes with its first. Everything needs root.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::hash::{fnv, FNV_START};
use crate::infra::lock::Lock;
use crate::infra::process::{self, NoMonitor};
use crate::infra::{cache, command, files, progress};
use crate::kernel::apt::Apt;
use crate::kernel::setup;
use crate::model::arch::{Archive, Kernel};
use anyhow::bail;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// What a root file system is made of.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The suite `debootstrap` makes (`trixie`), its Debian architecture, and the archive that
    /// serves it.
    pub suite: &'static str,
    pub arch: &'static str,
    pub archive: Archive,
    /// The suite's backports (`trixie-backports`), added to apt's sources if any.
    pub backports: Option<&'static str>,
    /// The packages installed into the base, each with the suite whose index names it.
    pub packages: Vec<(&'static str, String)>,
}

/// The packages of the root file system in which DKMS packages are proven, from its suite:
/// DKMS, the suite's rustc and bindgen (the kernel's own, for a stock kernel of the suite or
/// of its backports), and openssl, with which DKMS makes its signing key (MOK).
pub const DKMS_PACKAGES: &[&str] = &["dkms", "rustc", "bindgen", "openssl"];

/// The suite a stock kernel's root file system is made of: its row's suite, or the suite
/// that the row's backports extend (`trixie` for `trixie-backports`).
pub fn base_suite(kernel: &Kernel) -> &'static str {
    kernel.suite.trim_end_matches("-backports")
}

/// The two stock kernels in which DKMS packages are proven on amd64, from the rows
/// `kernels`: the first stock row of the required matrix on x86_64 with the standard flavour
/// (the kernel a user runs: trixie-backports' 7.3.4), and another flavour of the same series
/// from the same suite (its `rt-amd64`: the kernel the user upgrades to, since no second 7.x
/// release with Rust is served there).
pub fn dkms_kernels(kernels: &[Kernel]) -> Option<(Kernel, Kernel)> {
    let x86 = crate::model::arch::x86_64();
    let stock = |k: &&Kernel| k.stock.is_some() && k.requires(&x86);
    let first = kernels
        .iter()
        .filter(stock)
        .find(|k| k.stock.is_some_and(|s| s.flavour_prefix.is_empty()))?;
    let series = first.stock.map(|s| s.series);
    let second = kernels
        .iter()
        .filter(stock)
        .find(|k| *k != first && k.suite == first.suite && k.stock.map(|s| s.series) == series)?;
    Some((*first, *second))
}

/// The root file system for DKMS packages of the stock kernel `kernel` on amd64: its base
/// suite with [`DKMS_PACKAGES`], and `linux-headers-<release>` from the row's suite.
pub fn dkms_spec(kernel: &Kernel, release: &str) -> Spec {
    let base = base_suite(kernel);
    let mut packages: Vec<(&'static str, String)> = DKMS_PACKAGES
        .iter()
        .map(|p| (base, p.to_string()))
        .collect();
    packages.push((kernel.suite, format!("linux-headers-{release}")));
    Spec {
        suite: base,
        arch: "amd64",
        archive: kernel.archive,
        backports: (base != kernel.suite).then_some(kernel.suite),
        packages,
    }
}

/// The marker of a finished base: its making's seconds and the packages' versions.
const BUILT: &str = "kernel-core-rootfs";

/// The wrapper that runs a command in the root file system: in a mount namespace of its own,
/// the overlay (when `lower` is given) and the mounts, then `chroot`. Paths are its arguments,
/// never part of its text.
const ENTER: &str = r#"set -e
root=$1 lower=$2 upper=$3 work=$4 archives=$5 share=$6
shift 6
if [ -n "$lower" ]; then
    mount -t overlay overlay -o "lowerdir=$lower,upperdir=$upper,workdir=$work" "$root"
fi
mount -t proc proc "$root/proc"
mount --bind "$archives" "$root/var/cache/apt/archives"
mount --bind "$share" "$root/kernel-core"
mount --bind /etc/resolv.conf "$root/etc/resolv.conf"
exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
"#;

/// apt's configuration in the base: no recommended packages, no translations, no service
/// started by a package's scripts, dpkg without fsync.
const APT_CONF: &str = "// Written by cargo kernel-core: a root file system for checks.\n\
                        APT::Install-Recommends \"false\";\nAcquire::Languages \"none\";\n";

/// A base, made and cached.
#[derive(Clone, Debug)]
pub struct Rootfs {
    /// The base's directory, and the spec it was made from.
    pub dir: PathBuf,
    pub spec: Spec,
    /// apt's download cache for its suite.
    archives: PathBuf,
    /// How long making it took, when this call made it (`None`: it was cached): debootstrap,
    /// then apt.
    pub made: Option<(Duration, Duration)>,
}

/// Fails unless this process can make and enter root file systems: root, and `debootstrap`
/// and `unshare` installed (installed if this run may install packages).
pub fn ensure_tools() -> Result {
    if !rustix::process::geteuid().is_root() {
        bail!(
            "a Debian root file system needs root (debootstrap, mounts, chroot): run this as root"
        );
    }
    setup::ensure_packages(
        &["debootstrap", "util-linux", "debian-archive-keyring"],
        &[],
    )
}

/// Fails if `path` cannot be an overlay's layer: overlayfs's options separate with `,` and `:`.
fn check_layer(path: &Path) -> Result {
    let text = path.display().to_string();
    if let Some(c) = text.chars().find(|c| matches!(c, ',' | ':' | '\n')) {
        bail!(
            "{text} holds {c:?}, which an overlay mount's options cannot take: set KERNEL_CORE_CACHE (and the run's directory) to paths without it"
        );
    }
    Ok(())
}

impl Rootfs {
    /// The base of `spec`, made if the cache has none of its key.
    pub fn ensure(spec: &Spec) -> Result<Rootfs> {
        ensure_tools()?;
        let url = spec.archive.url();
        let debootstrap =
            command::output(Command::new("debootstrap").arg("--version")).unwrap_or_default();
        let mut key = fnv(url.as_bytes(), FNV_START);
        key = fnv(debootstrap.trim().as_bytes(), key);
        key = fnv(spec.backports.unwrap_or_default().as_bytes(), key);
        let mut versions = Vec::new();
        for (suite, package) in &spec.packages {
            let apt = Apt::new(suite, spec.archive, spec.arch);
            let stanza = apt.show(package)?.ok_or_else(|| {
                anyhow::anyhow!("Debian {suite} ({}) has no {package}", spec.arch)
            })?;
            let version = stanza.get("Version").cloned().unwrap_or_default();
            key = fnv(format!("{suite} {package} {version}").as_bytes(), key);
            versions.push(format!("{package} {version} ({suite})"));
        }
        let root = cache::dir().join("rootfs");
        let name = format!("{}-{}", spec.suite, spec.arch);
        let dir = root.join(format!("{name}-{key:016x}"));
        let archives = root.join(format!("archives-{name}"));
        for path in [&dir, &archives] {
            check_layer(path)?;
        }
        fs::create_dir_all(archives.join("partial")).at(&archives)?;
        let mut rootfs = Rootfs {
            dir: dir.clone(),
            spec: spec.clone(),
            archives,
            made: None,
        };
        if dir.join(BUILT).exists() {
            crate::note!(
                "    Debian {} root file system: cached in {}",
                spec.suite,
                dir.display()
            );
            return Ok(rootfs);
        }
        let _lock = Lock::exclusive(
            &root.join(format!("{name}.lock")),
            "a Debian root file system",
        )?;
        if dir.join(BUILT).exists() {
            return Ok(rootfs);
        }
        // Older bases of this suite (another key) and what killed makings left.
        for entry in fs::read_dir(&root).at(&root)?.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let ours =
                file.starts_with(&format!("{name}-")) || file.starts_with(&format!(".{name}-"));
            if ours && entry.path().is_dir() && entry.path() != dir {
                crate::note!(
                    "    removing {}: made of other packages",
                    entry.path().display()
                );
                fs::remove_dir_all(entry.path()).at(entry.path())?;
            }
        }
        setup::ensure_space(&root, 3 << 30, "a Debian root file system")?;
        let made = files::create_dir_atomic(&dir, |aside| rootfs.make(aside, &url, &versions))?;
        rootfs.dir = made;
        Ok(rootfs)
    }

    /// Makes the base in `aside`: debootstrap, apt's configuration, the packages.
    fn make(&mut self, aside: &Path, url: &str, versions: &[String]) -> Result {
        let spec = &self.spec;
        let start = progress::step(&format!(
            "debootstrap --variant=minbase {} ({}) from {url} into {} (about a minute and a half)",
            spec.suite,
            spec.arch,
            aside.display()
        ));
        // The logs of a making, beside the bases (the last making's of each name).
        let log_of = |what: &str| {
            let name = aside.file_name().unwrap_or_default().to_string_lossy();
            let base = name
                .trim_start_matches('.')
                .split('.')
                .next()
                .unwrap_or_default()
                .to_string();
            aside.with_file_name(format!("{base}.{what}.log"))
        };
        let log = log_of("debootstrap");
        let mut debootstrap = Command::new("debootstrap");
        debootstrap
            .args(["--variant=minbase", &format!("--arch={}", spec.arch)])
            .arg(format!("--keyring={}", crate::kernel::apt::KEYRING))
            .arg(spec.suite)
            .arg(aside)
            .arg(url);
        process::run_logged(
            &mut debootstrap,
            &log,
            "debootstrap",
            Duration::from_secs(20),
            Duration::from_secs(20 * 60),
            &mut NoMonitor,
        )?
        .succeeded("debootstrap", &log)?;
        let debootstrapped = start.elapsed();
        progress::done("debootstrap finished", start);

        let etc = aside.join("etc");
        files::write_atomic(
            &etc.join("apt/sources.list.d/debian.sources"),
            format!(
                "# Written by cargo kernel-core.\nTypes: deb\nURIs: {url}\nSuites: {} {}\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n",
                spec.suite,
                spec.backports.unwrap_or_default()
            ),
            Some(0o644),
        )?;
        let _ = fs::remove_file(etc.join("apt/sources.list"));
        files::write_atomic(
            &etc.join("apt/apt.conf.d/90kernel-core"),
            APT_CONF,
            Some(0o644),
        )?;
        files::write_atomic(
            &etc.join("dpkg/dpkg.cfg.d/kernel-core"),
            "# Written by cargo kernel-core: a root file system for checks.\nforce-unsafe-io\n",
            Some(0o644),
        )?;
        files::write_atomic(
            &aside.join("usr/sbin/policy-rc.d"),
            "#!/bin/sh\n# Written by cargo kernel-core: packages start no service here.\nexit 101\n",
            Some(0o755),
        )?;
        files::write_atomic(&etc.join("resolv.conf"), "", Some(0o644))?;
        fs::create_dir_all(aside.join("kernel-core")).at(aside)?;

        let apt_start = progress::step(&format!(
            "installing {} with apt in the {} root",
            spec.packages
                .iter()
                .map(|(_, p)| p.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            spec.suite
        ));
        let share = files::scratch_dir("kernel-core-rootfs-")?;
        let enter = |args: &[&str], what: &str| -> Result {
            let log = log_of(&what.replace(' ', "-"));
            let mut cmd = self.enter(aside, None, share.path(), args);
            process::run_logged(
                &mut cmd,
                &log,
                what,
                Duration::from_secs(20),
                Duration::from_secs(20 * 60),
                &mut NoMonitor,
            )?
            .succeeded(what, &log)
        };
        enter(&["apt-get", "-q", "update"], "apt-get update")?;
        let mut install = vec!["apt-get", "-q", "-y", "install"];
        install.extend(spec.packages.iter().map(|(_, p)| p.as_str()));
        enter(&install, "apt-get install")?;
        let installed = apt_start.elapsed();
        progress::done("packages installed", apt_start);
        fs::write(
            aside.join(BUILT),
            format!(
                "debootstrap {:.1}\napt {:.1}\n{}\n",
                debootstrapped.as_secs_f64(),
                installed.as_secs_f64(),
                versions.join("\n")
            ),
        )
        .at(aside.join(BUILT))?;
        self.made = Some((debootstrapped, installed));
        Ok(())
    }

    /// The command that runs `args` in `root` (the base itself, or with `layers`, an overlay
    /// of the base: `(upper, work)`), with `share` as `/kernel-core`.
    fn enter(
        &self,
        root: &Path,
        layers: Option<(&Path, &Path)>,
        share: &Path,
        args: &[&str],
    ) -> Command {
        let mut cmd = Command::new("unshare");
        cmd.args([
            "--mount",
            "--propagation",
            "private",
            "--pid",
            "--fork",
            "--kill-child",
            "sh",
            "-c",
            ENTER,
            "sh",
        ])
        .arg(root);
        match layers {
            Some((upper, work)) => cmd.arg(&self.dir).arg(upper).arg(work),
            None => cmd.args(["", "", ""]),
        };
        cmd.arg(&self.archives).arg(share).args(args);
        cmd
    }

    /// The versions and times its marker records.
    pub fn record(&self) -> String {
        fs::read_to_string(self.dir.join(BUILT)).unwrap_or_default()
    }
}

/// A session in a base: commands run in an overlay of it, whose changes are the session's
/// (`<dir>/upper`), with `<dir>/share` as `/kernel-core`; the base never changes.
pub struct Session {
    rootfs: Rootfs,
    dir: PathBuf,
    /// The host's side of `/kernel-core`.
    pub share: PathBuf,
    count: usize,
}

/// What a command of a session did.
#[derive(Debug)]
pub struct Ran {
    /// Whether it exited successfully, and how long it took.
    pub success: bool,
    pub seconds: f64,
    /// Its output, and the log that holds it.
    pub output: String,
    pub log: PathBuf,
}

impl Session {
    /// A new session of `rootfs` in `dir` (emptied first).
    pub fn new(rootfs: &Rootfs, dir: &Path) -> Result<Session> {
        check_layer(dir)?;
        if dir.exists() {
            fs::remove_dir_all(dir).at(dir)?;
        }
        for sub in ["upper", "work", "merged", "share", "logs"] {
            fs::create_dir_all(dir.join(sub)).at(dir.join(sub))?;
        }
        Ok(Session {
            rootfs: rootfs.clone(),
            dir: dir.to_path_buf(),
            share: dir.join("share"),
            count: 0,
        })
    }

    /// The session of `rootfs` in `dir` as an earlier run left it, its changes kept (for a
    /// look at a failure by hand).
    pub fn resume(rootfs: &Rootfs, dir: &Path) -> Session {
        let count = fs::read_dir(dir.join("logs")).map_or(0, |logs| logs.count());
        Session {
            rootfs: rootfs.clone(),
            dir: dir.to_path_buf(),
            share: dir.join("share"),
            count,
        }
    }

    /// Runs `args` in the session (`what` it does, for its log's name and progress lines),
    /// for at most `timeout`; its output is logged whether it succeeds or not.
    pub fn run(&mut self, what: &str, args: &[&str], timeout: Duration) -> Result<Ran> {
        self.count += 1;
        let log = self.dir.join("logs").join(format!(
            "{:02}-{}.log",
            self.count,
            what.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect::<String>()
        ));
        let (upper, work) = (self.dir.join("upper"), self.dir.join("work"));
        let mut cmd = self.rootfs.enter(
            &self.dir.join("merged"),
            Some((&upper, &work)),
            &self.share,
            args,
        );
        crate::note!("    # {}", args.join(" "));
        let start = Instant::now();
        let logged = process::run_logged(
            &mut cmd,
            &log,
            what,
            Duration::from_secs(15),
            timeout,
            &mut NoMonitor,
        )?;
        let seconds = start.elapsed().as_secs_f64();
        let output = fs::read_to_string(&log).at(&log)?;
        if let process::Ending::TimedOut = logged.ending {
            bail!(
                "{what} took more than {}s in the {} root (log: {})",
                timeout.as_secs(),
                self.rootfs.spec.suite,
                log.display()
            );
        }
        Ok(Ran {
            success: logged.success(),
            seconds,
            output,
            log,
        })
    }

    /// [`Self::run`], which must succeed: else the error names the log and shows its end.
    pub fn must(&mut self, what: &str, args: &[&str], timeout: Duration) -> Result<Ran> {
        let ran = self.run(what, args, timeout)?;
        if !ran.success {
            let tail: Vec<&str> = ran.output.lines().rev().take(25).collect();
            bail!(
                "{what} failed in the {} root (log: {}):\n    | {}",
                self.rootfs.spec.suite,
                ran.log.display(),
                tail.into_iter().rev().collect::<Vec<_>>().join("\n    | ")
            );
        }
        Ok(ran)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backports_kernel_s_root_is_its_base_suite_with_backports() {
        let kernel = crate::model::arch::kernel("debian-7.3").unwrap();
        let spec = dkms_spec(&kernel, "7.3.4+deb13-amd64");
        assert_eq!(
            (spec.suite, spec.backports),
            ("trixie", Some("trixie-backports"))
        );
        assert_eq!(
            spec.packages.last().unwrap(),
            &(
                "trixie-backports",
                "linux-headers-7.3.4+deb13-amd64".to_string()
            )
        );
        assert!(spec.packages.contains(&("trixie", "rustc".to_string())));
        let forky = crate::model::arch::kernel("debian-7.2").unwrap();
        let spec = dkms_spec(&forky, "7.2.12+deb14-amd64");
        assert_eq!((spec.suite, spec.backports), ("forky", None));
    }

    #[test]
    fn dkms_packages_are_proven_on_a_stock_kernel_and_its_other_flavour() {
        let (first, second) = dkms_kernels(crate::model::arch::KERNELS).unwrap();
        assert_eq!((first.name, second.name), ("debian-7.3", "debian-7.3-rt"));
    }

    #[test]
    fn an_overlay_layer_cannot_hold_its_separators() {
        check_layer(Path::new("/root/.cache/kernel-core/rootfs/trixie")).unwrap();
        let e = check_layer(Path::new("/tmp/a,b")).unwrap_err().to_string();
        assert!(e.contains("','"), "{e}");
    }
}
