// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The prelude: `use kernel_core::prelude::*;` is the only prelude line a driver needs.
//!
//! Kernel counterpart: `rust/kernel/prelude.rs` (Linux 7.3).
//!
//! - **On the host** it exports what kernel-core provides of the kernel's prelude, and nothing
//!   else: the assertion macros [`build_assert!`], [`build_error!`], [`const_assert!`] and
//!   [`static_assert!`], [`#[kunit_tests]`](kunit_tests), [`Error`], [`Result`] and the error
//!   codes ([`EINVAL`], ...), the C types ([`c_int`], [`c_void`], [`CStr`], ...), `size_of`,
//!   `align_of` and their `_val` forms, [`Pin`], [`Zeroable`], and [`FromBytes`] and
//!   [`IntoBytes`] (kernel-core's own traits, see [`extras::bytes`](crate::extras::bytes)), the
//!   allocator's collections and flags ([`KBox`], [`KVec`], [`GFP_KERNEL`], ..., kernel-core's
//!   own, see [`alloc`](crate::alloc)), [`InPlaceInit`], [`try_init!`], [`try_pin_init!`],
//!   `pin_init`'s `init!`, `#[pin_data]`, `pin_init!`, `#[pinned_drop]`, [`InPlaceWrite`],
//!   [`Init`] and [`PinInit`], [`fmt!`](fmt) and the printing macros [`pr_emerg!`] to
//!   [`pr_debug!`] (see [`print`](crate::print)), [`module!`](module), [`#[vtable]`](vtable),
//!   [`#[export]`](export), [`ThisModule`] and [`UserPtr`] (see [`module`](crate::module) and
//!   [`uaccess`](crate::uaccess)). What needs a kernel is left out: `dev_info!`, `dbg!` and
//!   `current!`. Traits such as
//!   [`Alignable`](crate::ptr::Alignable) or [`SizeConstants`](crate::sizes::SizeConstants)
//!   are imported from their modules, as with the kernel.
//! - **In the kernel** (built by Kbuild) it also re-exports the prelude of the kernel the module
//!   is built for, 6.12, 7.2 or 7.3: `module!`, `pr_info!`, `Result`, `ThisModule`, the error
//!   codes, `KBox`, and the rest. Where both have a name, kernel-core's item wins, so a driver
//!   gets Linux 7.3's assertion API on every kernel: `static_assert!` with a message and
//!   `const_assert!` on 6.12 too, and kernel-core's `#[kunit_tests]`.
//!
//! Write it **instead of** `use kernel::prelude::*;`, not next to it:
//!
//! ```rust,ignore
//! use kernel_core::prelude::*; // the kernel's prelude and kernel-core's, in one line
//!
//! module! {
//!     type: MyDriver,
//!     name: "my_driver",
//!     description: "uses kernel-core",
//!     license: "GPL",
//! }
//!
//! static_assert!(size_of::<u64>() == 8, "64-bit words");
//! ```
//!
//! Both globs together do not work: both preludes export `build_assert!` and `static_assert!`
//! (and `const_assert!` from 7.1, `#[kunit_tests]` from 7.2) as different items, and two glob
//! imports that give one name two meanings are ambiguous (a warning, `ambiguous_glob_imports`,
//! that future compilers make an error, or a build error, depending on the kernel). A driver
//! that keeps `use kernel::prelude::*;` imports kernel-core's macros by name instead, since a
//! named import beats a glob on every kernel:
//!
//! ```rust,ignore
//! use kernel::prelude::*;
//! use kernel_core::build_assert::{build_assert, const_assert, static_assert};
//! ```
//!
//! After switching back to `kernel::` on Linux 7.3, `use kernel::prelude::*;` exports all the
//! names this prelude does.
//!
//! # Examples
//!
//! The items of the prelude, on the host:
//!
//! ```
//! use kernel_core::prelude::*;
//!
//! fn checked(raw: c_int) -> Result<u16> {
//!     if raw < 0 {
//!         return Err(Error::from_errno(raw));
//!     }
//!     Ok(u16::try_from(raw)?)
//! }
//! assert_eq!(checked(-16), Err(EBUSY));
//! assert_eq!(checked(70_000), Err(EINVAL));
//! assert_eq!(size_of::<c_long>(), size_of::<usize>());
//! assert_eq!(c"ok".to_bytes(), b"ok");
//!
//! static_assert!(u32::BITS == 32, "32-bit words");
//!
//! fn ring<const N: usize>() -> [u8; N] {
//!     const_assert!(N.is_power_of_two(), "ring indices wrap with a mask");
//!     [0; N]
//! }
//!
//! #[inline(always)]
//! fn lane(index: u32) -> u32 {
//!     build_assert!(index < 4, "four lanes");
//!     index * 8
//! }
//!
//! #[inline(always)]
//! fn halve(even: u32) -> u32 {
//!     if even % 2 != 0 {
//!         build_error!("odd");
//!     }
//!     even / 2
//! }
//!
//! #[kunit_tests(prelude_example)]
//! mod tests {
//!     #[test]
//!     fn runs() {
//!         assert_eq!(super::halve(8), 4);
//!     }
//! }
//!
//! assert_eq!(ring::<8>().len(), 8);
//! assert_eq!(lane(3), 24);
//! assert_eq!(halve(8), 4);
//! ```
//!
//! Nothing else: the traits come from their modules.
//!
//! ```compile_fail,E0599
//! use kernel_core::prelude::*;
//! use kernel_core::ptr::Alignment;
//!
//! // error[E0599]: no method named `align_down` (`Alignable` is not in the prelude)
//! let page = 0x1234_u64.align_down(Alignment::new::<4096>());
//! ```
//!
//! ```
//! use kernel_core::prelude::*;
//! use kernel_core::ptr::{Alignable, Alignment};
//!
//! static_assert!(0x1234_u64 & !0xfff == 0x1000);
//! assert_eq!(0x1234_u64.align_down(Alignment::new::<4096>()), 0x1000);
//! ```

// What differs between the host and the kernel: the kernel's own prelude in the kernel, nothing
// on the host (where this glob imports nothing, hence the `allow`). kernel-core's items below
// are named imports, which take precedence over the glob wherever both have a name.
#[allow(unused_imports, unreachable_pub)]
pub use crate::env::prelude::*;

#[doc(inline)]
pub use crate::build_assert::{build_assert, build_error, const_assert, static_assert};
#[doc(inline)]
pub use crate::macros::kunit_tests;
