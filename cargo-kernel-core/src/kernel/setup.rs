// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Installs what the tests and the QEMU runs need, when it is missing: rustup toolchains,
//! targets and components, Debian packages, and bindgen.
//!
//! Everything is checked first and installed only if absent, so a second run costs a few
//! process spawns. Debian packages come from bookworm, QEMU from bookworm-backports (the
//! machine's `qemu-utils` is the backports version, which bookworm's QEMU conflicts with).
//! Kernel packages (sources, a stock kernel's headers and image) are not installed: they come
//! through the private apt configuration of [`crate::kernel::apt`], without root.

use crate::infra::command::output;
use crate::infra::command::run;
use crate::infra::error::Result;
use crate::infra::{command, process, progress};
use crate::model::arch::Arch;
use anyhow::bail;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The oldest Rust the workspace supports (`rust-version`), tested next to stable.
pub const MSRV: &str = "1.85.0";

/// The LLVM release whose clang, lld and tools build the kernels (`LLVM=-19`), and whose
/// libclang bindgen uses.
pub const LLVM_VERSION: &str = "19";

/// The bindgen the kernel builds need (7.2's minimum, and enough for 6.12).
const BINDGEN_VERSION: &str = "0.71.1";

/// The apt sources this tool adds (QEMU's suite), and the pin file older versions wrote for
/// forky and trixie-backports, which it removes.
const APT_SOURCES: &str = "/etc/apt/sources.list.d/kernel-core.sources";
const APT_PIN: &str = "/etc/apt/preferences.d/kernel-core";

/// Whether this process runs as root (needed for apt).
fn is_root() -> bool {
    rustix::process::getuid().is_root()
}

/// Whether a Debian package is installed. Asked of dpkg once per package and process (a run
/// over many cells asks for the same ones in every cell), until this process installs one.
fn installed(package: &str) -> bool {
    command::output_once(Command::new("dpkg-query").args(["-W", "-f=${Status}", package]))
        .is_some_and(|s| s.contains("install ok installed"))
}

/// Adds bookworm-backports (for QEMU) to apt's sources if it is not there, and removes the pin
/// of forky and trixie-backports that older versions wrote: kernel packages now come through a
/// private apt configuration in the cache ([`crate::kernel::apt`]), never the system's.
fn ensure_apt_sources() -> Result<bool> {
    let sources = "# Added by kernel-core's `cargo xtask`: QEMU from bookworm-backports.
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
";
    let mut changed = false;
    if std::fs::read_to_string(APT_SOURCES).ok().as_deref() != Some(sources) {
        std::fs::write(APT_SOURCES, sources)
            .map_err(|e| anyhow::anyhow!("cannot write {APT_SOURCES}: {e} (run as root)"))?;
        changed = true;
    }
    if std::path::Path::new(APT_PIN).exists() {
        std::fs::remove_file(APT_PIN)
            .map_err(|e| anyhow::anyhow!("cannot remove {APT_PIN}: {e} (run as root)"))?;
        changed = true;
    }
    Ok(changed)
}

/// How long an apt command waits for a lock that another apt or dpkg holds.
const APT_LOCK_WAIT: Duration = Duration::from_secs(15 * 60);

/// Whether apt's output says that another process holds one of its locks.
fn apt_lock_busy(stderr: &str) -> bool {
    stderr.contains("Could not get lock") || stderr.contains("Unable to lock")
}

