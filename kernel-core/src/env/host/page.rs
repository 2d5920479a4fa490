// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::page` on the host: kernel-core's own.
