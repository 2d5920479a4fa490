// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! kernel-core against the kernel crate's own `sizes`, `ptr`, `time`, `bits` and `bitfield!`
//! (Linux 7.1 and later; `bitfield!` is in 7.2 and 7.3), over the same edge values, and on
//! Linux 7.3 its `num`, `impl_flags!` and `io::register!` (with the kernel's `Io` over system
//! memory and MMIO): a driver that switches between the two sees no difference. kernel-core's
//! `Mmio` accessors (the kernel's `readl()` and friends, 7.2 and 7.3) are checked too.
//!
//! Built only where the kernel has these APIs (`--cfg kernel_core_linux_7_1`, set by
//! `kbuild/kernel-core.mk`); the cases for what Linux 7.3 added (`Delta<Jiffy>`,
//! `as_millis_ceil`, `KnownSize::MIN_SIZE`/`MIN_ALIGN`) only where it has those
//! (`kernel_core_linux_7_3`). Edges where the kernel panics are left out: in the kernel a panic
//! is a crash (kernel-core's documented behaviour there is tested on the host).

use kernel_core::kunit::kunit_tests;

#[kunit_tests(kernel_core_conformance)]
mod tests {
    /// Values at the edges of every width, for alignment checks.
    const VALUES: [u64; 12] = [
        0,
        1,
        2,
        0xf,
        0x10,
        0x11,
        0xfff,
        0x1000,
        0x1001,
        u32::MAX as u64,
        u64::MAX - 1,
        u64::MAX,
    ];

    /// Nanosecond values at the edges of the conversions.
    const NANOS: [i64; 16] = [
        i64::MIN,
        i64::MIN + 1,
        -1_000_001,
        -1_000_000,
        -1_001,
        -1_000,
        -999,
        -1,
        0,
        1,
        999,
        1_000,
        1_001,
        1_000_000,
        i64::MAX - 1,
        i64::MAX,
    ];

    /// Inputs at the saturation edges of `from_micros`/`from_millis`/`from_secs`.
    const UNITS: [i64; 12] = [
        i64::MIN,
        -9_223_372_036_854_776,
        -9_223_372_036_854_775,
        -9_223_372_036_855,
        -9_223_372_037,
        -1,
        0,
        1,
        9_223_372_036,
        9_223_372_036_854,
        9_223_372_036_854_775,
        i64::MAX,
    ];

    #[test]
    fn sizes_match() {
        macro_rules! same {
            ($($name:ident),*) => {$(
                assert_eq!(kernel_core::sizes::$name, kernel::sizes::$name);
                assert_eq!(
                    <u32 as kernel_core::sizes::SizeConstants>::$name,
                    <u32 as kernel::sizes::SizeConstants>::$name
                );
                assert_eq!(
                    <u64 as kernel_core::sizes::SizeConstants>::$name,
                    <u64 as kernel::sizes::SizeConstants>::$name
                );
                assert_eq!(
                    <usize as kernel_core::sizes::SizeConstants>::$name,
                    <usize as kernel::sizes::SizeConstants>::$name
                );
            )*};
        }
        same!(
            SZ_1K, SZ_2K, SZ_4K, SZ_8K, SZ_16K, SZ_32K, SZ_64K, SZ_128K, SZ_256K, SZ_512K, SZ_1M,
            SZ_2M, SZ_4M, SZ_8M, SZ_16M, SZ_32M, SZ_64M, SZ_128M, SZ_256M, SZ_512M, SZ_1G, SZ_2G
        );
    }

    #[test]
    fn alignments_match() {
        for shift in 0..usize::BITS {
            let ours = kernel_core::ptr::Alignment::new_checked(1 << shift).unwrap();
            let theirs = kernel::ptr::Alignment::new_checked(1 << shift).unwrap();
            assert_eq!(ours.as_usize(), theirs.as_usize());
            assert_eq!(ours.log2(), theirs.log2());
            assert_eq!(ours.mask(), theirs.mask());
            for value in VALUES {
                assert_eq!(
                    kernel_core::ptr::Alignable::align_down(value, ours),
                    kernel::ptr::Alignable::align_down(value, theirs)
                );
                assert_eq!(
                    kernel_core::ptr::Alignable::align_up(value, ours),
                    kernel::ptr::Alignable::align_up(value, theirs)
                );
                assert_eq!(
                    kernel_core::ptr::Alignable::align_up(value as u8, ours),
                    kernel::ptr::Alignable::align_up(value as u8, theirs)
                );
                assert_eq!(
                    kernel_core::ptr::Alignable::align_down(value as u16, ours),
                    kernel::ptr::Alignable::align_down(value as u16, theirs)
                );
                assert_eq!(
                    kernel_core::ptr::Alignable::align_up(value as u32, ours),
                    kernel::ptr::Alignable::align_up(value as u32, theirs)
                );
                assert_eq!(
                    kernel_core::ptr::const_align_up(value as usize, ours),
                    kernel::ptr::const_align_up(value as usize, theirs)
                );
            }
        }
        for bad in [0, 3, 6, usize::MAX] {
            assert!(kernel_core::ptr::Alignment::new_checked(bad).is_none());
            assert!(kernel::ptr::Alignment::new_checked(bad).is_none());
        }
    }

