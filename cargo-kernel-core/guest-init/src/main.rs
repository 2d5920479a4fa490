// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `/init` for kernel-core's QEMU runs: loads the test modules, unloads them, and reboots.
//!
//! The kernel-core test harness boots a freshly built kernel under QEMU with an initramfs that
//! holds this program as `/init`, a `/dev/console` node, and the modules under `/modules/` with
//! their load order in `/modules/order`. As PID 1 it
//!
//! 1. for each file in `/modules/order`, prints `kernel-core-init: begin <file>`, loads
//!    `/modules/<file>` with `finit_module(fd, "", 0)` (the module's init, and so its KUnit
//!    suites, run inside that call), and prints `kernel-core-init: insmod <file>: ok` or
//!    `... : error <errno>`;
//! 2. unloads them in reverse order with `delete_module(<name>, O_NONBLOCK)` and prints
//!    `kernel-core-init: rmmod <name>: ok` or `... : error <errno>`;
//! 3. prints `kernel-core-init: done` and reboots with `LINUX_REBOOT_CMD_RESTART`, which ends
//!    QEMU because it runs with `-no-reboot`; or, when the kernel command line holds
//!    `kernel_core_halt=poweroff` (which the kernel passes on as an environment variable, see
//!    [`mod@env`]), powers off with `LINUX_REBOOT_CMD_POWER_OFF`, which ends User-Mode Linux (it
//!    would start itself again on a restart). Either way it first prints
//!    `kernel-core-init: halt: restart` or `kernel-core-init: halt: power off`.
//!
//! With `kernel_core_modules=port` on the kernel command line, `/init` first receives the
//! modules and their order through a virtio serial port ([`receive`]): the runner boots such a
//! guest once, saves it when `/init` says `kernel-core-init: ready`, and resumes it for each
//! run.
//!
//! Why a custom freestanding program rather than busybox or a C init: it needs no C toolchain
//! or libc for any guest architecture (only `rustup` targets and `rust-lld`), it is a few
//! kilobytes, it builds the same way for x86_64, arm64, riscv64, loongarch64, 32-bit arm,
//! big-endian s390x, ppc64le and big-endian ppc32 (and User-Mode Linux runs the x86_64 build),
//! and its output is exactly the stable line format the host's log parser looks for.
//!
//! The program is `#![no_std]` with no allocator: every buffer is a fixed-size array on the
//! stack. System calls are raw `asm!` wrappers in [`sys`]; the entry point is in [`start`].

#![no_std]
#![no_main]

mod console;
mod env;
#[cfg(target_os = "linux")]
mod mem;
mod order;
mod receive;
mod start;
mod sys;

use console::Line;
use core::sync::atomic::{AtomicBool, Ordering};
use env::Halt;

/// The largest `/modules/order` accepted (and, for a resumed guest, written), in bytes.
const ORDER_CAPACITY: usize = 4096;

/// The program proper, called by [`start`] with the initial stack pointer, which points at
/// `argc`, `argv` and the environment.
fn main(sp: *const usize) -> ! {
    // SAFETY: `_start` passes the stack pointer the kernel started PID 1 with, which points at
    // `argc`, `argv` and `envp` as Linux's ELF loader lays them out; nothing ever writes to that
    // part of the stack (every Rust frame lies below it), and `/init` never returns from here,
    // so it stays valid and unchanged for the `'static` the strings are read with.
    let environment = unsafe { env::environment(sp) };
    match env::halt(environment.clone()) {
        Ok(halt) => POWER_OFF.store(halt == Halt::PowerOff, Ordering::Relaxed),
        Err(value) => {
            Line::new()
                .str("kernel_core_halt=")
                .bytes(value)
                .str(": unknown (known: restart, poweroff); restarting")
                .print();
        }
    }

    if env::modules_from_port(environment) && receive::modules().is_err() {
        halt()
    }

    let mut buf = [0u8; ORDER_CAPACITY];
    let Some(text) = read_order(&mut buf) else {
        halt()
    };

    for file in order::entries(text) {
        insmod(file);
    }
    for file in order::entries(text).rev() {
        rmmod(file);
    }

    Line::new().str("done").print();
    halt()
}

