// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: `kernel_core::uaccess` over the user memory that a test maps
//! (`extras::uaccess::UserMemory`): every method of `UserSlice`, `UserSliceReader` and
//! `UserSliceWriter` on mapped, partly mapped, read-only and unmapped memory, the edges of
//! `strcpy_into_buf` and `read_all`, threads, and random accesses against a plain reference
//! model.
//!
//! Miri-clean: `cargo +nightly miri test -p kernel-core-tests --test uaccess` (fewer random
//! cases there).

use std::mem::MaybeUninit;

use kernel_core::alloc::{flags::GFP_KERNEL, KVVec, KVec};
use kernel_core::error::code::{EFAULT, EINVAL, ENOMEM};
use kernel_core::extras::uaccess::{UserMemory, TASK_SIZE_MAX};
use kernel_core::page::PAGE_SIZE;
use kernel_core::uaccess::{UserPtr, UserSlice};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn addr(ptr: UserPtr) -> usize {
    ptr.as_const_ptr().addr()
}

#[test]
fn reads_move_through_mapped_memory() {
    let mut user = UserMemory::new();
    let ptr = user.map(b"0123456789");
    let mut reader = UserSlice::new(ptr, 10).reader();
    let mut four = [0; 4];
    reader.read_slice(&mut four).unwrap();
    assert_eq!(&four, b"0123");
    assert_eq!(reader.len(), 6);
    reader.skip(2).unwrap();
    assert_eq!(reader.read::<[u8; 2]>(), Ok(*b"67"));
    let mut raw = [MaybeUninit::<u8>::uninit(); 2];
    reader.read_raw(&mut raw).unwrap();
    // SAFETY: `read_raw` succeeded: every byte is initialized.
    let raw = raw.map(|byte| unsafe { byte.assume_init() });
    assert_eq!(&raw, b"89");
    assert!(reader.is_empty());
    assert_eq!(reader.read::<u8>(), Err(EFAULT));
}

#[test]
fn read_values_are_the_bytes_in_native_order() {
    let mut user = UserMemory::new();
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&0x1122_3344_5566_7788_u64.to_ne_bytes());
    bytes.extend_from_slice(&(-2_i32).to_ne_bytes());
    for half in [1_u16, 2, 3] {
        bytes.extend_from_slice(&half.to_ne_bytes());
    }
    let ptr = user.map(&bytes);
    let mut reader = UserSlice::new(ptr, bytes.len()).reader();
    assert_eq!(reader.read::<u64>(), Ok(0x1122_3344_5566_7788));
    assert_eq!(reader.read::<i32>(), Ok(-2));
    assert_eq!(reader.read::<[u16; 3]>(), Ok([1, 2, 3]));
    assert!(reader.is_empty());
}

#[test]
fn a_read_that_runs_off_a_mapping_copies_the_start_and_zeroes_the_rest() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[1, 2, 3, 4, 5, 6]);
    // The slice says 8 bytes, user space mapped 6.
    let mut reader = UserSlice::new(ptr, 8).reader();
    let mut out = [0xaa; 8];
    assert_eq!(reader.read_slice(&mut out), Err(EFAULT));
    assert_eq!(out, [1, 2, 3, 4, 5, 6, 0, 0]);
    assert_eq!(reader.len(), 8);
    // The reader did not move: the first bytes read again.
    assert_eq!(reader.read::<[u8; 2]>(), Ok([1, 2]));
    assert_eq!(reader.read::<u64>(), Err(EFAULT));
    assert_eq!(reader.len(), 6);
}

#[test]
fn adjacent_mappings_are_one_region_and_gaps_fault() {
    let mut user = UserMemory::new();
    let base = 0x30_0001;
    user.map_at(base, b"ab");
    user.map_read_only_at(base + 2, b"cd");
    user.map_at(base + 5, b"f"); // a gap of one byte at `base + 4`
    let mut out = [0; 4];
    UserSlice::new(UserPtr::from_addr(base), 4)
        .reader()
        .read_slice(&mut out)
        .unwrap();
    assert_eq!(&out, b"abcd");
    let mut five = [0xaa; 6];
    let gap = UserSlice::new(UserPtr::from_addr(base), 6)
        .reader()
        .read_slice(&mut five);
    assert_eq!(gap, Err(EFAULT));
    assert_eq!(&five, b"abcd\0\0");
    // A write stops at the read-only part.
    let mut writer = UserSlice::new(UserPtr::from_addr(base), 4).writer();
    assert_eq!(writer.write_slice(b"WXYZ"), Err(EFAULT));
    assert_eq!(user.read(UserPtr::from_addr(base), 4), b"WXcd");
}

