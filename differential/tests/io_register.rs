// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::io::register!` against Linux 7.3's own
//! `io/register.rs`, built on the host as `linux7_3::register!` (over 7.3's own `bitfield!`).
//!
//! The same declarations go through both macros: every kind of register (fixed, relative,
//! contiguous and strided arrays, relative arrays, and the four kinds of alias) in every
//! storage width. Then, for both sides:
//!
//! - the storage types are the same type, and `OFFSET`, `SIZE` and `STRIDE` agree;
//! - every location the API builds (the fixed register's constant, `()`, the value itself,
//!   `write_reg`'s, `of::<B>()`, `at(i)` for constant `i`, `try_at(i)` for every `i` up to
//!   past the end) has the same offset and the same access type;
//! - writing random values through kernel-core's `Io` at kernel-core's locations leaves the
//!   same bytes as writing the raw values, at the offsets Linux 7.3's locations give, with
//!   kernel-core's plain `usize` accesses.
//!
//! Linux 7.3's `io.rs` itself is not built here (it needs the kernel's vendored `zerocopy`
//! and `ptr::project!`): `linux7_3::io` declares its `IoLoc` and `Region` with the same
//! signatures, which is all `register.rs` reaches.

// Linux 7.3's macros name the crates a kernel module gets, `::kernel` and `::pin_init`: here
// both are the mock crate.
extern crate linux7_3 as kernel;
extern crate linux7_3 as pin_init;

use kernel_core::extras::io::sys_mem;
use kernel_core::io::register::{Register as KcRegister, RegisterArray as KcArray};
use kernel_core::io::{Io, IoLoc as KcLoc, Region as KcRegion};
use linux7_3::io::register::{Register as LxRegister, RegisterArray as LxArray};
use linux7_3::io::{IoLoc as LxLoc, Region as LxRegion};
use proptest::prelude::*;

/// The size of the test region in bytes.
const SIZE: usize = 0x400;

/// Implemented for `(A, A)` only: `same::<A, B>()` builds only if `A` and `B` are one type.
trait Same {}
impl<T> Same for (T, T) {}
fn same<A, B>()
where
    (A, B): Same,
{
}

/// The same declarations, for the `reg!` macro in scope (kernel-core's or Linux 7.3's).
macro_rules! declarations {
    () => {
        pub struct EngineBase;
        pub struct Engine0;
        pub struct Engine1;

        reg! {
            /// Bytes at both ends.
            pub FIRST8(u8) @ 0x0 {
                7:7 top;
                0:0 bottom;
            }
            pub LAST8(u8) @ 0x3ff {
                7:0 all;
            }
            pub LAST16(u16) @ 0x3fe {
                15:8 high;
                7:0 low;
            }
            pub LAST32(u32) @ 0x3fc {
                31:31 top;
                30:1 inner;
                0:0 bottom;
            }
            pub WIDE(u64) @ 0x3f0 {
                63:32 high;
                31:0 low;
            }
            /// A control register, and an alias.
            pub CTL(u32) @ 0x10 {
                0:0 enable => bool;
                5:4 mode;
                15:8 divider;
            }
            pub CTL_RAW(u32) => CTL {
                31:0 value;
            }
            /// Arrays, and an alias of an element.
            pub SCRATCH(u32)[8] @ 0x20 {
                31:0 value;
            }
            pub MBOX(u8)[4, stride = 4] @ 0x40 {
                7:0 data;
            }
            pub QWORDS(u64)[4, stride = 0x10] @ 0x80 {
                63:0 value;
            }
            pub HALVES(u16)[16] @ 0xc0 {
                15:0 value;
            }
            pub FW_STATUS(u32) => SCRATCH[7] {
                7:0 code;
            }
            /// Registers relative to a base, arrays of them, and aliases.
            pub ENGINE_CTL(u16) @ EngineBase + 0x2 {
                0:0 run => bool;
                15:8 priority;
            }
            pub ENGINE_CTL_ALT(u16) => EngineBase + ENGINE_CTL {
                15:0 raw;
            }
            pub ENGINE_DOORBELL(u32)[4, stride = 16] @ EngineBase + 0x20 {
                31:0 tail;
            }
            pub ENGINE_COUNTER(u8)[8] @ EngineBase + 0x60 {
                7:0 count;
            }
            pub ENGINE_LAST_DOORBELL(u32) => EngineBase + ENGINE_DOORBELL[3] {
                31:0 tail;
            }
        }
    };
}

