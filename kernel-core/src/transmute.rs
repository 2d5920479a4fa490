// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Reinterpreting bytes as values and values as bytes: [`FromBytes`] and [`AsBytes`].
//!
//! Kernel counterpart: `rust/kernel/transmute.rs` (Linux 7.3).
//!
//! A driver parses firmware images, descriptors and messages that arrive as `&[u8]`, and
//! hands structures to the hardware or to user space as bytes. Linux 7.3's `kernel::transmute`
//! gives both directions without `unsafe` at the call site: `u32::from_bytes(&raw)`,
//! `Header::from_bytes_copy_prefix(image)`, `value.as_bytes()`. Linux 6.12 has the two trait
//! names in `kernel::types` as empty markers, without a method.
//!
//! - **In the kernel** (7.2 and 7.3) these are the kernel's own traits; a driver's
//!   `unsafe impl FromBytes for Header {}` implements the kernel's.
//! - **On the host** they are kernel-core's own, with Linux 7.3's methods, default bodies and
//!   implementations (the integers but `u128`/`i128`, `()`, `PhantomData`, arrays and slices;
//!   `AsBytes` also `bool`, `char` and `str`), so what builds here builds there.
//!
//! Linux 7.3 has a second family of byte traits: `zerocopy`'s `FromBytes` and `IntoBytes`,
//! which its prelude exports with derive macros and which bound `kernel::io`'s byte copies.
//! kernel-core mirrors those as [`extras::bytes`](crate::extras::bytes). The two families are
//! separate traits in the kernel, with different implementations (`zerocopy`'s cover
//! `u128` and derived structs, `transmute`'s cover `bool` and `str` for `AsBytes`), and they
//! stay separate here: a type used with both is declared for both. Their safety contracts
//! agree, but `transmute`'s adds one condition: no interior mutability.
//!
//! # Examples
//!
//! A firmware header read from the start of an image, aligned or not:
//!
//! ```
//! use kernel_core::transmute::{AsBytes, FromBytes};
//!
//! #[repr(C)]
//! #[derive(Clone, Copy)]
//! struct Header {
//!     magic: u32,
//!     length: u32,
//! }
//! // SAFETY: Two `u32`s: any bytes are a valid `Header`, and it has no interior mutability.
//! unsafe impl FromBytes for Header {}
//! // SAFETY: Two `u32`s and no padding: all its bytes are initialized.
//! unsafe impl AsBytes for Header {}
//!
//! let mut image = [0_u8; 12];
//! image[..4].copy_from_slice(&0x4b43_4f52_u32.to_ne_bytes());
//! image[4..8].copy_from_slice(&4_u32.to_ne_bytes());
//!
//! let (header, payload) = Header::from_bytes_copy_prefix(&image).unwrap();
//! assert_eq!((header.magic, header.length, payload.len()), (0x4b43_4f52, 4, 4));
//! assert_eq!(header.as_bytes(), &image[..8]);
//! assert!(Header::from_bytes_copy(&image).is_none()); // 12 bytes are not one header
//! ```

pub use crate::env::transmute::{AsBytes, FromBytes};