#[test]
fn writes_move_through_mapped_memory() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[0; 12]);
    let mut writer = UserSlice::new(ptr, 12).writer();
    writer.write_slice(b"hi").unwrap();
    writer.write(&0x0102_0304_u32).unwrap();
    writer.write(&[9_u8; 3]).unwrap();
    assert_eq!(writer.len(), 3);
    assert_eq!(writer.write(&0_u32), Err(EFAULT));
    let mut expected = b"hi".to_vec();
    expected.extend_from_slice(&0x0102_0304_u32.to_ne_bytes());
    expected.extend_from_slice(&[9, 9, 9, 0, 0, 0]);
    assert_eq!(user.read(ptr, 12), expected);
}

#[test]
fn a_write_that_runs_off_a_mapping_writes_the_start_and_stays() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[0; 3]);
    let mut writer = UserSlice::new(ptr, 5).writer();
    assert_eq!(writer.write_slice(&[1, 2, 3, 4, 5]), Err(EFAULT));
    assert_eq!(user.read(ptr, 3), [1, 2, 3]);
    assert_eq!(writer.len(), 5);
}

#[test]
fn read_only_memory_reads_but_never_changes() {
    let mut user = UserMemory::new();
    let ptr = user.map_read_only(&[5; 4]);
    let (mut reader, mut writer) = UserSlice::new(ptr, 4).reader_writer();
    assert_eq!(writer.write_slice(&[1]), Err(EFAULT));
    assert_eq!(writer.write(&1_u16), Err(EFAULT));
    assert_eq!(reader.read::<[u8; 4]>(), Ok([5; 4]));
    assert_eq!(user.read(ptr, 4), [5; 4]);
}

#[test]
fn reader_writer_reads_then_overwrites() {
    fn bytes_add_one(uptr: UserPtr, len: usize) -> kernel_core::error::Result {
        let (read, mut write) = UserSlice::new(uptr, len).reader_writer();
        let mut buf = KVec::new();
        read.read_all(&mut buf, GFP_KERNEL)?;
        for b in &mut buf {
            *b = b.wrapping_add(1);
        }
        write.write_slice(&buf)
    }

    let mut user = UserMemory::new();
    let ptr = user.map(&[0, 1, 254, 255]);
    assert_eq!(bytes_add_one(ptr, 4), Ok(()));
    assert_eq!(user.read(ptr, 4), [1, 2, 255, 0]);
    let read_only = user.map_read_only(&[7]);
    assert_eq!(bytes_add_one(read_only, 1), Err(EFAULT));
}

#[test]
fn read_all_appends_and_grows() {
    let mut user = UserMemory::new();
    let data: Vec<u8> = (0..3 * PAGE_SIZE).map(|i| (i % 251) as u8).collect();
    let ptr = user.map(&data);
    let mut buf = KVec::with_capacity(1, GFP_KERNEL).unwrap();
    buf.push(0xee, GFP_KERNEL).unwrap();
    UserSlice::new(ptr, data.len())
        .read_all(&mut buf, GFP_KERNEL)
        .unwrap();
    assert_eq!(buf.len(), 1 + data.len());
    assert!(buf.capacity() >= buf.len());
    assert_eq!(buf[0], 0xee);
    assert_eq!(&buf[1..], &data[..]);

    // What is left after a skip, into another kind of vector.
    let mut reader = UserSlice::new(ptr, data.len()).reader();
    reader.skip(PAGE_SIZE).unwrap();
    let mut rest = KVVec::new();
    reader.read_all(&mut rest, GFP_KERNEL).unwrap();
    assert_eq!(&rest[..], &data[PAGE_SIZE..]);
}

#[test]
fn read_all_that_faults_keeps_the_contents() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[1; 10]);
    let mut buf = KVec::new();
    buf.push(3_u8, GFP_KERNEL).unwrap();
    assert_eq!(
        UserSlice::new(ptr, 11).read_all(&mut buf, GFP_KERNEL),
        Err(EFAULT)
    );
    assert_eq!(&buf[..], &[3]);
    assert!(buf.capacity() >= 12);
}

