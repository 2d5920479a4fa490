// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `%p` on the host: what the kernel's `lib/vsprintf.c` prints for a pointer, computed as it does
//! (SipHash-2-4 of the address under a key), with a fixed key instead of the kernel's random one.
//!
//! Its twin, `env/kernel/percent_p.rs`, asks the kernel's own `scnprintf("%#0*p")`.

/// `%#0*p` of `addr` at `width` (at most 31), into `buffer`: the hash of the address (or the
/// address itself, if null or an error pointer), in lowercase hexadecimal after `0x`, with
/// zeros between them up to `width` characters.
pub(crate) fn percent_p(addr: usize, width: usize, buffer: &mut [u8; 32]) -> &str {
    /// `MAX_ERRNO` of `include/linux/err.h`: `IS_ERR_OR_NULL()` is true of `0` and of the last
    /// 4095 addresses.
    const MAX_ERRNO: usize = 4095;
    let value = if addr == 0 || addr > usize::MAX - MAX_ERRNO {
        addr
    } else {
        hash_pointer(addr)
    };
    let digits = (usize::BITS - value.leading_zeros()).div_ceil(4).max(1) as usize;
    let len = width.max(2 + digits).min(buffer.len() - 1);
    buffer[0] = b'0';
    buffer[1] = b'x';
    buffer[2..len].fill(b'0');
    let mut rest = value;
    for slot in buffer[len - digits..len].iter_mut().rev() {
        *slot = b"0123456789abcdef"[rest & 0xf];
        rest >>= 4;
    }
    // Only ASCII was written.
    core::str::from_utf8(&buffer[..len]).unwrap_or("")
}

/// The key of [`hash_pointer`]: `ptr_key` of `lib/vsprintf.c`, which the kernel fills from its
/// random number generator at boot, fixed here (the first 16 bytes of SHA-256("kernel-core")
/// would do as well as any: these are the bytes of "kernel-core %p!\n").
const POINTER_KEY: [u64; 2] = [
    u64::from_le_bytes(*b"kernel-c"),
    u64::from_le_bytes(*b"ore %p!\n"),
];

/// The hash that `%p` prints for `addr`: `ptr_to_hashval()` of `lib/vsprintf.c`, which is
/// `siphash_1u64(addr)` masked to its low 32 bits on 64-bit kernels and `siphash_1u32(addr)`
/// on 32-bit ones, under [`POINTER_KEY`].
pub(crate) fn hash_pointer(addr: usize) -> usize {
    #[cfg(target_pointer_width = "64")]
    let hash = siphash_2_4(addr as u64, 8, POINTER_KEY) & 0xffff_ffff;
    #[cfg(not(target_pointer_width = "64"))]
    let hash = siphash_2_4(addr as u64, 4, POINTER_KEY);
    hash as usize
}

/// SipHash-2-4 of a message of `len` (at most 8) bytes, given as the little-endian `u64`
/// `message`: what `siphash_1u64()` (`len` 8) and `siphash_1u32()` (`len` 4) of
/// `lib/siphash.c` compute.
const fn siphash_2_4(message: u64, len: u64, key: [u64; 2]) -> u64 {
    /// One SipRound.
    const fn round(v: &mut [u64; 4]) {
        v[0] = v[0].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(13);
        v[1] ^= v[0];
        v[0] = v[0].rotate_left(32);
        v[2] = v[2].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(16);
        v[3] ^= v[2];
        v[0] = v[0].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(21);
        v[3] ^= v[0];
        v[2] = v[2].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(17);
        v[1] ^= v[2];
        v[2] = v[2].rotate_left(32);
    }

    let mut v = [
        0x736f_6d65_7073_6575 ^ key[0],
        0x646f_7261_6e64_6f6d ^ key[1],
        0x6c79_6765_6e65_7261 ^ key[0],
        0x7465_6462_7974_6573 ^ key[1],
    ];
    // The last block: the message's length in the top byte, its bytes below (a full 8-byte
    // message is a block of its own, compressed first).
    let mut last = len << 56;
    if len == 8 {
        v[3] ^= message;
        round(&mut v);
        round(&mut v);
        v[0] ^= message;
    } else {
        last |= message;
    }
    v[3] ^= last;
    round(&mut v);
    round(&mut v);
    v[0] ^= last;
    v[2] ^= 0xff;
    round(&mut v);
    round(&mut v);
    round(&mut v);
    round(&mut v);
    v[0] ^ v[1] ^ v[2] ^ v[3]
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::size_of;

    /// The reference vectors of SipHash-2-4 for the bytes `00 01 .. 07` and `00 01 02 03` under
    /// the key `00 01 .. 0f`, as `lib/tests/siphash_kunit.c` checks `siphash_1u64()` and
    /// `siphash_1u32()` (`test_vectors[8]` and `[4]`).
    #[test]
    fn siphash_reference_vector() {
        let key = [
            u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]),
            u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]),
        ];
        let message = u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(siphash_2_4(message, 8, key), 0x93f5_f579_9a93_2462);
        assert_eq!(siphash_2_4(0x0302_0100, 4, key), 0xcf27_94e0_2771_87b7);
    }

    #[test]
    fn percent_p_pads_and_clamps() {
        let mut buffer = [0; 32];
        assert_eq!(percent_p(0, 18, &mut buffer), "0x0000000000000000");
        assert_eq!(
            percent_p(usize::MAX, 4, &mut buffer).len(),
            2 + 2 * size_of::<usize>()
        );
        let hashed = percent_p(0x1000, 40, &mut buffer);
        assert_eq!(hashed.len(), 31);
        assert!(hashed[2..].bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
