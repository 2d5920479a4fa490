// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Debian packages fetched through a private apt configuration under the cache, never the
//! system's: no file under `/etc/apt` is written and no root is needed.
//!
//! Each suite and architecture gets its own apt root, `<cache>/apt/<suite>-<arch>/`, with a
//! sources file naming only that suite (signed by Debian's archive keyring, which apt checks
//! against the `InRelease` file), its own package lists and its own download cache. apt-get is
//! pointed at it with `-o Dir::...` options, so the system's sources, pins and package state
//! play no part. Every `.deb` is checked against the SHA256 of the signed `Packages` index
//! before it is used, also when it is already in the cache: a truncated or replaced file is
//! fetched again, never unpacked.

use crate::infra::cache;
use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::hash::sha256;
use crate::infra::lock::Lock;
use crate::infra::{command, progress};
use crate::model::arch::Archive;
use anyhow::bail;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[cfg(test)]
pub(crate) mod fixture;

/// The keyring that signs the archive (package `debian-archive-keyring`).
pub const KEYRING: &str = "/usr/share/keyrings/debian-archive-keyring.gpg";

/// How old the package lists may get before [`Apt::show`] refreshes them.
const REFRESH: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

/// One package stanza of a `Packages` index (or of `apt-cache show`): field → value, with
/// continuation lines joined by `\n`.
pub type Stanza = BTreeMap<String, String>;

/// What [`Apt::show`] found in each private apt root's lists (by root and package), while
/// those lists are the same.
type Shown = Vec<((PathBuf, String), Option<Stanza>)>;
static SHOWN: std::sync::Mutex<Shown> = std::sync::Mutex::new(Vec::new());

/// Parses the stanzas of a `Packages` index (deb822: `Field: value`, continuation lines that
/// start with a space, stanzas separated by blank lines).
pub fn parse_stanzas(text: &str) -> Vec<Stanza> {
    let mut stanzas = Vec::new();
    let mut current = Stanza::new();
    let mut last: Option<String> = None;
    for line in text.lines() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                stanzas.push(std::mem::take(&mut current));
            }
            last = None;
        } else if line.starts_with(' ') || line.starts_with('\t') {
            if let Some(field) = &last {
                let value = current.entry(field.clone()).or_default();
                value.push('\n');
                value.push_str(line.trim());
            }
        } else if let Some((field, value)) = line.split_once(':') {
            current.insert(field.to_string(), value.trim().to_string());
            last = Some(field.to_string());
        }
    }
    if !current.is_empty() {
        stanzas.push(current);
    }
    stanzas
}

/// The package names of a `Depends:` field, without versions and alternatives after the first.
pub fn depends(field: &str) -> Vec<String> {
    field
        .split(',')
        .filter_map(|dep| {
            let first = dep.split('|').next()?.trim();
            let name = first.split([' ', '(', ':']).next()?.trim();
            (!name.is_empty()).then(|| name.to_string())
        })
        .collect()
}

/// A private apt configuration for one suite and one Debian architecture.
pub struct Apt {
    /// `<cache>/apt/<suite>-<arch>`.
    pub root: PathBuf,
    pub suite: String,
    /// The archive that serves the suite (and the variable that overrides its URL).
    pub archive: Archive,
    /// Debian's name of the architecture: `amd64`, `arm64`.
    pub arch: String,
    /// The URL apt fetches the suite from: the archive's ([`Archive::url`], which the
    /// override variable changes), or a local one of the tests.
    pub url: String,
    /// The keyring whose keys must sign the suite's `InRelease`: Debian's ([`KEYRING`]), or
    /// a test's throwaway one.
    pub keyring: PathBuf,
}

impl Apt {
    /// The private apt of `suite` (served by `archive`) for `arch`, in the cache.
    pub fn new(suite: &str, archive: Archive, arch: &str) -> Self {
        Self::at(&cache::dir().join("apt"), suite, archive, arch)
    }

    /// The same under another directory (tests).
    pub fn at(dir: &Path, suite: &str, archive: Archive, arch: &str) -> Self {
        Self::serving(
            dir,
            suite,
            archive,
            arch,
            &archive.url(),
            Path::new(KEYRING),
        )
    }

