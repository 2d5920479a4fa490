// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::uaccess`: user pointers, and what a `UserSlice` does where no user memory is
//! mapped.
//!
//! Written against Linux 7.3's API only. A KUnit case runs in a kernel thread, which has no
//! user memory, and on the host a thread without an `extras::uaccess::UserMemory` has none
//! either: there every access to a user address faults, as `copy_from_user()` reports it
//! (`EFAULT`, and the kernel buffer zeroed where nothing was copied). What is checked here is
//! what holds there: the cursor arithmetic, the bounds checks that fail before any access, the
//! accesses of zero bytes (which succeed at any address), and the faults. Reads and writes of
//! mapped memory are tested on the host in `tests/uaccess.rs`.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_uaccess)]
mod tests {
    use kernel_core::alloc::{flags::GFP_KERNEL, KVec};
    use kernel_core::error::code::{EFAULT, EINVAL};
    use kernel_core::ffi::c_void;
    use kernel_core::uaccess::{UserPtr, UserSlice};

    // The cases that reach `copy_from_user()` and friends are left out on UML (KUnit reports
    // them skipped): there an access to a user address from a kernel thread, which has no
    // user memory, panics the kernel ("Segfault with no mm") instead of faulting, whatever its
    // length. A driver's accesses run in a process, which has its memory.

    /// A user address that a kernel thread has not mapped (it has no user memory at all).
    const UNMAPPED: usize = 0x10_0000;

    fn unmapped(len: usize) -> UserSlice {
        UserSlice::new(UserPtr::from_addr(UNMAPPED), len)
    }

    #[test]
    fn user_pointers_are_addresses() {
        let ptr = UserPtr::from_addr(0x7000_1000);
        assert_eq!(ptr.as_const_ptr().addr(), 0x7000_1000);
        assert_eq!(ptr.as_mut_ptr().addr(), 0x7000_1000);
        assert_eq!(ptr.wrapping_byte_add(0x20).as_const_ptr().addr(), 0x7000_1020);
        assert_eq!(ptr.wrapping_byte_add(0).as_mut_ptr(), ptr.as_mut_ptr());

        let raw: *mut c_void = core::ptr::without_provenance_mut(0x4000);
        assert_eq!(UserPtr::from_ptr(raw).as_mut_ptr(), raw);
        assert!(UserPtr::from_addr(0).as_const_ptr().is_null());
    }

    #[test]
    fn user_pointers_wrap_around_the_address_space() {
        let top = UserPtr::from_addr(usize::MAX);
        assert_eq!(top.wrapping_byte_add(1).as_const_ptr().addr(), 0);
        assert_eq!(top.wrapping_byte_add(5).as_const_ptr().addr(), 4);
        assert_eq!(
            UserPtr::from_addr(8)
                .wrapping_byte_add(usize::MAX)
                .as_const_ptr()
                .addr(),
            7
        );
    }

    #[test]
    fn readers_and_writers_keep_their_length() {
        let (reader, writer) = unmapped(24).reader_writer();
        assert_eq!((reader.len(), writer.len()), (24, 24));
        assert!(!reader.is_empty() && !writer.is_empty());
        assert_eq!(unmapped(7).reader().len(), 7);
        assert_eq!(unmapped(7).writer().len(), 7);
        assert!(unmapped(0).reader().is_empty());
        assert!(unmapped(0).writer().is_empty());
    }

    #[test]
    fn skip_moves_on_or_fails_without_moving() {
        let mut reader = unmapped(10).reader();
        assert_eq!(reader.skip(0), Ok(()));
        assert_eq!(reader.skip(4), Ok(()));
        assert_eq!(reader.len(), 6);
        assert_eq!(reader.skip(7), Err(EFAULT));
        assert_eq!(reader.len(), 6);
        assert_eq!(reader.skip(usize::MAX), Err(EFAULT));
        assert_eq!(reader.skip(6), Ok(()));
        assert!(reader.is_empty());
        assert_eq!(reader.skip(1), Err(EFAULT));
    }

    #[test]
    fn a_cloned_reader_moves_on_its_own() {
        let mut reader = unmapped(10).reader();
        reader.skip(3).unwrap();
        let mut clone = reader.clone_reader();
        assert_eq!(clone.len(), 7);
        clone.skip(7).unwrap();
        assert_eq!((reader.len(), clone.len()), (7, 0));
        assert_eq!(reader.clone_reader().len(), 7);
    }

    #[test]
    fn accesses_past_the_end_fail_before_any_access() {
        let mut reader = unmapped(4).reader();
        let mut out = [0xaa_u8; 5];
        assert_eq!(reader.read_slice(&mut out), Err(EFAULT));
        // Nothing was copied, not even zeroes: the length check came first.
        assert_eq!(out, [0xaa; 5]);
        assert_eq!(reader.read::<u64>(), Err(EFAULT));
        assert_eq!(reader.len(), 4);

        let mut writer = unmapped(4).writer();
        assert_eq!(writer.write_slice(&[1; 5]), Err(EFAULT));
        assert_eq!(writer.write(&0_u64), Err(EFAULT));
        assert_eq!(writer.len(), 4);
    }