#[test]
fn read_all_that_cannot_grow_is_enomem_before_any_read() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[1; 4]);
    let mut buf = KVec::new();
    // More than `kmalloc()` ever gives: the reservation fails, before the read would fault.
    assert_eq!(
        UserSlice::new(ptr, 1 << 30).read_all(&mut buf, GFP_KERNEL),
        Err(ENOMEM)
    );
    assert!(buf.is_empty());
}

#[test]
fn a_cloned_reader_reads_again_what_user_space_changed() {
    let mut user = UserMemory::new();
    let ptr = user.map(&1_u32.to_ne_bytes());
    let mut reader = UserSlice::new(ptr, 4).reader();
    let check = reader.clone_reader().read::<u32>();
    assert_eq!(check, Ok(1));
    // User space changes the value between the check and the use: a TOCTOU race.
    user.write(ptr, &2_u32.to_ne_bytes());
    assert_eq!(reader.read::<u32>(), Ok(2));
}

#[test]
fn strings_end_at_their_nul() {
    let mut user = UserMemory::new();
    let ptr = user.map(b"eth0\0rest");
    let mut buf = [0xaa; 16];
    let name = UserSlice::new(ptr, 9)
        .reader()
        .strcpy_into_buf(&mut buf)
        .unwrap();
    assert_eq!(name, c"eth0");
    assert_eq!(&buf[..6], b"eth0\0\xaa");

    let empty = user.map(b"\0");
    let mut buf = [0xaa; 4];
    assert_eq!(
        UserSlice::new(empty, 1).reader().strcpy_into_buf(&mut buf),
        Ok(c"")
    );
}

#[test]
fn a_string_that_fills_the_buffer_is_cut_short() {
    let mut user = UserMemory::new();
    let ptr = user.map(b"abcdef\0");
    let mut three = [0; 3];
    assert_eq!(
        UserSlice::new(ptr, 7).reader().strcpy_into_buf(&mut three),
        Ok(c"ab")
    );
    // Exactly the string and its NUL.
    let mut seven = [0; 7];
    assert_eq!(
        UserSlice::new(ptr, 7).reader().strcpy_into_buf(&mut seven),
        Ok(c"abcdef")
    );
    // The string without its NUL, exactly: cut by one.
    let mut six = [0; 6];
    assert_eq!(
        UserSlice::new(ptr, 7).reader().strcpy_into_buf(&mut six),
        Ok(c"abcde")
    );
    // The slice as long as the buffer, without a NUL in it: cut too.
    let mut four = [0; 4];
    assert_eq!(
        UserSlice::new(ptr, 4).reader().strcpy_into_buf(&mut four),
        Ok(c"abc")
    );
}

#[test]
fn a_slice_that_ends_before_the_string_and_the_buffer_faults() {
    let mut user = UserMemory::new();
    let ptr = user.map(b"abcdef\0");
    let mut buf = [0; 16];
    assert_eq!(
        UserSlice::new(ptr, 4).reader().strcpy_into_buf(&mut buf),
        Err(EFAULT)
    );
    // With the NUL inside the slice, it is fine.
    assert_eq!(
        UserSlice::new(ptr, 7).reader().strcpy_into_buf(&mut buf),
        Ok(c"abcdef")
    );
    assert_eq!(
        UserSlice::new(ptr, 8).reader().strcpy_into_buf(&mut [0; 2]),
        Ok(c"a")
    );
}

#[test]
fn a_string_that_runs_off_its_mapping_faults() {
    let mut user = UserMemory::new();
    let ptr = user.map(b"abc"); // no NUL, then unmapped
    let mut buf = [0xaa; 8];
    assert_eq!(
        UserSlice::new(ptr, 8).reader().strcpy_into_buf(&mut buf),
        Err(EFAULT)
    );
    // Some bytes were copied before the fault.
    assert_eq!(&buf[..3], b"abc");
    // A NUL that is the mapping's last byte is read.
    let last = user.map(b"xy\0");
    assert_eq!(
        UserSlice::new(last, 8).reader().strcpy_into_buf(&mut buf),
        Ok(c"xy")
    );
    // An empty buffer is EINVAL before anything.
    assert_eq!(
        UserSlice::new(ptr, 8).reader().strcpy_into_buf(&mut []),
        Err(EINVAL)
    );
}

