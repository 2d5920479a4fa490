// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::transmute`: `FromBytes` reads values from bytes only at the exact size (and,
//! by reference, only aligned), its `_prefix` forms return the rest, and `AsBytes` views values
//! as their bytes. In the kernel these are the kernel's own traits.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_transmute)]
mod tests {
    use kernel_core::transmute::{AsBytes, FromBytes};

    /// A header as a driver declares one.
    #[repr(C)]
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Header {
        magic: u32,
        length: u16,
        flags: u16,
    }
    // SAFETY: Integers only: any bytes are a valid `Header`, without interior mutability.
    unsafe impl FromBytes for Header {}
    // SAFETY: Integers only, without padding (4 + 2 + 2 bytes, aligned to 4).
    unsafe impl AsBytes for Header {}

    /// Eight bytes aligned for a `u64`.
    #[repr(C, align(8))]
    struct Aligned([u8; 16]);

    #[test]
    fn from_bytes_needs_the_exact_size_and_alignment() {
        let buffer = Aligned([1, 0, 0, 0, 2, 0, 0, 0, 3, 4, 5, 6, 7, 8, 9, 10]);
        let bytes = &buffer.0;
        assert_eq!(
            u32::from_bytes(&bytes[..4]).copied(),
            Some(u32::from_ne_bytes([1, 0, 0, 0]))
        );
        assert_eq!(u32::from_bytes(&bytes[..3]), None);
        assert_eq!(u32::from_bytes(&bytes[..5]), None);
        assert_eq!(u32::from_bytes(&bytes[1..5]), None);
        assert_eq!(u8::from_bytes(&bytes[3..4]), Some(&0));
        assert_eq!(<[u8; 16]>::from_bytes(bytes), Some(bytes));
        assert_eq!(<()>::from_bytes(&[]), Some(&()));
    }

    #[test]
    fn prefixes_return_the_rest() {
        let buffer = Aligned([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
        let (first, rest) = u64::from_bytes_prefix(&buffer.0).unwrap();
        assert_eq!(first.to_ne_bytes(), [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(rest, &buffer.0[8..]);
        assert_eq!(<[u64; 3]>::from_bytes_prefix(&buffer.0), None);
        assert_eq!(u16::from_bytes_prefix(&buffer.0[1..]), None);

        let (value, rest) = u16::from_bytes_copy_prefix(&buffer.0[1..]).unwrap();
        assert_eq!(value.to_ne_bytes(), [2, 3]);
        assert_eq!(rest.len(), 13);
        assert_eq!(u32::from_bytes_copy_prefix(&buffer.0[..3]), None);
    }

    #[test]
    fn copies_need_no_alignment() {
        let header = Header {
            magic: 0x1234_5678,
            length: 12,
            flags: 3,
        };
        let mut image = [0_u8; 9];
        image[1..].copy_from_slice(header.as_bytes());
        assert_eq!(Header::from_bytes_copy(&image[1..]), Some(header));
        assert_eq!(Header::from_bytes_copy(&image), None);
        assert_eq!(Header::from_bytes_copy(&image[2..]), None);
    }

    #[test]
    fn mutable_views_write_through() {
        let mut buffer = Aligned([0; 16]);
        let (word, rest) = u32::from_bytes_mut_prefix(&mut buffer.0).unwrap();
        *word = u32::from_ne_bytes([9, 8, 7, 6]);
        rest[0] = 5;
        assert_eq!(&buffer.0[..5], &[9, 8, 7, 6, 5]);
        assert!(u32::from_bytes_mut(&mut buffer.0[1..5]).is_none());
        assert!(u32::from_bytes_mut(&mut buffer.0[..8]).is_none());
        assert!(<[u8; 2]>::from_bytes_mut_prefix(&mut buffer.0[..1]).is_none());

        let mut value = 0_u64;
        value.as_bytes_mut().copy_from_slice(&[0xff; 8]);
        assert_eq!(value, u64::MAX);
    }

    #[test]
    fn as_bytes_views_every_byte() {
        assert_eq!(0x0102_0304_u32.to_be().as_bytes(), &[1, 2, 3, 4]);
        assert_eq!(true.as_bytes(), &[1]);
        assert_eq!('\u{1}'.as_bytes(), &1_u32.to_ne_bytes());
        assert_eq!("kernel".as_bytes(), b"kernel");
        assert_eq!([1_u16, 2][..].as_bytes().len(), 4);
        assert_eq!(().as_bytes(), &[] as &[u8]);
        assert_eq!(core::marker::PhantomData::<u64>.as_bytes().len(), 0);
    }
}
