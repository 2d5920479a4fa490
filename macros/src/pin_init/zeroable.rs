// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[derive(Zeroable)]` and `#[derive(MaybeZeroable)]`.
//!
//! Kernel counterpart: `rust/pin-init/internal/src/zeroable.rs` (Linux 7.3).
//!
//! - `Zeroable` implements `::pin_init::Zeroable` for a struct or union with every type
//!   parameter bounded by `Zeroable`, and proves that every field's type is `Zeroable` in a
//!   function that is never called: a field that is not is a compile error at that field.
//! - `MaybeZeroable` implements it with a where clause `FieldType: for<'__dummy> Zeroable` per
//!   field instead: where a field is not `Zeroable`, the impl never applies, and nothing fails.
//!   (The higher-ranked bound is what lets a bound on a concrete type be false without the
//!   unstable `trivial_bounds`.)
//!
//! All zero bytes are a valid value of a struct exactly when they are of each field (padding
//! may hold any bytes), and of a union when they are of one field, which the derive asks of
//! all, as Linux 7.3 does. Enums are refused: which zero discriminant is valid depends on them.

use proc_macro::TokenStream;

use super::syntax::ItemDef;
use super::template::fill;
use crate::tokens::{code, Error};

/// Expands `#[derive(Zeroable)]`, or `#[derive(MaybeZeroable)]` with `maybe`.
pub(crate) fn derive(item: TokenStream, maybe: bool) -> Result<TokenStream, Error> {
    let mut def = ItemDef::parse(item, "`#[derive(Zeroable)]`")?;
    if def.keyword.to_string() == "enum" {
        return Err(Error::new(
            def.keyword.span(),
            "cannot derive `Zeroable` for an enum",
        ));
    }
    def.generics
        .bound_type_params(&code("::pin_init::Zeroable"));
    let field_types: Vec<TokenStream> = def
        .fields()
        .iter()
        .map(|f| f.ty.iter().cloned().collect())
        .collect();
    let generics = &def.generics;
    let holes_of = |where_clause: TokenStream, checks: TokenStream| {
        [
            ("impl_params", generics.impl_params(None)),
            ("self_type", def.self_type()),
            ("where_clause", where_clause),
            ("checks", checks),
        ]
    };
    if maybe {
        let bounds: Vec<TokenStream> = field_types
            .into_iter()
            .map(|ty| fill("#ty: for<'__dummy> ::pin_init::Zeroable", &[("ty", ty)]))
            .collect();
        return Ok(fill(
            "// SAFETY: The where clause asks every field's type to be `Zeroable`, and padding
             // may be zero.
             #[automatically_derived]
             unsafe impl #impl_params ::pin_init::Zeroable for #self_type #where_clause {}",
            &holes_of(generics.where_clause(&bounds), TokenStream::new()),
        ));
    }
    let checks: TokenStream = field_types
        .into_iter()
        .map(|ty| fill("assert_zeroable::<#ty>();", &[("ty", ty)]))
        .collect();
    Ok(fill(
        "// SAFETY: Every field's type is `Zeroable` (`ensure_zeroable` below does not compile
         // otherwise), and padding may be zero.
         #[automatically_derived]
         unsafe impl #impl_params ::pin_init::Zeroable for #self_type #where_clause {}

         const _: () = {
             fn assert_zeroable<T: ?::core::marker::Sized + ::pin_init::Zeroable>() {}
             fn ensure_zeroable #impl_params () #where_clause {
                 #checks
             }
         };",
        &holes_of(generics.where_clause(&[]), checks),
    ))
}
