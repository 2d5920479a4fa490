// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The handful of Linux system calls `/init` needs, as raw `core::arch::asm!` wrappers.
//!
//! There is no libc in a freestanding binary, so each supported architecture gets a tiny `arch`
//! module with its syscall numbers and one `syscall6` that follows the kernel's calling
//! convention. Everything above it is architecture-independent and safe: the wrappers take
//! `&CStr` and slices, so the pointers they hand to the kernel are always valid.
//!
//! The numbers were checked against Linux 7.2 (and, for arm, s390x and powerpc, 7.3): x86_64 has
//! its own table (`arch/x86/entry/syscalls/syscall_64.tbl`), and so do 32-bit arm
//! (`arch/arm/tools/syscall.tbl`, the EABI numbers), s390x
//! (`arch/s390/kernel/syscalls/syscall.tbl`) and powerpc
//! (`arch/powerpc/kernel/syscalls/syscall.tbl`); arm64, riscv64 and loongarch64 use the generic one
//! (`include/uapi/asm-generic/unistd.h`, generated from `scripts/syscall.tbl`). The flag values
//! below are the generic `include/uapi/asm-generic/fcntl.h` ones, which all eight share (arm's
//! and powerpc's `asm/fcntl.h` only move `O_DIRECTORY`, `O_NOFOLLOW`, `O_DIRECT` and
//! `O_LARGEFILE`, none of which `/init` uses; s390 has no `asm/fcntl.h` of its own).
//!
//! Arguments and results are machine words (`usize`, `isize`) in registers, so nothing here
//! depends on byte order: the same code is right for big-endian s390x and 32-bit powerpc.

use core::ffi::CStr;

/// An error a system call returned: the positive `errno` value (`ENOENT` is 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Errno(pub(crate) usize);

/// `ENOENT`: no such file.
pub(crate) const ENOENT: Errno = Errno(2);
/// `ENAMETOOLONG`, used for module file names that do not fit `/init`'s buffers.
pub(crate) const ENAMETOOLONG: Errno = Errno(36);
/// `EIO`: what came through the modules' port was not what was expected.
pub(crate) const EIO: Errno = Errno(5);
/// `EINTR`: a signal interrupted the call; retried.
const EINTR: Errno = Errno(4);

/// `AT_FDCWD`: resolve relative paths against the working directory.
const AT_FDCWD: isize = -100;
/// `O_RDONLY`.
const O_RDONLY: usize = 0;
/// `O_WRONLY`.
const O_WRONLY: usize = 1;
/// `O_CREAT` (`00000100`).
const O_CREAT: usize = 0o100;
/// `O_TRUNC` (`00001000`).
const O_TRUNC: usize = 0o1000;
/// `O_CLOEXEC` (`02000000`).
const O_CLOEXEC: usize = 0o2_000_000;
/// `O_NONBLOCK` (`00004000`): for `delete_module`, fail with `EWOULDBLOCK` instead of waiting
/// for the module's reference count to drop.
pub(crate) const O_NONBLOCK: usize = 0o4000;

/// `LINUX_REBOOT_MAGIC1` and `LINUX_REBOOT_MAGIC2` (`include/uapi/linux/reboot.h`).
const LINUX_REBOOT_MAGIC1: usize = 0xfee1_dead;
const LINUX_REBOOT_MAGIC2: usize = 672_274_793;
/// `LINUX_REBOOT_CMD_RESTART`: QEMU runs with `-no-reboot`, so a restart makes it exit (tinyconfig
/// kernels have no ACPI, so a power-off would hang instead).
pub(crate) const LINUX_REBOOT_CMD_RESTART: usize = 0x0123_4567;
/// `LINUX_REBOOT_CMD_POWER_OFF`: for User-Mode Linux, which starts itself again on a restart but
/// exits on a power-off.
pub(crate) const LINUX_REBOOT_CMD_POWER_OFF: usize = 0x4321_fedc;

/// File descriptor 1, already `/dev/console` when the kernel starts PID 1.
pub(crate) const STDOUT: usize = 1;
/// File descriptor 2, also `/dev/console`.
pub(crate) const STDERR: usize = 2;