mod kc {
    use kernel_core::io::register::RegisterBase;
    use kernel_core::register as reg;

    declarations!();

    impl RegisterBase<EngineBase> for Engine0 {
        const BASE: usize = 0x100;
    }
    impl RegisterBase<EngineBase> for Engine1 {
        const BASE: usize = 0x280;
    }
}

mod lx {
    use linux7_3::io::register::RegisterBase;
    use linux7_3::register as reg;

    declarations!();

    impl RegisterBase<EngineBase> for Engine0 {
        const BASE: usize = 0x100;
    }
    impl RegisterBase<EngineBase> for Engine1 {
        const BASE: usize = 0x280;
    }
}

/// The offset and the access type of a kernel-core location, and of a Linux 7.3 one.
fn kc_at<T, L: KcLoc<KcRegion<SIZE>, T>>(loc: L) -> (usize, usize) {
    (loc.offset(), size_of::<L::IoType>())
}
fn lx_at<T, L: LxLoc<LxRegion<SIZE>, T>>(loc: L) -> (usize, usize) {
    (loc.offset(), size_of::<L::IoType>())
}

/// Both sides' registers `$name` have the same storage type, offset and (for arrays) size
/// and stride.
macro_rules! same_register {
    ($($name:ident)*) => {$(
        same::<<kc::$name as KcRegister>::Storage, <lx::$name as LxRegister>::Storage>();
        assert_eq!(
            <kc::$name as KcRegister>::OFFSET,
            <lx::$name as LxRegister>::OFFSET,
            stringify!($name)
        );
    )*};
    ($($name:ident)* ; arrays) => {$(
        same_register!($name);
        assert_eq!(<kc::$name as KcArray>::SIZE, <lx::$name as LxArray>::SIZE);
        assert_eq!(<kc::$name as KcArray>::STRIDE, <lx::$name as LxArray>::STRIDE);
    )*};
}

#[test]
fn the_same_types_and_constants() {
    same_register!(
        FIRST8 LAST8 LAST16 LAST32 WIDE CTL CTL_RAW FW_STATUS ENGINE_CTL ENGINE_CTL_ALT
        ENGINE_LAST_DOORBELL
    );
    same_register!(SCRATCH MBOX QWORDS HALVES ENGINE_DOORBELL ENGINE_COUNTER; arrays);
}

#[test]
fn the_same_fixed_locations() {
    macro_rules! fixed {
        ($($name:ident)*) => {$(
            let expected = lx_at::<lx::$name, _>(lx::$name);
            assert_eq!(kc_at::<kc::$name, _>(kc::$name), expected, stringify!($name));
            assert_eq!(lx_at::<lx::$name, _>(()), expected);
            assert_eq!(kc_at::<kc::$name, _>(()), expected);
            assert_eq!(kc_at::<kc::$name, _>(kc::$name::from_raw(0)), expected);
            assert_eq!(lx_at::<lx::$name, _>(lx::$name::from_raw(0)), expected);
            let (kc_loc, _) = kernel_core::io::register::LocatedRegister::<KcRegion<SIZE>>::into_io_op(kc::$name::from_raw(0));
            let (lx_loc, _) = linux7_3::io::register::LocatedRegister::<LxRegion<SIZE>>::into_io_op(lx::$name::from_raw(0));
            assert_eq!(kc_at::<kc::$name, _>(kc_loc), lx_at::<lx::$name, _>(lx_loc));
        )*};
    }
    fixed!(FIRST8 LAST8 LAST16 LAST32 WIDE CTL CTL_RAW FW_STATUS);
}