    /// `kernel::bits` (Linux 6.17 and later, the same in 7.2 and 7.3): every function of every
    /// width, at every position up to 70 and at the top of `u32`, and for every range of those.
    /// `bit_*` at run time in a loop whose bound proves its assertion; `genmask_*` in tables
    /// that const evaluation fills (`static`s, not on the kernel's small stack), since the
    /// kernel's optimized build does not always prove `start <= end < BITS` from loop bounds.
    #[test]
    fn bits_match() {
        /// `[start][end]`: `$genmask(start..=end)` from `$side`, or `0` where `start > end`.
        macro_rules! table {
            ($side:ident, $ty:ty, $genmask:ident) => {{
                const BITS: usize = <$ty>::BITS as usize;
                static TABLE: [[$ty; BITS]; BITS] = {
                    let mut table = [[0; BITS]; BITS];
                    let mut start = 0;
                    while start < BITS {
                        let mut end = start;
                        while end < BITS {
                            table[start][end] = $side::bits::$genmask(start as u32..=end as u32);
                            end += 1;
                        }
                        start += 1;
                    }
                    table
                };
                &TABLE
            }};
        }
        macro_rules! same {
            ($($ty:ty: $bit:ident, $checked_bit:ident, $genmask:ident, $genmask_checked:ident;)*) => {$(
                for n in 0..<$ty>::BITS {
                    assert_eq!(kernel_core::bits::$bit(n), kernel::bits::$bit(n));
                }
                let (ours, theirs) = (
                    table!(kernel_core, $ty, $genmask),
                    table!(kernel, $ty, $genmask),
                );
                for start in (0..=70).chain([u32::MAX - 1, u32::MAX]) {
                    assert_eq!(
                        kernel_core::bits::$checked_bit(start),
                        kernel::bits::$checked_bit(start)
                    );
                    for end in (0..=70).chain([u32::MAX - 1, u32::MAX]) {
                        assert_eq!(
                            kernel_core::bits::$genmask_checked(start..=end),
                            kernel::bits::$genmask_checked(start..=end)
                        );
                        if start <= end && end < <$ty>::BITS {
                            let (start, end) = (start as usize, end as usize);
                            assert_eq!(ours[start][end], theirs[start][end]);
                        }
                    }
                }
            )*};
        }
        same!(
            u8: bit_u8, checked_bit_u8, genmask_u8, genmask_checked_u8;
            u16: bit_u16, checked_bit_u16, genmask_u16, genmask_checked_u16;
            u32: bit_u32, checked_bit_u32, genmask_u32, genmask_checked_u32;
            u64: bit_u64, checked_bit_u64, genmask_u64, genmask_checked_u64;
        );
        // Constant ranges, at run time.
        assert_eq!(
            kernel_core::bits::genmask_u64(21..=39),
            kernel::bits::genmask_u64(21..=39)
        );
        assert_eq!(
            kernel_core::bits::genmask_u8(0..=7),
            kernel::bits::genmask_u8(0..=7)
        );
    }

    #[test]
    fn delta_conversions_match() {
        use kernel::time::Delta as Theirs;
        use kernel_core::time::Delta as Ours;
        for n in NANOS {
            let (ours, theirs) = (Ours::from_nanos(n), Theirs::from_nanos(n));
            assert_eq!(ours.as_nanos(), theirs.as_nanos());
            assert_eq!(ours.as_micros_ceil(), theirs.as_micros_ceil());
            assert_eq!(ours.as_millis(), theirs.as_millis());
            assert_eq!(ours.is_zero(), theirs.is_zero());
            assert_eq!(ours.is_negative(), theirs.is_negative());
            for divisor in [1, 3, 1_000, i32::MAX, i32::MIN, -7] {
                assert_eq!(
                    ours.rem_nanos(divisor).as_nanos(),
                    theirs.rem_nanos(divisor).as_nanos()
                );
            }
        }
        for unit in UNITS {
            assert_eq!(
                Ours::from_micros(unit).as_nanos(),
                Theirs::from_micros(unit).as_nanos()
            );
            assert_eq!(
                Ours::from_millis(unit).as_nanos(),
                Theirs::from_millis(unit).as_nanos()
            );
            assert_eq!(
                Ours::from_secs(unit).as_nanos(),
                Theirs::from_secs(unit).as_nanos()
            );
        }
        assert_eq!(
            kernel_core::time::NSEC_PER_USEC,
            kernel::time::NSEC_PER_USEC
        );
        assert_eq!(
            kernel_core::time::NSEC_PER_MSEC,
            kernel::time::NSEC_PER_MSEC
        );
        assert_eq!(kernel_core::time::NSEC_PER_SEC, kernel::time::NSEC_PER_SEC);
    }

    #[test]
    fn delta_arithmetic_matches() {
        use kernel::time::Delta as Theirs;
        use kernel_core::time::Delta as Ours;
        let pairs = [
            (3_i64, 7_i64),
            (-5, 2),
            (1_000_000, -3),
            (i64::MAX / 2, 1),
            (i64::MIN / 2, -1),
        ];
        for (a, b) in pairs {
            let (oa, ob, ta, tb) = (
                Ours::from_nanos(a),
                Ours::from_nanos(b),
                Theirs::from_nanos(a),
                Theirs::from_nanos(b),
            );
            assert_eq!((oa + ob).as_nanos(), (ta + tb).as_nanos());
            assert_eq!((oa - ob).as_nanos(), (ta - tb).as_nanos());
            assert_eq!((oa * 2).as_nanos(), (ta * 2).as_nanos());
            assert_eq!(oa / ob, ta / tb);
            assert_eq!(oa < ob, ta < tb);
        }
    }

    #[test]
    fn clocks_have_the_same_ids() {
        use kernel::time::ClockSource as Theirs;
        use kernel_core::time::ClockSource as Ours;
        assert_eq!(
            <kernel_core::time::Monotonic as Ours>::ID,
            <kernel::time::Monotonic as Theirs>::ID
        );
        assert_eq!(
            <kernel_core::time::RealTime as Ours>::ID,
            <kernel::time::RealTime as Theirs>::ID
        );
        assert_eq!(
            <kernel_core::time::BootTime as Ours>::ID,
            <kernel::time::BootTime as Theirs>::ID
        );
        assert_eq!(
            <kernel_core::time::Tai as Ours>::ID,
            <kernel::time::Tai as Theirs>::ID
        );
        // Both read the same timekeeping: ours, then theirs, then ours again are ordered.
        let first = <kernel_core::time::Monotonic as Ours>::ktime_get();
        let second = <kernel::time::Monotonic as Theirs>::ktime_get();
        let third = <kernel_core::time::Monotonic as Ours>::ktime_get();
        assert!(first <= second && second <= third);
    }

    #[test]
    fn deltas_convert_into_the_kernels() {
        for n in NANOS {
            let theirs: kernel::time::Delta = kernel_core::time::Delta::from_nanos(n).into();
            assert_eq!(theirs.as_nanos(), n);
            let back: kernel_core::time::Delta = theirs.into();
            assert_eq!(back.as_nanos(), n);
        }
        // A kernel API that takes the kernel's `Delta`, reached with `.into()`.
        let start = kernel_core::time::Instant::<kernel_core::time::Monotonic>::now();
        kernel::time::delay::fsleep(kernel_core::time::Delta::from_micros(50).into());
        assert!(start.elapsed() >= kernel_core::time::Delta::from_micros(50));
    }