#[cfg(target_arch = "x86_64")]
mod arch {
    //! x86_64: `syscall`, number in `rax`, arguments in `rdi rsi rdx r10 r8 r9`, result in `rax`;
    //! the instruction itself clobbers `rcx` (return address) and `r11` (flags).

    pub(super) const READ: usize = 0;
    pub(super) const WRITE: usize = 1;
    pub(super) const CLOSE: usize = 3;
    pub(super) const REBOOT: usize = 169;
    pub(super) const DELETE_MODULE: usize = 176;
    pub(super) const OPENAT: usize = 257;
    pub(super) const FINIT_MODULE: usize = 313;
    pub(super) const NANOSLEEP: usize = 35;
    pub(super) const MOUNT: usize = 165;
    pub(super) const IOCTL: usize = 16;

    /// Issues system call `nr` with six arguments.
    ///
    /// # Safety
    ///
    /// The arguments must be what system call `nr` expects: in particular, every pointer must be
    /// valid for the access the kernel makes through it.
    pub(super) unsafe fn syscall6(nr: usize, a: [usize; 6]) -> isize {
        let ret: isize;
        // SAFETY: the caller guarantees the arguments suit the system call; the register
        // assignment is the kernel's x86_64 ABI, and `rcx`/`r11` are declared clobbered. Memory is
        // not declared untouched, as the kernel reads and writes through the pointers.
        unsafe {
            core::arch::asm!(
                "syscall",
                inlateout("rax") nr as isize => ret,
                in("rdi") a[0],
                in("rsi") a[1],
                in("rdx") a[2],
                in("r10") a[3],
                in("r8") a[4],
                in("r9") a[5],
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack),
            );
        }
        ret
    }
}

/// The asm-generic syscall numbers, shared by arm64, riscv64 and loongarch64.
#[cfg(any(
    target_arch = "aarch64",
    target_arch = "riscv64",
    target_arch = "loongarch64"
))]
mod generic {
    pub(super) const OPENAT: usize = 56;
    pub(super) const CLOSE: usize = 57;
    pub(super) const READ: usize = 63;
    pub(super) const WRITE: usize = 64;
    pub(super) const DELETE_MODULE: usize = 106;
    pub(super) const REBOOT: usize = 142;
    pub(super) const FINIT_MODULE: usize = 273;
    pub(super) const MOUNT: usize = 40;
    pub(super) const NANOSLEEP: usize = 101;
    pub(super) const IOCTL: usize = 29;
}

#[cfg(target_arch = "aarch64")]
mod arch {
    //! arm64: `svc #0`, number in `x8`, arguments in `x0`-`x5`, result in `x0`.

    pub(super) use super::generic::*;

    /// Issues system call `nr` with six arguments.
    ///
    /// # Safety
    ///
    /// The arguments must be what system call `nr` expects: in particular, every pointer must be
    /// valid for the access the kernel makes through it.
    pub(super) unsafe fn syscall6(nr: usize, a: [usize; 6]) -> isize {
        let ret: isize;
        // SAFETY: the caller guarantees the arguments suit the system call; the register
        // assignment is the kernel's arm64 ABI, which preserves every other register.
        unsafe {
            core::arch::asm!(
                "svc #0",
                in("x8") nr,
                inlateout("x0") a[0] as isize => ret,
                in("x1") a[1],
                in("x2") a[2],
                in("x3") a[3],
                in("x4") a[4],
                in("x5") a[5],
                options(nostack),
            );
        }
        ret
    }
}

#[cfg(target_arch = "riscv64")]
mod arch {
    //! riscv64: `ecall`, number in `a7`, arguments in `a0`-`a5`, result in `a0`.

    pub(super) use super::generic::*;

    /// Issues system call `nr` with six arguments.
    ///
    /// # Safety
    ///
    /// The arguments must be what system call `nr` expects: in particular, every pointer must be
    /// valid for the access the kernel makes through it.
    pub(super) unsafe fn syscall6(nr: usize, a: [usize; 6]) -> isize {
        let ret: isize;
        // SAFETY: the caller guarantees the arguments suit the system call; the register
        // assignment is the kernel's riscv64 ABI, which preserves every other register.
        unsafe {
            core::arch::asm!(
                "ecall",
                in("a7") nr,
                inlateout("a0") a[0] as isize => ret,
                in("a1") a[1],
                in("a2") a[2],
                in("a3") a[3],
                in("a4") a[4],
                in("a5") a[5],
                options(nostack),
            );
        }
        ret
    }
}

