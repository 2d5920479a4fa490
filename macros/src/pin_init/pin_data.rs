// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[pin_data]` and `#[pin_data(PinnedDrop)]`: which fields of a struct are structurally
//! pinned, for `pin_init!` and for the struct's `project()`.
//!
//! Kernel counterpart: `rust/pin-init/internal/src/pin_data.rs` (Linux 7.3). The expansion is
//! the struct itself (its `#[pin]` markers removed) and:
//!
//! - `<Name>Projection` and `Name::project(self: Pin<&mut Self>)`, which hands out each pinned
//!   field as `Pin<&mut T>` and every other one as `&mut T`;
//! - in an unnamed `const _` block: `__ThePinData`, whose method per field gives that field's
//!   slot, `Pinned` or `Unpinned` as declared, and the `HasPinData` impl that `pin_init!`
//!   finds it by;
//! - `Unpin` for the struct only when all its pinned fields are `Unpin` (a private struct of
//!   the pinned fields' types decides, as `pin-project` does);
//! - with `PinnedDrop`, a `Drop` that calls `PinnedDrop::drop` with the value pinned; without
//!   it, a trait impl that conflicts with any `Drop` impl of the struct (dropping a pinned
//!   value by `&mut` could move a pinned field) and another that conflicts with a
//!   `PinnedDrop` impl nobody would call.
//!
//! A field with `#[cfg]`s is resolved first: the struct is emitted twice, with the field and
//! without, under the cfg and its negation, each with `#[pin_data]` again; so the rest of the
//! macro never sees a `#[cfg]` on a field, as in Linux 7.3.

use proc_macro::{Delimiter, Span, TokenStream, TokenTree};

use super::syntax::{replace_self, Body, Field, ItemDef};
use super::template::{fill, join, string};
use crate::tokens::{code, is_ident, Error};

/// Expands `#[pin_data(args)] item`.
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> Result<TokenStream, Error> {
    let args: Vec<TokenTree> = args.into_iter().collect();
    let pinned_drop = match args.as_slice() {
        [] => false,
        [only] if is_ident(only, "PinnedDrop") => true,
        [first, ..] => {
            return Err(Error::new(first.span(), "expected nothing or `PinnedDrop`"));
        }
    };
    let mut def = ItemDef::parse(item, "`#[pin_data]`")?;
    match def.keyword.to_string().as_str() {
        "struct" => {}
        _ => {
            return Err(Error::new(
                def.keyword.span(),
                "`#[pin_data]` only supports structs for now",
            ))
        }
    }
    if let Body::Tuple(fields, span) = &def.body {
        if !fields.is_empty() {
            return Err(Error::new(
                *span,
                "`#[pin_data]` only supports structs with named fields",
            ));
        }
    }

    if let Some(split) = split_first_cfg(&mut def, &args) {
        return Ok(split);
    }

    // `Self` in the generics or the fields would name the types this macro defines.
    let replacement = def.self_path();
    for param in &mut def.generics.params {
        param.declared = replace_self(&param.declared, &replacement);
        param.default = replace_self(&param.default, &replacement);
    }
    def.generics.predicates = replace_self(&def.generics.predicates, &replacement);
    let mut pinned = Vec::new();
    let mut warnings = TokenStream::new();
    if !matches!(def.body, Body::Unit) {
        for field in def.fields_mut() {
            field.ty = replace_self(&field.ty, &replacement);
            let before = field.attributes.len();
            field.attributes.retain(|a| !a.is("pin", false));
            let pins = before - field.attributes.len();
            if pins > 1 {
                let span = field
                    .name
                    .as_ref()
                    .map_or_else(Span::call_site, |n| n.span());
                return Err(Error::new(
                    span,
                    "#[pin] attribute specified more than once",
                ));
            }
            pinned.push(pins == 1);
            if pins == 0 && is_phantom_pinned(&field.ty) {
                warnings.extend(phantom_pinned_warning(field));
            }
        }
    }

    let mut out = def.to_tokens();
    out.extend(projections(&def, &pinned));
    let inner = join([
        the_pin_data(&def, &pinned),
        unpin_impl(&def, &pinned),
        drop_impl(&def, pinned_drop),
    ]);
    out.extend(fill(
        // The rest in an unnamed const: nothing outside can name what it defines.
        "const _: () = { #inner };",
        &[("inner", inner)],
    ));
    out.extend(warnings);
    Ok(out)
}