    /// The private apt of several suites of one archive together (`trixie` and
    /// `trixie-backports`, as a Debian system's sources list them), under `dir`: apt chooses
    /// between their packages as that system's apt does (backports at their low priority).
    pub fn with_suites(dir: &Path, suites: &[&str], archive: Archive, arch: &str) -> Self {
        let mut apt = Self::at(dir, &suites.join(" "), archive, arch);
        apt.root = dir.join(format!("{}-{arch}", suites.join("+")));
        apt
    }

    /// The same, fetching the suite from `url` and checking it with `keyring` (tests: a local
    /// `file://` archive signed with a throwaway key). Failures still name `archive`'s
    /// override variable, as they would for the real archive.
    pub(crate) fn serving(
        dir: &Path,
        suite: &str,
        archive: Archive,
        arch: &str,
        url: &str,
        keyring: &Path,
    ) -> Self {
        Self {
            root: dir.join(format!("{suite}-{arch}")),
            suite: suite.to_string(),
            archive,
            arch: arch.to_string(),
            url: url.to_string(),
            keyring: keyring.to_path_buf(),
        }
    }

    /// The sources file: this suite only, from its archive, checked with Debian's keyring.
    pub fn sources(&self) -> String {
        format!(
            "# Written by cargo kernel-core: its private apt configuration (the system's is not used).\n\
             Types: deb\nURIs: {}\nSuites: {}\nComponents: main\nArchitectures: {}\nSigned-By: {}\n",
            self.url,
            self.suite,
            self.arch,
            self.keyring.display()
        )
    }

    /// What a failed fetch says of where it fetched from, and how to fetch from elsewhere.
    fn where_from(&self) -> String {
        format!(
            "Debian {} from {} (set {} to use a mirror or a proxy)",
            self.suite,
            self.url,
            self.archive.override_var()
        )
    }

    /// `program` (`apt-get`, `apt-cache`) with every directory pointed into the private root.
    fn command(&self, program: &str) -> Command {
        let r = |p: &str| self.root.join(p).display().to_string();
        let mut cmd = Command::new(program);
        for (option, value) in [
            ("Dir::Etc::SourceList", "/dev/null".to_string()),
            ("Dir::Etc::SourceParts", r("sources.list.d")),
            ("Dir::Etc::Preferences", "/dev/null".to_string()),
            ("Dir::Etc::PreferencesParts", r("preferences.d")),
            ("Dir::State::Lists", r("lists")),
            ("Dir::State::status", r("status")),
            ("Dir::Cache", r("cache")),
            ("APT::Architecture", self.arch.clone()),
            ("APT::Architectures", self.arch.clone()),
            ("Acquire::Languages", "none".to_string()),
            // Only the Packages indexes: no AppStream metadata, no translations.
            (
                "Acquire::IndexTargets::deb::DEP-11::DefaultEnabled",
                "false".to_string(),
            ),
            (
                "Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled",
                "false".to_string(),
            ),
            (
                "Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled",
                "false".to_string(),
            ),
            (
                "Acquire::IndexTargets::deb::CNF::DefaultEnabled",
                "false".to_string(),
            ),
        ] {
            cmd.arg("-o").arg(format!("{option}={value}"));
        }
        cmd.arg("-q");
        cmd
    }

    /// Writes the configuration files if they are missing or differ.
    fn configure(&self) -> Result {
        for dir in [
            "sources.list.d",
            "preferences.d",
            "lists/partial",
            "cache/archives/partial",
        ] {
            let dir = self.root.join(dir);
            fs::create_dir_all(&dir).at(&dir)?;
        }
        crate::infra::files::write_if_changed(
            &self.root.join("sources.list.d/debian.sources"),
            self.sources(),
        )?;
        let status = self.root.join("status");
        if !status.exists() {
            fs::write(&status, "").at(&status)?;
        }
        if !self.keyring.exists() {
            if self.keyring == Path::new(KEYRING) {
                bail!("{KEYRING} is missing: install debian-archive-keyring (it checks the packages' signatures)");
            }
            bail!(
                "{} is missing: it checks the signatures of {}",
                self.keyring.display(),
                self.where_from()
            );
        }
        Ok(())
    }

