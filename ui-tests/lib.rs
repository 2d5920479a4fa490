// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Compile-fail (`ui/`) and link-fail (`fixtures/`) tests of kernel-core; see `tests/`.
