// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The environment the kernel hands PID 1, and how `/init` ends the guest.
//!
//! Kernel command-line parameters of the form `name=value` that the kernel does not know itself
//! become PID 1's environment variables. The runner uses that to tell `/init` how to halt:
//! `kernel_core_halt=poweroff` (given for User-Mode Linux, which starts itself again on a
//! restart but exits on a power-off) asks for `LINUX_REBOOT_CMD_POWER_OFF`; without it, or with
//! `kernel_core_halt=restart`, `/init` restarts (QEMU runs with `-no-reboot`, so that ends it).
//!
//! There is no libc to collect `environ`, so [`environment`] reads the strings straight from
//! the initial stack that [`crate::start`] passes on: `argc`, `argv[0..argc]`, a null pointer,
//! `envp[..]`, a null pointer, then the auxiliary vector. Every entry there is a machine word
//! (`argc` a `long`, the others pointers), so reading them as `usize` is right on big- and
//! little-endian machines alike.
//!
//! Host unit tests: this crate is a `no_std`, `no_main` binary for bare-metal targets only
//! (`build.rs` refuses anything else), so `cargo test` cannot run here. This file therefore
//! depends on nothing but `core`, and is a test target of `cargo-kernel-core` too
//! (`[[test]] guest_init_env`): `cargo test -p cargo-kernel-core --test guest_init_env`.

// The initial stack is raw memory: reading it is unsafe (and `cargo-kernel-core`, whose
// test target this file also is, denies unsafe code everywhere else).
#![allow(unsafe_code)]

use core::ffi::{c_char, CStr};
use core::marker::PhantomData;

/// The environment variable that says how to halt, with its `=`.
const HALT_VAR: &[u8] = b"kernel_core_halt=";

/// How `/init` ends the guest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// `LINUX_REBOOT_CMD_RESTART`: the default, for QEMU with `-no-reboot`.
    Restart,
    /// `LINUX_REBOOT_CMD_POWER_OFF`: `kernel_core_halt=poweroff`, for User-Mode Linux.
    PowerOff,
}

/// How `env` (`name=value` strings, without their NULs) asks `/init` to halt: `Ok` with the
/// choice (the last `kernel_core_halt=` wins; none means [`Halt::Restart`]), or `Err` with a
/// value it does not know, which the caller reports before it restarts.
pub(crate) fn halt<'a>(env: impl IntoIterator<Item = &'a [u8]>) -> Result<Halt, &'a [u8]> {
    let value = env
        .into_iter()
        .filter_map(|var| var.strip_prefix(HALT_VAR))
        .last();
    match value {
        None | Some(b"restart") => Ok(Halt::Restart),
        Some(b"poweroff") => Ok(Halt::PowerOff),
        Some(other) => Err(other),
    }
}

/// The environment variable that says where the modules come from, with its `=`.
const MODULES_VAR: &[u8] = b"kernel_core_modules=";

/// Whether `env` asks `/init` to receive the modules through the virtio serial port
/// (`kernel_core_modules=port`, the last one winning) rather than find them in the initramfs.
pub(crate) fn modules_from_port<'a>(env: impl IntoIterator<Item = &'a [u8]>) -> bool {
    env.into_iter()
        .filter_map(|var| var.strip_prefix(MODULES_VAR))
        .last()
        == Some(b"port")
}

/// The environment strings on the initial stack at `sp`, without their NULs.
///
/// # Safety
///
/// `sp` must point at a process's initial stack as Linux's ELF loader lays it out (`argc`,
/// `argv`, a null pointer, `envp`, a null pointer), and that memory, the strings included, must
/// stay valid and unchanged for `'a`.
pub(crate) unsafe fn environment<'a>(sp: *const usize) -> Environment<'a> {
    // SAFETY: the caller guarantees `sp` points at `argc`, a readable word.
    let argc = unsafe { sp.read() };
    // Past `argc`, the `argc` argument pointers and their null terminator. `wrapping_add` keeps
    // even a nonsensical `argc` from being undefined behaviour here; reading would still be.
    let envp = sp.wrapping_add(1).wrapping_add(argc).wrapping_add(1);
    Environment {
        next: envp.cast::<*const c_char>(),
        _stack: PhantomData,
    }
}

/// An iterator over the environment strings, from [`environment`].
#[derive(Clone)]
pub(crate) struct Environment<'a> {
    /// The next `envp` entry; the array ends with a null pointer.
    next: *const *const c_char,
    _stack: PhantomData<&'a CStr>,
}