/// Runs an apt command, waiting (up to `wait`, retrying every `every`) while another apt or
/// dpkg holds its locks, as on a fresh machine where unattended-upgrades or a second terminal
/// runs apt. Other failures fail at once, with `hint`.
fn apt_run(cmd: &mut Command, hint: &str, wait: Duration, every: Duration) -> Result {
    crate::note!("    $ {}", process::show(cmd));
    // `install` waits for dpkg's lock itself; `update` does not, hence the loop as well.
    let start = Instant::now();
    loop {
        let out = cmd
            .output()
            .map_err(|e| anyhow::anyhow!("cannot run `{}`: {e}. {hint}", process::show(cmd)))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                progress::note(line);
            }
            eprint!("{stderr}");
            return Ok(());
        }
        if apt_lock_busy(&stderr) && start.elapsed() < wait {
            let holder = stderr
                .lines()
                .find(|l| l.contains("held by"))
                .map_or(String::new(), |l| {
                    format!(": {}", l.trim_start_matches("E: "))
                });
            crate::note!(
                "    apt is busy (another apt or dpkg holds its lock{holder}); waiting, {} so far",
                progress::elapsed(start.elapsed())
            );
            std::thread::sleep(every);
            continue;
        }
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            progress::note(line);
        }
        eprint!("{stderr}");
        if apt_lock_busy(&stderr) {
            bail!(
                "`{}`: another apt or dpkg still holds its lock after {}. {hint}",
                process::show(cmd),
                progress::elapsed(start.elapsed())
            );
        }
        bail!("`{}` failed ({}). {hint}", process::show(cmd), out.status);
    }
}

/// Runs `apt-get update`, once per process.
fn apt_update() -> Result {
    static DONE: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    if DONE.get().is_some() {
        return Ok(());
    }
    apt_run(
        Command::new("apt-get").args(["update", "-q"]),
        "check the network and /etc/apt/sources.list.d",
        APT_LOCK_WAIT,
        Duration::from_secs(5),
    )?;
    let _ = DONE.set(());
    Ok(())
}

