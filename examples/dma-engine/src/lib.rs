// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! dma_engine: a driver for a made-up DMA engine, everything but the module glue.
//!
//! The engine copies and fills memory on its own, described by 32-byte descriptors in a ring
//! per channel: the driver writes descriptors, rings the channel's doorbell, and polls the
//! channel's status register until the device reports them complete. The pieces are the ones a
//! real DMA driver has, each in its own module:
//!
//! - [`regs`]: the register map, declared once with `io::register!`, and its programming
//!   through any `Io` (an `Mmio` mapping in a driver, memory in a test);
//! - [`ring`]: the descriptor format and the ring's index arithmetic, checked at build time;
//! - [`engine`]: submitting transfers and waiting for them with `io::poll`, with the kernel's
//!   error codes;
//! - [`driver`]: the driver's state, shared by threads: the probed device behind a spinlock,
//!   each channel's ring and pending transfers behind a mutex, in `Arc`s built by `pin_init!`;
//! - [`device`]: a model of the device in memory, which the host tests, the KUnit suites and the
//!   module's init drive in place of hardware.
//!
//! `cargo test` builds this crate on the host and Kbuild builds the same crate into the module,
//! so `crate::` paths mean the same in both worlds and its `#[kunit_tests]` suites run as host
//! tests and as KUnit suites. Everything here is written against kernel-core's mirrored paths
//! (Linux 7.3's `kernel::` API) and `kernel_core::extras`, so it also builds with the kernel's
//! own items on 7.3.

// Kbuild makes every crate `no_std` itself (a second `#![no_std]` would warn there); on the
// host, say it here, so that cargo rejects what the kernel has not got.
#![cfg_attr(not(kernel), no_std)]

// The host tests' threads (`#[cfg(not(kernel))]` cases) are `std`'s.
#[cfg(test)]
extern crate std;

pub mod device;
pub mod driver;
pub mod engine;
pub mod regs;
pub mod ring;

/// The prefix of this crate's `pr_*!` messages in the kernel, which the kernel's print macros
/// look for at the crate root (`module!` defines it in the module's own crate, not here).
#[cfg(kernel)]
#[doc(hidden)]
pub const __LOG_PREFIX: &[u8] = b"dma_engine\0";