#[test]
fn the_same_array_and_relative_locations() {
    use kernel_core::io::register::{Array as _, WithBase as _};
    use linux7_3::io::register::{Array as _, WithBase as _};

    macro_rules! arrays {
        ($($name:ident)*) => {$(
            for i in 0..<lx::$name as LxArray>::SIZE + 3 {
                assert_eq!(
                    kc::$name::try_at(i).map(kc_at::<kc::$name, _>),
                    lx::$name::try_at(i).map(lx_at::<lx::$name, _>),
                    "{}[{i}]", stringify!($name)
                );
            }
            assert_eq!(kc_at::<kc::$name, _>(kc::$name::at(0)), lx_at::<lx::$name, _>(lx::$name::at(0)));
            assert_eq!(kc_at::<kc::$name, _>(kc::$name::at(3)), lx_at::<lx::$name, _>(lx::$name::at(3)));
            assert!(kc::$name::try_at(usize::MAX).is_none() && lx::$name::try_at(usize::MAX).is_none());
        )*};
    }
    arrays!(SCRATCH MBOX QWORDS HALVES);

    macro_rules! relative {
        ($($base:ident)*) => {$(
            assert_eq!(
                kc_at::<kc::ENGINE_CTL, _>(kc::ENGINE_CTL::of::<kc::$base>()),
                lx_at::<lx::ENGINE_CTL, _>(lx::ENGINE_CTL::of::<lx::$base>()),
            );
            assert_eq!(
                kc_at::<kc::ENGINE_CTL_ALT, _>(kc::ENGINE_CTL_ALT::of::<kc::$base>()),
                lx_at::<lx::ENGINE_CTL_ALT, _>(lx::ENGINE_CTL_ALT::of::<lx::$base>()),
            );
            assert_eq!(
                kc_at::<kc::ENGINE_LAST_DOORBELL, _>(kc::ENGINE_LAST_DOORBELL::of::<kc::$base>()),
                lx_at::<lx::ENGINE_LAST_DOORBELL, _>(lx::ENGINE_LAST_DOORBELL::of::<lx::$base>()),
            );
            for i in 0..6 {
                assert_eq!(
                    kc::ENGINE_DOORBELL::of::<kc::$base>().try_at(i).map(kc_at::<kc::ENGINE_DOORBELL, _>),
                    lx::ENGINE_DOORBELL::of::<lx::$base>().try_at(i).map(lx_at::<lx::ENGINE_DOORBELL, _>),
                );
            }
            for i in 0..10 {
                assert_eq!(
                    kc::ENGINE_COUNTER::of::<kc::$base>().try_at(i).map(kc_at::<kc::ENGINE_COUNTER, _>),
                    lx::ENGINE_COUNTER::of::<lx::$base>().try_at(i).map(lx_at::<lx::ENGINE_COUNTER, _>),
                );
            }
            assert_eq!(
                kc_at::<kc::ENGINE_DOORBELL, _>(kc::ENGINE_DOORBELL::of::<kc::$base>().at(3)),
                lx_at::<lx::ENGINE_DOORBELL, _>(lx::ENGINE_DOORBELL::of::<lx::$base>().at(3)),
            );
        )*};
    }
    relative!(Engine0 Engine1);
}

/// Writes `raw` through kernel-core's register API at register `$name`'s location `$kc_loc`,
/// and `raw` as a plain primitive at the offset of Linux 7.3's `$lx_loc`, into two regions,
/// which must then hold the same bytes; kernel-core's read must return the value.
macro_rules! write_both {
    ($name:ident, $raw:expr, $kc_loc:expr, $lx_loc:expr) => {{
        let raw: <lx::$name as LxRegister>::Storage = $raw;
        let mut ours = [0_u64; SIZE / 8];
        let mut theirs = [0_u64; SIZE / 8];
        {
            let io = sys_mem::<SIZE, _>(&mut ours).expect("a valid region");
            io.try_write($kc_loc, kc::$name::from_raw(raw))
                .expect("inside the region");
            assert_eq!(io.try_read($kc_loc).map(kc::$name::into_raw), Ok(raw));
        }
        {
            let io = sys_mem::<SIZE, _>(&mut theirs).expect("a valid region");
            let (offset, _) = lx_at::<lx::$name, _>($lx_loc);
            io.try_write(offset, raw).expect("inside the region");
        }
        assert_eq!(ours, theirs, "{} = {:#x}", stringify!($name), raw);
    }};
}