/// If a field has `#[cfg]`s: the struct twice, with the field under the cfgs and without it
/// under their negation, each to be expanded by `#[pin_data]` again.
fn split_first_cfg(def: &mut ItemDef, args: &[TokenTree]) -> Option<TokenStream> {
    if matches!(def.body, Body::Unit) {
        return None;
    }
    let index = def
        .fields()
        .iter()
        .position(|f| f.attributes.iter().any(|a| a.is("cfg", true)))?;
    let mut predicates = TokenStream::new();
    let field = &mut def.fields_mut()[index];
    for attribute in field.attributes.iter().filter(|a| a.is("cfg", true)) {
        if let Some(TokenTree::Group(group)) = attribute.body.get(1) {
            if group.delimiter() == Delimiter::Parenthesis {
                predicates.extend(group.stream());
                predicates.extend(code(","));
            }
        }
    }
    field.attributes.retain(|a| !a.is("cfg", true));
    let with = def.to_tokens();
    let removed = def.fields_mut().remove(index);
    let without = def.to_tokens();
    drop(removed);
    let args: TokenStream = args.iter().cloned().collect();
    Some(fill(
        "#[cfg(all(#predicates))]
         #[::pin_init::pin_data(#args)]
         #with

         #[cfg(not(all(#predicates)))]
         #[::pin_init::pin_data(#args)]
         #without",
        &[
            ("predicates", predicates),
            ("args", args),
            ("with", with),
            ("without", without),
        ],
    ))
}

/// Whether a field's type is `PhantomPinned` by one of the paths that name it.
fn is_phantom_pinned(ty: &[TokenTree]) -> bool {
    let text: String = ty.iter().map(|t| t.to_string()).collect();
    matches!(
        text.as_str(),
        "PhantomPinned"
            | "marker::PhantomPinned"
            | "core::marker::PhantomPinned"
            | "std::marker::PhantomPinned"
            | "::core::marker::PhantomPinned"
            | "::std::marker::PhantomPinned"
    )
}

/// A warning at the field, by the one means stable Rust gives a proc macro: a deprecated item
/// used there (Linux 7.3 warns the same way).
fn phantom_pinned_warning(field: &Field) -> TokenStream {
    let name = field
        .name
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    let message = format!(
        "\nThe field `{name}` of type `PhantomPinned` only has an effect if it has the `#[pin]` \
         attribute"
    );
    let span = field
        .ty
        .first()
        .map_or_else(Span::call_site, TokenTree::span);
    super::template::located_at(
        fill(
            "const _: () = {
                 #[deprecated = #message]
                 const fn warn() {}
                 warn();
             };",
            &[("message", string(&message))],
        ),
        span,
    )
}

/// `<Name>Projection` and `Name::project`.
fn projections(def: &ItemDef, pinned: &[bool]) -> TokenStream {
    let name = &def.name;
    let projection: TokenStream = TokenTree::Ident(proc_macro::Ident::new(
        &format!("{name}Projection"),
        Span::call_site(),
    ))
    .into();
    let mut declarations = TokenStream::new();
    let mut projected = TokenStream::new();
    let (mut pinned_docs, mut unpinned_docs) = (TokenStream::new(), TokenStream::new());
    for (field, &is_pinned) in def.fields().iter().zip(pinned) {
        let Some(field_name) = &field.name else {
            continue;
        };
        let holes = [
            ("vis", field.visibility.iter().cloned().collect()),
            ("field", TokenTree::Ident(field_name.clone()).into()),
            ("ty", field.ty.iter().cloned().collect::<TokenStream>()),
        ];
        let doc = string(&format!(" - `{field_name}`"));
        if is_pinned {
            declarations.extend(fill(
                "#vis #field: ::core::pin::Pin<&'__pin mut #ty>,",
                &holes,
            ));
            projected.extend(fill(
                // SAFETY: The field is structurally pinned, and `this` was pinned.
                "#field: unsafe { ::core::pin::Pin::new_unchecked(&mut this.#field) },",
                &holes,
            ));
            pinned_docs.extend(fill("#[doc = #doc]", &[("doc", doc)]));
        } else {
            declarations.extend(fill("#vis #field: &'__pin mut #ty,", &holes));
            projected.extend(fill("#field: &mut this.#field,", &holes));
            unpinned_docs.extend(fill("#[doc = #doc]", &[("doc", doc)]));
        }
    }
    let generics = &def.generics;
    fill(
        "#[doc = #doc]
         // `non_snake_case`: the struct's own definition gets that warning already.
         #[allow(dead_code, non_snake_case)]
         #[doc(hidden)]
         #vis struct #projection #decl_pin #where_clause {
             #declarations
             ___pin_phantom_data: ::core::marker::PhantomData<&'__pin mut ()>,
         }

         impl #impl_params #name #type_args #where_clause {
             /// Pin-projects all fields of `Self`.
             ///
             /// These fields are structurally pinned:
             #pinned_docs
             ///
             /// These fields are **not** structurally pinned:
             #unpinned_docs
             #[inline]
             #vis fn project<'__pin>(
                 self: ::core::pin::Pin<&'__pin mut Self>,
             ) -> #projection #type_args_pin {
                 // SAFETY: Nothing is moved out of `this`: the structurally pinned fields are
                 // handed out pinned again, the others (which `#[pin_data]` says are not
                 // structurally pinned) as `&mut`.
                 let this = unsafe { ::core::pin::Pin::get_unchecked_mut(self) };
                 #projection {
                     #projected
                     ___pin_phantom_data: ::core::marker::PhantomData,
                 }
             }
         }",
        &[
            ("doc", string(&format!(" Pin-projections of [`{name}`]"))),
            ("vis", def.visibility.iter().cloned().collect()),
            ("projection", projection),
            ("decl_pin", generics.declaration(Some("'__pin"))),
            ("where_clause", generics.where_clause(&[])),
            ("declarations", declarations),
            ("impl_params", generics.impl_params(None)),
            ("name", TokenTree::Ident(name.clone()).into()),
            ("type_args", generics.type_args(None)),
            ("type_args_pin", generics.type_args(Some("'__pin"))),
            ("pinned_docs", pinned_docs),
            ("unpinned_docs", unpinned_docs),
            ("projected", projected),
        ],
    )
}

