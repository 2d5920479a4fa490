// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[derive(FromBytes)]` and `#[derive(IntoBytes)]` for kernel-core's own traits
//! (`kernel_core::extras::bytes`), where the kernel has no `zerocopy` to derive them with: the
//! host and Linux 6.12.
//!
//! The derives take a struct (named, tuple or unit) and prove what the trait's safety section
//! asks at compile time, so that a wrong derive is an error, never an unsound `unsafe impl`.
//! They take the structs that Linux 7.3's (`zerocopy`'s) take, by the same rules:
//!
//! - `FromBytes`: every field's type is `FromBytes` (padding may hold any bytes, so it is
//!   allowed). For a generic struct, a where clause asks it of each field's type.
//! - `IntoBytes`: every field's type is `IntoBytes`, and there is no padding. Without generic
//!   parameters, whatever the `repr`, the struct's size must be the sum of its fields' sizes (no
//!   padding between or after them: fields never overlap), checked at compile time. With
//!   generic parameters no such check can be written, so the layout itself must rule padding
//!   out: `#[repr(transparent)]`, `#[repr(packed)]` (`packed(1)`), or `#[repr(C)]` with at most
//!   one field and no `align`; where clauses ask each field's type to be `IntoBytes`.
//!
//! Enums, unions, and generic structs of other layouts (which `zerocopy` takes only with its
//! `Unaligned`, which kernel-core does not have) are errors that say to write the
//! `unsafe impl` instead.

use proc_macro::{Group, TokenStream, TokenTree};

use crate::pin_init::{syntax::ItemDef, template::fill};
use crate::tokens::{code, Error};

/// Which trait to derive.
#[derive(Clone, Copy)]
pub(crate) enum Trait {
    /// `kernel_core::extras::bytes::FromBytes`.
    FromBytes,
    /// `kernel_core::extras::bytes::IntoBytes`.
    IntoBytes,
}

impl Trait {
    fn name(self) -> &'static str {
        match self {
            Trait::FromBytes => "FromBytes",
            Trait::IntoBytes => "IntoBytes",
        }
    }
}

/// The struct, as `#[pin_data]` and `#[derive(Zeroable)]` read it, and its `repr` hints.
struct Struct {
    def: ItemDef,
    /// The `repr` hints, lower-cased words: `c`, `transparent`, `packed`, `align`, ...
    repr: Vec<String>,
    /// Whether a `packed` hint has an argument other than 1 (`packed(2)`).
    packed_over_1: bool,
}

/// Expands `#[derive(FromBytes)]` or `#[derive(IntoBytes)]` on `item`.
pub(crate) fn expand(item: TokenStream, which: Trait) -> Result<TokenStream, Error> {
    let parsed = parse(item, which)?;
    let generics = &parsed.def.generics;
    if !generics.params.is_empty() || !generics.predicates.is_empty() {
        return expand_generic(which, &parsed);
    }
    let fields: Vec<TokenStream> = parsed
        .def
        .fields()
        .iter()
        .map(|field| field.ty.iter().cloned().collect())
        .collect();
    let name = parsed.def.name.to_string();
    let path = format!("::kernel_core::extras::bytes::{}", which.name());
    let checks: String = (0..fields.len())
        .map(|index| format!("__kernel_core_field::<__KERNEL_CORE_FIELD_{index}>();"))
        .collect();
    let padding = match which {
        Trait::FromBytes => String::new(),
        Trait::IntoBytes => {
            let sum: String = (0..fields.len())
                .map(|index| format!(" + ::core::mem::size_of::<__KERNEL_CORE_FIELD_{index}>()"))
                .collect();
            format!(
                "::core::assert!(::core::mem::size_of::<{name}>() == 0{sum}, \
                 \"`{name}` has padding, so it is not `IntoBytes`: not all of its bytes are \
                 initialized. Add explicit padding fields, or reorder them\");"
            )
        }
    };
    let code_text = format!(
        "const _: () = {{\
             const fn __kernel_core_field<T: ?::core::marker::Sized + {path}>() {{}}\
             {checks}\
             {padding}\
         }};\
         // SAFETY: Checked above, at compile time: see `kernel_core::extras::bytes`.\n\
         unsafe impl {path} for {name} {{}}"
    );
    // The field types go in as tokens, so that an error about one points at the field.
    let mut out = Vec::new();
    substitute(code(&code_text), &fields, &mut out);
    Ok(out.into_iter().collect())
}

