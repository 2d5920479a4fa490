// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The Linux 7.3 kernel crate's driver APIs (build-time assertions, sizes, alignment, time,
//! bit fields, I/O and registers, error codes), for out-of-tree drivers on every kernel from
//! 6.12 on and for unit tests on the host.
//!
//! Linux 7.1 gave Rust drivers [`const_assert!`], typed `SZ_*` constants through
//! [`SizeConstants`](sizes::SizeConstants), [`const_align_up`](ptr::const_align_up) and
//! [`Delta::from_nanos`](time::Delta::from_nanos), and 7.3 [`Delta<Jiffy>`](time::Jiffy) and
//! [`as_millis_ceil`](time::Delta::as_millis_ceil), but most shipping kernels are 6.12 LTS, and
//! no crate of the kernel tree can be tested with `cargo`. This crate is that API, written from
//! scratch with the same module paths, names and semantics, so a driver switches with one `use`
//! line:
//!
//! ```
//! // use kernel::{sizes::*, ptr::*, time::Delta};
//! use kernel_core::{sizes::*, ptr::*, time::Delta};
//!
//! const HEAP: usize = match const_align_up(SZ_8M + SZ_16M, Alignment::new::<SZ_128K>()) {
//!     Some(size) => size,
//!     None => panic!("heap size overflows"),
//! };
//! kernel_core::static_assert!(HEAP == 24 * SZ_1M);
//!
//! let window = 14 * u64::SZ_1M;
//! assert_eq!(0x2f_u64.align_up(Alignment::new::<16>()), Some(0x30));
//! assert_eq!(Delta::from_micros(1_500).as_millis(), 1);
//! assert_eq!(Delta::from_micros(1_500).as_millis_ceil(), 2);
//! # let _ = window;
//! ```
//!
//! **The rule:** inside the mirrored paths ([`build_assert`](mod@build_assert), [`sizes`],
//! [`ptr`], [`time`], [`io`], [`error`], [`ffi`], [`prelude`], and of [`macros`] `paste!` and
//! `#[kunit_tests]`, ...), code that builds with kernel-core builds with
//! Linux 7.3's `kernel::` and behaves the same. What kernel-core adds is in [`extras`] and
//! [`kunit`]; the [migration guide](guide::migrating) lists every addition and the few
//! deliberate differences, and shows what 6.12, 7.2 and 7.3 each have.
//!
//! | API | Linux 6.12 | Linux 7.2 | Linux 7.3 | kernel-core |
//! |---|---|---|---|---|
//! | `static_assert!`, `build_assert!`, `build_error!` | ✓ (no message in `static_assert!`) | ✓ | ✓ | ✓ |
//! | `const_assert!`, `SZ_1M..SZ_2G`, `SizeConstants`, `ptr`, `time::{Delta, Instant}` | ✗ | ✓ | ✓ | ✓ |
//! | `Delta<Jiffy>`, `as_millis_ceil`, `KnownSize::{MIN_SIZE, MIN_ALIGN}` | ✗ | ✗ | ✓ | ✓ |
//! | [`bitfield!`] | ✗ | ✓ | ✓ | ✓ |
//! | [`io`]'s `Io` traits, `SysMem`, `Mmio`, [`register!`] | ✗ | older forms | ✓ | ✓ (on 6.12 `Mmio` reaches `readl()` and the rest through kernel-core's C helpers) |
//! | [`ptr::project!`], [`io_project!`], `Io::try_cast` and the byte copies | ✗ | ✗ | ✓ | ✓ |
//! | `#[kunit_tests]` | ✗ | ✓ | ✓ | ✓, also on the host |
//!
//! The same sources build in two worlds:
//!
//! - **host**: a normal `#![no_std]` crate for `cargo`. `build_assert!` fails the final link of
//!   an optimized binary (see [`build_assert`](mod@build_assert)), `#[kunit_tests]` suites become ordinary
//!   `#[test]`s, and with the `std` feature the clocks in [`time`] read the host's clocks.
//! - **kernel**: compiled by Kbuild as part of a module (`--cfg kernel`, see the top-level
//!   `Kbuild`). `build_assert!` uses the kernel's own `build_error`, `#[kunit_tests]` suites are
//!   real KUnit suites, the clocks call the kernel's timekeeping, and on 7.1+ a [`time::Delta`]
//!   converts into the kernel's with `.into()`.
//!
//! Everything that differs between the two lives in one private module, `env`.
//!
//! **New here?** [Getting started](guide::getting_started) has the Kbuild lines and the one
//! prelude line of a driver (`use kernel_core::prelude::*;`), the `Cargo.toml` lines for its
//! host tests with and without the `std` feature, what each build profile does with the
//! assertions, and what `cargo check` cannot see. Items that need `std` on the host are marked
//! so on these pages.

// Kbuild already passes `-Zcrate-attr=no_std`; a second one would warn.
#![cfg_attr(not(kernel), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// The `#[kunit_tests]` examples must show `#[test]` functions, which doctests never run.
#![allow(clippy::test_attr_in_doctest)]

#[cfg(all(feature = "std", not(kernel)))]
extern crate std;

// The one place where the host build and the kernel build differ.
#[cfg_attr(kernel, path = "env/kernel.rs")]
#[cfg_attr(not(kernel), path = "env/host.rs")]
mod env;

pub mod alloc;
pub mod bitfield;
pub mod bits;
pub mod build_assert;
pub mod error;
pub mod extras;
pub mod ffi;
pub mod fmt;
pub mod guide;
pub mod impl_flags;
pub mod init;
pub mod io;
pub mod kunit;
pub mod list;
pub mod macros;
pub mod module;
pub mod module_param;
pub mod num;
pub mod page;
pub mod prelude;
pub mod print;
pub mod ptr;
pub mod sizes;
pub mod str;
pub mod sync;
pub mod time;
pub mod transmute;
pub mod types;
pub mod uaccess;

// The macros that Linux 7.3 exports at the kernel crate's root from the modules above (`kvec!`,
// `new_mutex!`, `pr_info!`, ...): in the kernel, the kernel's own; on the host, kernel-core's
// `#[macro_export]` macros are there already.
#[doc(inline)]
pub use crate::env::root_macros::*;

// As in Linux 7.3, the module traits and `ThisModule` are at the crate root too.
pub use crate::env::module::root::*;

/// The README's example, compiled and run as a doctest, with the `std` feature that its
/// `Instant::<Monotonic>::now()` needs on the host.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../../README.md")]
struct ReadmeExample;