proptest! {
    #[test]
    fn the_same_bytes_for_random_values(
        v8 in any::<u8>(), v16 in any::<u16>(), v32 in any::<u32>(), v64 in any::<u64>(),
        i in 0_usize..4,
    ) {
        use kernel_core::io::register::{Array as _, WithBase as _};
        use linux7_3::io::register::{Array as _, WithBase as _};

        #[cfg(not(target_pointer_width = "64"))]
        let _ = v64;
        write_both!(FIRST8, v8, kc::FIRST8, lx::FIRST8);
        write_both!(LAST8, v8, kc::LAST8, lx::LAST8);
        write_both!(LAST16, v16, kc::LAST16, lx::LAST16);
        write_both!(LAST32, v32, kc::LAST32, lx::LAST32);
        // 64-bit accesses exist on 64-bit targets only, as in Linux 7.3.
        #[cfg(target_pointer_width = "64")]
        write_both!(WIDE, v64, kc::WIDE, lx::WIDE);
        write_both!(CTL, v32, kc::CTL, lx::CTL);
        write_both!(CTL_RAW, v32, kc::CTL_RAW, lx::CTL_RAW);
        write_both!(FW_STATUS, v32, kc::FW_STATUS, lx::FW_STATUS);
        write_both!(SCRATCH, v32, kc::SCRATCH::try_at(i * 2).unwrap(), lx::SCRATCH::try_at(i * 2).unwrap());
        write_both!(MBOX, v8, kc::MBOX::try_at(i).unwrap(), lx::MBOX::try_at(i).unwrap());
        // 64-bit accesses exist on 64-bit targets only, as in Linux 7.3.
        #[cfg(target_pointer_width = "64")]
        write_both!(QWORDS, v64, kc::QWORDS::try_at(i).unwrap(), lx::QWORDS::try_at(i).unwrap());
        write_both!(HALVES, v16, kc::HALVES::try_at(i * 4 + 1).unwrap(), lx::HALVES::try_at(i * 4 + 1).unwrap());
        write_both!(ENGINE_CTL, v16, kc::ENGINE_CTL::of::<kc::Engine1>(), lx::ENGINE_CTL::of::<lx::Engine1>());
        write_both!(ENGINE_CTL_ALT, v16, kc::ENGINE_CTL_ALT::of::<kc::Engine0>(), lx::ENGINE_CTL_ALT::of::<lx::Engine0>());
        write_both!(
            ENGINE_DOORBELL, v32,
            kc::ENGINE_DOORBELL::of::<kc::Engine0>().try_at(i).unwrap(),
            lx::ENGINE_DOORBELL::of::<lx::Engine0>().try_at(i).unwrap()
        );
        write_both!(
            ENGINE_COUNTER, v8,
            kc::ENGINE_COUNTER::of::<kc::Engine1>().try_at(i + 4).unwrap(),
            lx::ENGINE_COUNTER::of::<lx::Engine1>().try_at(i + 4).unwrap()
        );
        write_both!(
            ENGINE_LAST_DOORBELL, v32,
            kc::ENGINE_LAST_DOORBELL::of::<kc::Engine1>(),
            lx::ENGINE_LAST_DOORBELL::of::<lx::Engine1>()
        );
    }

    #[test]
    fn the_same_fields_and_setters(raw in any::<u32>(), divider in any::<u8>()) {
        let ours = kc::CTL::from_raw(raw);
        let theirs = lx::CTL::from_raw(raw);
        prop_assert_eq!(ours.enable(), theirs.enable());
        prop_assert_eq!(ours.mode().get(), theirs.mode().get());
        prop_assert_eq!(
            ours.with_divider(divider).with_const_mode::<1>().into_raw(),
            theirs.with_divider(divider).with_const_mode::<1>().into_raw()
        );
        prop_assert_eq!(kc::CTL_RAW::from_raw(raw).value().get(), lx::CTL_RAW::from_raw(raw).value().get());
    }
}