    #[test]
    fn msecs_to_jiffies_matches() {
        // The same types: `Jiffies` is `c_ulong`, `Msecs` is `c_uint`.
        let msecs: kernel::time::Msecs = 0 as kernel_core::time::Msecs;
        let jiffies: kernel::time::Jiffies = kernel_core::time::msecs_to_jiffies(msecs);
        assert_eq!(jiffies, 0);
        let edges = [
            i32::MAX as u32 - 1,
            i32::MAX as u32,
            i32::MAX as u32 + 1,
            u32::MAX - 1,
            u32::MAX,
            4_294_967,
            4_294_968,
            1 << 30,
        ];
        for msecs in (0..=10_000).chain(edges) {
            assert_eq!(
                kernel_core::time::msecs_to_jiffies(msecs),
                kernel::time::msecs_to_jiffies(msecs)
            );
        }
    }

    #[test]
    fn error_codes_are_the_kernels() {
        // One type: kernel-core's `Error` and `Result` are the kernel's, so `?` needs no
        // conversion either way.
        fn theirs() -> kernel::error::Result<u8> {
            let value: kernel_core::error::Result<u8> = Err(kernel_core::error::code::ETIMEDOUT);
            Ok(value?)
        }
        fn ours() -> kernel_core::error::Result<u8> {
            let value: kernel::error::Result<u8> = Err(kernel::error::code::EINVAL);
            Ok(value?)
        }
        assert_eq!(theirs(), Err(kernel::error::code::ETIMEDOUT));
        assert_eq!(ours(), Err(kernel_core::error::code::EINVAL));
        assert_eq!(
            kernel_core::error::to_result(-16),
            kernel::error::to_result(-16)
        );
        macro_rules! same {
            ($($name:ident),*) => {$(
                assert_eq!(kernel_core::error::code::$name, kernel::error::code::$name);
                assert_eq!(
                    kernel_core::error::code::$name.to_errno(),
                    kernel::error::code::$name.to_errno()
                );
            )*};
        }
        same!(
            EPERM,
            ENOENT,
            EIO,
            EAGAIN,
            ENOMEM,
            EBUSY,
            ENODEV,
            EINVAL,
            ENOSPC,
            ERANGE,
            EOVERFLOW,
            EMSGSIZE,
            ETIMEDOUT,
            ERESTARTSYS,
            EPROBE_DEFER,
            ENOTSUPP
        );
        #[cfg(kernel_core_linux_7_3)]
        same!(
            EDEADLK,
            ENOSYS,
            ENODATA,
            ETIME,
            EPROTO,
            EBADMSG,
            EFSBADCRC,
            EILSEQ,
            EOPNOTSUPP,
            EADDRINUSE,
            ECONNRESET,
            ENOBUFS,
            EHOSTUNREACH,
            EALREADY,
            EINPROGRESS,
            EUCLEAN,
            EFSCORRUPTED,
            EREMOTEIO,
            ECANCELED,
            ENOKEY,
            EHWPOISON,
            EFTYPE
        );
    }

    #[test]
    fn delays_wait_at_least_their_span() {
        use kernel_core::time::{Delta, Instant, Monotonic};
        // Above 10 us both sleep on a timer; up to 10 us both busy-wait with `udelay`, whose
        // calibrated loops can take less time than the clock measures under QEMU without KVM.
        for micros in [0, 1, 10] {
            kernel_core::time::delay::fsleep(Delta::from_micros(micros));
            kernel::time::delay::fsleep(Delta::from_micros(micros).into());
        }
        // From four jiffies on both are `msleep()`, which counts jiffies from the last tick
        // the kernel took: under an emulator that runs a vCPU late, that tick lags the
        // monotonic clock, and the sleep can end up to a jiffy short of its span by that clock
        // (seen on rt-amd64 and ppc32 under QEMU). Below, a high-resolution timer: never early.
        // `max(1)`: no division that could panic on zero, whose call objtool does not know as
        // noreturn ("falls through to next function" on x86_64).
        let jiffy = 1_000_000 / kernel_core::time::msecs_to_jiffies(1_000).max(1) as i64;
        for micros in [11, 300, 20_000, 20_001] {
            let span = Delta::from_micros(micros);
            let least = Delta::from_micros(if micros >= 4 * jiffy {
                micros - jiffy
            } else {
                micros
            });
            let start = Instant::<Monotonic>::now();
            kernel_core::time::delay::fsleep(span);
            let ours = start.elapsed();
            let start = Instant::<Monotonic>::now();
            kernel::time::delay::fsleep(span.into());
            let theirs = start.elapsed();
            // Apart, so that a failure says which one woke early.
            assert!(ours >= least);
            assert!(theirs >= least);
        }
        for nanos in [0, 1, 999, 1_000, 1_001, 50_000] {
            kernel_core::time::delay::udelay(Delta::from_nanos(nanos));
            kernel::time::delay::udelay(Delta::from_nanos(nanos).into());
        }
    }

    #[test]
    fn polling_matches() {
        use core::cell::Cell;
        use kernel::error::{code::EIO, Result};
        use kernel_core::time::Delta;

        /// `op` and `cond` for a script: `op` returns its call count, or `EIO` from call
        /// `fail_at`; `cond` accepts `ready_at`. Returns the result and the count of calls.
        fn run(
            poll: impl FnOnce(
                &mut dyn FnMut() -> Result<u32>,
                &mut dyn FnMut(&u32) -> bool,
            ) -> Result<u32>,
            ready_at: u32,
            fail_at: u32,
        ) -> (Result<u32>, u32) {
            let calls = Cell::new(0);
            let result = poll(
                &mut || {
                    calls.set(calls.get() + 1);
                    if calls.get() == fail_at {
                        Err(EIO)
                    } else {
                        Ok(calls.get())
                    }
                },
                &mut |value| *value == ready_at,
            );
            (result, calls.get())
        }

        let scripts = [(1, 0), (4, 0), (0, 1), (0, 3), (5, 3)];
        for (sleep, timeout) in [(0, 1_000_000), (10, 1_000_000)] {
            let (sleep, timeout) = (Delta::from_micros(sleep), Delta::from_micros(timeout));
            for (ready_at, fail_at) in scripts {
                let ours = run(
                    |op, cond| kernel_core::io::poll::read_poll_timeout(op, cond, sleep, timeout),
                    ready_at,
                    fail_at,
                );
                let theirs = run(
                    |op, cond| {
                        kernel::io::poll::read_poll_timeout(op, cond, sleep.into(), timeout.into())
                    },
                    ready_at,
                    fail_at,
                );
                assert_eq!(ours, theirs);
            }
        }
        // Never ready: both time out, after at least the timeout.
        for sleep in [0, 100] {
            let (sleep, timeout) = (Delta::from_micros(sleep), Delta::from_millis(2));
            let start = kernel_core::time::Instant::<kernel_core::time::Monotonic>::now();
            let ours = run(
                |op, cond| kernel_core::io::poll::read_poll_timeout(op, cond, sleep, timeout),
                0,
                0,
            );
            assert!(start.elapsed() > timeout);
            let start = kernel_core::time::Instant::<kernel_core::time::Monotonic>::now();
            let theirs = run(
                |op, cond| {
                    kernel::io::poll::read_poll_timeout(op, cond, sleep.into(), timeout.into())
                },
                0,
                0,
            );
            assert!(start.elapsed() > timeout);
            assert_eq!(ours.0, theirs.0);
            assert_eq!(ours.0, Err(kernel::error::code::ETIMEDOUT));
        }
        for retry in [0, 1, 2, 5] {
            for delay in [0, 1] {
                let delay = Delta::from_micros(delay);
                for (ready_at, fail_at) in scripts.into_iter().chain([(0, 0)]) {
                    let ours = run(
                        |op, cond| {
                            kernel_core::io::poll::read_poll_timeout_atomic(op, cond, delay, retry)
                        },
                        ready_at,
                        fail_at,
                    );
                    let theirs = run(
                        |op, cond| {
                            kernel::io::poll::read_poll_timeout_atomic(
                                op,
                                cond,
                                delay.into(),
                                retry,
                            )
                        },
                        ready_at,
                        fail_at,
                    );
                    assert_eq!(ours, theirs);
                }
            }
        }
    }

