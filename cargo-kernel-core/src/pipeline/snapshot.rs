// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A booted guest, saved once and resumed for each run: the boot is paid once per kernel, not
//! once per run.
//!
//! Booting is most of what a run of a driver's suites costs under TCG: a Linux 7.3 x86_64
//! kernel with the detectors (KASAN, lockdep, KFENCE, UBSAN) takes 4.1 s of a 4.4 s run to reach
//! `/init` (firmware, decompression, the detectors' own set-up and self-tests), and Debian's
//! stock kernels about as long; the module's suites take 0.3 s. So on machines marked
//! [`resume`](crate::model::arch::Machine::Qemu) the runner boots each kernel once with
//! `kernel_core_modules=port`, an initramfs without modules and a virtio serial port whose host
//! side reads an empty file; when `/init` says `kernel-core-init: ready`, it saves the running
//! guest with QEMU's migration to a file (`mapped-ram`: each page at its own offset, so that
//! loading it is a few large reads) and stops it. Each run then starts the same QEMU with
//! `-incoming`, its port reading a file of the run's modules ([`bundle`]), and loads the saved
//! guest (0.15 s for 512 MiB, most of it never touched); `/init` reads the modules from the
//! port (`guest-init/src/receive.rs`). The console is no such channel: QEMU's UARTs take 8
//! bytes per interrupt, about 100 KB/s. The guest goes on from its saved state: the same
//! kernel, the same boot, the same `/init`, the modules loaded and their suites run exactly as
//! after a cold boot. The saved boot's console log starts each run's log, so that the log and
//! its verdict read as one boot's.
//!
//! The saved guest lives in the cache under a key of everything that shapes it: QEMU's whole
//! command line (kernel image, machine, memory, CPUs, kernel command line), the image's size
//! and time, `/init` itself and QEMU's version. A new key saves anew, and the saved guests of
//! the same kernel under older keys are removed. `cargo kernel-core test --cold-boot` boots
//! every guest from its kernel instead.

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::hash::{fnv, FNV_START};
use crate::infra::process::{self, Control, Monitor};
use crate::infra::qmp::Qmp;
use crate::infra::{cache, command, files};
use crate::model::arch::{Arch, Machine};
use crate::model::build::Build;
use crate::model::console;
use serde_json::json;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

/// What the kernel command line adds for a guest that receives its modules through the port
/// (`guest-init/src/env.rs`).
pub const CMDLINE: &str = "kernel_core_modules=port";

/// The line `/init` prints once it waits for the modules: the moment the guest is saved.
const READY: &str = "kernel-core-init: ready";

/// How long saving or loading a guest may take.
const MIGRATION_TIMEOUT: Duration = Duration::from_secs(60);

/// The files of a saved guest, in its directory.
const MEMORY: &str = "memory";
const BOOT_LOG: &str = "boot.log";
const INITRAMFS: &str = "initramfs.cpio";
/// The empty file the port of the saved boot reads.
const NO_MODULES: &str = "no-modules";
/// The kernel build the guest booted (its directory's path), so that a saved guest whose build
/// is gone can be removed.
const BUILD: &str = "build";

/// The QEMU arguments of the port through which a guest receives `bundle` ([`bundle`]): a
/// `virtserialport` (number 1) of a virtio serial device on PCI, whose host side reads the file
/// and writes nowhere. It must be the guest's only virtio device for the kernel to name the port
/// `vport0p1`: without `-nic none`, the `virt` boards get a virtio network card first.
pub fn port_args(bundle: &Path) -> Vec<String> {
    vec![
        "-nic".to_string(),
        "none".to_string(),
        "-device".to_string(),
        "virtio-serial-pci,id=kcserial".to_string(),
        "-chardev".to_string(),
        format!(
            "file,id=kcmodules,path=/dev/null,input-path={}",
            bundle.display()
        ),
        "-device".to_string(),
        "virtserialport,bus=kcserial.0,nr=1,chardev=kcmodules,name=kernel-core.modules".to_string(),
    ]
}

/// Whether guests of `arch` are saved and resumed.
pub fn resumable(arch: &Arch) -> bool {
    matches!(arch.machine, Machine::Qemu { resume: true, .. })
}

/// A saved guest: the directory with its memory and devices ([`Saved::memory`]), the console
/// log of its boot ([`Saved::boot_log`]) and the initramfs it booted ([`Saved::initramfs`]).
#[derive(Clone)]
pub struct Saved {
    dir: PathBuf,
}