    /// Whether the package lists were fetched.
    fn has_lists(&self) -> bool {
        fs::read_dir(self.root.join("lists")).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().contains("_Packages"))
        })
    }

    /// How old the lists are: since the last successful update, or the last refresh that
    /// failed (the `updated` stamp; a failed refresh is tried again a day later).
    fn lists_age(&self) -> Option<std::time::Duration> {
        fs::metadata(self.root.join("updated"))
            .ok()?
            .modified()
            .ok()?
            .elapsed()
            .ok()
    }

    /// `apt-get update` in the private root: fetches and checks the suite's signed index. Any
    /// index that could not be fetched fails it (by default apt only warns of an unreachable
    /// archive and goes on with no lists, and the suite would then seem to lack the package).
    pub fn update(&self) -> Result {
        if let Ok(mut shown) = SHOWN.lock() {
            shown.retain(|((root, _), _)| *root != self.root);
        }
        self.configure()?;
        let start = progress::step(&format!(
            "fetching the package index of Debian {} ({}) into {}",
            self.suite,
            self.arch,
            self.root.display()
        ));
        let mut cmd = self.command("apt-get");
        // apt >= 2.1.16 (`--error-on=any`); an older apt ignores the option.
        cmd.args(["-o", "APT::Update::Error-Mode=any", "update"]);
        let out = cmd.output().doing("running apt-get update")?;
        if !out.status.success() {
            bail!(
                "`apt-get update` failed for {} (check the network and {}):\n{}",
                self.where_from(),
                self.keyring.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        let stamp = self.root.join("updated");
        fs::write(&stamp, "").at(&stamp)?;
        progress::done("package index fetched", start);
        Ok(())
    }

    /// The newest stanza of `package` in the suite, updating the lists first if there are none
    /// or if the package is not in them (a new upload); `None` if the suite has no such
    /// package.
    pub fn show(&self, package: &str) -> Result<Option<Stanza>> {
        let _lock = Lock::exclusive(&self.root.join(".lock"), "a private apt root")?;
        if !self.has_lists() {
            self.update()?;
        } else if self.lists_age().is_some_and(|age| age > REFRESH) {
            // A day old: a new upload may have replaced the suite's kernel. Offline, the lists
            // as they are will do.
            if let Err(e) = self.update() {
                crate::note!(
                    "    could not refresh the package index ({e}); using the one from {}",
                    self.root.display()
                );
                // Tried again in a day, not on every look-up of this run.
                let stamp = self.root.join("updated");
                fs::write(&stamp, "").at(&stamp)?;
            }
        }
        if let Some(stanza) = self.show_cached(package)? {
            return Ok(Some(stanza));
        }
        self.update()?;
        self.show_cached(package)
    }

    /// The newest stanza of each of `packages` that the lists have, as they are (fetched by
    /// [`Self::update`]; never fetched again for a package they lack, as the fetch check's
    /// lists are fresh), asked of `apt-cache` at once.
    pub fn show_listed(&self, packages: &[String]) -> Result<Vec<Stanza>> {
        let _lock = Lock::exclusive(&self.root.join(".lock"), "a private apt root")?;
        let mut cmd = self.command("apt-cache");
        // apt's binary cache of the lists, kept in the root (a system's configuration may turn
        // it off, as Debian's container images do): built once (40 MB for trixie), it makes
        // each later call take 0.05 s instead of 1.2 s, and the fetch check walks dependencies
        // a level per call.
        cmd.arg("-o").arg(format!(
            "Dir::Cache::pkgcache={}",
            self.root.join("cache/pkgcache.bin").display()
        ));
        cmd.args(["show", "--no-all-versions"]).args(packages);
        // It fails if one of them is unknown, and still shows the others.
        let out = cmd.output().doing("running apt-cache show")?;
        Ok(parse_stanzas(&String::from_utf8_lossy(&out.stdout))
            .into_iter()
            .filter(|s| s.get("Package").is_some_and(|p| packages.contains(p)))
            .collect())
    }

    /// [`Self::show`] from the lists as they are: asked of `apt-cache` once per package, root
    /// and process (a run over many cells looks up the same packages in every cell), until
    /// [`Self::update`] fetches new lists.
    fn show_cached(&self, package: &str) -> Result<Option<Stanza>> {
        let key = (self.root.clone(), package.to_string());
        let known = SHOWN.lock().ok().and_then(|shown| {
            shown
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, stanza)| stanza.clone())
        });
        if let Some(stanza) = known {
            return Ok(stanza);
        }
        let mut cmd = self.command("apt-cache");
        cmd.args(["show", "--no-all-versions", package]);
        let out = cmd.output().doing("running apt-cache show")?;
        let stanza = if out.status.success() {
            parse_stanzas(&String::from_utf8_lossy(&out.stdout))
                .into_iter()
                .find(|s| s.get("Package").is_some_and(|p| p == package))
        } else {
            None
        };
        if let Ok(mut shown) = SHOWN.lock() {
            shown.push((key, stanza.clone()));
        }
        Ok(stanza)
    }

    /// What `apt-get install` of `packages` (names, or apt's patterns such as
    /// `?priority(required)`) would download onto a system with nothing installed: every
    /// package of their dependency closure, as `(url, size)`, found in the lists as they are
    /// (nothing is downloaded). Fails with apt's message if they cannot be installed together.
    pub fn install_uris(&self, packages: &[&str]) -> Result<Vec<(String, u64)>> {
        self.configure()?;
        let mut cmd = self.command("apt-get");
        cmd.args([
            "-qq",
            "-y",
            "--no-install-recommends",
            "--print-uris",
            "install",
        ])
        .args(packages);
        let out = cmd.output().doing("running apt-get install --print-uris")?;
        if !out.status.success() {
            bail!(
                "`apt-get install {}` cannot be resolved in {}:\n{}",
                packages.join(" "),
                self.where_from(),
                String::from_utf8_lossy(&out.stdout).trim().to_string()
                    + String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(parse_uris(&String::from_utf8_lossy(&out.stdout)))
    }

    /// The `.deb` of `stanza` in `dir`, downloaded if it is not there; checked against the
    /// index's SHA256 in both cases (a cached file that does not match, one that was cut off,
    /// is fetched again). A download goes to a scratch directory and is renamed into place
    /// once checked; the scratch of a download that was killed is removed by the next one.
    pub fn fetch(&self, stanza: &Stanza, dir: &Path) -> Result<PathBuf> {
        let field = |name: &str| {
            stanza
                .get(name)
                .cloned()
                .ok_or_else(|| anyhow::anyhow!("the package index has no {name} for {stanza:?}"))
        };
        let (package, version, filename, expected) = (
            field("Package")?,
            field("Version")?,
            field("Filename")?,
            field("SHA256")?,
        );
        let name = filename.rsplit('/').next().unwrap_or(&filename).to_string();
        let deb = dir.join(&name);
        fs::create_dir_all(dir).at(dir)?;
        let _lock = Lock::exclusive(&dir.join(format!(".{package}.lock")), "a package download")?;
        if deb.exists() {
            if sha256(&deb)? == expected {
                return Ok(deb);
            }
            crate::note!(
                "    {} does not match the SHA256 of Debian's index: fetching it again",
                deb.display()
            );
            fs::remove_file(&deb).at(&deb)?;
        }
        // Downloaded aside (removed when dropped), checked, then renamed into place. The
        // package's name ends the prefix with `_`, which no package name holds: under the
        // package's lock, what has the prefix was left by a download that was killed.
        let prefix = format!(".partial-{package}_");
        remove_killed(dir, |name| name.starts_with(&prefix))?;
        let partial = tempfile::Builder::new()
            .prefix(&prefix)
            .tempdir_in(dir)
            .at(dir)?;
        let partial = partial.path();
        let start = progress::step(&format!(
            "fetching {package} {version} (Debian {})",
            self.suite
        ));
        let mut cmd = self.command("apt-get");
        cmd.arg("download")
            .arg(format!("{package}={version}"))
            .current_dir(partial);
        let out = cmd.output().doing("running apt-get download")?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mismatch = ["Hash Sum mismatch", "File has unexpected size"];
        if !out.status.success() && mismatch.iter().any(|m| stderr.contains(m)) {
            bail!(
                "{package} {version} from {}: the archive's file differs from the SHA256 of its signed index (a replaced or damaged file, or a mirror in the middle of a sync): refusing to use it, nothing was kept:\n{}",
                self.where_from(),
                stderr.trim()
            );
        }
        if !out.status.success() {
            bail!(
                "`apt-get download {package}={version}` failed for {} (check the network):\n{}",
                self.where_from(),
                stderr.trim()
            );
        }
        // apt names the file with an epoch-escaped version; take the one .deb it wrote.
        let got = fs::read_dir(partial)
            .at(partial)?
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "deb"))
            .ok_or_else(|| {
                anyhow::anyhow!("apt-get download left no .deb in {}", partial.display())
            })?;
        let actual = sha256(&got)?;
        if actual != expected {
            bail!("{package} {version}: SHA256 {actual} differs from Debian's index ({expected}): refusing to use it");
        }
        fs::rename(&got, &deb).at(&deb)?;
        progress::done(&format!("{}", deb.display()), start);
        Ok(deb)
    }
}

