// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's own `pin_init_internal` proc macros (`rust/pin-init/internal/src/lib.rs` and its
//! modules, read from the tree in `KERNEL_CORE_LINUX_SRC` by `../pin-init/build.rs`), for
//! Linux 7.3's `pin_init` built on the host (`../pin-init`).

// The kernel's file: "Documentation is done in the pin-init crate instead."
#![allow(missing_docs)]

include!(concat!(env!("OUT_DIR"), "/lib.rs"));
