// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The runner under faults: a kernel build killed halfway and run again, two runs sharing the
//! cache, a full disk, a signal while a plain command (`command::run`) runs. (An apt lock held by
//! someone else is tested in `setup`'s unit tests, a kernel tree without Rust or built with
//! another rustc in `preflight`'s.)
//!
//! The kernel build runs in a child process (this test binary run again, on the ignored test
//! [`child_builds_the_kernel`]) against a fake kernel source and a fake `make` on `PATH`, so
//! that it can be killed in the middle without harm and takes no minutes.

use cargo_kernel_core::infra::{process, signal, watchdog};
use cargo_kernel_core::kernel::{self, toolchain::Toolchain};
use cargo_kernel_core::model::arch::{ARCHES, KERNELS};
use cargo_kernel_core::model::event::{self, Event, Events};
use cargo_kernel_core::report::ktap::KtapFiles;
use rustix::process::{Pid, Signal};
use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Set in the child: the fake set-up's root.
const CHILD: &str = "KERNEL_CORE_FAULT_CHILD";

fn write_script(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// A cache holding a fake, extracted Linux 7.3.99 source, and fake `make`, `rustc` and
/// `bindgen` in `root/bin`. The fake `make` stops in the middle of its first build (it sleeps
/// until killed) and finishes the second.
fn fake_setup(root: &Path) {
    let source = root.join("cache/src").join(KERNELS[0].package);
    fs::create_dir_all(&source).unwrap();
    fs::write(source.join(".kernel-core-extracted"), "").unwrap();
    fs::write(
        source.join("Makefile"),
        "VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 99\n",
    )
    .unwrap();
    // merge_config.sh -m -O <dir> <dir>/.config <fragments...>: the fragments, merged.
    write_script(
        &source.join("scripts/kconfig/merge_config.sh"),
        "#!/bin/sh\nout=$3\nshift 4\ncat \"$@\" > \"$out/.config\"\n",
    );
    let bin = root.join("bin");
    write_script(
        &bin.join("make"),
        r#"#!/bin/sh
out=
for a in "$@"; do case "$a" in O=*) out=${a#O=};; esac; done
echo "make $*" >> "$out/../make.log"
case " $* " in
*" tinyconfig "*|*" olddefconfig "*) exit 0;;
esac
if [ ! -e "$out/.half-built" ]; then
    touch "$out/.half-built"
    exec sleep 60
fi
mkdir -p "$out/arch/x86/boot"
touch "$out/arch/x86/boot/bzImage" "$out/Module.symvers" "$out/.resumed"
"#,
    );
    write_script(
        &bin.join("rustc"),
        "#!/bin/sh\necho 'rustc 1.95.0 (fake)'\n",
    );
    write_script(&bin.join("bindgen"), "#!/bin/sh\necho 'bindgen 0.71.1'\n");
}

/// The child: builds the fake kernel and says how it went.
#[test]
#[ignore = "run by a_killed_kernel_build_is_resumed, in a child process"]
fn child_builds_the_kernel() {
    let root = PathBuf::from(std::env::var_os(CHILD).expect("run by the parent test"));
    watchdog::use_program(env!("CARGO_BIN_EXE_cargo-kernel-core"));
    let tools = Toolchain {
        rustc: root.join("bin/rustc"),
        bindgen: root.join("bin/bindgen"),
        ..Toolchain::default()
    };
    let build = kernel::build(&KERNELS[0], &ARCHES[0], &tools).unwrap();
    println!(
        "child: built in {} ({})",
        build.dir.display(),
        if build.seconds.is_some() {
            "ran"
        } else {
            "cached"
        }
    );
}

/// Runs [`child_builds_the_kernel`] in its own process group.
fn spawn_child(root: &Path) -> Child {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![root.join("bin")];
    paths.extend(std::env::split_paths(&path));
    Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_builds_the_kernel",
            "--ignored",
            "--nocapture",
        ])
        .env(CHILD, root)
        .env("KERNEL_CORE_CACHE", root.join("cache"))
        .env("PATH", std::env::join_paths(paths).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap()
}

/// Sends `signal` to the process `pid` alone.
fn signal(pid: u32, signal: Signal) {
    let pid = Pid::from_raw(i32::try_from(pid).unwrap()).unwrap();
    let _ = rustix::process::kill_process(pid, signal);
}

/// Waits up to 30 s for `what` to hold.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The one build directory under the fake cache, once there is one.
fn build_dirs(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(root.join("cache/build")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect()
}

#[test]
fn a_killed_kernel_build_is_resumed_and_a_second_run_waits_for_the_first() {
    let scratch = tempfile::tempdir().unwrap();
    let root = scratch.path().to_path_buf();
    fake_setup(&root);

    // 1. A build killed halfway: no stamp, so nothing will take it for finished.
    let mut first = spawn_child(&root);
    wait_for("the first build to start", || {
        build_dirs(&root)
            .first()
            .is_some_and(|d| d.join(".half-built").exists())
    });
    let dir = build_dirs(&root).remove(0);
    signal::kill_group(first.id());
    let _ = first.wait();
    assert!(
        !dir.join(".kernel-core-built").exists(),
        "a killed build has no stamp"
    );

    // 2. Another run holds the build's lock for a while: the next run waits for it, then
    // resumes the killed build in the same directory.
    let lock = PathBuf::from(format!("{}.lock", dir.display()));
    let mut holder = Command::new("flock")
        .arg(&lock)
        .args(["sleep", "2"])
        .spawn()
        .expect("flock(1) from util-linux");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    let second = spawn_child(&root).wait_with_output().unwrap();
    let waited = start.elapsed();
    holder.wait().unwrap();
    let text = String::from_utf8_lossy(&second.stdout).into_owned()
        + &String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "the second run failed:\n{text}");
    assert!(text.contains("waiting for another run"), "{text}");
    assert!(
        waited >= Duration::from_millis(1500),
        "it did not wait: {waited:?}"
    );
    assert!(text.contains("(ran)"), "{text}");
    assert_eq!(
        build_dirs(&root),
        std::slice::from_ref(&dir),
        "resumed in the same directory"
    );
    assert!(dir.join(".resumed").exists() && dir.join(".kernel-core-built").exists());

    // 3. A third run finds it cached.
    let third = spawn_child(&root).wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&third.stdout).contains("(cached)"));
}

