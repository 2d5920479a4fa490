// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The Linux 7.3 kernel's own `rust/kernel/{time,ptr,sizes,build_assert,bits}.rs`, `num.rs` (with
//! `num/{bounded,casts}.rs`), `impl_flags.rs`, `bitfield.rs`, `str.rs` (with `str/parse_int.rs`),
//! `fmt.rs`, `alloc.rs` (with `alloc/{kvec,kvec/errors,layout}.rs`) and `list.rs` (with
//! `list/{impl_list_item_mod,arc,arc_field}.rs`), built on the host behind a
//! mock `kernel` crate root, so that the differential tests in `tests/` can compare kernel-core
//! with the code it mirrors, call for call.
//!
//! `build.rs` reads the files from the tree in `KERNEL_CORE_LINUX_SRC` and writes them, minimally
//! adapted, into `OUT_DIR`; each is included here in a module of its name, under the same path as
//! in the kernel (`linux7_3::time` is `kernel::time`). This crate root provides only what those
//! files reach:
//!
//! - [`bindings`]: the constants as the C headers define them (with bindgen's types) and the C
//!   functions, implemented on the host's clocks and with the C code's arithmetic;
//! - [`ffi`]: the C types, as the kernel's `ffi` crate (`c_char` is `u8`);
//! - `build_error`: the dependency of that name, kernel-core's host `build_error` crate, which
//!   plays the kernel's `build_error` crate, reached by the same path (`build_error::build_error`);
//! - `macros`: the dependency of that name, kernel-core's procedural macros, which play the
//!   kernel's `macros` crate for `bits.rs` (`use macros::paste;`) and `fmt.rs`
//!   (`#[macros::kunit_tests]`);
//! - `linux7_3_macros` (`differential/macros/`): Linux 7.3's own `fmt!` (`rust/macros/fmt.rs`),
//!   which the prelude exports, as the kernel's exports its `macros::fmt`;
//! - [`prelude`]: the items of the kernel's prelude that the files use: `build_assert!` for
//!   `bits.rs`, `const_assert!` and [`Zeroable`] for `num/bounded.rs`, `size_of` for
//!   `num/casts.rs`, `fmt!` for `bitfield.rs`, the C types, `CStr`, `CStrExt` and `GFP_KERNEL`
//!   for `str.rs` and `fmt.rs`;
//! - [`error`]: the items of `kernel::error` that the files use;
//! - [`sync`]: `Arc` and `UniqueArc`, which `fmt.rs` implements `Display` for (kernel-core's);
//! - `kernel`: this crate, under the name `num/bounded.rs` gives it, and `macros` at its root,
//!   where `num/casts.rs` and `bitfield.rs` reach `paste!`;
//! - [`page`] and `alloc`'s `allocator` and `kbox`: the items that `alloc/kvec.rs` reaches from
//!   7.3's `page.rs`, `alloc/allocator.rs` and `alloc/kbox.rs`, which need more of the kernel
//!   than the host has: `PAGE_SIZE`, and the three allocators over the host's global allocator;
//! - `bindings` (the extern crate, `differential/bindings/`): the `gfp_t` and NUMA constants,
//!   which `alloc.rs` reaches from its nested `flags` module as the kernel crate reaches its
//!   extern crate `bindings`;
//! - `pin_init`: the dependency of that name, kernel-core's `pin_init`, which `bitfield.rs`
//!   (`::pin_init::Zeroable`) and `list.rs` (`PinInit`, `assert_pinned!`) reach, and on which
//!   kernel-core's `Arc` initialises in place;
//! - [`types`] and [`sync`]'s `ArcBorrow` and `atomic`: what `list.rs` and `list/arc.rs` reach
//!   (`Opaque`, `AtomicFlag`), kernel-core's; and `container_of!` at the root, where
//!   `impl_list_item!` reaches it.
//!
//! The kernel's `#[macro_export]` macros of `build_assert.rs` (`static_assert!`, `const_assert!`,
//! `build_error!`, `build_assert_macro!`) land at this crate's root, as they do in the kernel's.

// The kernel's files reach those macros by absolute paths (`pub use crate::{build_error, ...}`,
// `use crate::const_assert`), which rustc rejects by default for `#[macro_export]` macros that
// come out of a macro expansion, here `include!` (rust-lang/rust#52234). In the kernel the files
// are ordinary module files (`pub mod build_assert;`), not macro expansions, so the lint does not
// arise there; a `#[path]` module cannot point into OUT_DIR, so here the lint is allowed, which
// keeps the kernel's text unchanged. rustc resolves these paths as it always has: the lint only
// says that a future release may stop doing so (cargo prints a future-incompatibility note).
#![allow(macro_expanded_macro_exports_accessed_by_absolute_paths)]

/// The kernel's C bindings that the included files use, as bindgen would generate them from the
/// C headers, and the C functions they call, implemented on the host.
///
/// Constants keep bindgen's types (bindgen gives a `#define` that fits in 32 bits the type `u32`),
/// so the kernel's `as` conversions run on the same types as in the kernel.
pub mod bindings {
    use core::ffi::{c_int, c_long, c_uint, c_ulong};

