// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::macros::paste!` against the `paste` crate, on the same inputs.
//!
//! Both expand `[< >]` groups anywhere in their input, inside `stringify!` too, so each case
//! compares the two spellings of the identifier they build. Where the kernel's `paste!` (the
//! reference for ours) parts from the `paste` crate, ours is checked on its own: `:span`, which
//! the `paste` crate does not have and the kernel accepts without effect, `[<>]`, `[<_>]`
//! and the unwrapping of invisible groups next to `::`.

/// `$($t)*` as text, after our `paste!`.
macro_rules! ours {
    ($($t:tt)*) => {
        kernel_core::macros::paste! { stringify!($($t)*) }
    };
}

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

#[test]
fn span_modifier_changes_nothing_in_the_text() {
    assert_eq!(ours!([<my_ value:span>]), "my_value");
    assert_eq!(ours!([<Foo:span:lower _ BAR:lower>]), "foo_bar");
    assert_eq!(ours!([<Foo:lower:span _ BAR:lower>]), "foo_bar");
}

/// Binds a local whose name is pasted from the caller's `$name` with `:span`, then reads it
/// through a name pasted without `:span`.
macro_rules! bind_and_read {
    ($name:ident, $value:expr) => {
        kernel_core::macros::paste! {{
            // Both names get the span of their `[< >]` group, this macro's: `:span` does not
            // give the binding the caller's hygiene, so the read below finds it.
            let [<my_ $name:span>] = $value;
            [<my_ $name>]
        }}
    };
}

/// Defines two functions, named with and without `:span`.
macro_rules! getters {
    ($name:ident, $value:expr) => {
        kernel_core::macros::paste! {
            fn [<get_ $name:span>]() -> u32 { $value }
            fn [<get_ $name _plain>]() -> u32 { $value }
        }
    };
}

#[test]
fn span_modifier_has_no_effect_on_resolution() {
    assert_eq!(bind_and_read!(value, 7), 7);
    getters!(seven, 7);
    assert_eq!(get_seven(), 7);
    assert_eq!(get_seven_plain(), 7);
}

/// `:span` inside an invisible group is counted apart from the one outside it, as in the kernel:
/// the `stmt` fragment `let a: span` is the pieces `let`, `a` and the modifier `:span`.
macro_rules! span_in_fragment {
    ($s:stmt) => {
        ours!([<$s:span>])
    };
}

#[test]
fn span_modifier_once_per_invisible_group() {
    assert_eq!(span_in_fragment!(let a: span), "leta");
}

#[test]
fn too_short_for_a_paste_group() {
    // Three tokens at least, `<` and `>` included: these are ordinary groups.
    assert_eq!(ours!([<>]), "[<>]");
    assert_eq!(ours!([< >]), "[< >]");
    assert_eq!(ours!(([<>], [<a>])), "([<>], a)");
    assert_eq!(ours!([<]), "[<]");
}

#[test]
fn underscore() {
    assert_eq!(ours!([<_>]), "_");
    assert_eq!(ours!([<"_">]), "_");
    kernel_core::macros::paste! {
        let [<_>] = 1;
        let (a, [<_>]) = (2, 3);
    }
    assert_eq!(a, 2);
}

#[test]
fn keywords() {
    assert_eq!(ours!([<r#fn>]), "fn");
    kernel_core::macros::paste! {
        [<r#fn>] [<r#async _fn>]() -> u8 { 5 }
    }
    assert_eq!(async_fn(), 5);
}

#[test]
fn literals_as_written() {
    // Only a pair of `"` around the literal is dropped: no unescaping, suffixes kept.
    assert_eq!(ours!([<f 1u8>]), "f1u8");
    assert_eq!(ours!([<f 0x1F>]), "f0x1F");
    assert_eq!(ours!([<f "" x>]), "fx");
}

#[test]
fn unicode_case_modifiers() {
    assert_eq!(ours!([<straße:upper>]), "STRASSE");
    assert_eq!(ours!([<"ÉTÉ":lower>]), "été");
}

/// `$p` and `$q`, path fragments, arrive as invisible groups; each stream below is a group's own.
///
/// Only a `::` with a token before and after it in its stream unwraps the invisible groups next
/// to it: `x :: $p` and `$p :: x` do, `:: $p` and `$p ::` (the `::` first or last) do not. rustc
/// sees through invisible groups that a proc macro returns (`$e * 3` below is `1 + 2 * 3`), so
/// no test here can tell an unwrapped group from a kept one: these check that every edge
/// expands to the same tokens and compiles.
macro_rules! next_to_path_separators {
    ($p:path, $q:path, $e:expr) => {
        kernel_core::macros::paste! {
            (
                [
                    stringify!(x :: $p),
                    stringify!($p :: x),
                    stringify!(:: $p),
                    stringify!($p ::),
                    stringify!(:: $p :: x),
                ],
                (::$p),
                $q::MAX,
                <$q>::MAX,
                $e * 3,
            )
        }
    };
}

#[test]
fn invisible_groups_next_to_path_separators() {
    let (texts, leading, before, qualified, product) =
        next_to_path_separators!(core::u8::MAX, u16, 1 + 2);
    assert_eq!(
        texts,
        [
            "x :: core :: u8 :: MAX",
            "core :: u8 :: MAX :: x",
            ":: core :: u8 :: MAX",
            "core :: u8 :: MAX ::",
            ":: core :: u8 :: MAX :: x",
        ]
    );
    assert_eq!((leading, before, qualified), (255, 65535, 65535));
    assert_eq!(product, 7);
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