    #[test]
    #[cfg(not(CONFIG_UML))]
    fn zero_bytes_are_copied_at_any_address() {
        let mut reader = unmapped(0).reader();
        assert_eq!(reader.read_slice(&mut []), Ok(()));
        assert_eq!(reader.read::<[u32; 0]>(), Ok([]));
        let mut writer = unmapped(0).writer();
        assert_eq!(writer.write_slice(&[]), Ok(()));
        assert_eq!(writer.write(&[0_u16; 0]), Ok(()));
        // Also where the address is not user memory at all.
        let mut top = UserSlice::new(UserPtr::from_addr(usize::MAX), 0).reader();
        assert_eq!(top.read_slice(&mut []), Ok(()));

        let mut buf = KVec::new();
        buf.push(9_u8, GFP_KERNEL).unwrap();
        assert_eq!(unmapped(0).read_all(&mut buf, GFP_KERNEL), Ok(()));
        assert_eq!(buf.as_slice(), &[9]);
    }

    #[test]
    #[cfg(not(CONFIG_UML))]
    fn unmapped_reads_fault_and_zero_the_buffer() {
        let mut reader = unmapped(16).reader();
        let mut out = [0xaa_u8; 4];
        assert_eq!(reader.read_slice(&mut out), Err(EFAULT));
        // `copy_from_user()` zeroes what it could not copy.
        assert_eq!(out, [0; 4]);
        assert_eq!(reader.len(), 16);
        assert_eq!(reader.read::<u32>(), Err(EFAULT));
        assert_eq!(reader.len(), 16);
    }

    #[test]
    #[cfg(not(CONFIG_UML))]
    fn unmapped_writes_fault() {
        let mut writer = unmapped(16).writer();
        assert_eq!(writer.write_slice(&[1, 2, 3]), Err(EFAULT));
        assert_eq!(writer.write(&7_u32), Err(EFAULT));
        assert_eq!(writer.len(), 16);
    }

    #[test]
    #[cfg(not(CONFIG_UML))]
    fn read_all_of_unmapped_memory_faults_and_keeps_the_length() {
        let mut buf = KVec::new();
        buf.push(1_u8, GFP_KERNEL).unwrap();
        assert_eq!(unmapped(8).read_all(&mut buf, GFP_KERNEL), Err(EFAULT));
        assert_eq!(buf.as_slice(), &[1]);
        // The room was reserved before the read.
        assert!(buf.capacity() >= 9);
        assert_eq!(unmapped(8).reader().read_all(&mut buf, GFP_KERNEL), Err(EFAULT));
        assert_eq!(buf.len(), 1);
    }

    #[test]
    #[cfg(not(CONFIG_UML))]
    fn strcpy_into_buf_checks_its_buffer_first() {
        // No room for the NUL.
        assert_eq!(unmapped(8).reader().strcpy_into_buf(&mut []), Err(EINVAL));
        // A slice of no bytes cannot hold a string: a read past its end.
        assert_eq!(
            unmapped(0).reader().strcpy_into_buf(&mut [0; 4]),
            Err(EFAULT)
        );
        // An unmapped string.
        assert_eq!(
            unmapped(8).reader().strcpy_into_buf(&mut [0; 4]),
            Err(EFAULT)
        );
    }

    #[test]
    #[cfg(not(CONFIG_UML))]
    fn partial_reads_and_writes_fit_the_buffer() {
        let mut out = [0xaa_u8; 8];
        let mut reader = unmapped(4).reader();
        assert_eq!(reader.read_slice_partial(&mut out, 8), Ok(0));
        assert_eq!(reader.read_slice_partial(&mut out, usize::MAX), Ok(0));
        // `out[6..8]`: what fits; it faults, and only those bytes are zeroed.
        assert_eq!(reader.read_slice_partial(&mut out, 6), Err(EFAULT));
        assert_eq!(out, [0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0xaa, 0, 0]);
        assert_eq!(reader.len(), 4);
        let mut empty = unmapped(0).reader();
        assert_eq!(empty.read_slice_partial(&mut out, 0), Ok(0));

        let mut writer = unmapped(4).writer();
        assert_eq!(writer.write_slice_partial(b"abc", 3), Ok(0));
        assert_eq!(writer.write_slice_partial(b"abc", 1), Err(EFAULT));
        assert_eq!(writer.len(), 4);
        assert_eq!(unmapped(0).writer().write_slice_partial(b"abc", 0), Ok(0));
    }

    #[test]
    #[cfg(not(CONFIG_UML))]
    fn file_offsets_are_checked_and_moved() {
        let mut out = [0_u8; 4];
        let mut reader = unmapped(4).reader();
        let mut offset = -1_i64;
        assert_eq!(reader.read_slice_file(&mut out, &mut offset), Err(EINVAL));
        assert_eq!(offset, -1);
        offset = i64::MAX;
        assert_eq!(reader.read_slice_file(&mut out, &mut offset), Ok(0));
        assert_eq!(offset, i64::MAX);
        offset = 4;
        assert_eq!(reader.read_slice_file(&mut out, &mut offset), Ok(0));
        assert_eq!(offset, 4);
        offset = 1;
        assert_eq!(reader.read_slice_file(&mut out, &mut offset), Err(EFAULT));
        assert_eq!(offset, 1);

        let mut writer = unmapped(4).writer();
        offset = i64::MIN;
        assert_eq!(writer.write_slice_file(b"data", &mut offset), Err(EINVAL));
        offset = 4;
        assert_eq!(writer.write_slice_file(b"data", &mut offset), Ok(0));
        assert_eq!(offset, 4);
        offset = 0;
        assert_eq!(writer.write_slice_file(b"data", &mut offset), Err(EFAULT));
        assert_eq!(offset, 0);
        let mut none = unmapped(0).writer();
        assert_eq!(none.write_slice_file(b"data", &mut offset), Ok(0));
        assert_eq!(offset, 0);
    }
}