    /// `__kernel_clockid_t` (`include/uapi/asm-generic/posix_types.h`).
    #[allow(non_camel_case_types)]
    pub type clockid_t = c_int;

    /// `ktime_t` (`include/linux/ktime.h`): `s64` nanoseconds.
    #[allow(non_camel_case_types)]
    pub type ktime_t = i64;

    /// `include/vdso/time64.h`: `#define NSEC_PER_USEC 1000L`.
    pub const NSEC_PER_USEC: u32 = 1_000;
    /// `include/vdso/time64.h`: `#define NSEC_PER_MSEC 1000000L`.
    pub const NSEC_PER_MSEC: u32 = 1_000_000;
    /// `include/vdso/time64.h`: `#define NSEC_PER_SEC 1000000000L`.
    pub const NSEC_PER_SEC: u32 = 1_000_000_000;

    // The `gfp_t` flags and NUMA constants that `alloc.rs` reaches, from the extern crate
    // `bindings` (`differential/bindings/`), as `alloc.rs`'s nested `flags` module does.
    pub use ::bindings::*;

    /// `is_vmalloc_addr()` (`include/linux/mm.h`), for `KVVec::shrink_to`: the mock `KVmalloc`
    /// (`crate::alloc::allocator`) always allocates as `kmalloc()` does, so never.
    ///
    /// # Safety
    ///
    /// None on the host; `unsafe` as every bindgen'd C function.
    pub unsafe fn is_vmalloc_addr(_addr: *const core::ffi::c_void) -> bool {
        false
    }

    extern "C" {
        /// `memchr()` (`lib/string.c`, through the helper `rust_helper_memchr`), for
        /// `CString::try_from_fmt`: the host C library's, which has the same contract.
        pub fn memchr(s: *const core::ffi::c_void, c: c_int, n: usize) -> *mut core::ffi::c_void;
    }

    /// `kstrtobool()` (`lib/kstrtox.c`), as its C reads the string: `0` and `*res` set on a
    /// first character among `EeYyTt1` (true) or `DdNnFf0` (false), or `o`/`O` followed by
    /// `n`/`N` (true) or `f`/`F` (false); `-EINVAL` otherwise, `*res` untouched.
    ///
    /// # Safety
    ///
    /// `s` must be null or point to a NUL-terminated string; `res` must be valid for writes.
    pub unsafe fn kstrtobool(s: *const u8, res: *mut bool) -> c_int {
        /// `-EINVAL`.
        const EINVAL: c_int = -22;
        if s.is_null() {
            return EINVAL;
        }
        // SAFETY: `s` points to a NUL-terminated string (the caller's promise): its first byte
        // is readable.
        let value = match unsafe { *s } {
            b'e' | b'E' | b'y' | b'Y' | b't' | b'T' | b'1' => true,
            b'd' | b'D' | b'n' | b'N' | b'f' | b'F' | b'0' => false,
            // SAFETY: The first byte is not the NUL, so the string goes on to a second.
            b'o' | b'O' => match unsafe { *s.add(1) } {
                b'n' | b'N' => true,
                b'f' | b'F' => false,
                _ => return EINVAL,
            },
            _ => return EINVAL,
        };
        // SAFETY: The caller promises that `res` is valid for writes.
        unsafe { *res = value };
        0
    }

    /// `no_hash_pointers` (`lib/vsprintf.c`): the mock kernel is booted with `no_hash_pointers`,
    /// so `%p` prints addresses as they are (the hashed form depends on a random key drawn at
    /// boot, which no host run could reproduce). `static mut`, unsafe to read, as bindgen
    /// declares the C variable.
    #[allow(non_upper_case_globals)]
    pub static mut no_hash_pointers: bool = true;

    /// `scnprintf()` (`lib/vsprintf.c`) for the one format Linux 7.3's Rust code passes it,
    /// `fmt.rs`'s `"%#0*p"` (with its two arguments as parameters: Rust cannot define a C
    /// variadic function), under [`no_hash_pointers`]: `pointer_string()` with the given field
    /// width, that is `number()` in base 16 with the `0x` prefix counted in the width and zeros
    /// after it. Writes at most `size - 1` characters and the NUL; returns how many characters
    /// it wrote.
    ///
    /// # Safety
    ///
    /// `buf` must be valid for writes of `size` bytes; `fmt` must point to a NUL-terminated
    /// string.
    ///
    /// # Panics
    ///
    /// On another format, or a negative width (which the kernel's Rust code never passes).
    pub unsafe fn scnprintf(
        buf: *mut u8,
        size: usize,
        fmt: *const u8,
        width: c_int,
        ptr: *const core::ffi::c_void,
    ) -> c_int {
        // The kernel's rule, for the kernel's `c_char`, which this mock's callers give.
        #[allow(clippy::disallowed_methods)]
        // SAFETY: The caller promises a NUL-terminated string.
        let format = unsafe { core::ffi::CStr::from_ptr(fmt.cast()) };
        assert_eq!(
            format, c"%#0*p",
            "the mock scnprintf() knows only \"%#0*p\""
        );
        let width = usize::try_from(width).expect("a field width of at least zero");
        let text = format!("{:#0width$x}", ptr.addr());
        if size == 0 {
            return 0;
        }
        let len = text.len().min(size - 1);
        // SAFETY: `buf` is valid for writes of `size > len` bytes (the caller's promise), and
        // cannot overlap `text`, a new allocation.
        unsafe {
            core::ptr::copy_nonoverlapping(text.as_ptr(), buf, len);
            *buf.add(len) = 0;
        }
        c_int::try_from(len).expect("at most the buffer's size")
    }

