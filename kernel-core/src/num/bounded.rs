// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`Bounded`]: an integer limited to its `N` least significant bits.
