// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::fmt` and kernel-core's `fmt!` against Linux 7.3's own
//! `kernel::fmt` and `fmt!` (`linux7_3::fmt`, the kernel's `rust/kernel/fmt.rs`, and
//! `linux7_3::prelude::fmt!`, its `rust/macros/fmt.rs`, built on the host; see `src/lib.rs`).
//!
//! - What each side's `fmt!` formats, over random integers, characters, booleans and text, in
//!   every way of passing arguments (positional, indexed, named, inline, nested `fmt!`, a
//!   trailing comma) and with every kind of format spec the adapter forwards (`{}`, `{:?}`,
//!   `{:x}`, `{:X}`, `{:o}`, `{:b}`, `{:e}`, `{:E}`, widths, fills, precisions, signs).
//! - `{:p}` (the kernel's `Pointer`, through `HashedPtr` and the kernel's `%p`): exactly, for the
//!   null pointer and every error pointer, which `%p` never hashes; for other addresses, the
//!   shape (length, prefix, padding), since kernel-core hashes them as `%p` does by default and
//!   the mock kernel prints them as booted with `no_hash_pointers`. 7.3's own KUnit suite
//!   `rust_kernel_fmt` also runs on the host against that mock (`cargo test --lib`).
//! - Which types implement each side's `Display` and `Pointer`, which traits `Adapter`
//!   forwards, and the signatures of the items, as one template instantiated with each crate.

#[macro_use]
mod common;

// Linux 7.3's `fmt!` wraps its arguments in `::kernel::fmt::Adapter`, as in a kernel crate.
extern crate linux7_3 as kernel;

use core::ptr::NonNull;
use proptest::prelude::*;

/// What crate `$k`'s `fmt!` makes of the values in every way of passing them.
macro_rules! formats {
    ($k:ident, $i:expr, $u:expr, $c:expr, $b:expr, $s:expr) => {{
        let (i, u, c, b, s): (i64, u8, char, bool, &str) = ($i, $u, $c, $b, $s);
        vec![
            format!("{}", $k::prelude::fmt!("{} {} {} {} {}", i, u, c, b, s)),
            format!("{}", $k::prelude::fmt!("{i} {u} {c} {b} {s}")),
            format!("{}", $k::prelude::fmt!("{i:?} {u:#x} {c:?} {b:>6} {s:?}")),
            format!("{}", $k::prelude::fmt!("{1} {0} {1:?}", i, s)),
            format!("{}", $k::prelude::fmt!("{x} {y:?}", x = i, y = s)),
            format!("{}", $k::prelude::fmt!("{x}{i}{x}", x = u)),
            format!("{}", $k::prelude::fmt!("{}", i,)),
            format!(
                "{}",
                $k::prelude::fmt!("{:+08} {:#b} {:o} {:X}", i, u, u, i)
            ),
            format!(
                "{}",
                $k::prelude::fmt!("{:e} {:E} {:#010x} {:<#6o}", i, u, u, u)
            ),
            format!(
                "{}",
                $k::prelude::fmt!("{:10.3}|{:<5}|{:^7}|{:*>4}", s, c, b, u)
            ),
            format!("{}", $k::prelude::fmt!("{s:.0}|{s:-^9.2}|{:.2}", s)),
            format!("{}", $k::prelude::fmt!("{{}} {{{}}} }}{{", i)),
            format!(
                "{}",
                $k::prelude::fmt!("{}", $k::prelude::fmt!("{} {s}", i))
            ),
            format!("{}", $k::prelude::fmt!("{} {}", &&i, &s)),
            format!(
                "{}",
                $k::prelude::fmt!("{:?} {:?} {:#?}", (i, u), [u; 3], Some(s))
            ),
            format!(
                "{}",
                $k::prelude::fmt!("{}", if b { i } else { i.wrapping_neg() })
            ),
            format!("{}", $k::prelude::fmt!("{}", [i, i].len())),
            format!("{}", $k::prelude::fmt!("")),
            format!("{}", $k::prelude::fmt!("plain")),
        ]
    }};
}