    /// `include/uapi/linux/time.h`.
    pub const CLOCK_REALTIME: u32 = 0;
    /// `include/uapi/linux/time.h`.
    pub const CLOCK_MONOTONIC: u32 = 1;
    /// `include/uapi/linux/time.h`.
    pub const CLOCK_BOOTTIME: u32 = 7;
    /// `include/uapi/linux/time.h`.
    pub const CLOCK_TAI: u32 = 11;

    /// Declares the `SZ_*` constants of `include/linux/sizes.h` up to `SZ_2G`, all of which fit
    /// in 32 bits (`#define SZ_1K 0x00000400` and so on).
    macro_rules! sizes {
        ($($name:ident = $shift:literal,)*) => {$(
            #[doc = concat!("`include/linux/sizes.h`: `1 << ", stringify!($shift), "`.")]
            pub const $name: u32 = 1 << $shift;
        )*};
    }

    sizes! {
        SZ_1K = 10, SZ_2K = 11, SZ_4K = 12, SZ_8K = 13, SZ_16K = 14, SZ_32K = 15,
        SZ_64K = 16, SZ_128K = 17, SZ_256K = 18, SZ_512K = 19, SZ_1M = 20, SZ_2M = 21,
        SZ_4M = 22, SZ_8M = 23, SZ_16M = 24, SZ_32M = 25, SZ_64M = 26, SZ_128M = 27,
        SZ_256M = 28, SZ_512M = 29, SZ_1G = 30, SZ_2G = 31,
    }

    /// The `struct timespec` of the host's C library (`time_t` is a `long` for the
    /// `clock_gettime` symbol on every Linux C library ABI this crate targets).
    #[repr(C)]
    struct Timespec {
        tv_sec: c_long,
        tv_nsec: c_long,
    }

    extern "C" {
        fn clock_gettime(clock: c_int, tp: *mut Timespec) -> c_int;
    }

    /// Reads the host's clock `clock` as `ktime_t`, as the kernel's timekeeping would.
    ///
    /// # Panics
    ///
    /// If `clock_gettime` fails or the reading is outside `0..=KTIME_MAX`: no made-up value
    /// is ever returned.
    fn read_host_clock(clock: u32) -> ktime_t {
        let mut ts = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        let id = c_int::try_from(clock).expect("clock ids fit in a clockid_t");
        // SAFETY: `ts` is a valid, writable `struct timespec` for the duration of the call.
        let ret = unsafe { clock_gettime(id, &mut ts) };
        assert_eq!(ret, 0, "clock_gettime({id}) failed");
        // `long` is `i64` only on 64-bit targets.
        #[allow(clippy::useless_conversion)]
        let nanos = i64::from(ts.tv_sec)
            .checked_mul(super::time::NSEC_PER_SEC)
            .and_then(|ns| ns.checked_add(i64::from(ts.tv_nsec)))
            .expect("the host clock reading fits in a ktime_t");
        assert!(nanos >= 0, "clock {id} reads a negative time");
        nanos
    }

    /// `ktime_get()`: `CLOCK_MONOTONIC`.
    ///
    /// # Safety
    ///
    /// None on the host; `unsafe` as every bindgen'd C function.
    pub unsafe fn ktime_get() -> ktime_t {
        read_host_clock(CLOCK_MONOTONIC)
    }

    /// `ktime_get_real()`: `CLOCK_REALTIME`.
    ///
    /// # Safety
    ///
    /// None on the host; `unsafe` as every bindgen'd C function.
    pub unsafe fn ktime_get_real() -> ktime_t {
        read_host_clock(CLOCK_REALTIME)
    }

    /// `ktime_get_boottime()`: `CLOCK_BOOTTIME`.
    ///
    /// # Safety
    ///
    /// None on the host; `unsafe` as every bindgen'd C function.
    pub unsafe fn ktime_get_boottime() -> ktime_t {
        read_host_clock(CLOCK_BOOTTIME)
    }

    /// `ktime_get_clocktai()`: `CLOCK_TAI`.
    ///
    /// # Safety
    ///
    /// None on the host; `unsafe` as every bindgen'd C function.
    pub unsafe fn ktime_get_clocktai() -> ktime_t {
        read_host_clock(CLOCK_TAI)
    }

    /// `CONFIG_HZ` of the mock kernel (Debian's configuration). Only [`__msecs_to_jiffies`]
    /// depends on it, and kernel-core has no counterpart to compare it with.
    pub const HZ: c_ulong = 250;

    /// `MAX_JIFFY_OFFSET` (`include/linux/jiffies.h`): `((LONG_MAX >> 1)-1)`.
    pub const MAX_JIFFY_OFFSET: c_ulong = ((c_long::MAX >> 1) - 1) as c_ulong;