#[cfg(target_arch = "loongarch64")]
mod arch {
    //! loongarch64: `syscall 0`, number in `$a7`, arguments in `$a0`-`$a5`, result in `$a0`. The
    //! kernel may clobber the temporaries `$t0`-`$t8` (as musl and glibc also assume).

    pub(super) use super::generic::*;

    /// Issues system call `nr` with six arguments.
    ///
    /// # Safety
    ///
    /// The arguments must be what system call `nr` expects: in particular, every pointer must be
    /// valid for the access the kernel makes through it.
    pub(super) unsafe fn syscall6(nr: usize, a: [usize; 6]) -> isize {
        let ret: isize;
        // SAFETY: the caller guarantees the arguments suit the system call; the register
        // assignment is the kernel's loongarch64 ABI, and `$t0`-`$t8` are declared clobbered.
        unsafe {
            core::arch::asm!(
                "syscall 0",
                in("$a7") nr,
                inlateout("$a0") a[0] as isize => ret,
                in("$a1") a[1],
                in("$a2") a[2],
                in("$a3") a[3],
                in("$a4") a[4],
                in("$a5") a[5],
                lateout("$t0") _,
                lateout("$t1") _,
                lateout("$t2") _,
                lateout("$t3") _,
                lateout("$t4") _,
                lateout("$t5") _,
                lateout("$t6") _,
                lateout("$t7") _,
                lateout("$t8") _,
                options(nostack),
            );
        }
        ret
    }
}

#[cfg(target_arch = "arm")]
mod arch {
    //! 32-bit arm, EABI: `svc #0`, number in `r7`, arguments in `r0`-`r5`, result in `r0`; the
    //! kernel preserves every other register. (The old ABI encoded the number in the `svc`
    //! instruction instead; the kernels kernel-core builds have `CONFIG_AEABI`.)
    //!
    //! `r7` is the frame pointer in Thumb code, and `asm!` refuses it as an operand whenever
    //! the function is compiled as Thumb. `armv7a-none-eabi` generates Arm code (frame pointer
    //! `r11`), but rather than rely on that, the number comes in any free register and the
    //! asm block itself saves `r7`, loads the number into it and restores it after the `svc`.
    //! That is two `mov`s per system call and correct in either instruction set.

    pub(super) const READ: usize = 3;
    pub(super) const WRITE: usize = 4;
    pub(super) const CLOSE: usize = 6;
    pub(super) const REBOOT: usize = 88;
    pub(super) const DELETE_MODULE: usize = 129;
    pub(super) const OPENAT: usize = 322;
    pub(super) const FINIT_MODULE: usize = 379;
    pub(super) const MOUNT: usize = 21;
    pub(super) const NANOSLEEP: usize = 162;
    pub(super) const IOCTL: usize = 54;

    /// Issues system call `nr` with six arguments.
    ///
    /// # Safety
    ///
    /// The arguments must be what system call `nr` expects: in particular, every pointer must be
    /// valid for the access the kernel makes through it.
    pub(super) unsafe fn syscall6(nr: usize, a: [usize; 6]) -> isize {
        let ret: isize;
        // SAFETY: the caller guarantees the arguments suit the system call; the register
        // assignment is the kernel's arm EABI, which preserves every register but `r0`. `r7` is
        // restored before the block ends; `saved` is an `out` (not `lateout`) operand, so it
        // never shares a register with `nr` or the arguments. If the allocator picks `r7` itself
        // for `saved` (possible in Arm code), `r7` just ends up clobbered, as declared; if it
        // picks `r7` for `nr`, `r7` ends up holding `nr` again, as an input must.
        unsafe {
            core::arch::asm!(
                "mov {saved}, r7",
                "mov r7, {nr}",
                "svc #0",
                "mov r7, {saved}",
                nr = in(reg) nr,
                saved = out(reg) _,
                inlateout("r0") a[0] as isize => ret,
                in("r1") a[1],
                in("r2") a[2],
                in("r3") a[3],
                in("r4") a[4],
                in("r5") a[5],
                options(nostack),
            );
        }
        ret
    }
}