/// Reads `/modules/order` into `buf`. On failure, says why and returns `None`.
fn read_order(buf: &mut [u8; ORDER_CAPACITY]) -> Option<&[u8]> {
    const PATH: &str = "/modules/order";
    let fd = match sys::open_read(c"/modules/order") {
        Ok(fd) => fd,
        Err(e) => {
            Line::new()
                .str("cannot open ")
                .str(PATH)
                .str(": ")
                .outcome(Err(e))
                .str("; no modules to load, rebooting")
                .print();
            return None;
        }
    };
    let mut len = 0;
    loop {
        let result = match buf.get_mut(len..) {
            Some(rest) if !rest.is_empty() => sys::read(&fd, rest),
            // Full: the file fits only if it ends here.
            _ => sys::read(&fd, &mut [0u8; 1]),
        };
        match result {
            Ok(0) => break,
            Ok(_) if len == buf.len() => {
                Line::new()
                    .str(PATH)
                    .str(": larger than ")
                    .dec(ORDER_CAPACITY)
                    .str(" bytes, rebooting")
                    .print();
                return None;
            }
            Ok(n) => len += n,
            Err(e) => {
                Line::new()
                    .str("cannot read ")
                    .str(PATH)
                    .str(": ")
                    .outcome(Err(e))
                    .str(", rebooting")
                    .print();
                return None;
            }
        }
    }
    buf.get(..len)
}

/// Loads `/modules/<file>` and reports the outcome.
fn insmod(file: &[u8]) {
    Line::new().str("begin ").bytes(file).print();
    let mut path_buf = [0u8; order::PATH_CAPACITY];
    let result = match order::path(file, &mut path_buf) {
        None => Err(sys::ENAMETOOLONG),
        Some(path) => match sys::open_read(path) {
            Ok(fd) => sys::finit_module(&fd, c"", 0),
            Err(e) => {
                Line::new()
                    .str("open ")
                    .bytes(path.to_bytes())
                    .str(": ")
                    .outcome(Err(e))
                    .print();
                Err(e)
            }
        },
    };
    Line::new()
        .str("insmod ")
        .bytes(file)
        .str(": ")
        .outcome(result)
        .print();
}

/// Unloads the module that `file` held, without waiting for its users, and reports the outcome.
fn rmmod(file: &[u8]) {
    let mut name_buf = [0u8; order::NAME_CAPACITY];
    let (name, result) = match order::module_name(file, &mut name_buf) {
        None => (file, Err(sys::ENAMETOOLONG)),
        Some(name) => (name.to_bytes(), sys::delete_module(name, sys::O_NONBLOCK)),
    };
    Line::new()
        .str("rmmod ")
        .bytes(name)
        .str(": ")
        .outcome(result)
        .print();
}

/// Whether [`halt`] powers off rather than restarts: set once, from the environment, before
/// anything else `main` does (so a panic before that restarts).
static POWER_OFF: AtomicBool = AtomicBool::new(false);

/// Says how it ends the guest and restarts or powers off (see [`POWER_OFF`]); if the kernel
/// refuses, says so and spins forever (PID 1 must not exit).
fn halt() -> ! {
    let (what, cmd) = if POWER_OFF.load(Ordering::Relaxed) {
        ("power off", sys::LINUX_REBOOT_CMD_POWER_OFF)
    } else {
        ("restart", sys::LINUX_REBOOT_CMD_RESTART)
    };
    Line::new().str("halt: ").str(what).print();
    let e = sys::reboot(cmd);
    Line::new()
        .str("reboot: ")
        .outcome(Err(e))
        .str("; spinning")
        .eprint();
    loop {
        core::hint::spin_loop();
    }
}

/// Set by the first panic, so that a panic while reporting one goes straight to [`halt`].
static PANICKING: AtomicBool = AtomicBool::new(false);

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    if !PANICKING.swap(true, Ordering::Relaxed) {
        use core::fmt::Write;
        let mut line = Line::new();
        line.str("panic");
        if let Some(location) = info.location() {
            let _ = write!(
                line,
                " at {}:{}:{}",
                location.file(),
                location.line(),
                location.column()
            );
        }
        let _ = write!(line, ": {}", info.message());
        line.eprint();
    }
    halt()
}