/// The `(url, size)` of each line of `apt-get --print-uris` (`'URL' file size [hash]`).
pub fn parse_uris(text: &str) -> Vec<(String, u64)> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix('\'')?;
            let (url, rest) = rest.split_once('\'')?;
            let mut fields = rest.split_whitespace();
            let _file = fields.next()?;
            let size = fields.next()?.parse().ok()?;
            Some((url.to_string(), size))
        })
        .collect()
}

/// Removes what in `dir` has a name that `left` says a killed run left there: the scratch
/// directories of runs that were killed (the caller holds the lock that makes them no one's).
pub(crate) fn remove_killed(dir: &Path, left: impl Fn(&str) -> bool) -> Result {
    for entry in fs::read_dir(dir).at(dir)?.flatten() {
        if left(&entry.file_name().to_string_lossy()) {
            let path = entry.path();
            if path.is_dir() {
                fs::remove_dir_all(&path).at(&path)?;
            } else {
                fs::remove_file(&path).at(&path)?;
            }
        }
    }
    Ok(())
}

/// Unpacks `deb` (already checked) into `dir` with `dpkg-deb -x`.
pub fn unpack(deb: &Path, dir: &Path) -> Result {
    fs::create_dir_all(dir).at(dir)?;
    command::run(
        Command::new("dpkg-deb").arg("-x").arg(deb).arg(dir),
        "is dpkg-deb installed and is there disk space?",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixture::{HELLO, HELLO_FILE, SUITE};
    use std::os::unix::fs::MetadataExt as _;

    const PACKAGES: &str = "\
Package: linux-headers-7.3.4+deb13-amd64
Source: linux (7.3.4-1~bpo13+1)
Version: 7.3.4-1~bpo13+1
Architecture: amd64
Depends: gcc-14-for-host, linux-base (>= 4.12~), linux-headers-7.3.4+deb13-common (= 7.3.4-1~bpo13+1), linux-kbuild-7.3.4+deb13
Description: Linux 7.3.4 for 64-bit PCs (module development)
 This package provides the architecture-specific kernel header files
 for Linux kernel 7.3.4+deb13-amd64.
Filename: pool/main/l/linux/linux-headers-7.3.4+deb13-amd64_7.3.4-1~bpo13+1_amd64.deb
Size: 1813392
SHA256: 1c43249a7b98aee4af60f2b822ddb04a9e96c1c9e8b013e5f74d3d9faf318699

Package: linux-headers-amd64
Version: 7.3.4-1~bpo13+1
Depends: linux-headers-7.3.4+deb13-amd64 (= 7.3.4-1~bpo13+1) | linux-headers-x, foo:any
";

    #[test]
    fn reads_apt_s_uris() {
        let text = "'http://deb.debian.org/debian/pool/main/l/linux/linux-kbuild-7.3.4%2bdeb13_7.3.4-1%7ebpo13%2b1_amd64.deb' linux-kbuild-7.3.4+deb13_7.3.4-1~bpo13+1_amd64.deb 1444904 \n\
                    'http://deb.debian.org/debian/pool/main/r/rustc/rustc_1.85.1%2bdfsg1-1%2bdeb13u1_amd64.deb' rustc_1.85.1+dfsg1-1+deb13u1_amd64.deb 3855660 MD5Sum:d302da752f4a2810076ada289f2ec74d\n\
                    W: something else\n";
        assert_eq!(
            parse_uris(text),
            [
                ("http://deb.debian.org/debian/pool/main/l/linux/linux-kbuild-7.3.4%2bdeb13_7.3.4-1%7ebpo13%2b1_amd64.deb".to_string(), 1444904),
                ("http://deb.debian.org/debian/pool/main/r/rustc/rustc_1.85.1%2bdfsg1-1%2bdeb13u1_amd64.deb".to_string(), 3855660),
            ]
        );
        let apt = Apt::with_suites(
            Path::new("/c"),
            &["trixie", "trixie-backports"],
            Archive::Main,
            "amd64",
        );
        assert_eq!(apt.root, Path::new("/c/trixie+trixie-backports-amd64"));
        assert!(apt.sources().contains("Suites: trixie trixie-backports\n"));
    }

    #[test]
    fn reads_a_packages_index() {
        let stanzas = parse_stanzas(PACKAGES);
        assert_eq!(stanzas.len(), 2);
        let headers = &stanzas[0];
        assert_eq!(headers["Version"], "7.3.4-1~bpo13+1");
        assert_eq!(
            headers["SHA256"],
            "1c43249a7b98aee4af60f2b822ddb04a9e96c1c9e8b013e5f74d3d9faf318699"
        );
        assert!(headers["Description"].ends_with("\nfor Linux kernel 7.3.4+deb13-amd64."));
        assert_eq!(
            depends(&headers["Depends"]),
            [
                "gcc-14-for-host",
                "linux-base",
                "linux-headers-7.3.4+deb13-common",
                "linux-kbuild-7.3.4+deb13"
            ]
        );
        assert_eq!(
            depends(&stanzas[1]["Depends"]),
            ["linux-headers-7.3.4+deb13-amd64", "foo"]
        );
        assert!(parse_stanzas("\n\n").is_empty());
    }

    #[test]
    fn the_configuration_is_private() {
        let apt = Apt::at(
            Path::new("/c/apt"),
            "trixie-backports",
            Archive::Main,
            "amd64",
        );
        assert_eq!(apt.root, Path::new("/c/apt/trixie-backports-amd64"));
        assert!(apt.sources().contains("Suites: trixie-backports\n"));
        assert!(apt.sources().contains(&format!("Signed-By: {KEYRING}")));
        let cmd = apt.command("apt-get");
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert!(args.contains(&"Dir::Etc::SourceList=/dev/null".to_string()));
        assert!(args.contains(&"Dir::State::Lists=/c/apt/trixie-backports-amd64/lists".to_string()));
        assert!(
            args.iter()
                .all(|a| !a.contains("/etc/apt") && !a.contains("/var/lib")),
            "{args:?}"
        );
    }

    #[test]
    fn a_security_suite_is_fetched_from_the_security_archive() {
        let kernel = crate::model::arch::kernel("6.12").unwrap();
        let apt = Apt::at(Path::new("/c/apt"), kernel.suite, kernel.archive, "amd64");
        let sources = apt.sources();
        let url = Archive::Security.url();
        assert!(sources.contains(&format!("URIs: {url}\n")), "{sources}");
        assert!(sources.contains("Suites: bookworm-security\n"), "{sources}");
        if std::env::var_os(Archive::Security.override_var()).is_none() {
            assert!(sources.contains("URIs: http://deb.debian.org/debian-security\n"));
        }
        let said = apt.where_from();
        assert!(
            said.contains(&url) && said.contains("KERNEL_CORE_DEBIAN_SECURITY_MIRROR"),
            "{said}"
        );
    }

    #[test]
    fn a_cached_deb_that_does_not_match_is_never_used() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let file = dir.join("x.deb");
        fs::write(&file, "abc").unwrap();
        assert_eq!(
            sha256(&file).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        // An apt root whose lists cannot be fetched: the mismatching file is removed, and the
        // download fails instead of handing it back.
        let apt = Apt::at(&dir, "no-such-suite", Archive::Main, "amd64");
        let mut stanza = Stanza::new();
        for (k, v) in [
            ("Package", "x"),
            ("Version", "1"),
            ("Filename", "pool/x.deb"),
            ("SHA256", "00"),
        ] {
            stanza.insert(k.into(), v.into());
        }
        assert!(apt.fetch(&stanza, &dir).is_err());
        assert!(!file.exists(), "the mismatching .deb was removed");
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

    /// The file name of [`HELLO`]'s `.deb`, as apt downloads it.
    fn hello_deb() -> String {
        format!("{}_{}_amd64.deb", HELLO.0, HELLO.1)
    }

    #[test]
    fn a_package_is_fetched_from_a_signed_local_archive() {
        let archive = fixture::archive();
        let scratch = tempfile::tempdir().unwrap();
        let apt = archive.apt(&scratch.path().join("apt"));
        let sources = apt.sources();
        assert!(
            sources.contains(&format!("URIs: {}\n", archive.url())),
            "{sources}"
        );
        assert!(
            sources.contains(&format!("Signed-By: {}\n", archive.keyring().display())),
            "{sources}"
        );
        let stanza = apt.show(HELLO.0).unwrap().expect("the archive has it");
        assert_eq!(stanza["Version"], HELLO.1);
        let expected = sha256(&archive.pool_file(HELLO)).unwrap();
        assert_eq!(stanza["SHA256"], expected);

        let debs = scratch.path().join("debs");
        let deb = apt.fetch(&stanza, &debs).unwrap();
        assert_eq!(deb, debs.join(hello_deb()));
        assert_eq!(sha256(&deb).unwrap(), expected);
        assert_eq!(
            names(&debs),
            [".kernel-core-hello.lock".to_string(), hello_deb()],
            "nothing beside it"
        );
        // Cached: checked, and used as it is.
        let inode = fs::metadata(&deb).unwrap().ino();
        assert_eq!(apt.fetch(&stanza, &debs).unwrap(), deb);
        assert_eq!(
            fs::metadata(&deb).unwrap().ino(),
            inode,
            "not fetched again"
        );

        let tree = scratch.path().join("tree");
        unpack(&deb, &tree).unwrap();
        assert_eq!(
            fs::read_to_string(tree.join(HELLO_FILE.0)).unwrap(),
            HELLO_FILE.1
        );
        assert!(apt.show("no-such-package").unwrap().is_none());
    }

    #[test]
    fn an_archive_that_its_keyring_did_not_sign_is_refused() {
        let archive = fixture::archive();
        let scratch = tempfile::tempdir().unwrap();
        let keyring = scratch.path().join("other.gpg");
        fs::write(&keyring, "").unwrap();
        let apt = Apt::serving(
            &scratch.path().join("apt"),
            SUITE,
            Archive::Main,
            "amd64",
            &archive.url(),
            &keyring,
        );
        let e = format!("{:#}", apt.show(HELLO.0).unwrap_err());
        assert!(
            e.starts_with(&format!(
                "`apt-get update` failed for Debian {SUITE} from {} (set KERNEL_CORE_DEBIAN_MIRROR to use a mirror or a proxy) (check the network and {}):",
                archive.url(),
                keyring.display()
            )),
            "{e}"
        );
        assert!(!apt.has_lists(), "no unsigned list is kept");
        // Without its keyring at all, before apt runs.
        let missing = scratch.path().join("missing.gpg");
        let apt = Apt::serving(
            scratch.path(),
            SUITE,
            Archive::Main,
            "amd64",
            &archive.url(),
            &missing,
        );
        let e = apt.update().unwrap_err().to_string();
        assert!(
            e.starts_with(&format!(
                "{} is missing: it checks the signatures of Debian {SUITE}",
                missing.display()
            )),
            "{e}"
        );
    }

    #[test]
    fn a_cached_deb_that_was_cut_off_is_fetched_again() {
        let archive = fixture::archive();
        let scratch = tempfile::tempdir().unwrap();
        let apt = archive.apt(&scratch.path().join("apt"));
        let stanza = apt.show(HELLO.0).unwrap().unwrap();
        let whole = fs::read(archive.pool_file(HELLO)).unwrap();
        // A cached .deb cut off in the middle, and the scratch of a download that was killed
        // (another package's download, which may be running, is left alone).
        let debs = scratch.path().join("debs");
        let deb = debs.join(hello_deb());
        fs::create_dir_all(&debs).unwrap();
        fs::write(&deb, &whole[..whole.len() / 2]).unwrap();
        let killed = debs.join(format!(".partial-{}_AbC123", HELLO.0));
        fs::create_dir_all(&killed).unwrap();
        fs::write(killed.join(hello_deb()), &whole[..10]).unwrap();
        let running = debs.join(format!(".partial-{}-dbg_XyZ789", HELLO.0));
        fs::create_dir_all(&running).unwrap();

        assert_eq!(apt.fetch(&stanza, &debs).unwrap(), deb);
        assert_eq!(fs::read(&deb).unwrap(), whole, "fetched again, whole");
        assert_eq!(sha256(&deb).unwrap(), stanza["SHA256"]);
        assert!(!killed.exists(), "the killed download's scratch is removed");
        assert!(running.exists());
        let tree = scratch.path().join("tree");
        unpack(&deb, &tree).unwrap();
        assert_eq!(
            fs::read_to_string(tree.join(HELLO_FILE.0)).unwrap(),
            HELLO_FILE.1
        );
    }

    #[test]
    fn a_replaced_or_cut_off_file_in_the_archive_is_refused() {
        let archive = fixture::archive().copy();
        let pool = archive.pool_file(HELLO);
        let whole = fs::read(&pool).unwrap();
        let mut replaced = whole.clone();
        *replaced.last_mut().unwrap() ^= 1;
        // Replaced after the index was signed (the same size, another SHA256), then cut off.
        for bytes in [replaced, whole[..whole.len() / 2].to_vec()] {
            let scratch = tempfile::tempdir().unwrap();
            let apt = archive.apt(&scratch.path().join("apt"));
            fs::write(&pool, &whole).unwrap();
            let stanza = apt.show(HELLO.0).unwrap().unwrap();
            fs::write(&pool, &bytes).unwrap();
            let debs = scratch.path().join("debs");
            let e = format!("{:#}", apt.fetch(&stanza, &debs).unwrap_err());
            assert!(
                e.starts_with(&format!(
                    "{} {} from Debian {SUITE} from {} (set KERNEL_CORE_DEBIAN_MIRROR to use a mirror or a proxy): the archive's file differs from the SHA256 of its signed index",
                    HELLO.0,
                    HELLO.1,
                    archive.url()
                )),
                "{e}"
            );
            assert!(e.contains("refusing to use it, nothing was kept"), "{e}");
            assert_eq!(
                names(&debs),
                [".kernel-core-hello.lock"],
                "nothing was kept"
            );
        }
    }

    #[test]
    fn an_unreachable_archive_names_the_suite_the_url_and_the_variable() {
        let archive = fixture::archive();
        let scratch = tempfile::tempdir().unwrap();
        let empty = scratch.path().join("empty");
        fs::create_dir_all(&empty).unwrap();
        for (i, url) in [
            "file:///nonexistent".to_string(),
            format!("file://{}", empty.display()),
        ]
        .into_iter()
        .enumerate()
        {
            let apt = Apt::serving(
                &scratch.path().join(format!("apt-{i}")),
                SUITE,
                Archive::Main,
                "amd64",
                &url,
                &archive.keyring(),
            );
            let e = format!("{:#}", apt.show(HELLO.0).unwrap_err());
            assert!(
                e.starts_with(&format!(
                    "`apt-get update` failed for Debian {SUITE} from {url} (set KERNEL_CORE_DEBIAN_MIRROR to use a mirror or a proxy)"
                )),
                "{e}"
            );
            assert!(e.contains("does not have a Release file"), "{e}");
        }

        // The index was fetched, then the archive went away: the download says the same.
        let copy = archive.copy();
        let apt = copy.apt(&scratch.path().join("apt"));
        let stanza = apt.show(HELLO.0).unwrap().unwrap();
        fs::remove_dir_all(copy.dir.join("archive")).unwrap();
        let debs = scratch.path().join("debs");
        let e = format!("{:#}", apt.fetch(&stanza, &debs).unwrap_err());
        assert!(
            e.starts_with(&format!(
                "`apt-get download {}={}` failed for Debian {SUITE} from {} (set KERNEL_CORE_DEBIAN_MIRROR to use a mirror or a proxy) (check the network):",
                HELLO.0,
                HELLO.1,
                copy.url()
            )),
            "{e}"
        );
        assert_eq!(names(&debs), [".kernel-core-hello.lock"]);
        // A day later, the refresh fails too: the lists as they are still answer.
        let day_ago = std::time::SystemTime::now() - REFRESH - std::time::Duration::from_secs(60);
        fs::File::options()
            .write(true)
            .open(apt.root.join("updated"))
            .unwrap()
            .set_modified(day_ago)
            .unwrap();
        assert_eq!(apt.show(HELLO.0).unwrap().unwrap(), stanza);
        assert!(apt.lists_age().unwrap() < REFRESH, "tried again in a day");
    }

    /// Seven seconds: apt tries a connection three times more, a second, two and four later.
    #[test]
    fn an_archive_that_does_not_answer_fails_the_update() {
        let archive = fixture::archive();
        let scratch = tempfile::tempdir().unwrap();
        // A port that nothing listens on (it was free a moment ago). apt only warns of it,
        // and would go on without lists: the suite would seem to have no such package.
        let closed = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let url = format!("http://127.0.0.1:{closed}/debian-security");
        let apt = Apt::serving(
            scratch.path(),
            SUITE,
            Archive::Security,
            "amd64",
            &url,
            &archive.keyring(),
        );
        let e = format!("{:#}", apt.show(HELLO.0).unwrap_err());
        assert!(
            e.starts_with(&format!(
                "`apt-get update` failed for Debian {SUITE} from {url} (set KERNEL_CORE_DEBIAN_SECURITY_MIRROR to use a mirror or a proxy) (check the network and {}):",
                archive.keyring().display()
            )),
            "{e}"
        );
        assert!(!apt.root.join("updated").exists());
    }
}