#[cfg(target_arch = "s390x")]
mod arch {
    //! s390x: `svc 0`, number in `r1`, arguments in `r2`-`r7`, result in `r2`; the kernel
    //! preserves every other register. (`svc <nr>` with the number in the instruction works
    //! only below 256; `svc 0` with `r1` works for all.) The 31-bit compat ABI is gone from
    //! Linux 7.3; these are the 64-bit numbers.

    pub(super) const READ: usize = 3;
    pub(super) const WRITE: usize = 4;
    pub(super) const CLOSE: usize = 6;
    pub(super) const REBOOT: usize = 88;
    pub(super) const DELETE_MODULE: usize = 129;
    pub(super) const OPENAT: usize = 288;
    pub(super) const FINIT_MODULE: usize = 344;
    pub(super) const MOUNT: usize = 21;
    pub(super) const NANOSLEEP: usize = 162;
    pub(super) const IOCTL: usize = 54;

    /// Issues system call `nr` with six arguments.
    ///
    /// # Safety
    ///
    /// The arguments must be what system call `nr` expects: in particular, every pointer must be
    /// valid for the access the kernel makes through it.
    pub(super) unsafe fn syscall6(nr: usize, a: [usize; 6]) -> isize {
        let ret: isize;
        // SAFETY: the caller guarantees the arguments suit the system call; the register
        // assignment is the kernel's s390x ABI, which preserves every register but `r2`.
        // (`r6` and `r7` are callee-saved in the C ABI; as operands the compiler saves them.)
        unsafe {
            core::arch::asm!(
                "svc 0",
                in("r1") nr,
                inlateout("r2") a[0] as isize => ret,
                in("r3") a[1],
                in("r4") a[2],
                in("r5") a[3],
                in("r6") a[4],
                in("r7") a[5],
                options(nostack),
            );
        }
        ret
    }
}

#[cfg(any(target_arch = "powerpc", target_arch = "powerpc64"))]
mod arch {
    //! PowerPC, 32-bit (big-endian) and 64-bit (little-endian, ELFv2): `sc`, number in `r0`,
    //! arguments in `r3`-`r8`, result in `r3`. Unlike every other architecture here, a failure
    //! is not a negative result: the kernel sets the summary-overflow bit of `cr0` and leaves
    //! the positive `errno` in `r3` (`Documentation/arch/powerpc/syscall64-abi.rst`; 32-bit
    //! does the same). The asm block turns that into `-errno` (`bns` skips the `neg` when the
    //! bit is clear), so [`super::check`] reads it as on the others. `sc` follows the C
    //! calling convention's register rules: `r0`, `r3`-`r12`, `ctr`, `xer` and `cr0` may come
    //! back changed (`cr1` and `cr5`-`cr7`, volatile in C, are preserved by `sc`).
    //!
    //! The numbers are Linux 7.3's `arch/powerpc/kernel/syscalls/syscall.tbl`, the same for
    //! 32- and 64-bit; the `fcntl.h` flags used here are the generic ones (powerpc's own
    //! `asm/fcntl.h` only moves `O_DIRECTORY`, `O_NOFOLLOW`, `O_LARGEFILE` and `O_DIRECT`).

    pub(super) const READ: usize = 3;
    pub(super) const WRITE: usize = 4;
    pub(super) const CLOSE: usize = 6;
    pub(super) const REBOOT: usize = 88;
    pub(super) const DELETE_MODULE: usize = 129;
    pub(super) const OPENAT: usize = 286;
    pub(super) const FINIT_MODULE: usize = 353;
    pub(super) const MOUNT: usize = 21;
    pub(super) const NANOSLEEP: usize = 162;
    pub(super) const IOCTL: usize = 54;