    /// `__msecs_to_jiffies()` (`kernel/time/time.c`), for a `HZ` that divides 1000, as
    /// `_msecs_to_jiffies()` computes it in `include/linux/jiffies.h`.
    ///
    /// # Safety
    ///
    /// None on the host; `unsafe` as every bindgen'd C function.
    pub unsafe fn __msecs_to_jiffies(m: c_uint) -> c_ulong {
        const _: () = assert!(HZ <= 1000 && 1000 % HZ == 0);
        // Negative value, means infinite timeout.
        if (m as c_int) < 0 {
            return MAX_JIFFY_OFFSET;
        }
        // `(m + (MSEC_PER_SEC / HZ) - 1) / (MSEC_PER_SEC / HZ)`, which cannot overflow here.
        c_ulong::from(m).div_ceil(1000 / HZ)
    }

    // What Linux 7.3's `time.rs` calls without `CONFIG_64BIT` (on 32-bit targets, here i686),
    // as a 32-bit kernel's C computes it: `lib/math/div64.c` and `include/linux/ktime.h` for
    // `BITS_PER_LONG == 32`, with C's wrapping signed negation (the kernel builds with
    // `-fno-strict-overflow`), so that `div64_s64(i64::MIN, -1)` is `i64::MIN` and
    // `div_s64_rem(i64::MIN, -1, ..)` leaves 0, where Rust's operators panic. A zero divisor,
    // which traps in C, panics with Rust's message.

    /// `div64_u64()`: unsigned 64-bit division (a loop of shifts in C, the same quotient).
    #[cfg(not(CONFIG_64BIT))]
    fn div64_u64(dividend: u64, divisor: u64) -> u64 {
        dividend / divisor
    }

    /// `div_u64_rem()`: unsigned 64-bit division by 32 bits, remainder into `*remainder`.
    #[cfg(not(CONFIG_64BIT))]
    fn div_u64_rem(dividend: u64, divisor: u32, remainder: &mut u32) -> u64 {
        // The remainder of a division by a `u32` fits in a `u32`.
        *remainder = (dividend % u64::from(divisor)) as u32;
        dividend / u64::from(divisor)
    }

    /// `div64_s64()` (`lib/math/div64.c`, 32-bit):
    /// `quot = div64_u64(abs(dividend), abs(divisor)); t = (dividend ^ divisor) >> 63;
    /// return (quot ^ t) - t;`.
    ///
    /// # Safety
    ///
    /// None on the host; `unsafe` as every bindgen'd C function.
    #[cfg(not(CONFIG_64BIT))]
    pub unsafe fn div64_s64(dividend: i64, divisor: i64) -> i64 {
        let quot = div64_u64(
            dividend.wrapping_abs() as u64,
            divisor.wrapping_abs() as u64,
        ) as i64;
        let t = (dividend ^ divisor) >> 63;
        (quot ^ t).wrapping_sub(t)
    }

    /// `div_s64_rem()` (`lib/math/div64.c`, 32-bit): the unsigned division of the magnitudes,
    /// the remainder negated for a negative dividend, the quotient for differing signs.
    ///
    /// # Safety
    ///
    /// `remainder` must be valid for writes.
    #[cfg(not(CONFIG_64BIT))]
    pub unsafe fn div_s64_rem(dividend: i64, divisor: i32, remainder: *mut i32) -> i64 {
        let mut rem = 0_u32;
        let mut quotient;
        if dividend < 0 {
            quotient = div_u64_rem(
                dividend.wrapping_neg() as u64,
                divisor.wrapping_abs() as u32,
                &mut rem,
            );
            // SAFETY: The caller promises that `remainder` is valid for writes.
            unsafe { *remainder = (rem as i32).wrapping_neg() };
            if divisor > 0 {
                quotient = quotient.wrapping_neg();
            }
        } else {
            quotient = div_u64_rem(dividend as u64, divisor.wrapping_abs() as u32, &mut rem);
            // SAFETY: The caller promises that `remainder` is valid for writes.
            unsafe { *remainder = rem as i32 };
            if divisor < 0 {
                quotient = quotient.wrapping_neg();
            }
        }
        quotient as i64
    }

    /// `ktime_divns()` (`include/linux/ktime.h`, 32-bit) with a constant divisor:
    /// `tmp = ns < 0 ? -ns : ns; do_div(tmp, div); return ns < 0 ? -tmp : tmp;`.
    #[cfg(not(CONFIG_64BIT))]
    fn ktime_divns(kt: ktime_t, div: i64) -> i64 {
        assert!(div >= 0, "BUG_ON(div < 0)");
        let tmp = if kt < 0 { kt.wrapping_neg() } else { kt } as u64;
        let tmp = tmp / div as u64;
        if kt < 0 {
            tmp.wrapping_neg() as i64
        } else {
            tmp as i64
        }
    }

    /// `ktime_to_us()` (`include/linux/ktime.h`): `ktime_divns(kt, NSEC_PER_USEC)`, through
    /// its Rust helper.
    ///
    /// # Safety
    ///
    /// None on the host; `unsafe` as every bindgen'd C function.
    #[cfg(not(CONFIG_64BIT))]
    pub unsafe fn ktime_to_us(kt: ktime_t) -> i64 {
        ktime_divns(kt, i64::from(NSEC_PER_USEC))
    }