    #[cfg(kernel_core_linux_7_3)]
    #[test]
    fn millis_ceil_matches() {
        use kernel::time::Delta as Theirs;
        use kernel_core::time::Delta as Ours;
        for n in NANOS {
            assert_eq!(
                Ours::from_nanos(n).as_millis_ceil(),
                Theirs::from_nanos(n).as_millis_ceil()
            );
        }
        // Every value within a millisecond of `i64::MAX`, and of `i64::MIN`.
        for offset in 0..=1_000_000 {
            for n in [i64::MAX - offset, i64::MIN + offset] {
                assert_eq!(
                    Ours::from_nanos(n).as_millis_ceil(),
                    Theirs::from_nanos(n).as_millis_ceil()
                );
                assert_eq!(
                    Ours::from_nanos(n).as_micros_ceil(),
                    Theirs::from_nanos(n).as_micros_ceil()
                );
            }
        }
    }

    #[cfg(kernel_core_linux_7_3)]
    #[test]
    fn jiffies_match() {
        use kernel::time::{Delta as Theirs, Jiffy as TheirJiffy};
        use kernel_core::time::{Delta as Ours, Jiffy};
        let values = [isize::MIN, isize::MIN + 1, -250, -1, 0, 1, 250, isize::MAX];
        for a in values {
            let (ours, theirs): (Ours<Jiffy>, Theirs<TheirJiffy>) =
                (Ours::from_jiffies(a), Theirs::from_jiffies(a));
            assert_eq!(ours.as_jiffies(), theirs.as_jiffies());
            let converted: Theirs<TheirJiffy> = ours.into();
            assert!(converted == theirs);
            let back: Ours<Jiffy> = theirs.into();
            assert!(back == ours);
            for b in values {
                assert_eq!(
                    ours.cmp(&Ours::from_jiffies(b)),
                    theirs.cmp(&Theirs::from_jiffies(b))
                );
            }
        }
    }

    #[cfg(kernel_core_linux_7_3)]
    #[test]
    fn known_size_constants_match() {
        use kernel::ptr::KnownSize as Theirs;
        use kernel_core::ptr::KnownSize as Ours;

        #[repr(C, align(64))]
        struct CacheLine([u8; 64]);

        macro_rules! same {
            ($($ty:ty),*) => {$(
                assert_eq!(<$ty as Ours>::MIN_SIZE, <$ty as Theirs>::MIN_SIZE);
                assert_eq!(
                    <$ty as Ours>::MIN_ALIGN.as_usize(),
                    <$ty as Theirs>::MIN_ALIGN.as_usize()
                );
            )*};
        }
        same!(
            u8,
            u16,
            u32,
            u64,
            u128,
            (),
            [u8; 0],
            [u64; 3],
            CacheLine,
            [u8],
            [u32],
            [CacheLine],
            [()]
        );
        let words = [0_u32; 5];
        assert_eq!(
            <[u32] as Ours>::size(&words[..]),
            <[u32] as Theirs>::size(&words[..])
        );
    }

    /// `$name::<N>()` compares both `Bounded<$ty, N>`s at the edges of every bit count of `$ty`:
    /// each power of two, its neighbours and their negations, and `MAX >> shift`. Out of line,
    /// and without arrays: the kernel's stack is small.
    #[cfg(kernel_core_linux_7_3)]
    macro_rules! same_bounded {
        ($($name:ident: $ty:ident;)*) => {$(
            #[inline(never)]
            fn $name<const N: u32>() {
                for shift in 0..$ty::BITS {
                    let power = (1 as $ty).wrapping_shl(shift);
                    for value in [
                        power,
                        power.wrapping_sub(1),
                        power.wrapping_add(1),
                        power.wrapping_neg(),
                        power.wrapping_neg().wrapping_sub(1),
                        $ty::MAX >> shift,
                    ] {
                        let ours = kernel_core::num::Bounded::<$ty, N>::try_new(value);
                        let theirs = kernel::num::Bounded::<$ty, N>::try_new(value);
                        assert_eq!(ours.map(|v| v.get()), theirs.map(|v| v.get()));
                        if let (Some(ours), Some(theirs)) = (ours, theirs) {
                            assert_eq!(*ours, *theirs);
                            assert_eq!(
                                ours.try_shrink::<1>().map(|v| v.get()),
                                theirs.try_shrink::<1>().map(|v| v.get())
                            );
                        }
                        let ours: Option<kernel_core::num::Bounded<$ty, N>> =
                            kernel_core::num::TryIntoBounded::try_into_bounded(value as i128 - 1);
                        let theirs: Option<kernel::num::Bounded<$ty, N>> =
                            kernel::num::TryIntoBounded::try_into_bounded(value as i128 - 1);
                        assert_eq!(ours.map(|v| v.get()), theirs.map(|v| v.get()));
                    }
                }
            }
        )*};
    }

    /// Calls `$check::<N>()` for each listed `N`.
    #[cfg(kernel_core_linux_7_3)]
    macro_rules! for_each_bits {
        ($check:ident: $($n:literal)*) => {
            $($check::<$n>();)*
        };
    }