/// Whether this run may install Debian packages: only when asked (`cargo kernel-core setup`,
/// kernel-core's own `cargo xtask`). Otherwise a missing package is an error that says what
/// to install and how, and nothing edits the system's apt configuration.
static INSTALLS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Lets this run install the Debian packages it needs (and add bookworm-backports to apt's
/// sources for QEMU), saying so as it does.
pub fn allow_installs() {
    INSTALLS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Installs the missing packages among `packages` (when [`allow_installs`] was called); the
/// `backports` ones come from bookworm-backports.
pub fn ensure_packages(packages: &[&str], backports: &[&str]) -> Result {
    let missing: Vec<&str> = packages.iter().copied().filter(|p| !installed(p)).collect();
    let missing_bpo: Vec<&str> = backports
        .iter()
        .copied()
        .filter(|p| !installed(p))
        .collect();
    if missing.is_empty() && missing_bpo.is_empty() {
        return Ok(());
    }
    let all = [missing.clone(), missing_bpo.clone()].concat().join(" ");
    if !INSTALLS.load(std::sync::atomic::Ordering::Relaxed) {
        bail!(
            "missing Debian packages: {all}. `cargo kernel-core setup` installs them (as root; it \
             says what it changes{}), or install them yourself",
            if missing_bpo.is_empty() {
                String::new()
            } else {
                format!(
                    ": {} come from bookworm-backports, which it adds to {APT_SOURCES}",
                    missing_bpo.join(" ")
                )
            }
        );
    }
    if !is_root() {
        bail!("missing Debian packages: {all}. Installing them needs root: rerun `cargo kernel-core setup` as root, or apt-get install {all}");
    }
    let start = progress::step(&format!(
        "installing Debian packages: {all}{}",
        if missing_bpo.is_empty() {
            String::new()
        } else {
            format!(
                " ({} from bookworm-backports, added to {APT_SOURCES})",
                missing_bpo.join(" ")
            )
        }
    ));
    if !missing_bpo.is_empty() && ensure_apt_sources()? {
        crate::note!("    wrote {APT_SOURCES}: bookworm-backports, for QEMU");
    }
    apt_update()?;
    let apt = |extra: &[&str], list: &[&str]| {
        let mut cmd = Command::new("apt-get");
        cmd.env("DEBIAN_FRONTEND", "noninteractive")
            .args(["install", "-y", "-q", "--no-install-recommends"])
            .arg(format!("-oDPkg::Lock::Timeout={}", APT_LOCK_WAIT.as_secs()))
            .args(extra)
            .args(list);
        apt_run(
            &mut cmd,
            "see apt's message above",
            APT_LOCK_WAIT,
            Duration::from_secs(5),
        )
    };
    command::forget_outputs_of("dpkg-query");
    if !missing.is_empty() {
        apt(&[], &missing)?;
    }
    if !missing_bpo.is_empty() {
        apt(&["-t", "bookworm-backports"], &missing_bpo)?;
    }
    progress::done("packages installed", start);
    Ok(())
}

/// `rustup` with a toolchain: `rustup <args>`, which installs something (so the lists that
/// [`rustup_list`] remembers are asked again).
fn rustup(args: &[&str], hint: &str) -> Result {
    command::forget_outputs_of("rustup");
    run(Command::new("rustup").args(args), hint)
}

/// The installed toolchains, components and targets, as `rustup` lists them: asked once per
/// process, until this process installs one.
fn rustup_list(args: &[&str]) -> String {
    command::output_once(Command::new("rustup").args(args)).unwrap_or_default()
}

/// Makes sure `toolchain` is installed with `components` and `targets`.
pub fn ensure_toolchain(toolchain: &str, components: &[&str], targets: &[&str]) -> Result {
    let toolchains = rustup_list(&["toolchain", "list"]);
    if !toolchains.lines().any(|l| l.starts_with(toolchain)) {
        rustup(
            &["toolchain", "install", toolchain, "--profile", "minimal"],
            "check the network and rustup",
        )?;
    }
    let installed = rustup_list(&["component", "list", "--installed", "--toolchain", toolchain]);
    for component in components {
        if !installed.lines().any(|l| l.starts_with(component)) {
            rustup(
                &["component", "add", component, "--toolchain", toolchain],
                "check the network and rustup",
            )?;
        }
    }
    let installed = rustup_list(&["target", "list", "--installed", "--toolchain", toolchain]);
    for target in targets {
        if !installed.lines().any(|l| l.trim() == *target) {
            rustup(
                &["target", "add", target, "--toolchain", toolchain],
                "check the network and rustup",
            )?;
        }
    }
    Ok(())
}

/// Path of a tool of `toolchain` (`rustup which`).
pub fn rustup_which(tool: &str, toolchain: &str) -> Result<PathBuf> {
    command::output_once(Command::new("rustup").args(["which", tool, "--toolchain", toolchain]))
        .map(|p| PathBuf::from(p.trim()))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "`rustup which {tool} --toolchain {toolchain}` failed: is the toolchain installed?"
            )
        })
}

/// Makes sure `bindgen` 0.71.1 is installed (in `~/.cargo/bin`) and returns its path.
pub fn ensure_bindgen() -> Result<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .ok_or_else(|| anyhow::anyhow!("neither CARGO_HOME nor HOME is set"))?;
    let bindgen = home.join("bin/bindgen");
    // Checked once per process: a run over many cells asks bindgen once.
    static CHECKED: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    if CHECKED.get().is_some() {
        return Ok(bindgen);
    }
    let version = output(Command::new(&bindgen).arg("--version")).unwrap_or_default();
    if !version.contains(BINDGEN_VERSION) {
        let start = progress::step(&format!(
            "installing bindgen-cli {BINDGEN_VERSION} (about 2 minutes)"
        ));
        run(
            Command::new("cargo").args([
                "+stable",
                "install",
                "--locked",
                "bindgen-cli",
                "--version",
                BINDGEN_VERSION,
            ]),
            &format!("check the network (crates.io) and libclang-{LLVM_VERSION}-dev"),
        )?;
        progress::done("bindgen installed", start);
    }
    let _ = CHECKED.set(());
    Ok(bindgen)
}