impl<'a> Iterator for Environment<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        // SAFETY: `environment`'s caller guaranteed a null-terminated `envp` array here, and the
        // iterator stops at the null pointer, so `self.next` is always within it.
        let var = unsafe { self.next.read() };
        if var.is_null() {
            return None;
        }
        self.next = self.next.wrapping_add(1);
        // SAFETY: a non-null `envp` entry points at a NUL-terminated string, valid for `'a` as
        // `environment`'s caller guaranteed.
        Some(unsafe { CStr::from_ptr(var) }.to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word holding `s`'s address, as the kernel writes `argv` and `envp` entries.
    fn word(s: &CStr) -> usize {
        s.as_ptr() as usize
    }

    #[test]
    fn halt_defaults_to_restart() {
        assert_eq!(halt([]), Ok(Halt::Restart));
        assert_eq!(halt([&b"HOME=/"[..], b"TERM=linux"]), Ok(Halt::Restart));
    }

    #[test]
    fn halt_poweroff_and_restart() {
        assert_eq!(
            halt([&b"HOME=/"[..], b"kernel_core_halt=poweroff"]),
            Ok(Halt::PowerOff)
        );
        assert_eq!(halt([&b"kernel_core_halt=restart"[..]]), Ok(Halt::Restart));
    }

    #[test]
    fn halt_last_one_wins() {
        let env = [
            &b"kernel_core_halt=poweroff"[..],
            b"kernel_core_halt=restart",
        ];
        assert_eq!(halt(env), Ok(Halt::Restart));
        let env = [
            &b"kernel_core_halt=restart"[..],
            b"kernel_core_halt=poweroff",
        ];
        assert_eq!(halt(env), Ok(Halt::PowerOff));
    }

    #[test]
    fn halt_rejects_unknown_values_and_near_names() {
        assert_eq!(halt([&b"kernel_core_halt=off"[..]]), Err(&b"off"[..]));
        assert_eq!(halt([&b"kernel_core_halt="[..]]), Err(&b""[..]));
        assert_eq!(
            halt([&b"kernel_core_halt=PowerOff"[..]]),
            Err(&b"PowerOff"[..])
        );
        // Only the exact name counts.
        assert_eq!(halt([&b"kernel_core_halt"[..]]), Ok(Halt::Restart));
        assert_eq!(
            halt([&b"xkernel_core_halt=poweroff"[..]]),
            Ok(Halt::Restart)
        );
        assert_eq!(
            halt([&b"kernel_core_halt_x=poweroff"[..]]),
            Ok(Halt::Restart)
        );
    }

    #[test]
    fn modules_from_port_only_when_asked() {
        assert!(!modules_from_port(core::iter::empty()));
        assert!(modules_from_port([&b"kernel_core_modules=port"[..]]));
        assert!(!modules_from_port([&b"kernel_core_modules=initramfs"[..]]));
        assert!(!modules_from_port([&b"kernel_core_modules=ports"[..]]));
        assert!(!modules_from_port([&b"xkernel_core_modules=port"[..]]));
        assert!(!modules_from_port([
            &b"kernel_core_modules=port"[..],
            &b"kernel_core_modules="[..],
        ]));
    }

    #[test]
    fn environment_skips_argv() {
        let stack = [
            2,
            word(c"/init"),
            word(c"arg"),
            0,
            word(c"HOME=/"),
            word(c"kernel_core_halt=poweroff"),
            0,
            // The auxiliary vector: must not be read.
            6,
            4096,
        ];
        // SAFETY: `stack` is laid out as the kernel does, with static strings.
        let mut env = unsafe { environment(stack.as_ptr()) };
        assert_eq!(env.next(), Some(&b"HOME=/"[..]));
        assert_eq!(env.next(), Some(&b"kernel_core_halt=poweroff"[..]));
        assert_eq!(env.next(), None);
        // SAFETY: as above.
        assert_eq!(
            halt(unsafe { environment(stack.as_ptr()) }),
            Ok(Halt::PowerOff)
        );
    }

    #[test]
    fn environment_empty() {
        // What the kernel gives PID 1 with no arguments beyond its name and no environment.
        let stack = [1, word(c"/init"), 0, 0, 0];
        // SAFETY: `stack` is laid out as the kernel does, with a static string.
        assert_eq!(unsafe { environment(stack.as_ptr()) }.count(), 0);
        let stack = [0, 0, 0];
        // SAFETY: as above, with `argc` 0.
        assert_eq!(unsafe { environment(stack.as_ptr()) }.count(), 0);
    }
}