    /// `ktime_to_ms()` (`include/linux/ktime.h`): `ktime_divns(kt, NSEC_PER_MSEC)`, through
    /// its Rust helper.
    ///
    /// # Safety
    ///
    /// None on the host; `unsafe` as every bindgen'd C function.
    #[cfg(not(CONFIG_64BIT))]
    pub unsafe fn ktime_to_ms(kt: ktime_t) -> i64 {
        ktime_divns(kt, i64::from(NSEC_PER_MSEC))
    }
}

/// The C types, as the kernel's `ffi` crate (which `kernel` reaches as `crate::ffi`).
pub mod ffi {
    pub use core::ffi::*;

    /// The kernel's `c_char`: `u8` on every architecture, as the kernel builds its C with
    /// `-funsigned-char` (`rust/ffi.rs`), where `core`'s is `i8` on some. `str.rs` hands
    /// `CStrExt::as_char_ptr()`, a `*const c_char`, to a function taking `*const u8`.
    #[allow(non_camel_case_types)]
    pub type c_char = u8;
}

/// `kernel::build_assert`: the kernel's `rust/kernel/build_assert.rs`.
pub mod build_assert {
    include!(concat!(env!("OUT_DIR"), "/build_assert.rs"));
}

/// `kernel::prelude`, reduced to what the included files take from it (`bits.rs` takes
/// `build_assert!` through `use crate::prelude::*;`).
pub mod prelude {
    pub use crate::build_assert::build_assert;
    // `ptr/projection.rs` takes `build_error!`, `Error` and `ERANGE`.
    pub use crate::build_assert::build_error;
    pub use crate::error::{code::ERANGE, Error};
    // `str/parse_int.rs`, `alloc.rs` and `alloc/kvec/errors.rs` take `Result` and `EINVAL`.
    pub use crate::error::{code::EINVAL, Result};
    // `num/bounded.rs` takes these two, and `num/casts.rs` `size_of`, which the kernel's
    // prelude exports.
    pub use crate::build_assert::const_assert;
    pub use core::mem::size_of;
    pub use pin_init::Zeroable;
    // `bitfield.rs`, `fmt.rs`'s KUnit suite and the differential tests format with the kernel's
    // own `fmt!` (`rust/macros/fmt.rs`).
    pub use linux7_3_macros::fmt;
    // `str.rs` and `fmt.rs` take the C types and `CStr` (the kernel's prelude re-exports them
    // from its `ffi` crate), `GFP_KERNEL` (from `alloc::flags::*`) and `CStrExt as _`.
    pub use crate::alloc::flags::GFP_KERNEL;
    pub use crate::ffi::{c_char, c_int, c_void, CStr};
    pub use crate::str::CStrExt as _;
    // `list/arc.rs` takes `PinInit`, `Init` and `#[pin_data]`, which the kernel's prelude
    // re-exports from `pin_init`.
    pub use pin_init::{pin_data, Init, PinInit};
    // And `UniqueArc::try_pin_init`, from the kernel's `InPlaceInit` (kernel-core's, for its
    // `UniqueArc`), which the kernel's prelude exports.
    pub use kernel_core::init::InPlaceInit;
}

/// `kernel::fmt`: the kernel's `rust/kernel/fmt.rs`, its own `Display` and `Pointer` traits,
/// `Adapter`, which its `fmt!` wraps every argument in, and `HashedPtr`, which formats `{:p}`
/// through the mock [`bindings::scnprintf`]. Its KUnit suite `rust_kernel_fmt` runs in this
/// crate's own tests (`cargo test --lib`) on 64-bit targets; `build.rs` drops it on the others,
/// where its expectation is wrong.
pub mod fmt {
    include!(concat!(env!("OUT_DIR"), "/fmt.rs"));
}

/// `kernel::sync`, reduced to what `fmt.rs` and `list.rs` name: `Arc` and `UniqueArc`, which
/// `fmt.rs` implements its `Display` for, `ArcBorrow`, and `atomic`'s `AtomicFlag` and
/// orderings; kernel-core's, whose `Arc`s implement `core::fmt::Display` as 7.3's do.
pub mod sync {
    pub use kernel_core::sync::{atomic, Arc, ArcBorrow, UniqueArc};
}

/// `kernel::types`, reduced to what `list.rs` names: `Opaque`, kernel-core's.
pub mod types {
    pub use kernel_core::types::Opaque;
}

/// `kernel::container_of!`, which `list/impl_list_item_mod.rs`'s `impl_list_item!` expands to:
/// the one kernel-core's own `impl_list_item!` expands to.
pub use kernel_core::__kernel_core_list_container_of as container_of;

/// `kernel::list`: the kernel's `rust/kernel/list.rs`, with its submodules
/// `list/{impl_list_item_mod,arc,arc_field}.rs` declared here around their included files, on
/// kernel-core's `Arc`, `AtomicFlag`, `Opaque` and `pin_init`. Its `#[macro_export]` macros
/// (`impl_list_item!`, ...) land at this crate's root, as at the kernel's.
pub mod list {
    include!(concat!(env!("OUT_DIR"), "/list.rs"));

    /// The kernel's `rust/kernel/list/impl_list_item_mod.rs`.
    mod impl_list_item_mod {
        include!(concat!(env!("OUT_DIR"), "/list_impl_list_item_mod.rs"));
    }

