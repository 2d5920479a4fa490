// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The guest: its static `/init`, its initramfs, and one QEMU boot that loads the modules,
//! or on x86_64 and arm64 one run of a saved boot resumed ([`snapshot`]).
//!
//! Why not kunit.py's QEMU configs or virtme-ng: both boot a guest whose userspace comes from
//! the host (virtme-ng shares the host's root file system over 9p/virtiofs, and kunit.py runs
//! KUnit built into the kernel image with no userspace at all). Our guests are four
//! architectures on an x86_64 host, where the host's userspace cannot run, and they must load
//! out-of-tree modules, which needs a userspace. Debian packages no loong64 userspace, and
//! kunit.py has no loongarch64 config. So the guest's `/init` is a freestanding Rust program
//! (`guest-init/` in this crate, a few kilobytes, no libc) that loads the modules listed in the
//! initramfs, unloads them and reboots; a boot takes seconds. The machine arguments follow the
//! ones kunit.py's `qemu_configs/` use where they exist (x86_64 `pc`, arm64 and riscv64
//! `virt`).

use crate::infra::error::Context as _;
use crate::infra::error::Result;
use crate::infra::hash::{fnv, FNV_START};
use crate::infra::process::{self, Control, Ending, Monitor};
use crate::infra::{cache, files};
use crate::infra::{command, progress};
use crate::kernel::setup;
use crate::model::arch::{Arch, Machine};
use crate::model::build::Build;
use crate::model::report::Hang;
use crate::model::{cell, console};
use crate::pipeline::snapshot;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a guest may run before it counts as hung.
pub const BOOT_TIMEOUT: Duration = Duration::from_secs(240);

/// The sources of the guest's `/init`, built into the runner so that it needs no checkout:
/// `(path in the crate, text)`. `Cargo.toml.in` and `cargo-config.toml` become `Cargo.toml`
/// and `.cargo/config.toml` (a `Cargo.toml` here would make `guest-init/` a package of its
/// own, which `cargo package` leaves out of this one).
const INIT_SOURCES: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("../../guest-init/Cargo.toml.in")),
    (
        ".cargo/config.toml",
        include_str!("../../guest-init/cargo-config.toml"),
    ),
    ("build.rs", include_str!("../../guest-init/build.rs")),
    ("src/main.rs", include_str!("../../guest-init/src/main.rs")),
    (
        "src/console.rs",
        include_str!("../../guest-init/src/console.rs"),
    ),
    ("src/env.rs", include_str!("../../guest-init/src/env.rs")),
    ("src/mem.rs", include_str!("../../guest-init/src/mem.rs")),
    (
        "src/order.rs",
        include_str!("../../guest-init/src/order.rs"),
    ),
    (
        "src/receive.rs",
        include_str!("../../guest-init/src/receive.rs"),
    ),
    (
        "src/start.rs",
        include_str!("../../guest-init/src/start.rs"),
    ),
    ("src/sys.rs", include_str!("../../guest-init/src/sys.rs")),
];

/// Writes the `/init` sources into the cache, under a key made of their text, once.
fn init_sources() -> Result<PathBuf> {
    let mut key = FNV_START;
    for (path, text) in INIT_SOURCES {
        key = fnv(text.as_bytes(), fnv(path.as_bytes(), key));
    }
    let root = cache::dir().join("guest-init");
    let dir = root.join(format!("src-{key:016x}"));
    // Written aside and renamed into place: a run that is killed halfway, or another run
    // writing the same sources, never leaves a partial tree under the final name.
    files::create_dir_atomic(&dir, |aside| {
        for (path, text) in INIT_SOURCES {
            let file = aside.join(path);
            let parent = file.parent().expect("a file in a directory");
            fs::create_dir_all(parent).at(parent)?;
            fs::write(&file, text).at(&file)?;
        }
        Ok(())
    })
}