/// Asserts that both sides' `fmt!` format the values alike.
fn agree(i: i64, u: u8, c: char, b: bool, s: &str) {
    assert_eq!(
        formats!(kernel_core, i, u, c, b, s),
        formats!(linux7_3, i, u, c, b, s),
        "fmt! of {i}, {u}, {c:?}, {b}, {s:?}: kernel-core (left), Linux 7.3 (right)"
    );
}

#[test]
fn edges() {
    for i in [0, 1, -1, i64::MIN, i64::MAX] {
        for u in [0, 1, 0x7f, u8::MAX] {
            agree(i, u, '\0', false, "");
            agree(i, u, '🦀', true, "kernel\0\"\\\n");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(1024)))]

    #[test]
    fn random_values(
        i in any::<i64>(),
        u in any::<u8>(),
        c in any::<char>(),
        b in any::<bool>(),
        s in "\\PC{0,12}",
    ) {
        agree(i, u, c, b, &s);
    }
}

/// What crate `$k`'s `fmt!` makes of a pointer (an expression of a type implementing its
/// `Pointer`) with every kind of `{:p}` spec.
macro_rules! pointers {
    ($k:ident, $ptr:expr) => {{
        let p = $ptr;
        vec![
            format!("{}", $k::prelude::fmt!("{:p}", p)),
            format!("{}", $k::prelude::fmt!("{p:p}")),
            format!("{}", $k::prelude::fmt!("{:>24p}", p)),
            format!("{}", $k::prelude::fmt!("{:<24p}|", p)),
            format!("{}", $k::prelude::fmt!("{:*^31p}", p)),
            format!("{}", $k::prelude::fmt!("{:024p}", p)),
            format!("{}", $k::prelude::fmt!("{:030p}", p)),
            format!("{}", $k::prelude::fmt!("{:0100p}", p)),
            format!("{}", $k::prelude::fmt!("{:#024p}", p)),
            format!("{}", $k::prelude::fmt!("{:+p}", p)),
        ]
    }};
}

/// Specs narrower than `0x` and the digits of a `usize`: their output is only as long as the
/// value, which a hash shortens, so they are compared for the unhashed pointers only ([`pointers!`]
/// keeps the width of an address in every spec, hash or not).
macro_rules! short_pointers {
    ($k:ident, $ptr:expr) => {{
        let p = $ptr;
        vec![
            format!("{}", $k::prelude::fmt!("{:02p}", p)),
            format!("{}", $k::prelude::fmt!("{:1p}", p)),
            format!("{}", $k::prelude::fmt!("{:>2p}", p)),
            format!("{}", $k::prelude::fmt!("{:05p}", p)),
        ]
    }};
}

/// `addr` as a raw pointer, without provenance: `{:p}` never reads through it.
fn at(addr: usize) -> *const u8 {
    core::ptr::without_provenance(addr)
}

/// `MAX_ERRNO` (`include/linux/err.h`): the last 4095 addresses are error pointers.
const MAX_ERRNO: usize = 4095;

/// The null pointer and every error pointer, which `%p` prints as they are, hashed or not: every
/// spec, through every pointer type and `HashedPtr`, exactly.
#[test]
fn unhashed_pointers() {
    let mut addrs = vec![0];
    addrs.extend(usize::MAX - (MAX_ERRNO - 1)..=usize::MAX);
    for addr in addrs {
        let p = at(addr);
        let mut ours = pointers!(kernel_core, p);
        let mut theirs = pointers!(linux7_3, p);
        ours.extend(short_pointers!(kernel_core, p));
        theirs.extend(short_pointers!(linux7_3, p));
        ours.extend(pointers!(kernel_core, p.cast_mut()));
        theirs.extend(pointers!(linux7_3, p.cast_mut()));
        ours.extend(pointers!(kernel_core, kernel_core::fmt::HashedPtr(p)));
        theirs.extend(pointers!(linux7_3, linux7_3::fmt::HashedPtr(p)));
        if let Some(nn) = NonNull::new(p.cast_mut()) {
            ours.extend(pointers!(kernel_core, nn));
            theirs.extend(pointers!(linux7_3, nn));
        }
        assert_eq!(
            ours, theirs,
            "{{:p}} of {addr:#x}: kernel-core (left), Linux 7.3 (right)"
        );
    }
}

