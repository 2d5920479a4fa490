// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: `{:p}` through `fmt!` and `HashedPtr` prints what the kernel's `%#0*p` prints,
//! with the documented key: SipHash-2-4 (computed here from the reference algorithm, over
//! bytes) of the address, its low 32 bits on 64-bit hosts, zero-padded after `0x`; the null
//! pointer and error pointers unhashed; widths as Linux 7.3's `HashedPtr` applies them.

use kernel_core::fmt::HashedPtr;
use kernel_core::macros::fmt;
use proptest::prelude::*;

/// The key kernel-core's `%p` hashes with, as its documentation gives it.
const KEY: &[u8; 16] = b"kernel-core %p!\n";

/// SipHash-2-4 of `message` under `key`, as the reference implementation computes it.
fn siphash24(key: &[u8; 16], message: &[u8]) -> u64 {
    let k0 = u64::from_le_bytes(key[..8].try_into().unwrap());
    let k1 = u64::from_le_bytes(key[8..].try_into().unwrap());
    let mut v = [
        k0 ^ 0x736f6d6570736575,
        k1 ^ 0x646f72616e646f6d,
        k0 ^ 0x6c7967656e657261,
        k1 ^ 0x7465646279746573,
    ];
    let sipround = |v: &mut [u64; 4]| {
        v[0] = v[0].wrapping_add(v[1]);
        v[2] = v[2].wrapping_add(v[3]);
        v[1] = v[1].rotate_left(13) ^ v[0];
        v[3] = v[3].rotate_left(16) ^ v[2];
        v[0] = v[0].rotate_left(32);
        v[2] = v[2].wrapping_add(v[1]);
        v[0] = v[0].wrapping_add(v[3]);
        v[1] = v[1].rotate_left(17) ^ v[2];
        v[3] = v[3].rotate_left(21) ^ v[0];
        v[2] = v[2].rotate_left(32);
    };
    let mut blocks = message.chunks_exact(8);
    for block in &mut blocks {
        let m = u64::from_le_bytes(block.try_into().unwrap());
        v[3] ^= m;
        sipround(&mut v);
        sipround(&mut v);
        v[0] ^= m;
    }
    let mut last = [0_u8; 8];
    last[..blocks.remainder().len()].copy_from_slice(blocks.remainder());
    last[7] = message.len() as u8;
    let b = u64::from_le_bytes(last);
    v[3] ^= b;
    sipround(&mut v);
    sipround(&mut v);
    v[0] ^= b;
    v[2] ^= 0xff;
    for _ in 0..4 {
        sipround(&mut v);
    }
    v[0] ^ v[1] ^ v[2] ^ v[3]
}

/// What `%p` prints for `addr` by default, as `lib/vsprintf.c` computes it.
fn reference_percent_p(addr: usize, width: usize) -> String {
    let is_err_or_null = addr == 0 || addr > usize::MAX - 4095;
    let value = if is_err_or_null {
        addr as u64
    } else if cfg!(target_pointer_width = "64") {
        siphash24(KEY, &(addr as u64).to_le_bytes()) & 0xffff_ffff
    } else {
        siphash24(KEY, &(addr as u32).to_le_bytes()) & 0xffff_ffff
    };
    format!("0x{value:0w$x}", w = width.saturating_sub(2))
}

/// The width `%p` prints at by default: `0x` and two digits a byte.
const DEFAULT: usize = 2 + 2 * size_of::<usize>();

/// The pointer at `addr`.
fn at(addr: usize) -> *const u8 {
    core::ptr::without_provenance(addr)
}

#[test]
fn reference_siphash_vectors() {
    let key: [u8; 16] = core::array::from_fn(|i| i as u8);
    let message: Vec<u8> = (0..8).collect();
    assert_eq!(siphash24(&key, &message), 0x93f5_f579_9a93_2462);
    assert_eq!(siphash24(&key, &message[..4]), 0xcf27_94e0_2771_87b7);
    assert_eq!(siphash24(&key, &[]), 0x726f_db47_dd0e_0e31);
}

#[test]
fn null_and_error_pointers_are_not_hashed() {
    assert_eq!(
        format!("{}", fmt!("{:p}", at(0))),
        format!("0x{:0w$x}", 0, w = DEFAULT - 2)
    );
    for errno in [1, 22, 4095] {
        let addr = 0_usize.wrapping_sub(errno);
        assert_eq!(format!("{}", fmt!("{:p}", at(addr))), format!("{addr:#x}"));
    }
    // `-4096` is an ordinary address.
    let addr = 0_usize.wrapping_sub(4096);
    assert_eq!(
        format!("{}", fmt!("{:p}", at(addr))),
        reference_percent_p(addr, DEFAULT)
    );
}

