// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Lossless integer casts.