/// `text` with every hexadecimal digit replaced by `h`: the shape of a `{:p}` output.
fn shape(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_hexdigit() { 'h' } else { c })
        .collect()
}

/// Both sides' `{:p}` of the pointer `$ptr`, in shapes.
macro_rules! agree_on_shapes {
    ($ptr:expr, $what:expr) => {{
        let ours: Vec<String> = pointers!(kernel_core, $ptr)
            .iter()
            .map(|t| shape(t))
            .collect();
        let theirs: Vec<String> = pointers!(linux7_3, $ptr).iter().map(|t| shape(t)).collect();
        assert_eq!(
            ours, theirs,
            "shapes of {{:p}} of {}: kernel-core (left), Linux 7.3 (right)",
            $what
        );
    }};
}

/// Pointers to real values, through every type that implements `Pointer`, in shapes.
#[test]
fn hashed_pointer_shapes() {
    let mut value = 7_u32;
    let slice: &[u8] = b"fat";
    agree_on_shapes!(&value, "&u32");
    agree_on_shapes!(core::ptr::from_ref(&value), "*const u32");
    agree_on_shapes!(NonNull::from(&value), "NonNull<u32>");
    agree_on_shapes!(core::ptr::from_ref(slice), "*const [u8]");
    agree_on_shapes!(&mut value, "&mut u32");
    agree_on_shapes!(core::ptr::from_mut(&mut value), "*mut u32");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(1024)))]

    /// Random addresses short of the error pointers, hashed by kernel-core, in shapes.
    #[test]
    fn random_pointer_shapes(addr in prop_oneof![
        1..=usize::MAX - MAX_ERRNO,
        (usize::MAX - MAX_ERRNO - 4)..=(usize::MAX - MAX_ERRNO),
        1..4096_usize,
    ]) {
        agree_on_shapes!(at(addr), format!("{addr:#x}"));
        agree_on_shapes!(at_mut(addr), format!("{addr:#x} as *mut"));
    }
}

/// `addr` as a `*mut u8`.
fn at_mut(addr: usize) -> *mut u8 {
    core::ptr::without_provenance_mut(addr)
}