impl Saved {
    /// The initramfs the guest booted, which QEMU is given again when it resumes it.
    pub fn initramfs(&self) -> PathBuf {
        self.dir.join(INITRAMFS)
    }

    /// The empty file the port of the saved boot read.
    pub fn no_modules(&self) -> PathBuf {
        self.dir.join(NO_MODULES)
    }

    /// The guest's memory and devices, as QEMU's migration wrote them.
    pub fn memory(&self) -> PathBuf {
        self.dir.join(MEMORY)
    }

    /// Where the console log of the boot is, up to `/init`'s `ready`.
    pub fn boot_log_path(&self) -> PathBuf {
        self.dir.join(BOOT_LOG)
    }

    /// The console log of the boot, up to `/init`'s `ready`.
    pub fn boot_log(&self) -> Result<String> {
        let path = self.boot_log_path();
        fs::read_to_string(&path).at(&path)
    }

    /// The QEMU arguments that resume the guest instead of booting it, with QMP on `socket`.
    pub fn incoming_args(socket: &Path) -> [String; 4] {
        [
            "-incoming".to_string(),
            "defer".to_string(),
            "-qmp".to_string(),
            format!("unix:{},server=on,wait=off", socket.display()),
        ]
    }

    /// Loads the guest into the QEMU listening on `socket` (started with
    /// [`Self::incoming_args`]), which then runs it.
    pub fn load(&self, socket: &Path) -> Result {
        let memory = self.dir.join(MEMORY);
        let mut qmp = Qmp::connect(socket, Duration::from_secs(30))?;
        qmp.execute("migrate-set-capabilities", mapped_ram())?;
        qmp.execute(
            "migrate-incoming",
            json!({ "uri": format!("file:{}", memory.display()) }),
        )?;
        qmp.wait_for_migration(MIGRATION_TIMEOUT)
            .map_err(|e| anyhow::anyhow!("loading the saved guest {}: {e}", memory.display()))
    }
}

/// The capability that lays pages out at fixed offsets in the file.
fn mapped_ram() -> serde_json::Value {
    json!({ "capabilities": [{ "capability": "mapped-ram", "state": true }] })
}

/// 32 bytes of the host's randomness (`/dev/urandom`), which a resumed guest's generator is
/// reseeded with: without them every run would draw the saved guest's numbers.
pub fn seed() -> Result<[u8; 32]> {
    use std::io::Read as _;
    let path = Path::new("/dev/urandom");
    let mut seed = [0u8; 32];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut seed))
        .at(path)?;
    Ok(seed)
}

/// The saved guest of `build` on `arch`, saving it first with `save` if there is none: `None`
/// if `save` found that the guest never reached `ready` (a cold boot then shows why).
///
/// The guest is QEMU's `cmd` (any initramfs and port file: their names do not count) with
/// `init`; `save` is given the [`Saved`] to fill, whose [`Saved::initramfs`] it boots, whose
/// [`Saved::no_modules`] its port reads, and where it saves the guest ([`SaveMonitor`]) and
/// its console log ([`Saved::boot_log_path`]).
pub fn find_or_save(
    build: &Build,
    arch: &Arch,
    cmd: &Command,
    init: &Path,
    save: impl FnOnce(&Saved) -> Result<bool>,
) -> Result<Option<Saved>> {
    let Machine::Qemu { binary, .. } = arch.machine else {
        return Ok(None);
    };
    // A guest on QEMU's instruction clock (`--icount`) is another guest: both are kept.
    let icount = cmd.get_args().any(|arg| arg == "-icount");
    let label = format!(
        "{}-{}{}",
        label_of(&build.dir),
        arch.name,
        if icount { "-icount" } else { "" }
    );
    let mut key = fnv(process::show(cmd).as_bytes(), FNV_START);
    let image = fs::metadata(&build.image).at(&build.image)?;
    let modified = image
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .unwrap_or_default();
    key = fnv(&image.len().to_le_bytes(), key);
    key = fnv(&modified.as_nanos().to_le_bytes(), key);
    key = fnv(&fs::read(init).at(init)?, key);
    let version = command::output_once(Command::new(binary).arg("--version")).unwrap_or_default();
    key = fnv(version.as_bytes(), key);
    let root = cache::dir().join("snapshots");
    let dir = root.join(format!("{label}-{key:016x}"));
    if dir.join(MEMORY).is_file() {
        return Ok(Some(Saved { dir }));
    }

    let mut ready = true;
    let made = files::create_dir_atomic(&dir, |aside| {
        let saved = Saved {
            dir: aside.to_path_buf(),
        };
        let no_modules = saved.no_modules();
        fs::write(&no_modules, "").at(&no_modules)?;
        let record = aside.join(BUILD);
        fs::write(&record, format!("{}\n", build.dir.display())).at(&record)?;
        ready = save(&saved)?;
        if ready {
            Ok(())
        } else {
            Err(anyhow::anyhow!("the guest never reached `ready`"))
        }
    });
    match made {
        Ok(dir) => {
            sweep(&root, &label, &dir);
            Ok(Some(Saved { dir }))
        }
        Err(_) if !ready => Ok(None),
        Err(e) => Err(e),
    }
}