    /// Issues system call `nr` with six arguments.
    ///
    /// # Safety
    ///
    /// The arguments must be what system call `nr` expects: in particular, every pointer must be
    /// valid for the access the kernel makes through it.
    pub(super) unsafe fn syscall6(nr: usize, a: [usize; 6]) -> isize {
        let ret: isize;
        // SAFETY: the caller guarantees the arguments suit the system call; the register
        // assignment is the kernel's powerpc ABI, and every register `sc` may change is an
        // output or declared clobbered.
        unsafe {
            core::arch::asm!(
                "sc",
                "bns+ 2f",
                "neg 3, 3",
                "2:",
                inlateout("r0") nr => _,
                inlateout("r3") a[0] as isize => ret,
                inlateout("r4") a[1] => _,
                inlateout("r5") a[2] => _,
                inlateout("r6") a[3] => _,
                inlateout("r7") a[4] => _,
                inlateout("r8") a[5] => _,
                lateout("r9") _,
                lateout("r10") _,
                lateout("r11") _,
                lateout("r12") _,
                out("ctr") _,
                out("xer") _,
                out("cr0") _,
                options(nostack),
            );
        }
        ret
    }
}

// Bare-metal targets, and for PowerPC, which has no bare-metal Rust target with a prebuilt
// `core`, its Linux targets used freestanding (`build.rs` checks the binary stays static).
#[cfg(not(any(
    all(
        target_os = "none",
        any(
            target_arch = "x86_64",
            target_arch = "aarch64",
            target_arch = "riscv64",
            target_arch = "loongarch64",
            target_arch = "arm",
            target_arch = "s390x"
        )
    ),
    all(
        target_os = "linux",
        any(target_arch = "powerpc", target_arch = "powerpc64")
    )
)))]
compile_error!(
    "kernel-core-guest-init supports x86_64, aarch64, riscv64, loongarch64, arm and s390x \
     bare-metal (`*-unknown-none*`, `*-none-eabi`) targets, and powerpc and powerpc64le \
     through their `*-unknown-linux-gnu` targets, only"
);

/// Turns a raw return value into a result: Linux returns `-errno` in `-4095..=-1`.
fn check(ret: isize) -> Result<usize, Errno> {
    if (-4095..0).contains(&ret) {
        Err(Errno(ret.unsigned_abs()))
    } else {
        Ok(ret as usize)
    }
}

/// A pointer as a system call argument.
fn ptr<T: ?Sized>(p: *const T) -> usize {
    p.cast::<u8>() as usize
}

/// An open file descriptor, closed when dropped.
pub(crate) struct Fd(usize);

impl Drop for Fd {
    fn drop(&mut self) {
        // SAFETY: `close` takes no pointers; `self.0` is a descriptor this `Fd` owns.
        // Errors are ignored: the descriptor is gone either way.
        let _ = unsafe { arch::syscall6(arch::CLOSE, [self.0, 0, 0, 0, 0, 0]) };
    }
}

/// `openat(AT_FDCWD, path, flags | O_CLOEXEC, 0o600)` (the mode matters only with `O_CREAT`).
fn open(path: &CStr, flags: usize) -> Result<Fd, Errno> {
    // SAFETY: `path` is a valid NUL-terminated string for the duration of the call.
    let ret = unsafe {
        arch::syscall6(
            arch::OPENAT,
            [
                AT_FDCWD as usize,
                ptr(path.as_ptr()),
                flags | O_CLOEXEC,
                0o600,
                0,
                0,
            ],
        )
    };
    check(ret).map(Fd)
}

/// `openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC)`.
pub(crate) fn open_read(path: &CStr) -> Result<Fd, Errno> {
    open(path, O_RDONLY)
}

/// `openat(AT_FDCWD, path, O_WRONLY | O_CLOEXEC)`.
pub(crate) fn open_write(path: &CStr) -> Result<Fd, Errno> {
    open(path, O_WRONLY)
}

/// `openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)`: a new, empty
/// file (or an existing one emptied).
pub(crate) fn create(path: &CStr) -> Result<Fd, Errno> {
    open(path, O_WRONLY | O_CREAT | O_TRUNC)
}

impl Fd {
    /// The raw descriptor, still owned by `self`.
    pub(crate) fn raw(&self) -> usize {
        self.0
    }
}

/// `read(fd, buf, buf.len())`, retried on `EINTR`.
pub(crate) fn read(fd: &Fd, buf: &mut [u8]) -> Result<usize, Errno> {
    loop {
        // SAFETY: `buf` is valid for writes of `buf.len()` bytes for the duration of the call.
        let ret = unsafe {
            arch::syscall6(
                arch::READ,
                [fd.0, ptr(buf.as_mut_ptr()), buf.len(), 0, 0, 0],
            )
        };
        match check(ret) {
            Err(EINTR) => continue,
            other => return other,
        }
    }
}