/// Which types print with each side's own `Display` and `Pointer`, and which of `core`'s traits
/// each side's `Adapter` forwards.
#[test]
fn fmt_traits() {
    macro_rules! traits {
        ($k:ident) => {
            [
                [
                    implements!(bool: $k::fmt::Display),
                    implements!(char: $k::fmt::Display),
                    implements!(str: $k::fmt::Display),
                    implements!(&str: $k::fmt::Display),
                    implements!(&&u8: $k::fmt::Display),
                    implements!(i8: $k::fmt::Display),
                    implements!(i16: $k::fmt::Display),
                    implements!(i32: $k::fmt::Display),
                    implements!(i64: $k::fmt::Display),
                    implements!(i128: $k::fmt::Display),
                    implements!(isize: $k::fmt::Display),
                    implements!(u8: $k::fmt::Display),
                ],
                [
                    implements!(u16: $k::fmt::Display),
                    implements!(u32: $k::fmt::Display),
                    implements!(u64: $k::fmt::Display),
                    implements!(u128: $k::fmt::Display),
                    implements!(usize: $k::fmt::Display),
                    implements!(f32: $k::fmt::Display),
                    implements!(f64: $k::fmt::Display),
                    implements!(String: $k::fmt::Display),
                    implements!((): $k::fmt::Display),
                    implements!($k::fmt::Arguments<'static>: $k::fmt::Display),
                    implements!(core::panic::PanicInfo<'static>: $k::fmt::Display),
                    implements!($k::num::Bounded<u8, 4>: $k::fmt::Display),
                ],
                [
                    implements!(*const u8: $k::fmt::Pointer),
                    implements!(*mut u8: $k::fmt::Pointer),
                    implements!(*const [u8]: $k::fmt::Pointer),
                    implements!(&u8: $k::fmt::Pointer),
                    implements!(&mut u8: $k::fmt::Pointer),
                    implements!(&str: $k::fmt::Pointer),
                    implements!(NonNull<u8>: $k::fmt::Pointer),
                    implements!($k::fmt::HashedPtr<u8>: $k::fmt::Pointer),
                    implements!($k::fmt::HashedPtr<str>: $k::fmt::Pointer),
                    implements!(u8: $k::fmt::Pointer),
                    implements!(usize: $k::fmt::Pointer),
                    implements!(Box<u8>: $k::fmt::Pointer),
                ],
                [
                    implements!($k::fmt::Adapter<&u8>: core::fmt::Display),
                    implements!($k::fmt::Adapter<&f32>: core::fmt::Display),
                    implements!($k::fmt::Adapter<u8>: core::fmt::Display),
                    implements!($k::fmt::Adapter<&*const u8>: core::fmt::Pointer),
                    implements!($k::fmt::Adapter<*const u8>: core::fmt::Pointer),
                    implements!($k::fmt::Adapter<u8>: core::fmt::Debug),
                    implements!($k::fmt::Adapter<u8>: core::fmt::LowerHex),
                    implements!($k::fmt::Adapter<u8>: core::fmt::UpperHex),
                    implements!($k::fmt::Adapter<u8>: core::fmt::Octal),
                    implements!($k::fmt::Adapter<u8>: core::fmt::Binary),
                    implements!($k::fmt::Adapter<u8>: core::fmt::LowerExp),
                    implements!($k::fmt::Adapter<u8>: core::fmt::UpperExp),
                ],
            ]
        };
    }
    assert_eq!(
        traits!(kernel_core),
        traits!(linux7_3),
        "fmt traits: kernel-core (left), Linux 7.3 (right)"
    );
    same_std_traits!(kernel_core::fmt::Adapter<u8>, linux7_3::fmt::Adapter<u8>);
    same_std_traits!(
        kernel_core::fmt::HashedPtr<u8>,
        linux7_3::fmt::HashedPtr<u8>
    );
}

/// The signatures of 7.3's `fmt` items, as one template instantiated with each crate: each line
/// compiles only if that crate's item has the signature written.
#[test]
fn fmt_signatures() {
    macro_rules! probe {
        ($k:ident) => {{
            use $k::fmt::{
                self as f, Adapter, Arguments, Debug, Display, Error, Formatter, HashedPtr,
                Pointer, Result, Write,
            };
            let _: fn(&u8, &mut Formatter<'_>) -> Result = <u8 as Display>::fmt;
            let _: fn(&str, &mut Formatter<'_>) -> Result = <str as Display>::fmt;
            let _: fn(&*const u8, &mut Formatter<'_>) -> Result = <*const u8 as Pointer>::fmt;
            let _: fn(&HashedPtr<[u8]>, &mut Formatter<'_>) -> Result =
                <HashedPtr<[u8]> as Pointer>::fmt;
            let _: fn(*const [u8]) -> HashedPtr<[u8]> = HashedPtr;
            let _: fn(u8) -> Adapter<u8> = Adapter;
            let _: *const u8 = HashedPtr(core::ptr::null::<u8>()).0;
            let _: u8 = Adapter(0_u8).0;
            fn types(_: Arguments<'_>, _: &dyn Debug, _: &mut dyn Write, _: Error) {}
            fn result(r: Result) -> core::fmt::Result {
                r
            }
            let _: fn(&mut Formatter<'_>) -> f::Result = |f| f.write_str("");
            let _ = (types, result);
        }};
    }
    probe!(kernel_core);
    probe!(linux7_3);
}
