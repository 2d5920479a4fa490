// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::sync` in the kernel: the kernel's own on Linux 7.3 and 7.2, bridged on 6.12.