/// Everything a kernel build and a QEMU run need, for these QEMU packages. Checked once per
/// architecture and process: a run over many cells asks dpkg and rustup once.
pub fn ensure_kernel_tools(arch: &Arch) -> Result {
    static READY: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    if READY.lock().is_ok_and(|ready| ready.contains(&arch.name)) {
        return Ok(());
    }
    let llvm = |tool: &str| format!("{tool}-{LLVM_VERSION}");
    let (clang, lld, llvm_tools, libclang) = (
        llvm("clang"),
        llvm("lld"),
        llvm("llvm"),
        format!("libclang-{LLVM_VERSION}-dev"),
    );
    // bindgen is compiled from crates.io (a minute on 2 cores) while apt downloads and
    // installs: it needs libclang only when it runs.
    let bindgen = std::thread::spawn(ensure_bindgen);
    let packages = ensure_packages(
        &[
            "make",
            &clang,
            &lld,
            &llvm_tools,
            &libclang,
            "bc",
            "flex",
            "bison",
            "libelf-dev",
            "libssl-dev",
            "python3",
            "xz-utils",
        ],
        &arch.packages(),
    );
    let bindgen = bindgen
        .join()
        .unwrap_or_else(|_| Err(anyhow::anyhow!("installing bindgen panicked")));
    packages?;
    bindgen?;
    ensure_toolchain(arch.rustc.unwrap_or("stable"), &["rust-src"], &[])?;
    if let Ok(mut ready) = READY.lock() {
        ready.push(arch.name);
    }
    Ok(())
}

/// Space available to this user, in bytes, on the file system holding `path` (which must
/// exist).
pub fn free_bytes(path: &Path) -> Option<u64> {
    fs4::available_space(path).ok()
}

/// Fails with a clear message if `path` has less than `needed` bytes free.
pub fn ensure_space(path: &Path, needed: u64, what: &str) -> Result {
    if let Some(free) = free_bytes(path) {
        if free < needed {
            bail!(
                "not enough disk space for {what}: {} MiB free in {}, {} MiB needed. Free some space or set KERNEL_CORE_CACHE to a larger disk",
                free >> 20,
                path.display(),
                needed >> 20
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A fake `apt-get` that reports a held lock `busy` times, then succeeds.
    fn fake_apt(dir: &Path, busy: u32) -> PathBuf {
        let script = dir.join("apt-get");
        let count = dir.join("count");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\n\
                 n=$(cat {count} 2>/dev/null || echo 0); echo $((n + 1)) > {count}\n\
                 if [ $n -lt {busy} ]; then\n\
                 echo 'E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)' >&2\n\
                 echo 'E: Unable to lock directory /var/lib/apt/lists/' >&2; exit 100; fi\n\
                 echo 'Reading package lists... Done'\n",
                count = count.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        script
    }

    fn temp_dir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("kc-apt-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn waits_while_another_apt_holds_the_lock() {
        let scratch = temp_dir("wait");
        let dir = scratch.path();
        let apt = fake_apt(dir, 3);
        let tick = Duration::from_millis(10);
        apt_run(&mut Command::new(&apt), "", Duration::from_secs(60), tick).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("count")).unwrap().trim(),
            "4"
        );
    }

    #[test]
    fn gives_up_on_a_lock_held_too_long() {
        let scratch = temp_dir("give-up");
        let dir = scratch.path();
        let apt = fake_apt(dir, u32::MAX / 2);
        let error = apt_run(
            &mut Command::new(&apt),
            "",
            Duration::from_millis(50),
            Duration::from_millis(10),
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("still holds its lock"),
            "{error}"
        );
    }

    #[test]
    fn other_failures_fail_at_once() {
        let scratch = temp_dir("other");
        let dir = scratch.path();
        let script = dir.join("apt-get");
        std::fs::write(
            &script,
            "#!/bin/sh\necho 'E: Unable to locate package nope' >&2; exit 100\n",
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let start = Instant::now();
        let error = apt_run(
            &mut Command::new(&script),
            "the hint",
            Duration::from_secs(60),
            Duration::from_secs(5),
        )
        .unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(error.to_string().contains("the hint"), "{error}");
    }
}
