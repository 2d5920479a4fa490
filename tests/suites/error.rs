// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::error` beyond the codes: error pointers (`Error::to_ptr`, `from_err_ptr`) at
//! both edges of the error range, `from_result`, `VTABLE_DEFAULT_ERROR`, and the prelude's
//! `Error`, `Result`, codes and C types, which a driver's code uses in both worlds. In the
//! kernel these are the kernel's own items; on the host, kernel-core's, computed as the
//! kernel's C computes them.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_error)]
mod tests {
    use kernel_core::error::{from_err_ptr, from_result, VTABLE_DEFAULT_ERROR};
    use kernel_core::prelude::*;

    /// The pointer with address `addr`.
    fn at(addr: usize) -> *mut u8 {
        core::ptr::without_provenance_mut(addr)
    }

    #[test]
    fn error_pointers_round_trip() {
        assert_eq!(from_err_ptr(EINVAL.to_ptr::<u8>()), Err(EINVAL));
        assert_eq!(from_err_ptr(ETIMEDOUT.to_ptr::<u32>()), Err(ETIMEDOUT));
        assert_eq!(EPERM.to_ptr::<u8>().addr(), usize::MAX);
        assert_eq!(ENOMEM.to_ptr::<u8>().addr(), usize::MAX - 11);
    }

    #[test]
    fn only_the_last_addresses_are_errors() {
        // The null pointer and ordinary addresses are pointers.
        assert_eq!(from_err_ptr(core::ptr::null_mut::<u8>()), Ok(core::ptr::null_mut()));
        assert_eq!(from_err_ptr(at(0x1234)), Ok(at(0x1234)));
        let mut value = 0_u64;
        let ptr = &raw mut value;
        assert_eq!(from_err_ptr(ptr), Ok(ptr));
        // `-MAX_ERRNO - 1` is not an error pointer; `-MAX_ERRNO` and `-1` are.
        assert_eq!(from_err_ptr(at(usize::MAX - 4095)), Ok(at(usize::MAX - 4095)));
        assert_eq!(from_err_ptr(at(usize::MAX - 4094)).map_err(Error::to_errno), Err(-4095));
        assert_eq!(from_err_ptr(at(usize::MAX)), Err(EPERM));
    }

    #[test]
    fn from_result_returns_the_value_or_the_errno() {
        assert_eq!(from_result(|| Ok::<i32, Error>(7)), 7);
        assert_eq!(from_result(|| -> Result<i32> { Err(ENODEV) }), -19);
        assert_eq!(from_result(|| -> Result<i64> { Err(Error::from_errno(-4095)) }), -4095);
        assert_eq!(from_result(|| -> Result<i16> { Err(EPROBE_DEFER) }), -517);
    }

    #[test]
    fn the_preludes_error_items() {
        fn parse(raw: c_int) -> Result<u8> {
            if raw < 0 {
                return Err(Error::from_errno(raw));
            }
            Ok(u8::try_from(raw)?)
        }
        assert_eq!(parse(-110), Err(ETIMEDOUT));
        assert_eq!(parse(300), Err(EINVAL));
        assert_eq!(parse(7), Ok(7));
        assert_eq!(size_of::<c_int>(), 4);
        assert_eq!(size_of::<c_long>(), size_of::<usize>());
        assert!(align_of::<c_longlong>() <= 8);
        assert!(VTABLE_DEFAULT_ERROR.len() > 20);
    }
}
