// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The `gfp_t` flags of Linux 7.3's `include/linux/gfp_types.h` and the NUMA constants, as
//! bindgen gives them to the kernel's `bindings` crate (`u32` for a `#define` that fits in 32
//! bits, `i32` for a negative one), for a configuration without `CONFIG_KASAN_HW_TAGS` and
//! `CONFIG_LOCKDEP` (which add bits after all of these) and with `CONFIG_NODES_SHIFT=10`.

#![no_std]

/// `___GFP_HIGHMEM_BIT`.
const HIGHMEM: u32 = 1 << 1;
/// `___GFP_HIGH_BIT`.
const HIGH: u32 = 1 << 5;
/// `___GFP_IO_BIT`.
const IO: u32 = 1 << 6;
/// `___GFP_FS_BIT`.
const FS: u32 = 1 << 7;
/// `___GFP_ZERO_BIT`.
const ZERO: u32 = 1 << 8;
/// `___GFP_DIRECT_RECLAIM_BIT`.
const DIRECT_RECLAIM: u32 = 1 << 10;
/// `___GFP_KSWAPD_RECLAIM_BIT`.
const KSWAPD_RECLAIM: u32 = 1 << 11;
/// `___GFP_NOWARN_BIT`.
const NOWARN: u32 = 1 << 13;
/// `___GFP_ACCOUNT_BIT`.
const ACCOUNT: u32 = 1 << 22;

/// `__GFP_ZERO`.
pub const __GFP_ZERO: u32 = ZERO;
/// `__GFP_HIGHMEM`.
pub const __GFP_HIGHMEM: u32 = HIGHMEM;
/// `__GFP_NOWARN`.
pub const __GFP_NOWARN: u32 = NOWARN;
/// `GFP_ATOMIC`: `__GFP_HIGH | __GFP_KSWAPD_RECLAIM`.
pub const GFP_ATOMIC: u32 = HIGH | KSWAPD_RECLAIM;
/// `GFP_KERNEL`: `__GFP_RECLAIM | __GFP_IO | __GFP_FS`.
pub const GFP_KERNEL: u32 = DIRECT_RECLAIM | KSWAPD_RECLAIM | IO | FS;
/// `GFP_KERNEL_ACCOUNT`: `GFP_KERNEL | __GFP_ACCOUNT`.
pub const GFP_KERNEL_ACCOUNT: u32 = GFP_KERNEL | ACCOUNT;
/// `GFP_NOWAIT`: `__GFP_KSWAPD_RECLAIM | __GFP_NOWARN`.
pub const GFP_NOWAIT: u32 = KSWAPD_RECLAIM | NOWARN;

/// `MAX_NUMNODES`: `1 << CONFIG_NODES_SHIFT`.
pub const MAX_NUMNODES: u32 = 1 << 10;
/// `NUMA_NO_NODE` (`include/linux/nodemask_types.h`).
pub const NUMA_NO_NODE: i32 = -1;
