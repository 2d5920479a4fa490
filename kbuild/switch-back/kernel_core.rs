// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The switch-back check: a `kernel_core` crate whose mirrored paths are the kernel's own.
//!
//! kernel-core promises that code written against its mirrored paths (`build_assert`, `sizes`,
//! `ptr`, `time`, `bits`, `num`, `impl_flags`, `bitfield`, `io`, `error`, `prelude`, `macros`,
//! `alloc`, `sync`, `init`, `str`, `fmt`, `print`, `transmute`, `types`, `page`, `uaccess`,
//! `module`, `module_param`, `list`) builds and behaves the same with the newest kernel's
//! `kernel::`. `kbuild/kernel-core.mk` proves it: with `KERNEL_CORE_SWITCH_BACK=y` it builds this file as `kernel_core` instead of
//! kernel-core itself, so every `kernel_core::` path of a module, its `use` lines included,
//! names the kernel's item, exactly as a driver that replaced `kernel_core::` by `kernel::`
//! would. `cargo xtask qemu` builds the sample module, the example driver and the test suites
//! this way on Linux 7.3 and runs them.
//!
//! kernel-core's additions (`extras`) come from kernel-core's own files, compiled here on top
//! of the kernel's `io`, `time` and `sizes`: they are written against the mirrored API alone.

// `prelude` included: in the kernel, `kernel_core::prelude` is the kernel's prelude with
// kernel-core's assertion macros and `#[kunit_tests]` in place of the kernel's, and Linux 7.3's
// prelude has all five, so both export the same names and `use kernel_core::prelude::*;` is
// the one prelude line of a module either way.
pub use kernel::{bits, build_assert, macros, prelude, ptr, sizes, time};
// `error` (`Error`, `Result`, `code`) and `io` (the I/O traits, `SysMem`, `Mmio`, `register!`,
// `io::poll`), as kernel-core mirrors them;
// `time` above brings `time::delay` and `msecs_to_jiffies`.
pub use kernel::{error, io};
// The C types, `kernel::ffi` (the kernel's `ffi` crate, which 7.3 re-exports at its root).
pub use kernel::ffi;
// The macros the kernel exports at its crate root (`build_assert!` is not among them).
pub use kernel::{build_error, const_assert, static_assert};
// `num` (Linux 7.3's `Integer`, `Bounded`, `casts`), and `impl_flags` and `bitfield`: the
// macros the kernel exports at its crate root, each with the module of the same name.
pub use kernel::{bitfield, impl_flags, num};
// The driver's logic: allocation, locks and `Arc`, in-place initialisation, strings,
// formatting and printing, byte reinterpretation, types and page constants, user memory,
// intrusive lists, with the macros the kernel exports at its root from them.
pub use kernel::{alloc, fmt, init, list, page, print, str, sync, transmute, types, uaccess};
pub use kernel::{
    b_str, c_str, dbg, define_list_arc_field_getter, do_once_lite, global_lock,
    impl_has_list_links, impl_has_list_links_self_ptr, impl_list_arc_safe, impl_list_item, kvec,
    new_condvar, new_mutex, new_spinlock, new_spinlock_irq, optional_name, pr_alert, pr_alert_once,
    pr_cont, pr_crit, pr_crit_once, pr_debug, pr_emerg, pr_emerg_once, pr_err, pr_err_once,
    pr_info, pr_info_once, pr_notice, pr_notice_once, pr_warn, pr_warn_once, static_lock_class,
    try_init, try_pin_init,
};
// Modules and their parameters, with the module traits and `ThisModule` at the crate root too.
pub use kernel::{module, module_param, InPlaceModule, Module, ModuleMetadata, ThisModule};

// kernel-core's additions, from its own files, on top of the kernel's `io`, `sizes` and `time`. The
// files are declared here, at the crate root, since `#[path]` inside an inline module is
// relative to a directory that does not exist.
#[doc(hidden)]
#[path = "../../kernel-core/src/extras/fmt.rs"]
pub mod extras_fmt;
#[doc(hidden)]
#[path = "../../kernel-core/src/extras/io.rs"]
pub mod extras_io;
#[doc(hidden)]
#[path = "../../kernel-core/src/extras/sizes.rs"]
pub mod extras_sizes;
#[doc(hidden)]
#[path = "../../kernel-core/src/extras/time.rs"]
pub mod extras_time;

// What kernel-core's `env/kernel.rs` gives its `Decimal` there: the kernel's printing macros
// take `kernel::fmt::Display`.
impl kernel::fmt::Display for extras_fmt::Decimal<u64> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(self, f)
    }
}
impl kernel::fmt::Display for extras_fmt::Decimal<i64> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(self, f)
    }
}

/// kernel-core's additions, as `kernel_core::extras` has them.
pub mod extras {
    pub use super::extras_fmt as fmt;
    pub use super::extras_io as io;
    pub use super::extras_sizes as sizes;
    pub use super::extras_time as time;
}