/// Builds the guest's static `/init` for `arch` (cargo keeps it up to date in the cache) and
/// returns its path.
pub fn build_init(arch: &Arch) -> Result<PathBuf> {
    // Built once per target and process: the cells of one run share it.
    static BUILT: std::sync::Mutex<Vec<(&'static str, PathBuf)>> =
        std::sync::Mutex::new(Vec::new());
    let known = BUILT.lock().ok().and_then(|built| {
        built
            .iter()
            .find(|(target, _)| *target == arch.init_target)
            .map(|(_, init)| init.clone())
    });
    if let Some(init) = known.filter(|init| init.is_file()) {
        return Ok(init);
    }
    let source = init_sources()?;
    // Its own target directory per version of the sources: runners of two versions sharing the
    // cache would otherwise overwrite each other's `/init` (one that reboots UML forever).
    let target_dir = source.with_file_name(format!(
        "target-{}",
        source
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("src-"))
            .unwrap_or("default")
    ));
    let mut cmd = Command::new("cargo");
    if arch.init_build_std {
        setup::ensure_toolchain("nightly", &["rust-src"], &[])?;
        cmd.args(["+nightly", "build", "-Zbuild-std=core"]);
    } else {
        setup::ensure_toolchain("stable", &[], &[arch.init_target])?;
        cmd.args(["+stable", "build"]);
    }
    cmd.args(["--quiet", "--release", "--target", arch.init_target])
        .arg("--target-dir")
        .arg(&target_dir)
        .current_dir(&source)
        // A surrounding cargo's settings for its own build must not leak in.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTC")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO_TARGET_DIR");
    command::run(&mut cmd, "the guest's /init failed to build")?;
    let init = target_dir.join(arch.init_target).join("release/init");
    if let Ok(mut built) = BUILT.lock() {
        built.push((arch.init_target, init.clone()));
    }
    Ok(init)
}

/// What the guest's kernel command line holds beside the console: a panic ends the guest
/// at once (`panic=-1` reboots, which `-no-reboot` turns into QEMU's exit); the soft-lockup
/// detector reports a spinning case after 10 s (twice `watchdog_thresh`); KASAN reports every
/// bad access, not only the first of the boot (`kasan_multi_shot`); and KFENCE samples every
/// 100 ms wherever the kernel has it, Debian's stock kernels included, which build it in but
/// leave it off (`CONFIG_KFENCE_SAMPLE_INTERVAL=0`). A kernel without KASAN or KFENCE ignores
/// their options.
const CMDLINE: &str = "panic=-1 watchdog_thresh=5 kasan_multi_shot kfence.sample_interval=100";

/// How QEMU keeps the guest's time with `--icount`: one instruction is one virtual nanosecond
/// (`shift=0`), and idle time is skipped, not slept (`sleep=off`), so the guest's clock
/// follows the guest's own work, not the host's load.
pub const ICOUNT: &[&str] = &["-icount", "shift=0,sleep=off"];

/// The memory of every guest, in MiB.
///
/// QEMU's guests get it from a memfd (`memory-backend-memfd`), not from anonymous memory: QEMU
/// asks for transparent huge pages on anonymous guest RAM, so the first touch of any 4 KiB of
/// the guest's made the host clear 2 MiB. Measured with the larger example's suites on 7.3
/// with the detectors, a boot took 2.4 to 3.0 s of the host kernel's time on x86_64 and 1.3 s
/// on arm64 that way, 0.3 s from a memfd, whose pages are 4 KiB.
const GUEST_MIB: u32 = 512;

/// The command that boots `image` with `initrd` on `arch`'s machine: QEMU (with [`ICOUNT`]
/// when `icount`), or for UML the kernel itself.
pub fn guest_command(arch: &Arch, image: &Path, initrd: &Path, icount: bool) -> Command {
    guest_command_with(arch, image, initrd, icount, "")
}

/// [`guest_command`], with `extra` at the end of the kernel command line.
pub fn guest_command_with(
    arch: &Arch,
    image: &Path,
    initrd: &Path,
    icount: bool,
    extra: &str,
) -> Command {
    match arch.machine {
        Machine::Qemu {
            binary,
            args,
            console,
            cmdline,
            smp,
            ..
        } => {
            let mut cmd = Command::new(binary);
            cmd.args(args)
                .arg("-kernel")
                .arg(image)
                .arg("-initrd")
                .arg(initrd)
                .arg("-append")
                .arg(
                    format!("console={console} {CMDLINE} {cmdline} {extra}")
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" "),
                )
                .args(["-m", &format!("{GUEST_MIB}M")])
                .args([
                    "-object",
                    &format!("memory-backend-memfd,id=ram,size={GUEST_MIB}M"),
                ])
                .args(["-machine", "memory-backend=ram"])
                .args([
                    "-smp", smp, "-display", "none", "-monitor", "none", "-serial", "stdio",
                ])
                .arg("-no-reboot");
            if icount {
                cmd.args(ICOUNT);
            }
            cmd
        }
        Machine::Uml => {
            // The console is the process's stdin and stdout; a reboot would start the kernel
            // again, so /init powers off instead (`kernel_core_halt`, which the kernel hands
            // /init as an environment variable).
            let mut cmd = Command::new(image);
            cmd.arg(format!("mem={GUEST_MIB}M"))
                .arg(format!("initrd={}", initrd.display()))
                .args(["console=tty0", "con0=fd:0,fd:1", "con=null"])
                .args(CMDLINE.split(' '))
                .args(extra.split_whitespace())
                .arg("kernel_core_halt=poweroff");
            cmd
        }
    }
}