    /// The kernel's `rust/kernel/list/arc.rs`.
    mod arc {
        include!(concat!(env!("OUT_DIR"), "/list_arc.rs"));
    }

    /// The kernel's `rust/kernel/list/arc_field.rs`.
    mod arc_field {
        include!(concat!(env!("OUT_DIR"), "/list_arc_field.rs"));
    }
}

/// `kernel::error`, reduced to what `bitfield.rs` and `ptr/projection.rs` use (`Result`,
/// `Error`, `code::{EOVERFLOW, ERANGE}`): the kernel's error type on the host is kernel-core's,
/// which the differential tests compare with `==` across both sides.
pub mod error {
    pub use kernel_core::error::{code, to_result, Error, Result};

    /// Linux 7.3's `error.rs`: `impl From<AllocError> for Error`, `ENOMEM`, for the
    /// `AllocError` of the included `alloc.rs`.
    impl From<crate::alloc::AllocError> for Error {
        fn from(_: crate::alloc::AllocError) -> Error {
            code::ENOMEM
        }
    }
}

/// `kernel::bitfield`: the kernel's `rust/kernel/bitfield.rs`, whose `bitfield!` lands at this
/// crate's root, `linux7_3::bitfield!`, as at the kernel's.
pub mod bitfield {
    include!(concat!(env!("OUT_DIR"), "/bitfield.rs"));
}

/// `kernel::io` as far as `io/register.rs` reaches it: [`io::IoLoc`] and [`io::Region`], with
/// the signatures of Linux 7.3's `io.rs`, declared here since that file itself needs the
/// kernel's vendored `zerocopy` and `ptr::project!`.
///
/// The differential tests read the locations that Linux 7.3's `register!` builds through this
/// `IoLoc` (offset and access type), and perform the accesses with kernel-core's `Io`.
pub mod io {
    /// Linux 7.3's `IoLoc`: where a `T` is accessed in a region of type `Base`, and as which
    /// primitive.
    pub trait IoLoc<Base: ?Sized, T> {
        /// The primitive the access reads or writes.
        type IoType: Into<T> + From<T>;

        /// The offset in bytes.
        fn offset(self) -> usize;
    }

    /// Linux 7.3's `Region`: an untyped region of at least `SIZE` bytes.
    #[repr(C, align(4))]
    pub struct Region<const SIZE: usize = 0> {
        inner: [u8],
    }

    /// Linux 7.3's own `io/register.rs`.
    pub mod register {
        include!(concat!(env!("OUT_DIR"), "/io_register.rs"));
    }
}

// `num/bounded.rs` names its own crate `kernel` (`use kernel::{num::..., prelude::*}`), as the
// kernel crate allows with the same line.
extern crate self as kernel;

// `num/casts.rs` reaches the procedural macros as `$crate::macros::paste!`: the kernel crate
// re-exports its `macros` dependency at its root, as here.
pub use macros;

/// `pin_init`, which `num/bounded.rs`, `bitfield.rs` and `list.rs` reach (`Zeroable`, `PinInit`,
/// `::pin_init::assert_pinned!`) as the extern crate of that name: kernel-core's, the
/// dependency of that name, on which kernel-core's `Arc` initialises in place. (Linux 7.3's own
/// `pin_init` runs in `linux7_3_pin_init_probe`, against kernel-core's, in `tests/pin_init.rs`.)
pub use pin_init::Zeroable;

/// `kernel::num`: the kernel's `rust/kernel/num.rs`, with its submodules `num/bounded.rs` and
/// `num/casts.rs` declared here around their included files.
pub mod num {
    include!(concat!(env!("OUT_DIR"), "/num.rs"));

    /// `kernel::num::bounded`: the kernel's `rust/kernel/num/bounded.rs`.
    pub mod bounded {
        include!(concat!(env!("OUT_DIR"), "/num_bounded.rs"));
    }

    /// `kernel::num::casts`: the kernel's `rust/kernel/num/casts.rs`.
    pub mod casts {
        include!(concat!(env!("OUT_DIR"), "/num_casts.rs"));
    }
}

/// `kernel::impl_flags`: the kernel's `rust/kernel/impl_flags.rs`, whose `impl_flags!` lands at
/// this crate's root, `linux7_3::impl_flags!`, as at the kernel's.
pub mod impl_flags {
    include!(concat!(env!("OUT_DIR"), "/impl_flags.rs"));
}

/// `kernel::bits`: the kernel's `rust/kernel/bits.rs`.
pub mod bits {
    include!(concat!(env!("OUT_DIR"), "/bits.rs"));
}

/// `kernel::sizes`: the kernel's `rust/kernel/sizes.rs`.
pub mod sizes {
    // The kernel crate reaches `bindings` as an extern crate; here it is a module of this crate.
    use crate::bindings;

    include!(concat!(env!("OUT_DIR"), "/sizes.rs"));
}

/// `kernel::ptr`: the kernel's `rust/kernel/ptr.rs`, with its submodule `ptr/projection.rs`
/// declared here around its included file; `project_pointer!` lands at this crate's root, as at
/// the kernel's.
pub mod ptr {
    include!(concat!(env!("OUT_DIR"), "/ptr.rs"));

