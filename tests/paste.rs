// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::macros::paste!` against the `paste` crate, on the same inputs.
//!
//! Both expand `[< >]` groups anywhere in their input, inside `stringify!` too, so each case
//! compares the two spellings of the identifier they build. `:span`, which the `paste` crate
//! does not have, is checked on its own at the end.

/// Expands `$($t)*` with both macros and asserts both produce the same text.
macro_rules! same {
    ($($t:tt)*) => {{
        let ours = kernel_core::macros::paste! { stringify!($($t)*) };
        let theirs = paste::paste! { stringify!($($t)*) };
        assert_eq!(ours, theirs);
        ours
    }};
}

#[test]
fn identifiers() {
    assert_eq!(same!([<foo _ bar>]), "foo_bar");
    assert_eq!(same!([<a b c d>]), "abcd");
    assert_eq!(same!([<_leading>]), "_leading");
}

#[test]
fn literals() {
    assert_eq!(same!([<get_ "thing">]), "get_thing");
    assert_eq!(same!([<f 100>]), "f100");
    assert_eq!(same!([<v "2" _ 3>]), "v2_3");
}

#[test]
fn case_modifiers() {
    assert_eq!(same!([<Foo:lower _ BAR:lower>]), "foo_bar");
    assert_eq!(same!([<reg_ status:upper>]), "reg_STATUS");
    assert_eq!(same!([<"MiXeD":lower>]), "mixed");
}

#[test]
fn raw_identifiers() {
    assert_eq!(same!([<r#fn _x>]), "fn_x");
}

#[test]
fn nested_groups_and_surrounding_tokens() {
    assert_eq!(same!(fn [<a _ b>]() { [<c d>] }), "fn a_b() { cd }");
    assert_eq!(same!([ [<x y>], ([<z w>]) ]), "[xy, (zw)]");
}

/// A `macro_rules!` fragment arrives as an invisible group; both must see through it.
macro_rules! through_fragment {
    ($prefix:ident, $name:ident, $n:literal) => {
        same!([<$prefix _ $name:lower _ $n>])
    };
}

#[test]
fn macro_rules_fragments() {
    assert_eq!(through_fragment!(read, STATUS, 4), "read_status_4");
}

/// Binds a local whose name is pasted from the caller's `$name`.
macro_rules! bind {
    ($name:ident, $value:expr) => {
        kernel_core::macros::paste! {
            // Without `:span` the local would get this macro's hygiene and the caller could
            // not name it: `my_value` below would not compile.
            let [<my_ $name:span>] = $value;
        }
    };
}

#[test]
fn span_modifier_gives_the_callers_hygiene() {
    bind!(value, 7);
    assert_eq!(my_value, 7);
}

#[test]
fn items_with_pasted_names() {
    kernel_core::macros::paste! {
        const [<SZ_ 4 K>]: usize = 4096;
        struct [<Wrapper For u32>](u32);
    }
    assert_eq!(SZ_4K, 4096);
    assert_eq!(WrapperForu32(3).0, 3);
}