#[test]
fn every_pointer_type_prints_alike() {
    let mut value = 5_u64;
    let shown = format!("{}", fmt!("{:p}", &value));
    let addr = core::ptr::from_ref(&value).addr();
    assert_eq!(shown, reference_percent_p(addr, DEFAULT));
    let ptr: *const u64 = &value;
    assert_eq!(format!("{}", fmt!("{:p}", ptr)), shown);
    assert_eq!(format!("{}", fmt!("{:p}", ptr.cast_mut())), shown);
    assert_eq!(format!("{}", fmt!("{:p}", HashedPtr(ptr))), shown);
    assert_eq!(
        format!("{}", fmt!("{:p}", core::ptr::NonNull::from(&value))),
        shown
    );
    assert_eq!(format!("{}", fmt!("{:p}", &mut value)), shown);
    let slice: &[u64] = core::slice::from_ref(&value);
    assert_eq!(format!("{}", fmt!("{:p}", slice)), shown);
}

/// Fewer cases under Miri, which runs a thousand times slower.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: if cfg!(miri) { 4 } else { 1024 },
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn percent_p_of_any_address(addr in any::<usize>()) {
        prop_assert_eq!(format!("{}", fmt!("{:p}", at(addr))), reference_percent_p(addr, DEFAULT));
        // Deterministic: the same address prints the same.
        prop_assert_eq!(
            format!("{}", fmt!("{:p}", at(addr))),
            format!("{}", fmt!("{:p}", HashedPtr(at(addr))))
        );
    }

    #[test]
    fn widths_as_linux_7_3_applies_them(addr in any::<usize>()) {
        let ptr = at(addr);
        let plain = reference_percent_p(addr, DEFAULT);
        // With `0`: `%#0*p` at the width, clamped to 31 characters (a 32-byte buffer). A width
        // must be written in the format string: `fmt!` wraps a `w = 24` argument too.
        let zeroed = [
            (1, format!("{}", fmt!("{:01p}", ptr))),
            (10, format!("{}", fmt!("{:010p}", ptr))),
            (18, format!("{}", fmt!("{:018p}", ptr))),
            (24, format!("{}", fmt!("{:024p}", ptr))),
            (31, format!("{}", fmt!("{:031p}", ptr))),
            (31, format!("{}", fmt!("{:032p}", ptr))),
            (31, format!("{}", fmt!("{:0100p}", ptr))),
        ];
        for (width, shown) in zeroed {
            prop_assert_eq!(shown, reference_percent_p(addr, width));
        }
        // Without: the default form, padded by `core`.
        prop_assert_eq!(format!("{}", fmt!("{:>24p}", ptr)), format!("{plain:>24}"));
        prop_assert_eq!(format!("{}", fmt!("{:*<30p}", ptr)), format!("{plain:*<30}"));
        prop_assert_eq!(format!("{}", fmt!("{:^5p}", ptr)), plain.clone());
        prop_assert_eq!(format!("{}", fmt!("{:#p}", ptr)), plain);
    }

    #[test]
    fn hashes_spread(a in any::<usize>(), b in any::<usize>()) {
        prop_assume!(a != b && a != 0 && b != 0 && a <= usize::MAX - 4095 && b <= usize::MAX - 4095);
        // 32-bit hashes of two addresses collide with probability 2^-32: a failure here is a bug.
        prop_assert_ne!(
            format!("{}", fmt!("{:p}", at(a))),
            format!("{}", fmt!("{:p}", at(b)))
        );
    }
}

/// `KBox`, `Arc` and `UniqueArc` print through the kernel's `Display`, as Linux 7.3's do
/// (`alloc/kbox.rs`, `sync/arc.rs`): `{}` in `fmt!` (and so in `pr_*!`) reads them.
#[test]
fn owning_pointers_print_through_the_kernel_s_display() {
    use kernel_core::alloc::{flags::GFP_KERNEL, KBox};
    use kernel_core::sync::{Arc, UniqueArc};

    let kbox = KBox::new(7_u32, GFP_KERNEL).unwrap();
    let arc = Arc::new(3_u8, GFP_KERNEL).unwrap();
    let unique = UniqueArc::new(-1_i64, GFP_KERNEL).unwrap();
    assert_eq!(format!("{}", fmt!("{kbox} {arc} {unique}")), "7 3 -1");
}