/// How long a guest may print nothing while `/init` loads or unloads modules before the case
/// (or init) that runs counts as hung: no case of a suite prints while it runs, and under
/// TCG a slow one takes seconds, so this is generous; the kernel's own detectors (a soft
/// lockup after 10 s, a hung task after 10 to 20 s) usually speak first. Their seconds are the
/// guest's: an x86_64 guest without ACPI has no HPET and marks its TSC unstable, so it keeps
/// time with jiffies, which fall behind the host's clock when a loaded host runs its vCPUs
/// late. With 30 s, a fresh run on 2 busy cores stopped the verdict's hang self-test before the
/// kernel's hung-task report, on 7.3 and 6.12 alike.
pub const CASE_TIMEOUT: Duration = Duration::from_secs(60);

/// How long after the kernel reports a hang the guest may go on printing (the report's trace)
/// before it is stopped.
const HANG_GRACE: Duration = Duration::from_secs(3);

/// What one boot left: the parsed console log and where it is.
pub struct Boot {
    /// The console log, parsed.
    pub log: console::Log,
    /// The console log's path.
    pub console: PathBuf,
    /// How long the guest ran.
    pub seconds: f64,
    /// How the guest ended.
    pub ending: Ending,
    /// The case (or init) that hung, if the guest was stopped for one.
    pub hang: Option<Hang>,
    /// Why the guest was stopped, if not for a hang: it restarted.
    pub restarted: Option<String>,
}

impl Boot {
    /// What went wrong with the boot itself, beside its cases and modules: a guest that ran
    /// past the boot's time limit, or whose `/init` never reached its end.
    pub fn problems(&self, cell: &str) -> Vec<String> {
        let console = self.console.display();
        match &self.ending {
            Ending::TimedOut => vec![format!(
                "{cell}: timeout: the guest did not finish within {}s (see {console})",
                BOOT_TIMEOUT.as_secs()
            )],
            Ending::Stopped(_) => self
                .restarted
                .iter()
                .map(|why| format!("{cell}: {why}; see {console}"))
                .collect(),
            Ending::Exited(_) if !self.log.done => vec![format!(
                "{cell}: the guest's /init never reached its end (crash or panic?); see {console}{}",
                self.why_init_died()
            )],
            Ending::Exited(_) => Vec::new(),
        }
    }
}

impl Boot {
    /// What the console says of a guest whose `/init` died before its first line, where that
    /// is known.
    fn why_init_died(&self) -> String {
        let console = std::fs::read_to_string(&self.console).unwrap_or_default();
        if console.contains("userspace - ptrace set fp regs failed") {
            // UML of 6.12 hands the host's ptrace an FP state of the size it knew (pre-AMX);
            // a host kernel whose CPU has AMX refuses it (EFAULT). 7.x's UML asks the host.
            return "\n    User-Mode Linux of this kernel cannot start a process on this host: it \
                    sets the FP registers of its processes with the pre-AMX size of the x86 \
                    state, which a host CPU with AMX refuses (`ptrace set fp regs failed, errno = \
                    14`); Linux 7.x's UML asks the host for the size, and runs here"
                .to_string();
        }
        String::new()
    }
}

/// Watches a boot as it prints: stops it `HANG_GRACE` (3 s) after the kernel reports a hang (a
/// soft lockup, a hung task, an RCU stall), or when the guest printed nothing for
/// `case_timeout` while `/init` was at work.
///
/// Public so that a console log kept from a real boot can be read again through it, line by
/// line as [`boot`] does (`tests/console_corpus.rs`), for the [`Hang`] the verdict is given.
pub struct BootMonitor {
    /// The console read so far.
    pub reader: console::Reader,
    /// How long `/init` may be at work without output before its case counts as hung.
    pub case_timeout: Duration,
    /// The first hang the kernel reported (or the silence), and when it was seen.
    pub hang: Option<(Instant, Hang)>,
    /// How many times the kernel printed its banner: a second one is a guest that restarted
    /// (a reboot that QEMU or UML turned into a new boot instead of an exit).
    pub banners: usize,
    /// For a resumed guest: whence a failure to load it comes ([`snapshot::loader`]).
    pub load_failed: Option<mpsc::Receiver<String>>,
}