/// Expands the derive on a generic struct: an `unsafe impl` with a where clause that asks each
/// field's type to implement the trait, after checking that the layout rules out padding for
/// `IntoBytes` (see the module documentation).
fn expand_generic(which: Trait, parsed: &Struct) -> Result<TokenStream, Error> {
    let trait_name = which.name();
    let def = &parsed.def;
    let name = &def.name;
    if let Trait::IntoBytes = which {
        let has = |hint: &str| parsed.repr.iter().any(|r| r == hint);
        let no_padding = has("transparent")
            || (has("packed") && !parsed.packed_over_1)
            || (has("c") && !has("align") && def.fields().len() <= 1);
        if !no_padding {
            return Err(Error::new(
                name.span(),
                format!(
                    "`#[derive(IntoBytes)]` on the generic struct `{name}` needs \
                     `#[repr(transparent)]`, `#[repr(packed)]`, or `#[repr(C)]` with at most one \
                     field and no `align`: otherwise whether there is padding depends on the type \
                     arguments, which the derive cannot check. Write `unsafe impl IntoBytes` \
                     (from `kernel_core::extras::bytes`) with the bounds that rule it out, and a \
                     `// SAFETY:` comment"
                ),
            ));
        }
    }
    let path = code(&format!("::kernel_core::extras::bytes::{trait_name}"));
    let bounds: Vec<TokenStream> = def
        .fields()
        .iter()
        .map(|field| {
            let ty: TokenStream = field.ty.iter().cloned().collect();
            // The bound carries the field type's span, so that an error about it (a field
            // type that is not plain bytes) points at the field.
            let span = field.ty.first().map_or(name.span(), TokenTree::span);
            let path = path.clone().into_iter().map(|mut tree| {
                tree.set_span(span);
                tree
            });
            fill("#ty: #path", &[("ty", ty), ("path", path.collect())])
        })
        .collect();
    let generics = &def.generics;
    Ok(fill(
        "// SAFETY: The where clause asks every field's type to be `#path`, and (for `IntoBytes`)
         // the layout has no padding: see `kernel_core::extras::bytes`.
         #[automatically_derived]
         unsafe impl #impl_params #path for #self_type #where_clause {}",
        &[
            ("impl_params", generics.impl_params(None)),
            ("path", path.clone()),
            ("self_type", def.self_type()),
            ("where_clause", generics.where_clause(&bounds)),
        ],
    ))
}

/// Copies `stream` to `out`, replacing each `__KERNEL_CORE_FIELD_<i>` with `fields[i]`.
fn substitute(stream: TokenStream, fields: &[TokenStream], out: &mut Vec<TokenTree>) {
    for tree in stream {
        match tree {
            TokenTree::Ident(ident) => {
                let text = ident.to_string();
                match text
                    .strip_prefix("__KERNEL_CORE_FIELD_")
                    .and_then(|i| i.parse::<usize>().ok())
                {
                    Some(index) => out.extend(fields[index].clone()),
                    None => out.push(TokenTree::Ident(ident)),
                }
            }
            TokenTree::Group(group) => {
                let mut inner = Vec::new();
                substitute(group.stream(), fields, &mut inner);
                let mut copy = Group::new(group.delimiter(), inner.into_iter().collect());
                copy.set_span(group.span());
                out.push(TokenTree::Group(copy));
            }
            other => out.push(other),
        }
    }
}

/// Reads the struct of `item`, and its `repr` hints; an enum or a union is an error.
fn parse(item: TokenStream, which: Trait) -> Result<Struct, Error> {
    let trait_name = which.name();
    let def = ItemDef::parse(item, &format!("`#[derive({trait_name})]`"))?;
    if def.keyword.to_string() != "struct" {
        return Err(Error::new(
            def.keyword.span(),
            format!(
                "kernel-core's `#[derive({trait_name})]` takes a struct; for an enum or a union, \
                 write `unsafe impl {trait_name}` (from `kernel_core::extras::bytes`) with a \
                 `// SAFETY:` comment that proves its safety section"
            ),
        ));
    }
    let mut repr = Vec::new();
    let mut packed_over_1 = false;
    for attribute in def.attributes.iter().filter(|a| a.is("repr", true)) {
        if let Some(TokenTree::Group(hints)) = attribute.body.get(1) {
            let hints: Vec<TokenTree> = hints.stream().into_iter().collect();
            for (index, hint) in hints.iter().enumerate() {
                if let TokenTree::Ident(word) = hint {
                    let word = word.to_string().to_lowercase();
                    if word == "packed" {
                        if let Some(TokenTree::Group(argument)) = hints.get(index + 1) {
                            packed_over_1 |= argument.stream().to_string().trim() != "1";
                        }
                    }
                    repr.push(word);
                }
            }
        }
    }
    Ok(Struct {
        def,
        repr,
        packed_over_1,
    })
}