/// `__ThePinData`, its field accessors, and `HasPinData` for the struct.
fn the_pin_data(def: &ItemDef, pinned: &[bool]) -> TokenStream {
    let self_type = def.self_type();
    let mut accessors = TokenStream::new();
    for (field, &is_pinned) in def.fields().iter().zip(pinned) {
        let Some(field_name) = &field.name else {
            continue;
        };
        accessors.extend(fill(
            "/// The slot of the field.
             ///
             /// # Safety
             ///
             /// - `slot` is valid and properly aligned;
             /// - the field in `*slot` is properly aligned;
             /// - the field in `*slot` is uninitialized memory that nothing else accesses.
             // `non_snake_case`: the struct's own definition gets that warning already.
             #[allow(non_snake_case)]
             #[inline(always)]
             #vis unsafe fn #field(
                 self,
                 slot: *mut #self_type,
             ) -> ::pin_init::__internal::Slot<::pin_init::__internal::#marker, #ty> {
                 // SAFETY: The caller's promises are the slot's invariants; the marker is
                 // `Pinned` exactly when the field is structurally pinned (`#[pin]`).
                 unsafe { ::pin_init::__internal::Slot::new(&raw mut (*slot).#field) }
             }",
            &[
                ("vis", field.visibility.iter().cloned().collect()),
                ("field", TokenTree::Ident(field_name.clone()).into()),
                ("self_type", self_type.clone()),
                (
                    "marker",
                    code(if is_pinned { "Pinned" } else { "Unpinned" }),
                ),
                ("ty", field.ty.iter().cloned().collect()),
            ],
        ));
    }
    let generics = &def.generics;
    fill(
        "// Invariant in every generic parameter of the struct, as it holds a
         // `PhantomInvariant` of it.
         #[doc(hidden)]
         #vis struct __ThePinData #decl #where_clause {
             __phantom: ::pin_init::__internal::PhantomInvariant<#self_type>,
         }

         impl #impl_params ::core::clone::Clone for __ThePinData #type_args #where_clause {
             #[inline]
             fn clone(&self) -> Self {
                 *self
             }
         }

         impl #impl_params ::core::marker::Copy for __ThePinData #type_args #where_clause {}

         // Some accessors may never be used, and private.
         #[allow(dead_code)]
         impl #impl_params __ThePinData #type_args #where_clause {
             /// Checks the type of an initializer's closure and helps inferring it.
             #[inline(always)]
             #vis fn __make_closure<__F, __E>(self, f: __F) -> __F
             where
                 __F: ::core::ops::FnOnce(*mut #self_type) -> ::core::result::Result<
                     ::pin_init::__internal::InitOk,
                     __E,
                 >,
             {
                 f
             }

             #accessors
         }

         // SAFETY: `__ThePinData` has an accessor for each field of the struct, each giving
         // a `Pinned` slot exactly for the fields marked `#[pin]`; its generics are the
         // struct's own.
         unsafe impl #impl_params ::pin_init::__internal::HasPinData for #self_type
             #where_clause
         {
             type PinData = __ThePinData #type_args;

             #[inline]
             unsafe fn __pin_data() -> Self::PinData {
                 __ThePinData { __phantom: ::pin_init::__internal::PhantomInvariant::new() }
             }
         }",
        &[
            ("vis", def.visibility.iter().cloned().collect()),
            ("decl", generics.declaration(None)),
            ("where_clause", generics.where_clause(&[])),
            ("self_type", self_type),
            ("impl_params", generics.impl_params(None)),
            ("type_args", generics.type_args(None)),
            ("accessors", accessors),
        ],
    )
}