/// A name for the kernel build in `dir`: its path under the cache, `build-7.3.4-x86_64-<key>` or
/// `distro-7.3.4+deb13-amd64-build-<key>`, or the directory's own name elsewhere.
fn label_of(dir: &Path) -> String {
    let relative = dir.strip_prefix(cache::dir()).unwrap_or(dir);
    let name = if relative.is_absolute() {
        relative.file_name().map(Path::new).unwrap_or(relative)
    } else {
        relative
    };
    name.to_string_lossy().replace('/', "-")
}

/// Removes the saved guests that can no longer be resumed: those of `label` other than `keep`
/// (older keys: another `/init`, QEMU or kernel image), and those whose kernel build is gone
/// (a rebuild under a new configuration, `kernels clean`).
fn sweep(root: &Path, label: &str, keep: &Path) {
    let prefix = format!("{label}-");
    for entry in fs::read_dir(root).into_iter().flatten().flatten() {
        let path = entry.path();
        if path == keep || !path.join(MEMORY).is_file() {
            // Ours, or one being written (an aside directory, which its writer renames).
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let older = name.strip_prefix(&prefix).is_some_and(is_key);
        let orphan = fs::read_to_string(path.join(BUILD))
            .map(|build| !Path::new(build.trim_end()).is_dir())
            .unwrap_or(true);
        if older || orphan {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

/// Whether `text` is a key as [`find_or_save`] writes it: 16 hex digits.
fn is_key(text: &str) -> bool {
    text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Watches the boot that is to be saved (through `inner`, which watches for hangs), and saves
/// it when `/init` is ready.
pub struct SaveMonitor<M> {
    inner: M,
    socket: PathBuf,
    memory: PathBuf,
    /// Whether the guest was saved, once it was ready.
    saved: Option<std::result::Result<(), String>>,
}

impl<M: Monitor> SaveMonitor<M> {
    /// Watches with `inner`; saves the guest through the QMP socket `socket` (`-qmp
    /// unix:SOCKET,server=on,wait=off`) into `into`.
    pub fn new(inner: M, socket: PathBuf, into: &Saved) -> Self {
        Self {
            inner,
            socket,
            memory: into.memory(),
            saved: None,
        }
    }

    /// Whether the guest was saved (`None`: it never reached `ready`), and why not.
    pub fn outcome(&self) -> Option<&std::result::Result<(), String>> {
        self.saved.as_ref()
    }

    /// Saves the running guest to [`Self::memory`] and ends QEMU. The guest is not paused
    /// first, so that QEMU records it as running and the resumed one runs at once; its `/init`
    /// waits for the port, so little changes while it is saved.
    fn save(&self) -> Result {
        let mut qmp = Qmp::connect(&self.socket, Duration::from_secs(10))?;
        qmp.execute("migrate-set-capabilities", mapped_ram())?;
        qmp.execute(
            "migrate",
            json!({ "uri": format!("file:{}", self.memory.display()) }),
        )?;
        qmp.wait_for_migration(MIGRATION_TIMEOUT)?;
        // QEMU may close the socket before it answers.
        let _ = qmp.execute("quit", json!({}));
        Ok(())
    }
}

impl<M: Monitor> Monitor for SaveMonitor<M> {
    fn line(&mut self, line: &str) -> Control {
        let control = self.inner.line(line);
        if self.saved.is_none() && console::strip_time(line) == READY {
            let result = self.save().map_err(|e| format!("{e:#}"));
            let stop = result.as_ref().err().cloned();
            self.saved = Some(result);
            if let Some(why) = stop {
                return Control::Stop(why);
            }
        }
        control
    }

    fn quiet(&mut self, since_last_line: Duration) -> Control {
        self.inner.quiet(since_last_line)
    }
}

/// The file a resumed guest's port reads: `seed` (for the guest's random number generator)
/// and `modules` (file name, bytes), framed as `guest-init/src/receive.rs` reads them.
pub fn bundle(seed: &[u8; 32], modules: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = b"seed ".to_vec();
    for byte in seed {
        out.extend_from_slice(format!("{byte:02x}").as_bytes());
    }
    out.push(b'\n');
    for (file, bytes) in modules {
        out.extend_from_slice(
            format!(
                "module {file} {} {:016x}\n",
                bytes.len(),
                fnv(bytes, FNV_START)
            )
            .as_bytes(),
        );
        out.extend_from_slice(bytes);
    }
    out.extend_from_slice(b"end\n");
    out
}

/// What `guest::boot` runs once QEMU started with [`Saved::incoming_args`]: loads the saved
/// guest into it (which then runs); a failure reaches the boot's monitor through `failed`.
pub fn loader(
    saved: &Saved,
    socket: PathBuf,
    failed: mpsc::Sender<String>,
) -> Box<dyn FnOnce() + Send> {
    let saved = saved.clone();
    Box::new(move || {
        if let Err(e) = saved.load(&socket) {
            let _ = failed.send(format!("resuming the saved guest failed: {e:#}"));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bundle` read back as `/init` reads it.
    fn parse(mut bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
        let seed = format!("seed {}\n", "5a".repeat(32));
        bytes = bytes.strip_prefix(seed.as_bytes()).expect("the seed first");
        let mut modules = Vec::new();
        loop {
            let end = bytes.iter().position(|&b| b == b'\n').unwrap();
            let header = std::str::from_utf8(&bytes[..end]).unwrap().to_string();
            bytes = &bytes[end + 1..];
            if header == "end" {
                assert!(bytes.is_empty());
                return modules;
            }
            let fields: Vec<&str> = header.split(' ').collect();
            assert_eq!(fields.len(), 4, "{header}");
            assert_eq!(fields[0], "module");
            let size: usize = fields[2].parse().unwrap();
            let data = bytes[..size].to_vec();
            assert_eq!(fields[3].len(), 16);
            assert_eq!(
                u64::from_str_radix(fields[3], 16).unwrap(),
                fnv(&data, FNV_START)
            );
            bytes = &bytes[size..];
            modules.push((fields[1].to_string(), data));
        }
    }

    #[test]
    fn bundle_frames_every_module() {
        let modules = vec![
            (
                "a.ko".to_string(),
                (0..200_000u32).map(|i| i as u8).collect(),
            ),
            ("empty.ko".to_string(), Vec::new()),
            ("b.ko".to_string(), b"end\nmodule x 1 0\n".to_vec()),
        ];
        assert_eq!(parse(&bundle(&[0x5a; 32], &modules)), modules);
        assert_eq!(parse(&bundle(&[0x5a; 32], &[])), []);
    }

    #[test]
    fn sweep_removes_older_keys_and_orphans_only() {
        let root = files::scratch_dir("kernel-core-snapshots.").unwrap();
        let build = files::scratch_dir("kernel-core-build.").unwrap();
        let make = |name: &str, build: &Path| {
            let dir = root.path().join(name);
            fs::create_dir_all(&dir).unwrap();
            fs::write(dir.join(MEMORY), "").unwrap();
            fs::write(dir.join(BUILD), format!("{}\n", build.display())).unwrap();
            dir
        };
        let keep = make("k-x86_64-0000000000000001", build.path());
        let older = make("k-x86_64-0000000000000002", build.path());
        let other = make("j-x86_64-0000000000000003", build.path());
        let orphan = make("i-x86_64-0000000000000004", Path::new("/nonexistent/build"));
        let writing = root.path().join(".k-x86_64-0000000000000005.tmp");
        fs::create_dir_all(&writing).unwrap();
        sweep(root.path(), "k-x86_64", &keep);
        assert!(keep.is_dir());
        assert!(!older.exists());
        assert!(other.is_dir());
        assert!(!orphan.exists());
        assert!(writing.is_dir());
    }

    #[test]
    fn labels_name_the_build_under_the_cache() {
        let build = cache::dir().join("build/7.3.4-x86_64-0123456789abcdef");
        assert_eq!(label_of(&build), "build-7.3.4-x86_64-0123456789abcdef");
        assert_eq!(label_of(Path::new("/srv/linux/out")), "out");
        assert!(is_key("0123456789abcdef") && !is_key("0123") && !is_key("x123456789abcdef"));
    }

    #[test]
    fn only_x86_64_and_arm64_guests_are_resumed() {
        let resumed: Vec<&str> = crate::model::arch::ARCHES
            .iter()
            .filter(|arch| resumable(arch))
            .map(|arch| arch.name)
            .collect();
        assert_eq!(resumed, ["x86_64", "arm64"]);
    }
}
