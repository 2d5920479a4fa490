// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[pinned_drop]`: the safe way to implement `PinnedDrop`.
//!
//! Kernel counterpart: `rust/pin-init/internal/src/pinned_drop.rs` (Linux 7.3). The user writes
//! `impl PinnedDrop for Foo { fn drop(self: Pin<&mut Self>) { ... } }`; the expansion is the
//! `unsafe impl` of `::pin_init::PinnedDrop` (an unsafe trait so that nothing else implements
//! it) whose `drop` takes one more parameter, `OnlyCallFromDrop`, which only the `Drop` that
//! `#[pin_data(PinnedDrop)]` generates can make: so no code calls it but that `Drop`.

use proc_macro::{Delimiter, Group, Span, TokenStream, TokenTree};

use super::syntax::Generics;
use crate::tokens::{code, is_group, is_ident, is_punct, take_attributes, Error};

/// Expands `#[pinned_drop(args)] item`.
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> Result<TokenStream, Error> {
    if let Some(arg) = args.into_iter().next() {
        return Err(Error::new(
            arg.span(),
            "`#[pinned_drop]` takes no arguments",
        ));
    }
    let tokens: Vec<TokenTree> = item.into_iter().collect();
    let mut at = 0;
    let attributes = take_attributes(&tokens, &mut at, false);
    let mut out: Vec<TokenTree> = Vec::new();
    for attribute in &attributes {
        out.extend(attribute.tokens.iter().cloned());
    }
    if let Some(unsafety) = tokens.get(at).filter(|t| is_ident(t, "unsafe")) {
        return Err(Error::new(
            unsafety.span(),
            "implementing `PinnedDrop` is safe",
        ));
    }
    let Some(impl_token) = tokens.get(at).filter(|t| is_ident(t, "impl")) else {
        let span = tokens.get(at).map_or_else(Span::call_site, TokenTree::span);
        return Err(Error::new(
            span,
            "`#[pinned_drop]` applies to `impl PinnedDrop for ...`",
        ));
    };
    let impl_span = impl_token.span();
    at += 1;
    let generics_start = at;
    Generics::take_params(&tokens, &mut at)?;
    let generics = &tokens[generics_start..at];

    // The trait's path runs up to `for`, outside angle brackets.
    let path_start = at;
    let mut depth = 0_usize;
    let for_at = loop {
        match tokens.get(at) {
            None => {
                return Err(Error::new(
                    impl_span,
                    "expected `impl ... PinnedDrop for ...`, got inherent impl",
                ))
            }
            Some(t) if is_group(t, Delimiter::Brace) && depth == 0 => {
                return Err(Error::new(
                    impl_span,
                    "expected `impl ... PinnedDrop for ...`, got inherent impl",
                ))
            }
            Some(t) if is_punct(t, '<') => depth += 1,
            Some(t) if is_punct(t, '>') => depth = depth.saturating_sub(1),
            Some(t) if depth == 0 && is_ident(t, "for") => break at,
            Some(_) => {}
        }
        at += 1;
    };
    check_trait_path(&tokens[path_start..for_at])?;

    // The self type and the where clause, then the body.
    let body_at = tokens
        .iter()
        .enumerate()
        .skip(for_at)
        .find(|(_, t)| is_group(t, Delimiter::Brace))
        .map(|(index, _)| index)
        .ok_or_else(|| Error::new(impl_span, "expected the impl's body"))?;
    let TokenTree::Group(body) = &tokens[body_at] else {
        unreachable!("found as a brace group")
    };
    if let Some(extra) = tokens.get(body_at + 1) {
        return Err(Error::new(extra.span(), "unexpected tokens after the impl"));
    }

    out.extend(code("unsafe"));
    out.push(impl_token.clone());
    out.extend(generics.iter().cloned());
    out.extend(code("::pin_init::PinnedDrop"));
    out.extend(tokens[for_at..body_at].iter().cloned());
    let mut new_body = Group::new(Delimiter::Brace, add_token_parameter(body.stream()));
    new_body.set_span(body.span());
    out.push(new_body.into());
    Ok(out.into_iter().collect())
}

/// The path must name `PinnedDrop`: `PinnedDrop`, `pin_init::PinnedDrop` or
/// `::pin_init::PinnedDrop`, without generic arguments.
fn check_trait_path(path: &[TokenTree]) -> Result<(), Error> {
    if let Some(not) = path.first().filter(|t| is_punct(t, '!')) {
        return Err(Error::new(not.span(), "cannot implement `!PinnedDrop`"));
    }
    if let Some(arguments) = path.iter().find(|t| is_punct(t, '<')) {
        return Err(Error::new(
            arguments.span(),
            "unexpected arguments for `PinnedDrop` path",
        ));
    }
    let words: Vec<String> = path
        .iter()
        .filter(|t| !is_punct(t, ':'))
        .map(ToString::to_string)
        .collect();
    let span = path.first().map_or_else(Span::call_site, TokenTree::span);
    match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["PinnedDrop"] | ["pin_init", "PinnedDrop"] => Ok(()),
        _ => Err(Error::new(span, "bad import path for `PinnedDrop`")),
    }
}

/// The impl's body with `_: ::pin_init::__internal::OnlyCallFromDrop` added to the parameters
/// of `fn drop`.
fn add_token_parameter(body: TokenStream) -> TokenStream {
    let mut items: Vec<TokenTree> = body.into_iter().collect();
    for at in 0..items.len() {
        let is_drop = is_ident(&items[at], "fn")
            && items.get(at + 1).is_some_and(|t| is_ident(t, "drop"))
            && items
                .get(at + 2)
                .is_some_and(|t| is_group(t, Delimiter::Parenthesis));
        if !is_drop {
            continue;
        }
        let TokenTree::Group(parameters) = &items[at + 2] else {
            unreachable!("checked just above")
        };
        let mut stream: Vec<TokenTree> = parameters.stream().into_iter().collect();
        if stream.last().is_some_and(|t| !is_punct(t, ',')) {
            stream.extend(code(","));
        }
        stream.extend(code("_: ::pin_init::__internal::OnlyCallFromDrop"));
        let mut group = Group::new(Delimiter::Parenthesis, stream.into_iter().collect());
        group.set_span(parameters.span());
        items[at + 2] = group.into();
    }
    items.into_iter().collect()
}