    /// `kernel::ptr::projection`: the kernel's `rust/kernel/ptr/projection.rs`.
    pub mod projection {
        include!(concat!(env!("OUT_DIR"), "/ptr_projection.rs"));
    }
}

/// `kernel::time`: the kernel's `rust/kernel/time.rs`, without its `delay` and `hrtimer`
/// submodules.
// `Instant::as_nanos` and `Instant::from_ktime` are `pub(crate)` helpers for `hrtimer`, which is
// not built here.
#[allow(dead_code)]
pub mod time {
    // The kernel crate reaches `bindings` as an extern crate; here it is a module of this crate.
    use crate::bindings;

    include!(concat!(env!("OUT_DIR"), "/time.rs"));
}

/// `kernel::str`: the kernel's `rust/kernel/str.rs`, with its submodule `str/parse_int.rs`
/// declared here around its included file; `b_str!` and `c_str!` land at this crate's root, as at
/// the kernel's. Its C functions, `memchr()` and `kstrtobool()`, are the mock [`bindings`]'.
// `RawFormatter::from_ptrs` and `RawFormatter::pos` are `pub(crate)` helpers for the kernel's
// `print.rs` (`rust_fmt_argument`, C's `%pA`), which is not built here.
#[allow(dead_code)]
pub mod str {
    // The kernel crate reaches `bindings` as an extern crate; here it is a module of this crate.
    use crate::bindings;

    include!(concat!(env!("OUT_DIR"), "/str.rs"));

    /// `kernel::str::parse_int`: the kernel's `rust/kernel/str/parse_int.rs`.
    pub mod parse_int {
        include!(concat!(env!("OUT_DIR"), "/str_parse_int.rs"));
    }
}

/// `kernel::page`, reduced to what `alloc/kvec.rs` reaches: `PAGE_SIZE` and the `AsPageIter`
/// trait (its iterator's items unconstrained here: the mock `VmallocPageIter` yields offsets).
pub mod page {
    /// `PAGE_SIZE` of x86-64 and of the other targets these tests run on.
    pub const PAGE_SIZE: usize = 4096;

    /// Linux 7.3's `AsPageIter`, without the bound on the items.
    pub trait AsPageIter {
        /// The iterator.
        type Iter<'a>: Iterator
        where
            Self: 'a;

        /// An iterator over the pages of `self`.
        fn page_iter(&mut self) -> Self::Iter<'_>;
    }
}

/// `kernel::alloc`: the kernel's `rust/kernel/alloc.rs` with its submodules `alloc/kvec.rs`
/// (and `alloc/kvec/errors.rs`) and `alloc/layout.rs` declared here around their included files;
/// `allocator` and `kbox` are mocks, described on each.
pub mod alloc {
    include!(concat!(env!("OUT_DIR"), "/alloc.rs"));

    /// `kernel::alloc::kvec`: the kernel's `rust/kernel/alloc/kvec.rs`.
    pub mod kvec {
        use crate::bindings;

        include!(concat!(env!("OUT_DIR"), "/alloc_kvec.rs"));

        /// `kernel::alloc::kvec::errors`: the kernel's `rust/kernel/alloc/kvec/errors.rs`.
        mod errors {
            include!(concat!(env!("OUT_DIR"), "/alloc_kvec_errors.rs"));
        }
    }

    /// `kernel::alloc::layout`: the kernel's `rust/kernel/alloc/layout.rs`.
    pub mod layout {
        include!(concat!(env!("OUT_DIR"), "/alloc_layout.rs"));
    }

    /// A mock of `kernel::alloc::kbox`: only what `kvec.rs` reaches, `Box::into_raw` and
    /// `Deref` (for `From<Box<[T; N], A>> for Vec<T, A>`), and the aliases `alloc.rs` re-exports.
    pub mod kbox {
        use super::Allocator;
        use core::{marker::PhantomData, mem::ManuallyDrop, ptr::NonNull};

        /// The kernel's `Box<T, A>`, reduced to its pointer.
        pub struct Box<T: ?Sized, A: Allocator>(NonNull<T>, PhantomData<A>);

        impl<T: ?Sized, A: Allocator> Box<T, A> {
            /// The pointer, which the caller now owns (Linux 7.3's `Box::into_raw`). The mock never makes
            /// one: nothing in these tests converts a `Box` into a `Vec`.
            pub fn into_raw(b: Self) -> *mut T {
                ManuallyDrop::new(b).0.as_ptr()
            }
        }

        impl<T: ?Sized, A: Allocator> core::ops::Deref for Box<T, A> {
            type Target = T;

            fn deref(&self) -> &T {
                // SAFETY: A `Box` owns a valid `T`.
                unsafe { self.0.as_ref() }
            }
        }

        /// `Box` with `Kmalloc`.
        pub type KBox<T> = Box<T, super::allocator::Kmalloc>;
        /// `Box` with `Vmalloc`.
        pub type VBox<T> = Box<T, super::allocator::Vmalloc>;
        /// `Box` with `KVmalloc`.
        pub type KVBox<T> = Box<T, super::allocator::KVmalloc>;
    }