    #[cfg(kernel_core_linux_7_3)]
    same_bounded! {
        bounded_u8: u8;
        bounded_i8: i8;
        bounded_u16: u16;
        bounded_i16: i16;
        bounded_u32: u32;
        bounded_i32: i32;
        bounded_u64: u64;
        bounded_i64: i64;
        bounded_usize: usize;
        bounded_isize: isize;
    }

    #[cfg(kernel_core_linux_7_3)]
    #[test]
    fn bounded_matches() {
        for_each_bits!(bounded_u8: 1 2 3 4 5 6 7 8);
        for_each_bits!(bounded_i8: 1 2 3 4 5 6 7 8);
        for_each_bits!(bounded_u16: 1 2 7 8 9 15 16);
        for_each_bits!(bounded_i16: 1 2 7 8 9 15 16);
        for_each_bits!(bounded_u32: 1 2 16 17 31 32);
        for_each_bits!(bounded_i32: 1 2 16 17 31 32);
        for_each_bits!(bounded_u64: 1 2 32 33 63 64);
        for_each_bits!(bounded_i64: 1 2 32 33 63 64);
        // `usize` and `isize` have 32 bits on 32-bit kernels (arm).
        #[cfg(CONFIG_64BIT)]
        for_each_bits!(bounded_usize: 1 2 32 33 63 64);
        #[cfg(CONFIG_64BIT)]
        for_each_bits!(bounded_isize: 1 2 32 33 63 64);
        #[cfg(not(CONFIG_64BIT))]
        for_each_bits!(bounded_usize: 1 2 16 17 31 32);
        #[cfg(not(CONFIG_64BIT))]
        for_each_bits!(bounded_isize: 1 2 16 17 31 32);

        // Build-time constructors and conversions.
        assert_eq!(
            kernel_core::num::Bounded::<i16, 5>::new::<{ -16 }>().get(),
            kernel::num::Bounded::<i16, 5>::new::<{ -16 }>().get()
        );
        assert_eq!(
            kernel_core::num::Bounded::<u32, 12>::from_expr(0xabc)
                .shl::<4, 16>()
                .get(),
            kernel::num::Bounded::<u32, 12>::from_expr(0xabc)
                .shl::<4, 16>()
                .get()
        );
        assert_eq!(
            u8::from(kernel_core::num::Bounded::<u64, 8>::from(0xa5_u8)),
            u8::from(kernel::num::Bounded::<u64, 8>::from(0xa5_u8))
        );
        assert_eq!(
            bool::from(kernel_core::num::Bounded::<u8, 1>::from(true)),
            bool::from(kernel::num::Bounded::<u8, 1>::from(true))
        );
        assert_eq!(
            <u128 as kernel_core::num::Integer>::BITS,
            <u128 as kernel::num::Integer>::BITS
        );
        assert_eq!(
            <isize as kernel_core::num::Integer>::BITS,
            <isize as kernel::num::Integer>::BITS
        );
    }

    #[cfg(kernel_core_linux_7_3)]
    #[test]
    fn casts_match() {
        use kernel::num::casts as theirs;
        use kernel_core::num::casts as ours;
        assert_eq!(ours::u8_as_u16(u8::MAX), theirs::u8_as_u16(u8::MAX));
        assert_eq!(ours::u16_as_usize(u16::MAX), theirs::u16_as_usize(u16::MAX));
        assert_eq!(ours::u32_as_u64(u32::MAX), theirs::u32_as_u64(u32::MAX));
        assert_eq!(ours::u32_as_usize(u32::MAX), theirs::u32_as_usize(u32::MAX));
        assert_eq!(
            ours::usize_as_u64(usize::MAX),
            theirs::usize_as_u64(usize::MAX)
        );
        assert_eq!(
            ours::u64_into_u32::<0xffff_ffff>(),
            theirs::u64_into_u32::<0xffff_ffff>()
        );
        assert_eq!(
            ours::usize_into_u8::<0xff>(),
            theirs::usize_into_u8::<0xff>()
        );
        assert_eq!(ours::u16_into_u8::<7>(), theirs::u16_into_u8::<7>());
        assert_eq!(
            <u64 as ours::FromSafeCast<usize>>::from_safe_cast(usize::MAX),
            <u64 as theirs::FromSafeCast<usize>>::from_safe_cast(usize::MAX)
        );
        #[cfg(CONFIG_64BIT)]
        assert_eq!(
            ours::arch::u64_as_usize(u64::MAX),
            theirs::arch::u64_as_usize(u64::MAX)
        );
    }