#[test]
fn a_full_disk_gives_a_clear_error() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
        .arg(&dir)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        // Mounting needs root, as CI has.
        eprintln!(
            "skipped: cannot mount a 1 MiB tmpfs on {} (not root?)",
            dir.display()
        );
        return;
    }
    // Before a kernel source or build: the space is checked, and the message says how much is
    // needed where.
    let error =
        cargo_kernel_core::kernel::setup::ensure_space(&dir, 3 << 30, "a kernel source tree")
            .unwrap_err()
            .to_string();
    assert!(
        error.contains("not enough disk space for a kernel source tree"),
        "{error}"
    );
    assert!(error.contains(&dir.display().to_string()) && error.contains("3072 MiB needed"));

    // A write that runs out of space says where.
    {
        use std::io::Write as _;
        let mut filler = fs::File::create(dir.join("filler")).unwrap();
        while filler
            .write_all(&[0u8; 512])
            .and_then(|()| filler.sync_all())
            .is_ok()
        {}
    }
    let log = cargo_kernel_core::model::console::parse(
        "kernel-core-init: begin m.ko\nKTAP version 1\n1..0\nkernel-core-init: done\n",
    );
    // Through the event stream, as a run writes it: the KTAP reporter's error fails the
    // pipeline's emit.
    let load = &log.loads[0];
    let events = Events::new(vec![Box::new(KtapFiles)]);
    let installed = events.install();
    let error = event::emit(&Event::Ktap {
        dir: &dir,
        module: &load.module,
        lines: &load.ktap.as_ref().expect("a KTAP document").lines,
    })
    .unwrap_err()
    .to_string();
    drop(installed);
    let _ = Command::new("umount").arg(&dir).status();
    assert!(
        error.contains(&format!("{}/ktap-m.log", dir.display())),
        "{error}"
    );
    assert!(error.contains("No space left on device"), "{error}");
}

/// Set in the child of [`a_signal_stops_a_plain_command_at_once`]: where it writes its
/// command's process id (and, in `<file>.own`, that of the command's own child).
const PID_FILE: &str = "KERNEL_CORE_FAULT_PID_FILE";

/// The child: catches signals as the tools' `main`s do, runs a command that would take a
/// minute through `command::run`, and exits as `process::finish` does. The command, as nextest
/// does with its tests, starts a child in a session of its own, which it stops on SIGTERM.
#[test]
#[ignore = "run by a_signal_stops_a_plain_command_at_once, in a child process"]
fn child_runs_a_long_command() {
    let pid_file = std::env::var(PID_FILE).expect("run by the parent test");
    watchdog::use_program(env!("CARGO_BIN_EXE_cargo-kernel-core"));
    process::install_signal_handlers().unwrap();
    let result = cargo_kernel_core::infra::command::run(
        Command::new("sh").args([
            "-c",
            &format!(
                "setsid sleep 60 & own=$!; echo $own > {pid_file}.own; \
                 trap 'kill $own; exit 143' TERM; echo $$ > {pid_file}; wait"
            ),
        ]),
        "",
    );
    println!("child: {result:?}");
    std::process::exit(match result {
        Ok(()) => 0,
        Err(e) => i32::from(process::exit_code(&e)),
    });
}

#[test]
fn a_signal_stops_a_plain_command_at_once() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let pid_file = dir.join("pid");
    let child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_runs_a_long_command",
            "--ignored",
            "--nocapture",
        ])
        .env(PID_FILE, &pid_file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    wait_for("the command to start", || {
        fs::read_to_string(&pid_file).is_ok_and(|p| p.trim().parse::<u32>().is_ok())
    });
    let command: u32 = fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let signalled = Instant::now();
    signal(child.id(), Signal::TERM);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // At once: not after the signal handler's grace period, which would end a stuck run.
    assert!(
        signalled.elapsed() < process::GRACE / 2,
        "took {:?}: {stdout}",
        signalled.elapsed()
    );
    assert_eq!(out.status.code(), Some(128 + 15), "{stdout}");
    assert!(stdout.contains("interrupted by SIGTERM"), "{stdout}");
    let own: u32 = fs::read_to_string(dir.join("pid.own"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // Running, not a zombie that its new parent (here PID 1) has not reaped yet.
    let alive = |pid: u32| {
        let state = fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| Some(stat.rsplit_once(')')?.1.trim_start().starts_with('Z')));
        let alive = state == Some(false);
        if alive {
            signal(pid, Signal::KILL);
        }
        alive
    };
    let (command_alive, own_alive) = (alive(command), alive(own));
    assert!(
        !command_alive,
        "the command ({command}) outlived the interrupted run"
    );
    assert!(
        !own_alive,
        "the command's child in a session of its own ({own}) outlived the interrupted run"
    );
}