#[test]
fn partial_reads_fill_what_fits() {
    // `simple_write_to_buffer()`: user data into a buffer at an offset.
    let mut user = UserMemory::new();
    let ptr = user.map(b"0123456789");
    let mut out = [b'.'; 8];
    let mut reader = UserSlice::new(ptr, 10).reader();
    assert_eq!(reader.read_slice_partial(&mut out, 5), Ok(3));
    assert_eq!(&out, b".....012");
    assert_eq!(reader.len(), 7);
    let mut offset = 2_i64;
    assert_eq!(reader.read_slice_file(&mut out, &mut offset), Ok(6));
    assert_eq!(offset, 8);
    assert_eq!(&out, b"..345678");
    assert_eq!(reader.len(), 1);
    // The reader is shorter than the room.
    offset = 0;
    assert_eq!(reader.read_slice_file(&mut out, &mut offset), Ok(1));
    assert_eq!((offset, out[0]), (1, b'9'));
}

#[test]
fn partial_writes_copy_what_fits() {
    // `simple_read_from_buffer()`: a buffer at an offset out to user memory.
    let mut user = UserMemory::new();
    let ptr = user.map(&[b'.'; 5]);
    let mut writer = UserSlice::new(ptr, 5).writer();
    let data = b"hello world";
    let mut offset = 6_i64;
    assert_eq!(writer.write_slice_file(data, &mut offset), Ok(5));
    assert_eq!(offset, 11);
    assert_eq!(user.read(ptr, 5), b"world");
    assert_eq!(writer.write_slice_file(data, &mut offset), Ok(0));
    let mut second = UserSlice::new(ptr, 5).writer();
    assert_eq!(second.write_slice_partial(data, 8), Ok(3));
    assert_eq!(user.read(ptr, 5), b"rldld");
    assert_eq!(second.len(), 2);
}

#[test]
fn the_end_of_user_memory_copies_nothing() {
    let mut user = UserMemory::new();
    let last = user.map_at(TASK_SIZE_MAX - 4, &[1, 2, 3, 4]);
    let mut out = [0xaa; 4];
    UserSlice::new(last, 4)
        .reader()
        .read_slice(&mut out)
        .unwrap();
    assert_eq!(out, [1, 2, 3, 4]);
    // A range past the end is not user memory: nothing is copied, not even the mapped bytes.
    let mut five = [0xaa; 5];
    assert_eq!(
        UserSlice::new(last, 5).reader().read_slice(&mut five),
        Err(EFAULT)
    );
    assert_eq!(five, [0; 5]);
    assert_eq!(
        UserSlice::new(last, 5).writer().write_slice(&[9; 5]),
        Err(EFAULT)
    );
    assert_eq!(user.read(last, 4), [1, 2, 3, 4]);
    // A string that reaches the end without a NUL.
    assert_eq!(
        UserSlice::new(last, 8)
            .reader()
            .strcpy_into_buf(&mut [0; 8]),
        Err(EFAULT)
    );
    // Ranges that wrap around the address space.
    let top = UserPtr::from_addr(usize::MAX - 1);
    assert_eq!(UserSlice::new(top, 4).reader().read::<u32>(), Err(EFAULT));
    assert_eq!(UserSlice::new(top, 4).writer().write(&0_u32), Err(EFAULT));
}

#[test]
#[should_panic(expected = "does not fit below TASK_SIZE_MAX")]
fn nothing_maps_past_the_end_of_user_memory() {
    let mut user = UserMemory::new();
    user.map_at(TASK_SIZE_MAX - 2, &[0; 3]);
}

#[test]
#[should_panic(expected = "overlaps a mapping")]
fn mappings_do_not_overlap() {
    let mut user = UserMemory::new();
    user.map_at(0x20_0000, &[0; 16]);
    user.map_at(0x20_000f, &[0; 2]);
}

#[test]
#[should_panic(expected = "already has a UserMemory")]
fn one_user_memory_per_thread() {
    let _first = UserMemory::new();
    let _second = UserMemory::new();
}

#[test]
#[should_panic(expected = "no user mapping starts at 0x10001")]
fn unmap_takes_a_mapping_start() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[0; 4]);
    user.unmap(ptr.wrapping_byte_add(1));
}

