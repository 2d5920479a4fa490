// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's [`FromBytes`] and [`IntoBytes`] on Linux 7.2 and 7.3, which vendor `zerocopy`
//! and pass it to every module crate (`--extern zerocopy`): every type that implements the
//! kernel's `zerocopy::FromBytes` (or `IntoBytes`), by the kernel's derive macros or by
//! `zerocopy`'s own implementations (the integers, arrays, slices, ...), implements
//! kernel-core's, so kernel-core's `Io` takes what the kernel's takes.

use crate::extras::bytes::{FromBytes, IntoBytes};

// SAFETY: `zerocopy::FromBytes` promises what `FromBytes` requires: any bytes are a value.
unsafe impl<T: ?Sized + ::zerocopy::FromBytes> FromBytes for T {}

// SAFETY: `zerocopy::IntoBytes` promises what `IntoBytes` requires: no padding, all bytes
// initialized.
unsafe impl<T: ?Sized + ::zerocopy::IntoBytes> IntoBytes for T {}
