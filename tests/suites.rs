// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's KUnit-style suites on the host: one module per file of `suites/`, listed by
//! `build.rs`. The kernel's test module builds the same files as KUnit suites.

include!(concat!(env!("OUT_DIR"), "/suites.rs"));