impl BootMonitor {
    /// A monitor of a boot that has printed nothing yet.
    pub fn new(case_timeout: Duration) -> Self {
        Self {
            reader: console::Reader::default(),
            case_timeout,
            hang: None,
            banners: 0,
            load_failed: None,
        }
    }

    fn check(&self) -> Control {
        if let Some(why) = self.load_failed.as_ref().and_then(|r| r.try_recv().ok()) {
            return Control::Stop(why);
        }
        match &self.hang {
            Some((since, hang)) if since.elapsed() >= HANG_GRACE => {
                Control::Stop(hang.reason.clone())
            }
            _ => Control::Continue,
        }
    }
}

impl Monitor for BootMonitor {
    fn line(&mut self, line: &str) -> Control {
        if console::strip_time(line).starts_with("Linux version ") {
            self.banners += 1;
            if self.banners > 1 {
                return Control::Stop(
                    "the guest restarted instead of ending: its /init rebooted a machine that boots again (see the console's second `Linux version` line)"
                        .to_string(),
                );
            }
        }
        if let Some(kind) = self.reader.line(line) {
            if kind.is_hang() && self.hang.is_none() {
                let during = self.reader.position().clone();
                self.hang = Some((
                    Instant::now(),
                    Hang {
                        reason: format!(
                            "the kernel reported a {}: {}",
                            kind.name(),
                            console::strip_time(line)
                        ),
                        during,
                    },
                ));
            }
        }
        self.check()
    }

    fn quiet(&mut self, since_last_line: Duration) -> Control {
        let log = self.reader.log();
        // A resumed guest's `/init` is at work from the start: it receives the modules.
        let at_work = (self.load_failed.is_some() || !log.loads.is_empty()) && !log.done;
        if self.hang.is_none() && at_work && since_last_line >= self.case_timeout {
            let reason = format!("no console output for {}s", self.case_timeout.as_secs());
            let during = self.reader.position().clone();
            return Control::Stop(
                self.hang
                    .insert((Instant::now(), Hang { reason, during }))
                    .1
                    .reason
                    .clone(),
            );
        }
        self.check()
    }
}

/// The command of a guest that can be saved and resumed: `initrd` booted with
/// [`snapshot::CMDLINE`], the modules' port reading `bundle` ([`snapshot::port_args`]).
fn resumable_command(
    build: &Build,
    arch: &Arch,
    initrd: &Path,
    icount: bool,
    bundle: &Path,
) -> Command {
    let mut cmd = guest_command_with(arch, &build.image, initrd, icount, snapshot::CMDLINE);
    cmd.args(snapshot::port_args(bundle));
    cmd
}

/// The saved boot of `build` on `arch` with `init`, booted and saved first if there is none:
/// `None` if the guest never reached `/init`'s `ready` (a cold boot then shows why).
fn saved_boot(
    build: &Build,
    arch: &Arch,
    init: &Path,
    icount: bool,
) -> Result<Option<snapshot::Saved>> {
    // The key's command: the files' own names do not count.
    let key = resumable_command(
        build,
        arch,
        Path::new("initramfs"),
        icount,
        Path::new("modules"),
    );
    snapshot::find_or_save(build, arch, &key, init, |saved| {
        let initrd = saved.initramfs();
        crate::pipeline::initramfs::build(&initrd, init, &[])?;
        let scratch = files::scratch_dir("kernel-core-qmp.")?;
        let socket = scratch.path().join("qmp.sock");
        let mut cmd = resumable_command(build, arch, &initrd, icount, &saved.no_modules());
        cmd.arg("-qmp")
            .arg(format!("unix:{},server=on,wait=off", socket.display()));
        let start = progress::step(&format!(
            "booting {} once to save it (each run resumes it)",
            build.source.version
        ));
        let mut monitor = snapshot::SaveMonitor::new(BootMonitor::new(CASE_TIMEOUT), socket, saved);
        let log = saved.boot_log_path();
        process::run_logged(
            &mut cmd,
            &log,
            arch.runner(),
            Duration::from_secs(10),
            BOOT_TIMEOUT,
            &mut monitor,
        )?;
        match monitor.outcome() {
            Some(Ok(())) => {
                progress::done("saved", start);
                Ok(true)
            }
            Some(Err(why)) => Err(anyhow::anyhow!(
                "saving the booted guest failed: {why} (console: {})",
                log.display()
            )),
            None => {
                // What `/init` said of it, if it got that far (`receiving the modules: ...`).
                let text = fs::read_to_string(&log).unwrap_or_default();
                let why = text
                    .lines()
                    .map(console::strip_time)
                    .rev()
                    .find(|line| {
                        line.starts_with("kernel-core-init: ") && !line.contains(": halt: ")
                    })
                    .map(|line| format!(" (its last word: `{line}`)"))
                    .unwrap_or_default();
                progress::done(
                    &format!("the guest never reached `/init`'s `ready`{why}: booting it cold"),
                    start,
                );
                Ok(false)
            }
        }
    })
}