/// `Unpin` for the struct when all of its structurally pinned fields are `Unpin`.
fn unpin_impl(def: &ItemDef, pinned: &[bool]) -> TokenStream {
    let mut fields = TokenStream::new();
    for (field, _) in def.fields().iter().zip(pinned).filter(|(_, &p)| p) {
        if let Some(field_name) = &field.name {
            fields.extend(fill(
                "#field: #ty,",
                &[
                    ("field", TokenTree::Ident(field_name.clone()).into()),
                    ("ty", field.ty.iter().cloned().collect()),
                ],
            ));
        }
    }
    let generics = &def.generics;
    let unpin_bound = fill(
        "__Unpin #type_args_pin: ::core::marker::Unpin",
        &[("type_args_pin", generics.type_args(Some("'__pin")))],
    );
    fill(
        "// Has the types of the pinned fields only: it is `Unpin` exactly when they all are.
         // The lifetime keeps the bound below from being trivially false (an error) when the
         // struct has no generics.
         #[allow(
             dead_code, // Never constructed.
             non_snake_case // The struct's own definition gets that warning already.
         )]
         struct __Unpin #decl_pin #where_clause {
             __phantom_pin: ::pin_init::__internal::PhantomInvariantLifetime<'__pin>,
             __phantom: ::pin_init::__internal::PhantomInvariant<#self_type>,
             #fields
         }

         #[doc(hidden)]
         impl #impl_params_pin ::core::marker::Unpin for #self_type #where_unpin {}",
        &[
            ("decl_pin", generics.declaration(Some("'__pin"))),
            ("where_clause", generics.where_clause(&[])),
            ("self_type", def.self_type()),
            ("fields", fields),
            ("impl_params_pin", generics.impl_params(Some("'__pin"))),
            ("where_unpin", generics.where_clause(&[unpin_bound])),
        ],
    )
}

/// `Drop` calling `PinnedDrop::drop`, or the impls that forbid `Drop` and `PinnedDrop`.
fn drop_impl(def: &ItemDef, pinned_drop: bool) -> TokenStream {
    let generics = &def.generics;
    let holes = [
        ("impl_params", generics.impl_params(None)),
        ("self_type", def.self_type()),
        ("where_clause", generics.where_clause(&[])),
    ];
    if pinned_drop {
        fill(
            "impl #impl_params ::core::ops::Drop for #self_type #where_clause {
                 fn drop(&mut self) {
                     // SAFETY: The value is being dropped: it is never moved again.
                     let pinned = unsafe { ::core::pin::Pin::new_unchecked(self) };
                     // SAFETY: This is the `Drop` of the type, which alone may make the token
                     // to call its `PinnedDrop::drop`.
                     let token = unsafe { ::pin_init::__internal::OnlyCallFromDrop::new() };
                     ::pin_init::PinnedDrop::drop(pinned, token);
                 }
             }",
            &holes,
        )
    } else {
        fill(
            "// Every `Drop` type implements this trait, and so does the struct: a `Drop` impl
             // of the struct conflicts (it should be `#[pinned_drop] impl PinnedDrop`).
             trait MustNotImplDrop {}
             #[allow(drop_bounds)]
             impl<T: ::core::ops::Drop + ?::core::marker::Sized> MustNotImplDrop for T {}
             impl #impl_params MustNotImplDrop for #self_type #where_clause {}

             // Likewise a `PinnedDrop` impl, which nothing would call without
             // `#[pin_data(PinnedDrop)]`.
             #[allow(non_camel_case_types)]
             trait UselessPinnedDropImpl_you_need_to_specify_PinnedDrop {}
             impl<T: ::pin_init::PinnedDrop + ?::core::marker::Sized>
                 UselessPinnedDropImpl_you_need_to_specify_PinnedDrop for T {}
             impl #impl_params UselessPinnedDropImpl_you_need_to_specify_PinnedDrop
                 for #self_type #where_clause {}",
            &holes,
        )
    }
}
