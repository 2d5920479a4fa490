// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::sync` on the host: kernel-core's own.