/// How a guest runs, beside its kernel and modules.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// How long `/init` may be at work without output before its case counts as hung.
    pub case_timeout: Duration,
    /// Guest time from the guest's instructions under QEMU ([`ICOUNT`]).
    pub icount: bool,
    /// Resume the saved boot where the machine allows ([`snapshot`]), rather than boot.
    pub resume: bool,
}

/// Boots `build`'s kernel with `init` and `kos`, watches the console for hangs, and parses it
/// (`out/console.log`). Where the machine allows and `settings` say so, the guest is resumed
/// from its saved boot and receives `kos` through a virtio serial port ([`snapshot`]);
/// otherwise they are packed into an initramfs in `out` and the kernel boots.
pub fn boot(
    build: &Build,
    arch: &Arch,
    out: &Path,
    init: &Path,
    kos: &[PathBuf],
    settings: Settings,
) -> Result<Boot> {
    let Settings {
        case_timeout,
        icount,
        resume,
    } = settings;
    let saved = if resume && snapshot::resumable(arch) {
        saved_boot(build, arch, init, icount)?
    } else {
        None
    };
    let console = out.join(cell::CONSOLE);
    let mut monitor = BootMonitor::new(case_timeout);
    // The QMP socket's directory, kept until QEMU ends.
    let mut _scratch = None;
    let (mut cmd, feed, how) = match &saved {
        Some(saved) => {
            let scratch = files::scratch_dir("kernel-core-qmp.")?;
            let socket = scratch.path().join("qmp.sock");
            _scratch = Some(scratch);
            let mut modules = Vec::new();
            for ko in kos {
                let name = ko
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                modules.push((name, fs::read(ko).at(ko)?));
            }
            let bundle = out.join(cell::MODULES);
            fs::write(&bundle, snapshot::bundle(&snapshot::seed()?, &modules)).at(&bundle)?;
            let (failed, load_failed) = mpsc::channel();
            monitor.load_failed = Some(load_failed);
            let mut cmd = resumable_command(build, arch, &saved.initramfs(), icount, &bundle);
            cmd.args(snapshot::Saved::incoming_args(&socket));
            let feed = process::Feed {
                prefix: saved.boot_log()?,
                started: Some(snapshot::loader(saved, socket, failed)),
            };
            (cmd, feed, "resuming the saved boot of")
        }
        None => {
            let initrd = out.join(cell::INITRAMFS);
            let ko_refs: Vec<&Path> = kos.iter().map(PathBuf::as_path).collect();
            crate::pipeline::initramfs::build(&initrd, init, &ko_refs)?;
            let cmd = guest_command(arch, &build.image, &initrd, icount);
            (cmd, process::Feed::default(), "booting")
        }
    };
    let start: Instant = progress::step(&format!(
        "{how} {} under {}",
        build.source.version,
        match arch.machine {
            Machine::Qemu { binary, .. } => format!("{binary} (TCG)"),
            Machine::Uml => "User-Mode Linux".to_string(),
        }
    ));
    let logged = process::run_logged_fed(
        &mut cmd,
        feed,
        &console,
        arch.runner(),
        Duration::from_secs(10),
        BOOT_TIMEOUT,
        &mut monitor,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    progress::done(
        &format!(
            "guest {}; console log: {}",
            match &logged.ending {
                Ending::Exited(_) => "finished".to_string(),
                Ending::TimedOut => "timed out".to_string(),
                Ending::Stopped(why) => format!("stopped ({why})"),
            },
            console.display()
        ),
        start,
    );
    let hang = match &logged.ending {
        Ending::Stopped(_) => monitor.hang.take().map(|(_, hang)| hang),
        _ => None,
    };
    let restarted = match &logged.ending {
        Ending::Stopped(why) if hang.is_none() => Some(why.clone()),
        _ => None,
    };
    Ok(Boot {
        log: monitor.reader.finish(),
        console,
        seconds,
        ending: logged.ending,
        hang,
        restarted,
    })
}