    #[cfg(kernel_core_linux_7_3)]
    kernel::impl_flags!(
        /// The kernel's flag set.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct TheirSet(u16);

        /// The kernel's flag.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub enum TheirFlag {
            /// Bit 0.
            A = 1 << 0,
            /// Bit 3.
            B = 1 << 3,
            /// Bit 15.
            C = 1 << 15,
        }
    );

    #[cfg(kernel_core_linux_7_3)]
    kernel_core::impl_flags!(
        /// kernel-core's flag set.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub struct OurSet(u16);

        /// kernel-core's flag.
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub enum OurFlag {
            /// Bit 0.
            A = 1 << 0,
            /// Bit 3.
            B = 1 << 3,
            /// Bit 15.
            C = 1 << 15,
        }
    );

    #[cfg(kernel_core_linux_7_3)]
    #[test]
    fn impl_flags_matches() {
        let ours = [OurFlag::A, OurFlag::B, OurFlag::C];
        let theirs = [TheirFlag::A, TheirFlag::B, TheirFlag::C];
        assert_eq!(OurSet::all_bits(), TheirSet::all_bits());
        assert_eq!(u16::from(OurSet::empty()), u16::from(TheirSet::empty()));
        for i in 0..3 {
            assert_eq!(u16::from(!ours[i]), u16::from(!theirs[i]));
            for j in 0..3 {
                let (o, t) = (ours[i] | ours[j], theirs[i] | theirs[j]);
                assert_eq!(u16::from(o), u16::from(t));
                assert_eq!(
                    u16::from(ours[i] & ours[j]),
                    u16::from(theirs[i] & theirs[j])
                );
                assert_eq!(
                    u16::from(ours[i] ^ ours[j]),
                    u16::from(theirs[i] ^ theirs[j])
                );
                assert_eq!(u16::from(!o), u16::from(!t));
                for k in 0..3 {
                    assert_eq!(o.contains(ours[k]), t.contains(theirs[k]));
                    assert_eq!(u16::from(o ^ ours[k]), u16::from(t ^ theirs[k]));
                    assert_eq!(u16::from(o & ours[k]), u16::from(t & theirs[k]));
                    let (mut o2, mut t2) = (o, t);
                    o2 ^= ours[k];
                    t2 ^= theirs[k];
                    assert_eq!(u16::from(o2), u16::from(t2));
                    let (p, q) = (
                        OurSet::from(ours[k]) | ours[i],
                        TheirSet::from(theirs[k]) | theirs[i],
                    );
                    assert_eq!(o.contains_any(p), t.contains_any(q));
                    assert_eq!(o.contains_all(p), t.contains_all(q));
                }
            }
        }
    }

    /// A 2-bit field's meaning, 3 invalid: the `?=>` conversion, from and into both sides'
    /// `Bounded`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Mode {
        Off,
        Slow,
        Fast,
    }

    /// A 1-bit field's meaning: the `=>` conversion.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Polarity {
        Low,
        High,
    }

    /// The conversions of [`Mode`] and [`Polarity`] for `$side::num::Bounded<u32, _>`.
    macro_rules! field_conversions {
        ($($side:ident)*) => {$(
            impl TryFrom<$side::num::Bounded<u32, 2>> for Mode {
                type Error = u32;

                fn try_from(v: $side::num::Bounded<u32, 2>) -> Result<Self, u32> {
                    match v.get() {
                        0 => Ok(Mode::Off),
                        1 => Ok(Mode::Slow),
                        2 => Ok(Mode::Fast),
                        other => Err(other),
                    }
                }
            }

            impl From<Mode> for $side::num::Bounded<u32, 2> {
                fn from(m: Mode) -> Self {
                    match m {
                        Mode::Off => Self::new::<0>(),
                        Mode::Slow => Self::new::<1>(),
                        Mode::Fast => Self::new::<2>(),
                    }
                }
            }

            impl From<$side::num::Bounded<u32, 1>> for Polarity {
                fn from(v: $side::num::Bounded<u32, 1>) -> Self {
                    if v.get() == 0 {
                        Polarity::Low
                    } else {
                        Polarity::High
                    }
                }
            }

            impl From<Polarity> for $side::num::Bounded<u32, 1> {
                fn from(p: Polarity) -> Self {
                    match p {
                        Polarity::Low => Self::new::<0>(),
                        Polarity::High => Self::new::<1>(),
                    }
                }
            }
        )*};
    }

    field_conversions!(kernel_core kernel);

    /// The same declarations through `$side::bitfield!` (kernel-core's or the kernel's).
    macro_rules! registers {
        ($side:ident, $r8:ident, $r64:ident, $r32:ident) => {
            $side::bitfield! {
                /// A `u8` register.
                pub struct $r8(u8) {
                    0:0 low;
                    7:7 high;
                    7:0 all;
                    6:1 inner;
                }
            }

            $side::bitfield! {
                /// A `u64` register.
                pub struct $r64(u64) {
                    0:0 low;
                    63:63 high;
                    63:0 all;
                    62:1 inner;
                }
            }

            $side::bitfield! {
                /// A `u32` register with converted fields.
                pub struct $r32(u32) {
                    /// Overlaps `mode`.
                    31:31 top;
                    31:30 mode ?=> Mode;
                    16:16 pol => Polarity;
                    15:4 mid;
                }
            }
        };
    }

    registers!(kernel_core, Our8, Our64, Our32);
    registers!(kernel, Their8, Their64, Their32);

    /// `kernel::bitfield!` (Linux 7.2 and 7.3): the same declarations, fields at bit 0, at the
    /// top and over the whole storage of a `u8` and a `u64`, `=>` and `?=>` fields; every
    /// constant, getter and setter on every single bit and the edges, `zeroed()`.
    #[test]
    fn bitfield_matches() {
        macro_rules! same {
            ($ours:ident, $theirs:ident, $storage:ty) => {{
                assert_eq!($ours::LOW_MASK, $theirs::LOW_MASK);
                assert_eq!($ours::HIGH_MASK, $theirs::HIGH_MASK);
                assert_eq!($ours::ALL_MASK, $theirs::ALL_MASK);
                assert_eq!($ours::INNER_MASK, $theirs::INNER_MASK);
                assert_eq!($ours::HIGH_SHIFT, $theirs::HIGH_SHIFT);
                assert_eq!($ours::INNER_SHIFT, $theirs::INNER_SHIFT);
                assert!($ours::HIGH_RANGE == $theirs::HIGH_RANGE);
                assert!($ours::ALL_RANGE == $theirs::ALL_RANGE);
                assert_eq!(
                    <$ours as kernel_core::prelude::Zeroable>::zeroed().into_raw(),
                    <$theirs as kernel::prelude::Zeroable>::zeroed().into_raw()
                );
                let max = <$storage>::MAX;
                let mut raws = [0, 1, max, max >> 1, !(max >> 1), max - 1, 0];
                for n in 0..<$storage>::BITS {
                    raws[6] = 1 << n;
                    for raw in raws {
                        let (o, t) = ($ours::from(raw), $theirs::from(raw));
                        assert_eq!(<$storage>::from(o), <$storage>::from(t));
                        assert_eq!(o.low().get(), t.low().get());
                        assert_eq!(o.high().get(), t.high().get());
                        assert_eq!(o.all().get(), t.all().get());
                        assert_eq!(o.inner().get(), t.inner().get());
                        for value in [0, 1, 2, raw, raw >> 1, raw >> 2, max] {
                            assert_eq!(
                                o.try_with_low(value).map(|v| v.into_raw()),
                                t.try_with_low(value).map(|v| v.into_raw())
                            );
                            assert_eq!(
                                o.try_with_high(value).map(|v| v.into_raw()),
                                t.try_with_high(value).map(|v| v.into_raw())
                            );
                            assert_eq!(
                                o.try_with_inner(value).map(|v| v.into_raw()),
                                t.try_with_inner(value).map(|v| v.into_raw())
                            );
                            assert_eq!(o.with_all(value).into_raw(), t.with_all(value).into_raw());
                        }
                        let flag = raw & 1 == 0;
                        assert_eq!(
                            o.with_low(flag).with_high(!flag).into_raw(),
                            t.with_low(flag).with_high(!flag).into_raw()
                        );
                        assert_eq!(
                            o.with_const_inner::<0>().into_raw(),
                            t.with_const_inner::<0>().into_raw()
                        );
                        assert_eq!(
                            o.with_const_inner::<{ <$storage>::MAX >> 2 }>().into_raw(),
                            t.with_const_inner::<{ <$storage>::MAX >> 2 }>().into_raw()
                        );
                        assert_eq!(
                            o.with_const_high::<1>().with_const_low::<0>().into_raw(),
                            t.with_const_high::<1>().with_const_low::<0>().into_raw()
                        );
                    }
                }
            }};
        }
        same!(Our8, Their8, u8);
        same!(Our64, Their64, u64);

        assert_eq!(Our32::MODE_MASK, Their32::MODE_MASK);
        assert_eq!(Our32::POL_SHIFT, Their32::POL_SHIFT);
        assert_eq!(Our32::MID_MASK, Their32::MID_MASK);
        let mut raws = [0, u32::MAX, 0x4001_0010, 0x8000_fff0, 0];
        for n in 0..32 {
            raws[4] = 1 << n;
            for raw in raws {
                let (o, t) = (Our32::from_raw(raw), Their32::from_raw(raw));
                assert!(o.mode() == t.mode());
                assert!(o.pol() == t.pol());
                assert_eq!(o.top().get(), t.top().get());
                assert_eq!(o.mid().get(), t.mid().get());
                for mode in [Mode::Off, Mode::Slow, Mode::Fast] {
                    assert_eq!(o.with_mode(mode).into_raw(), t.with_mode(mode).into_raw());
                }
                for pol in [Polarity::Low, Polarity::High] {
                    assert_eq!(o.with_pol(pol).into_raw(), t.with_pol(pol).into_raw());
                }
                assert_eq!(
                    o.try_with_mid(raw >> 20).map(|v| v.into_raw()),
                    t.try_with_mid(raw >> 20).map(|v| v.into_raw())
                );
            }
        }
    }

    /// The family of bases of the engine registers below, and two bases (one per side, for
    /// each side's `RegisterBase`).
    #[cfg(kernel_core_linux_7_3)]
    mod engines {
        pub struct EngineBase;
        pub(super) struct Engine0;
        pub(super) struct Engine1;

        impl kernel_core::io::register::RegisterBase<EngineBase> for Engine0 {
            const BASE: usize = 0x100;
        }
        impl kernel_core::io::register::RegisterBase<EngineBase> for Engine1 {
            const BASE: usize = 0x180;
        }
        impl kernel::io::register::RegisterBase<EngineBase> for Engine0 {
            const BASE: usize = 0x100;
        }
        impl kernel::io::register::RegisterBase<EngineBase> for Engine1 {
            const BASE: usize = 0x180;
        }
    }

    /// The same declarations through `$side::register!` (kernel-core's or the kernel's), in
    /// module `$module`: every kind of register.
    #[cfg(kernel_core_linux_7_3)]
    macro_rules! io_registers {
        ($($side:ident $module:ident)*) => {$(
            mod $module {
                use super::engines::EngineBase;

                $side::register! {
                    pub FIRST(u8) @ 0x0 {
                        7:7 top;
                        0:0 bottom;
                    }
                    pub LAST(u32) @ 0x1fc {
                        31:16 high;
                        15:0 low;
                    }
                    pub CTL(u16) @ 0x10 {
                        0:0 enable => bool;
                        15:8 divider;
                    }
                    pub CTL_ALIAS(u16) => CTL {
                        15:0 raw;
                    }
                    pub SCRATCH(u32)[8] @ 0x20 {
                        31:0 value;
                    }
                    pub MBOX(u8)[4, stride = 4] @ 0x40 {
                        7:0 data;
                    }
                    pub FW_STATUS(u32) => SCRATCH[7] {
                        7:0 code;
                    }
                    pub ENGINE_CTL(u32) @ EngineBase + 0x4 {
                        0:0 run => bool;
                    }
                    pub ENGINE_CTL_ALIAS(u32) => EngineBase + ENGINE_CTL {
                        31:0 raw;
                    }
                    pub DOORBELL(u32)[4, stride = 16] @ EngineBase + 0x20 {
                        31:0 tail;
                    }
                    pub LAST_DOORBELL(u32) => EngineBase + DOORBELL[3] {
                        31:0 tail;
                    }
                }
            }
        )*};
    }

    #[cfg(kernel_core_linux_7_3)]
    io_registers!(kernel_core ours kernel theirs);

    /// `kernel::io::register!` and the kernel's `Io` over system memory (Linux 7.3): the same
    /// declarations of every kind, written with the same values through each side's API into
    /// two buffers, leave the same bytes; each side reads back what the other wrote, through
    /// the kernel's `SysMem` converted into kernel-core's; kernel-core's `Mmio` over the same
    /// memory (through the kernel's `readl()` and friends) reads what was written.
    #[cfg(kernel_core_linux_7_3)]
    #[test]
    fn registers_match() {
        use self::engines::{Engine0, Engine1};
        use kernel::io::register::{Array as _, WithBase as _};
        use kernel::io::Io as _;
        use kernel_core::io::register::{Array as _, WithBase as _};
        use kernel_core::io::Io as _;

        const SIZE: usize = 0x200;
        let mut ours_mem = [0_u64; SIZE / 8];
        let mut theirs_mem = [0_u64; SIZE / 8];
        for value in [0_u32, 1, 0x8000_0001, 0x1234_5678, u32::MAX] {
            let wide = u32::from(value as u16);
            let byte = value as u8;
            {
                // kernel-core's view through the kernel's own `SysMem`, converted.
                let Ok(region) = kernel::io::Region::<SIZE>::ptr_try_from_raw_parts_mut(
                    ours_mem.as_mut_ptr().cast(),
                    SIZE,
                ) else {
                    assert!(false);
                    return;
                };
                // SAFETY: `region` covers `ours_mem`, valid for as long as the view is used.
                let theirs_view = unsafe { kernel::io::SysMem::new(region) };
                let io: kernel_core::io::SysMem<'_, kernel_core::io::Region<SIZE>> =
                    theirs_view.into();
                io.write_reg(ours::FIRST::from(byte));
                io.write_reg(ours::LAST::from(value));
                io.write_reg(ours::CTL::from(value as u16));
                io.update(ours::CTL_ALIAS, |r| r.with_raw(r.raw().get() ^ 0x0100_u16));
                io.write(ours::SCRATCH::at(0), ours::SCRATCH::from(value));
                io.write(ours::SCRATCH::at(7), ours::SCRATCH::from(!value));
                io.write(ours::MBOX::at(3), ours::MBOX::from(byte));
                io.update(ours::FW_STATUS, |r| r.with_code(byte));
                io.write(
                    ours::ENGINE_CTL::of::<Engine1>(),
                    ours::ENGINE_CTL::from(value),
                );
                io.update(ours::ENGINE_CTL_ALIAS::of::<Engine0>(), |r| {
                    r.with_raw(wide)
                });
                io.write(
                    ours::DOORBELL::of::<Engine1>().at(1),
                    ours::DOORBELL::from(value),
                );
                io.update(ours::LAST_DOORBELL::of::<Engine0>(), |r| r.with_tail(wide));
                assert_eq!(io.try_read(ours::LAST).map(|r| r.into_raw()), Ok(value));
            }
            {
                let Ok(region) = kernel::io::Region::<SIZE>::ptr_try_from_raw_parts_mut(
                    theirs_mem.as_mut_ptr().cast(),
                    SIZE,
                ) else {
                    assert!(false);
                    return;
                };
                // SAFETY: `region` covers `theirs_mem`, valid for as long as the view is used.
                let io = unsafe { kernel::io::SysMem::new(region) };
                io.write_reg(theirs::FIRST::from(byte));
                io.write_reg(theirs::LAST::from(value));
                io.write_reg(theirs::CTL::from(value as u16));
                io.update(theirs::CTL_ALIAS, |r| {
                    r.with_raw(r.raw().get() ^ 0x0100_u16)
                });
                io.write(theirs::SCRATCH::at(0), theirs::SCRATCH::from(value));
                io.write(theirs::SCRATCH::at(7), theirs::SCRATCH::from(!value));
                io.write(theirs::MBOX::at(3), theirs::MBOX::from(byte));
                io.update(theirs::FW_STATUS, |r| r.with_code(byte));
                io.write(
                    theirs::ENGINE_CTL::of::<Engine1>(),
                    theirs::ENGINE_CTL::from(value),
                );
                io.update(theirs::ENGINE_CTL_ALIAS::of::<Engine0>(), |r| {
                    r.with_raw(wide)
                });
                io.write(
                    theirs::DOORBELL::of::<Engine1>().at(1),
                    theirs::DOORBELL::from(value),
                );
                io.update(theirs::LAST_DOORBELL::of::<Engine0>(), |r| {
                    r.with_tail(wide)
                });
            }
            assert!(ours_mem == theirs_mem);
            for i in 0..4 {
                assert_eq!(
                    ours::DOORBELL::of::<Engine0>().try_at(i).is_some(),
                    theirs::DOORBELL::of::<Engine0>().try_at(i).is_some()
                );
            }
            assert!(ours::SCRATCH::try_at(8).is_none() && theirs::SCRATCH::try_at(8).is_none());
        }

        // kernel-core's `Mmio` (the kernel's `readl()` and friends) over the same memory,
        // through the kernel's `Mmio` converted: it reads what both sides wrote.
        let addr = theirs_mem.as_mut_ptr() as usize;
        let Ok(raw) = kernel::io::MmioRaw::<kernel::io::Region<SIZE>>::new_region(addr, SIZE)
        else {
            assert!(false);
            return;
        };
        // SAFETY: `theirs_mem` is mapped kernel memory, valid for as long as the view is used,
        // and the accessors only load and store it.
        let theirs_view = unsafe { kernel::io::Mmio::from_raw(raw) };
        let mmio: kernel_core::io::Mmio<'_, kernel_core::io::Region<SIZE>> = theirs_view.into();
        assert_eq!(mmio.read(ours::LAST).into_raw(), u32::MAX);
        assert_eq!(mmio.read32(0x1fc), theirs_view.read32(0x1fc));
        assert_eq!(
            mmio.relaxed().read8(0x40 + 3 * 4),
            theirs_view.read8(0x40 + 3 * 4)
        );
        mmio.write_reg(ours::CTL::from(0xbeef));
        assert_eq!(theirs_view.read(theirs::CTL).into_raw(), 0xbeef);
        // `!u32::MAX`, then `FW_STATUS`'s code, written through `SysMem` in the CPU's byte
        // order and read through `Mmio` as little-endian: swapped on big-endian s390.
        assert_eq!(
            mmio.try_read(ours::SCRATCH::at(7)).map(|r| r.into_raw()),
            Ok(u32::from_le_bytes(0xff_u32.to_ne_bytes()))
        );
        assert_eq!(mmio.size(), SIZE);
    }

    /// kernel-core's `Mmio` and `RelaxedMmio` on Linux 7.2 and 7.3: every width through the
    /// kernel's `readb()`..`readq()` and `writeb()`..`writeq()` (and the relaxed ones), over
    /// kernel memory, agree with the memory's contents.
    #[test]
    fn mmio_accessors_reach_the_memory() {
        use kernel_core::io::{Io as _, Mmio, MmioRaw, Region};

        let mut memory = [0_u64; 4];
        let addr = memory.as_mut_ptr() as usize;
        let Ok(raw) = MmioRaw::<Region<32>>::new_region(addr, 32) else {
            assert!(false);
            return;
        };
        // SAFETY: `memory` is mapped kernel memory, valid for as long as the view is used, and
        // the accessors only load and store it.
        let mmio = unsafe { Mmio::from_raw(raw) };
        mmio.write8(0x11, 0);
        mmio.write16(0x2233, 2);
        mmio.write32(0x4455_6677, 4);
        // 64-bit accesses on 64-bit kernels only, as in Linux 7.3 (`CONFIG_64BIT`).
        #[cfg(CONFIG_64BIT)]
        assert_eq!(mmio.try_write64(0x8899_aabb_ccdd_eeff, 8), Ok(()));
        mmio.relaxed().write32(0x1234_5678, 16);
        #[cfg(CONFIG_64BIT)]
        assert_eq!(mmio.relaxed().try_write64(u64::MAX, 24), Ok(()));
        assert_eq!(mmio.read8(0), 0x11);
        assert_eq!(mmio.read16(2), 0x2233);
        assert_eq!(mmio.relaxed().read32(4), 0x4455_6677);
        #[cfg(CONFIG_64BIT)]
        assert_eq!(mmio.try_read64(8), Ok(0x8899_aabb_ccdd_eeff));
        assert_eq!(mmio.relaxed().read16(18), 0x1234);
        #[cfg(CONFIG_64BIT)]
        assert_eq!(mmio.relaxed().try_read64(24), Ok(u64::MAX));
        assert_eq!(mmio.try_read8(32).is_err(), true);
        // `writel()` and the others are little-endian: the memory holds the bytes low first.
        assert_eq!(
            memory[0].to_ne_bytes(),
            [0x11, 0, 0x33, 0x22, 0x77, 0x66, 0x55, 0x44]
        );
        assert_eq!(
            memory[2].to_ne_bytes(),
            [0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0]
        );
    }
}