/// Writes all of `buf` to file descriptor `fd`, looping over short writes and `EINTR`.
pub(crate) fn write_all(fd: usize, mut buf: &[u8]) -> Result<(), Errno> {
    while !buf.is_empty() {
        // SAFETY: `buf` is valid for reads of `buf.len()` bytes for the duration of the call.
        let ret =
            unsafe { arch::syscall6(arch::WRITE, [fd, ptr(buf.as_ptr()), buf.len(), 0, 0, 0]) };
        match check(ret) {
            Err(EINTR) => {}
            Err(e) => return Err(e),
            // A console does not return 0 for a non-empty write; stop rather than spin.
            Ok(0) => return Ok(()),
            Ok(n) => buf = buf.get(n..).unwrap_or_default(),
        }
    }
    Ok(())
}

/// `mount(source, target, fstype, 0, NULL)`.
pub(crate) fn mount(source: &CStr, target: &CStr, fstype: &CStr) -> Result<(), Errno> {
    // SAFETY: the three strings are valid and NUL-terminated for the duration of the call, and
    // the data pointer is NULL, which `mount` accepts.
    let ret = unsafe {
        arch::syscall6(
            arch::MOUNT,
            [
                ptr(source.as_ptr()),
                ptr(target.as_ptr()),
                ptr(fstype.as_ptr()),
                0,
                0,
                0,
            ],
        )
    };
    check(ret).map(drop)
}

/// Sleeps for `ms` milliseconds (`nanosleep`; an interrupted sleep ends early).
pub(crate) fn sleep_ms(ms: usize) {
    // `struct timespec` of the call: two machine words (on 32-bit arm and powerpc the number
    // is the `time32` call, whose fields are 32 bits).
    let request: [usize; 2] = [ms / 1000, (ms % 1000) * 1_000_000];
    // SAFETY: `request` is valid for reads of two words for the duration of the call; the
    // remainder pointer is NULL, which `nanosleep` accepts.
    let _ = unsafe { arch::syscall6(arch::NANOSLEEP, [ptr(request.as_ptr()), 0, 0, 0, 0, 0]) };
}

/// `ioctl(fd, request, 0)`, for a request that takes no argument.
pub(crate) fn ioctl_none(fd: &Fd, request: usize) -> Result<(), Errno> {
    // SAFETY: the request takes no argument, so the kernel reads and writes no memory of ours.
    let ret = unsafe { arch::syscall6(arch::IOCTL, [fd.0, request, 0, 0, 0, 0]) };
    check(ret).map(drop)
}

/// `finit_module(fd, params, flags)`: loads the module image `fd` refers to and runs its init.
pub(crate) fn finit_module(fd: &Fd, params: &CStr, flags: usize) -> Result<(), Errno> {
    // SAFETY: `params` is a valid NUL-terminated string for the duration of the call.
    let ret = unsafe {
        arch::syscall6(
            arch::FINIT_MODULE,
            [fd.0, ptr(params.as_ptr()), flags, 0, 0, 0],
        )
    };
    check(ret).map(drop)
}

/// `delete_module(name, flags)`: runs the module's exit and unloads it.
pub(crate) fn delete_module(name: &CStr, flags: usize) -> Result<(), Errno> {
    // SAFETY: `name` is a valid NUL-terminated string for the duration of the call.
    let ret =
        unsafe { arch::syscall6(arch::DELETE_MODULE, [ptr(name.as_ptr()), flags, 0, 0, 0, 0]) };
    check(ret).map(drop)
}

/// `reboot(LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, cmd, NULL)`. Returns only if it failed.
pub(crate) fn reboot(cmd: usize) -> Errno {
    // SAFETY: `reboot` reads no memory for the commands `/init` uses (the `arg` pointer only
    // matters for `LINUX_REBOOT_CMD_RESTART2`), and it is NULL anyway.
    let ret = unsafe {
        arch::syscall6(
            arch::REBOOT,
            [LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, cmd, 0, 0, 0],
        )
    };
    match check(ret) {
        Err(e) => e,
        // Unreachable in practice: a successful restart does not return.
        Ok(_) => Errno(0),
    }
}
