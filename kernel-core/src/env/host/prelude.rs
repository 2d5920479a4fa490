// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What `kernel_core::prelude` re-exports in the host, besides kernel-core's own items.