#[test]
#[should_panic(expected = "are not all mapped")]
fn reading_unmapped_user_memory_is_a_test_bug() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[0; 4]);
    let _ = user.read(ptr, 5);
}

#[test]
#[should_panic(expected = "are not all mapped")]
fn writing_unmapped_user_memory_is_a_test_bug() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[0; 4]);
    user.write(ptr.wrapping_byte_add(2), &[0; 3]);
}

#[test]
fn mappings_get_page_aligned_addresses_with_gaps() {
    let mut user = UserMemory::new();
    let a = user.map(&[1; 10]);
    let b = user.map(&vec![2; PAGE_SIZE + 1]);
    let c = user.map(&[]);
    let d = user.map(&[4]);
    assert_eq!(addr(a), 0x1_0000);
    assert!(
        [a, b, c, d].iter().all(|p| addr(*p) % PAGE_SIZE == 0),
        "page-aligned"
    );
    assert_eq!(addr(b), addr(a) + 2 * PAGE_SIZE);
    assert_eq!(addr(c), addr(b) + 3 * PAGE_SIZE);
    assert_eq!(addr(d), addr(c) + 2 * PAGE_SIZE);
    // An empty mapping holds nothing.
    assert_eq!(UserSlice::new(c, 1).reader().read::<u8>(), Err(EFAULT));
    assert_eq!(UserSlice::new(c, 0).reader().read::<[u8; 0]>(), Ok([]));
    // Right after a mapping's last byte.
    assert_eq!(
        UserSlice::new(a.wrapping_byte_add(10), 1)
            .reader()
            .read::<u8>(),
        Err(EFAULT)
    );
}

#[test]
fn fixed_mappings_are_skipped_by_new_ones() {
    let mut user = UserMemory::new();
    user.map_at(0x1_0000, &[7]);
    let next = user.map(&[8]);
    assert_ne!(addr(next), 0x1_0000);
    assert_eq!(user.read(next, 1), [8]);
}

#[test]
fn unmapped_memory_faults_again() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[1, 2]);
    user.unmap(ptr);
    assert_eq!(UserSlice::new(ptr, 2).reader().read::<u16>(), Err(EFAULT));
    // The address can be mapped again.
    user.map_at(addr(ptr), &[3, 4]);
    assert_eq!(
        UserSlice::new(ptr, 2).reader().read::<[u8; 2]>(),
        Ok([3, 4])
    );
}

#[test]
fn dropping_user_memory_unmaps_everything() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[1]);
    drop(user);
    assert_eq!(UserSlice::new(ptr, 1).reader().read::<u8>(), Err(EFAULT));
    let mut again = UserMemory::default();
    assert_eq!(addr(again.map(&[2])), addr(ptr)); // a fresh address space
}

#[test]
fn other_threads_have_no_user_memory() {
    let mut user = UserMemory::new();
    let ptr = user.map(&[1, 2, 3, 4]);
    let at = addr(ptr);
    std::thread::spawn(move || {
        let ptr = UserPtr::from_addr(at);
        // A kernel thread: no user memory.
        assert_eq!(UserSlice::new(ptr, 4).reader().read::<u32>(), Err(EFAULT));
        // Its own process, with other bytes at the same address.
        let mut own = UserMemory::new();
        assert_eq!(addr(own.map(&[9; 4])), at);
        assert_eq!(
            UserSlice::new(ptr, 4).reader().read::<[u8; 4]>(),
            Ok([9; 4])
        );
    })
    .join()
    .unwrap();
    assert_eq!(
        UserSlice::new(ptr, 4).reader().read::<[u8; 4]>(),
        Ok([1, 2, 3, 4])
    );
}

/// One mapping of the random tests: start, bytes, writable.
type Mapping = (usize, Vec<u8>, bool);

/// A plain model of user memory: each address's byte and whether it is writable.
fn model(mappings: &[Mapping]) -> std::collections::BTreeMap<usize, (u8, bool)> {
    let mut bytes = std::collections::BTreeMap::new();
    for (start, data, writable) in mappings {
        for (i, byte) in data.iter().enumerate() {
            bytes.insert(start + i, (*byte, *writable));
        }
    }
    bytes
}

