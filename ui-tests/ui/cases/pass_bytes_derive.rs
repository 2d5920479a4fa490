// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core's `#[derive(FromBytes, IntoBytes)]` on the structs a driver moves to and from
//! I/O memory: named, tuple and unit structs, nested, packed, with arrays.

use kernel_core::extras::io::sys_mem;
use kernel_core::io::Io;
use kernel_core::prelude::*;

#[derive(FromBytes, IntoBytes, Debug, PartialEq)]
#[repr(C)]
struct Descriptor {
    address: u64,
    length: u32,
    flags: u16,
    reserved: [u8; 2],
}

#[derive(FromBytes, IntoBytes)]
#[repr(transparent)]
struct Doorbell(pub u32);

#[derive(FromBytes, IntoBytes)]
#[repr(C, packed)]
struct Packed {
    tag: u8,
    value: u32,
}

#[derive(FromBytes, IntoBytes)]
#[repr(C)]
struct Unit;

#[derive(FromBytes, IntoBytes)]
#[repr(C)]
struct Ring {
    head: Doorbell,
    tail: Doorbell,
    slots: [Descriptor; 2],
}

/// A generic type of the driver's own, with its own `unsafe impl`s.
#[repr(C)]
struct Pair<A, B>(A, B);

// SAFETY: `#[repr(C)]` of two `FromBytes` fields: any bytes are a value (padding included).
unsafe impl<A: FromBytes, B: FromBytes> FromBytes for Pair<A, B> {}
// SAFETY: Only ever used below with two fields of the same size and alignment: no padding.
unsafe impl<A: IntoBytes, B: IntoBytes> IntoBytes for Pair<A, B> {}

/// Fields whose types have commas (`Pair<u8, u8>`), with attributes and visibility.
#[derive(FromBytes)]
#[repr(C)]
struct Nested {
    pair: Pair<u16, u16>,
    pairs: [Pair<u8, u8>; 2],
    #[allow(dead_code)]
    pub(crate) last: Pair<[u8; 2], Pair<u8, u8>>,
}

/// Generic structs, with the layouts that rule padding out whatever the arguments (as
/// `zerocopy` takes them): one `#[repr(C)]` field (Linux 7.3's nova-core `PteArray`),
/// `#[repr(transparent)]`, `#[repr(packed)]`; `FromBytes` with any layout and a where clause.
#[derive(FromBytes, IntoBytes)]
#[repr(C)]
struct PteArray<const NUM_ENTRIES: usize>([u64; NUM_ENTRIES]);

#[derive(FromBytes, IntoBytes)]
#[repr(transparent)]
struct Wrapper<T: Copy>(T);

#[derive(FromBytes, IntoBytes)]
#[repr(C, packed)]
struct PackedPair<A, B> {
    a: A,
    b: B,
}

#[derive(FromBytes)]
struct Loose<T>
where
    T: Copy,
{
    value: T,
    tag: u8,
}

/// Rust's own layout without padding (Linux 7.3's `samples/rust/rust_dma.rs` derives
/// `IntoBytes` so): the size is the sum of the fields', checked at compile time.
#[derive(FromBytes, IntoBytes)]
struct NoRepr {
    h: u32,
    b: u32,
}

fn plain<T: FromBytes + IntoBytes>() -> usize {
    size_of::<T>()
}

fn main() {
    assert_eq!(plain::<Descriptor>(), 16);
    assert_eq!(plain::<Doorbell>(), 4);
    assert_eq!(plain::<Packed>(), 5);
    assert_eq!(plain::<Unit>(), 0);
    assert_eq!(plain::<Ring>(), 40);
    assert_eq!(plain::<Pair<u32, u32>>(), 8);
    assert_eq!(size_of::<Nested>(), 12);
    fn from_bytes<T: FromBytes>() {}
    from_bytes::<Nested>();
    from_bytes::<Loose<u16>>();
    assert_eq!(plain::<PteArray<3>>(), 24);
    assert_eq!(plain::<Wrapper<u16>>(), 2);
    assert_eq!(plain::<PackedPair<u8, u64>>(), 9);
    assert_eq!(plain::<NoRepr>(), 8);
    let mut backing = [0_u32; 4];
    backing[0] = 0x1000;
    backing[2] = 0x0003_0040;
    let io = sys_mem::<16, u32>(&mut backing).unwrap();
    let descriptor = io.try_cast::<Descriptor>().unwrap();
    let read = descriptor.copy_read();
    assert_eq!(read.address, 0x1000);
    assert_eq!((read.length, read.flags), (0x0003_0040, 0));
}
