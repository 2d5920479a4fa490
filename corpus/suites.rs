// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The corpus on the host: one module per file of `suites/`, listed by `build.rs`. The
//! kernel's `kernel_core_corpus.ko` builds the same files.

include!(concat!(env!("OUT_DIR"), "/suites.rs"));
