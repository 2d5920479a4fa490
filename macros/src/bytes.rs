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

use proc_macro::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

use crate::pin_init::{syntax::ItemDef, template::fill};
use crate::tokens::{code, is_ident, is_punct, take_attributes, take_visibility, Error};

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

/// The parts of the struct that the derives need.
struct Struct {
    name: Ident,
    /// The `repr` hints, lower-cased words: `c`, `transparent`, `packed`, `align`, ...
    repr: Vec<String>,
    /// Whether a `packed` hint has an argument other than 1 (`packed(2)`).
    packed_over_1: bool,
    /// Whether the struct has generic parameters or a where clause; then `fields` is empty.
    generic: bool,
    /// Each field's type.
    fields: Vec<TokenStream>,
}

/// Expands `#[derive(FromBytes)]` or `#[derive(IntoBytes)]` on `item`.
pub(crate) fn expand(item: TokenStream, which: Trait) -> Result<TokenStream, Error> {
    let parsed = parse(item.clone(), which)?;
    if parsed.generic {
        return expand_generic(item, which, &parsed);
    }
    let name = parsed.name.to_string();
    let path = format!("::kernel_core::extras::bytes::{}", which.name());
    let checks: String = (0..parsed.fields.len())
        .map(|index| format!("__kernel_core_field::<__KERNEL_CORE_FIELD_{index}>();"))
        .collect();
    let padding = match which {
        Trait::FromBytes => String::new(),
        Trait::IntoBytes => {
            let sum: String = (0..parsed.fields.len())
                .map(|index| format!(" + ::core::mem::size_of::<__KERNEL_CORE_FIELD_{index}>()"))
                .collect();
            format!(
                "::core::assert!(::core::mem::size_of::<{name}>() == 0{sum}, \
                 \"`{name}` has padding, so it is not `IntoBytes`: not all of its bytes are \
                 initialized. Add explicit padding fields, or reorder them\");"
            )
        }
    };
    let code = format!(
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
    substitute(crate::tokens::code(&code), &parsed.fields, &mut out);
    Ok(out.into_iter().collect())
}

/// Expands the derive on a generic struct: an `unsafe impl` with a where clause that asks each
/// field's type to implement the trait, after checking that the layout rules out padding for
/// `IntoBytes` (see the module documentation).
fn expand_generic(item: TokenStream, which: Trait, parsed: &Struct) -> Result<TokenStream, Error> {
    let trait_name = which.name();
    let def = ItemDef::parse(item, &format!("`#[derive({trait_name})]`"))?;
    let name = &parsed.name;
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

fn parse(item: TokenStream, which: Trait) -> Result<Struct, Error> {
    let tokens: Vec<TokenTree> = item.into_iter().collect();
    let mut at = 0;
    let attributes = take_attributes(&tokens, &mut at, false);
    let mut repr = Vec::new();
    let mut packed_over_1 = false;
    for attribute in attributes.iter().filter(|a| a.is("repr", true)) {
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
    take_visibility(&tokens, &mut at);
    let trait_name = which.name();
    let keyword = tokens.get(at).ok_or_else(|| {
        Error::new(
            Span::call_site(),
            format!("`#[derive({trait_name})]` on nothing"),
        )
    })?;
    if !is_ident(keyword, "struct") {
        return Err(Error::new(
            keyword.span(),
            format!(
                "kernel-core's `#[derive({trait_name})]` takes a struct; for an enum or a union, \
                 write `unsafe impl {trait_name}` (from `kernel_core::extras::bytes`) with a \
                 `// SAFETY:` comment that proves its safety section"
            ),
        ));
    }
    let Some(TokenTree::Ident(name)) = tokens.get(at + 1) else {
        return Err(Error::new(keyword.span(), "a struct without a name"));
    };
    let body = tokens.get(at + 2);
    if body.is_some_and(|t| is_punct(t, '<') || is_ident(t, "where")) {
        // `expand_generic` reads the generics and fields.
        return Ok(Struct {
            name: name.clone(),
            repr,
            packed_over_1,
            generic: true,
            fields: Vec::new(),
        });
    }
    let fields = match body {
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => {
            field_types(group, true)?
        }
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis => {
            field_types(group, false)?
        }
        _ => Vec::new(), // A unit struct: `struct Name;`.
    };
    Ok(Struct {
        name: name.clone(),
        repr,
        packed_over_1,
        generic: false,
        fields,
    })
}

/// The types of the fields in `group`: `name: Type` with `named`, else `Type`.
fn field_types(group: &Group, named: bool) -> Result<Vec<TokenStream>, Error> {
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    let mut types = Vec::new();
    for field in split_top_level_commas(&tokens) {
        let mut at = 0;
        take_attributes(field, &mut at, false);
        take_visibility(field, &mut at);
        if named {
            match (field.get(at), field.get(at + 1)) {
                (Some(TokenTree::Ident(_)), Some(colon)) if is_punct(colon, ':') => at += 2,
                _ => {
                    let span = field.get(at).map_or(group.span(), TokenTree::span);
                    return Err(Error::new(span, "expected `name: Type`"));
                }
            }
        }
        if at < field.len() {
            types.push(field[at..].iter().cloned().collect());
        }
    }
    Ok(types)
}

/// Splits `tokens` at the commas outside angle brackets (`Foo<A, B>` is one piece; `->` is no
/// closing bracket). Empty pieces (a trailing comma) are dropped.
fn split_top_level_commas(tokens: &[TokenTree]) -> Vec<&[TokenTree]> {
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0_usize, 0);
    for (index, tree) in tokens.iter().enumerate() {
        match tree {
            TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
            TokenTree::Punct(p) if p.as_char() == '>' => {
                let arrow = index > 0 && is_punct(&tokens[index - 1], '-');
                if !arrow {
                    depth = depth.saturating_sub(1);
                }
            }
            TokenTree::Punct(p) if p.as_char() == ',' && depth == 0 => {
                pieces.push(&tokens[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    pieces.push(&tokens[start..]);
    pieces.retain(|piece| !piece.is_empty());
    pieces
}