    /// A mock of `kernel::alloc::allocator`: the three allocators over the host's global
    /// allocator, implementing the kernel's own `Allocator` trait (from the included `alloc.rs`)
    /// with its documented guarantees: a size of zero frees and returns a dangling pointer,
    /// contents are kept up to the smaller size, `__GFP_ZERO` zeroes the whole buffer past them,
    /// a failure leaves the old buffer valid, and the alignment is at least `MIN_ALIGN`.
    /// `Kmalloc` fails above `KMALLOC_MAX_SIZE` (4 MiB: `1 << (MAX_PAGE_ORDER + PAGE_SHIFT)`
    /// with the default `MAX_PAGE_ORDER` 10), as `kmalloc()` does; the other two above 1 GiB,
    /// where a host test would only exhaust memory.
    pub mod allocator {
        use super::{AllocError, Allocator, Flags, NumaNode};
        use core::{alloc::Layout, marker::PhantomData, ptr::NonNull};

        /// `kmalloc()`.
        pub struct Kmalloc;
        /// `vmalloc()`.
        pub struct Vmalloc;
        /// `kvmalloc()`.
        pub struct KVmalloc;

        /// The pages of a `Vmalloc` buffer: yields the offset of each.
        pub struct VmallocPageIter<'a> {
            size: usize,
            offset: usize,
            _buf: PhantomData<&'a [u8]>,
        }

        impl VmallocPageIter<'_> {
            /// The pages of the `size` bytes at `buf`.
            ///
            /// # Safety
            ///
            /// None for the mock, which never reads the buffer.
            pub unsafe fn new(_buf: NonNull<u8>, size: usize) -> Self {
                Self {
                    size,
                    offset: 0,
                    _buf: PhantomData,
                }
            }
        }

        impl Iterator for VmallocPageIter<'_> {
            type Item = usize;

            fn next(&mut self) -> Option<usize> {
                (self.offset < self.size).then(|| {
                    self.offset += crate::page::PAGE_SIZE;
                    self.offset - crate::page::PAGE_SIZE
                })
            }
        }

        /// `realloc` of the three, with `max` the largest size it gives.
        ///
        /// # Safety
        ///
        /// As `Allocator::realloc`, with `min_align` the allocator's `MIN_ALIGN`.
        unsafe fn realloc(
            ptr: Option<NonNull<u8>>,
            layout: Layout,
            old_layout: Layout,
            flags: Flags,
            min_align: usize,
            max: usize,
        ) -> Result<NonNull<[u8]>, AllocError> {
            let old = ptr.filter(|_| old_layout.size() != 0).map(|p| {
                (
                    p,
                    Layout::from_size_align(old_layout.size(), old_layout.align().max(min_align))
                        .expect("the old layout was valid"),
                )
            });
            if layout.size() == 0 {
                if let Some((p, old)) = old {
                    // SAFETY: The caller promises `p` was allocated here with `old`.
                    unsafe { std::alloc::dealloc(p.as_ptr(), old) };
                }
                let dangling = super::dangling_from_layout(layout);
                return Ok(NonNull::slice_from_raw_parts(dangling, 0));
            }
            if layout.size() > max {
                return Err(AllocError);
            }
            let new = Layout::from_size_align(layout.size(), layout.align().max(min_align))
                .map_err(|_| AllocError)?;
            // SAFETY: `new` has a non-zero size.
            let raw = unsafe {
                // The raw bits, as the kernel's allocators pass them to the C functions.
                if flags.as_raw() & crate::bindings::__GFP_ZERO != 0 {
                    std::alloc::alloc_zeroed(new)
                } else {
                    std::alloc::alloc(new)
                }
            };
            let raw = NonNull::new(raw).ok_or(AllocError)?;
            if let Some((p, old)) = old {
                let keep = old.size().min(new.size());
                // SAFETY: Both buffers are valid for `keep` bytes and distinct; `p` was
                // allocated here with `old`, as the caller promises.
                unsafe {
                    core::ptr::copy_nonoverlapping(p.as_ptr(), raw.as_ptr(), keep);
                    std::alloc::dealloc(p.as_ptr(), old);
                }
            }
            Ok(NonNull::slice_from_raw_parts(raw, layout.size()))
        }

        macro_rules! allocator {
            ($($name:ident: $min_align:expr, $max:expr;)*) => {$(
                // SAFETY: Allocations come from the global allocator and stay valid until freed
                // here; `realloc` keeps the guarantees of `Allocator` (see the module).
                unsafe impl Allocator for $name {
                    const MIN_ALIGN: usize = $min_align;

                    unsafe fn realloc(
                        ptr: Option<NonNull<u8>>,
                        layout: Layout,
                        old_layout: Layout,
                        flags: Flags,
                        _nid: NumaNode,
                    ) -> Result<NonNull<[u8]>, AllocError> {
                        // SAFETY: The caller's promises are those of this `realloc`.
                        unsafe { realloc(ptr, layout, old_layout, flags, $min_align, $max) }
                    }
                }
            )*};
        }

        allocator! {
            // `ARCH_KMALLOC_MINALIGN` of x86-64, `__alignof__(unsigned long long)`.
            Kmalloc: 8, 1 << 22;
            Vmalloc: crate::page::PAGE_SIZE, 1 << 30;
            KVmalloc: 8, 1 << 30;
        }
    }
}