/// Mappings that do not overlap, in a window of a few hundred bytes.
fn mappings() -> impl Strategy<Value = Vec<Mapping>> {
    proptest::collection::vec(
        (
            0..16_usize,
            proptest::collection::vec(any::<u8>(), 0..24),
            any::<bool>(),
        ),
        0..6,
    )
    .prop_map(|raw| {
        let mut at = 0x40_0000;
        raw.into_iter()
            .map(|(gap, data, writable)| {
                let start = at + gap;
                at = start + data.len();
                (start, data, writable)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(Config {
        cases: if cfg!(miri) { 3 } else { 256 },
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn reads_match_the_reference(
        maps in mappings(),
        offset in 0..400_usize,
        len in 0..64_usize,
    ) {
        let mut user = UserMemory::new();
        for (start, data, writable) in &maps {
            if *writable {
                user.map_at(*start, data);
            } else {
                user.map_read_only_at(*start, data);
            }
        }
        let bytes = model(&maps);
        let start = 0x40_0000 + offset;
        let mut out = vec![0xaa; len];
        let result = UserSlice::new(UserPtr::from_addr(start), len).reader().read_slice(&mut out);
        // The bytes up to the first unmapped one, then zeroes.
        let copied = (0..len).take_while(|i| bytes.contains_key(&(start + i))).count();
        let mut expected: Vec<u8> = (0..copied).map(|i| bytes[&(start + i)].0).collect();
        expected.resize(len, 0);
        prop_assert_eq!(result, if copied == len { Ok(()) } else { Err(EFAULT) });
        prop_assert_eq!(out, expected);
    }

    #[test]
    fn writes_match_the_reference(
        maps in mappings(),
        offset in 0..400_usize,
        data in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut user = UserMemory::new();
        for (start, bytes, writable) in &maps {
            if *writable {
                user.map_at(*start, bytes);
            } else {
                user.map_read_only_at(*start, bytes);
            }
        }
        let mut bytes = model(&maps);
        let start = 0x40_0000 + offset;
        let result = UserSlice::new(UserPtr::from_addr(start), data.len()).writer().write_slice(&data);
        // The bytes up to the first one that is not mapped writable are written.
        let written = (0..data.len())
            .take_while(|i| bytes.get(&(start + i)).is_some_and(|(_, w)| *w))
            .count();
        for (i, byte) in data.iter().take(written).enumerate() {
            bytes.insert(start + i, (*byte, true));
        }
        prop_assert_eq!(result, if written == data.len() { Ok(()) } else { Err(EFAULT) });
        for (start, mapped, _) in &maps {
            let now = user.read(UserPtr::from_addr(*start), mapped.len());
            let expected: Vec<u8> = (0..mapped.len()).map(|i| bytes[&(start + i)].0).collect();
            prop_assert_eq!(now, expected);
        }
    }

    #[test]
    fn strings_match_the_reference(
        maps in mappings(),
        offset in 0..400_usize,
        slice_len in 0..48_usize,
        buf_len in 0..48_usize,
    ) {
        let mut user = UserMemory::new();
        for (start, data, _) in &maps {
            user.map_read_only_at(*start, data);
        }
        let bytes = model(&maps);
        let start = 0x40_0000 + offset;
        let mut buf = vec![0xaa; buf_len];
        let result = UserSlice::new(UserPtr::from_addr(start), slice_len)
            .reader()
            .strcpy_into_buf(&mut buf)
            .map(|s| s.to_bytes().to_vec());
        // Linux 7.3's rules, from the bytes: read at most min(buf, slice) of them.
        let limit = buf_len.min(slice_len);
        let mut string = Vec::new();
        let mut expected = None;
        if buf_len == 0 {
            expected = Some(Err(EINVAL));
        } else {
            for i in 0..limit {
                match bytes.get(&(start + i)) {
                    None => {
                        expected = Some(Err(EFAULT));
                        break;
                    }
                    Some((0, _)) => {
                        expected = Some(Ok(string.clone()));
                        break;
                    }
                    Some((byte, _)) => string.push(*byte),
                }
            }
            if expected.is_none() {
                expected = Some(if limit < buf_len {
                    Err(EFAULT)
                } else {
                    string.truncate(buf_len - 1);
                    Ok(string)
                });
            }
        }
        prop_assert_eq!(result, expected.unwrap());
    }
}
