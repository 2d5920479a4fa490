// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[vtable]`, as Linux 7.3's: on a trait, and on its impls.
//!
//! A C vtable leaves an operation a driver does not implement `NULL`; a Rust trait has a
//! default body instead. `#[vtable]` tells them apart at compile time:
//!
//! - on a trait, it adds `const USE_VTABLE_ATTR: ();` (so that an impl without `#[vtable]`
//!   fails to build: it lacks the constant), a `const HAS_<METHOD>: bool = false;` for every
//!   method (with the method's `#[cfg]`s), and, unless the trait has one, the associated type
//!   `OwnerModule: ModuleMetadata`;
//! - on an impl, it adds `const USE_VTABLE_ATTR: () = ();`, a `const HAS_<METHOD>: bool =
//!   true;` for every method the impl defines, unless it defines that constant itself, and,
//!   unless the impl sets it, `type OwnerModule = crate::LocalModule;` (the type that the
//!   crate's `module!` declares).
//!
//! `OwnerModule` goes through `kernel_core::__kernel_core_vtable_owner!`, so that a kernel
//! whose `module!` declares no `LocalModule` (before 7.3) can leave it out.

use proc_macro::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

use crate::tokens::{code, is_ident, split_items, take_attributes, take_visibility, Error, Item};

/// Expands `#[vtable(attr)] item`.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream, Error> {
    if let Some(token) = attr.into_iter().next() {
        return Err(Error::new(token.span(), "`#[vtable]` takes no arguments"));
    }
    let mut tokens: Vec<TokenTree> = item.into_iter().collect();
    let kind = kind(&tokens)?;
    let Some(TokenTree::Group(body)) = tokens.last() else {
        return Err(not_a_trait_or_impl(&tokens));
    };
    if body.delimiter() != Delimiter::Brace {
        return Err(not_a_trait_or_impl(&tokens));
    }
    let body_tokens: Vec<TokenTree> = body.stream().into_iter().collect();
    let mut at = 0;
    let inner = take_attributes(&body_tokens, &mut at, true);
    let items = split_items(&body_tokens[at..]);

    let generated = match kind {
        Kind::Trait => for_trait(&items),
        Kind::Impl => for_impl(&items),
    };

    let mut new_body: Vec<TokenTree> = Vec::new();
    for attribute in &inner {
        new_body.extend(attribute.tokens.iter().cloned());
    }
    new_body.extend(body_tokens[at..].iter().cloned());
    new_body.extend(generated);
    let mut group = Group::new(Delimiter::Brace, new_body.into_iter().collect());
    group.set_span(body.span());
    let last = tokens.len() - 1;
    tokens[last] = TokenTree::Group(group);
    Ok(tokens.into_iter().collect())
}

/// What `#[vtable]` is on.
enum Kind {
    Trait,
    Impl,
}

fn not_a_trait_or_impl(tokens: &[TokenTree]) -> Error {
    let span = tokens.first().map_or_else(Span::call_site, TokenTree::span);
    Error::new(
        span,
        "`#[vtable]` attribute should only be applied to trait or impl block",
    )
}

/// Whether `tokens` are a trait or an impl: the first keyword after the attributes, the
/// visibility and the qualifiers.
fn kind(tokens: &[TokenTree]) -> Result<Kind, Error> {
    let mut at = 0;
    take_attributes(tokens, &mut at, false);
    take_visibility(tokens, &mut at);
    while let Some(TokenTree::Ident(word)) = tokens.get(at) {
        match word.to_string().as_str() {
            "trait" => return Ok(Kind::Trait),
            "impl" => return Ok(Kind::Impl),
            "unsafe" | "auto" | "default" => at += 1,
            _ => break,
        }
    }
    Err(not_a_trait_or_impl(tokens))
}

/// The `#[cfg]` attributes of `item`, as tokens.
fn cfgs(item: &Item) -> Vec<TokenTree> {
    item.attributes
        .iter()
        .filter(|attribute| attribute.is("cfg", true))
        .flat_map(|attribute| attribute.tokens.iter().cloned())
        .collect()
}

/// The name of `item` if it is `const NAME` (not `const fn`) or `type NAME`.
fn const_or_type_name(item: &Item, keyword: &str) -> Option<String> {
    let mut at = 0;
    take_visibility(&item.rest, &mut at);
    if item.rest.get(at).is_some_and(|t| is_ident(t, "default")) {
        at += 1;
    }
    if !item.rest.get(at).is_some_and(|t| is_ident(t, keyword)) {
        return None;
    }
    match item.rest.get(at + 1) {
        Some(TokenTree::Ident(name)) => {
            let name = name.to_string();
            let reserved = ["fn", "unsafe", "async", "extern"];
            (!reserved.contains(&name.as_str())).then_some(name)
        }
        _ => None,
    }
}

/// `HAS_<NAME>` for the method `name` (`r#` dropped), at the name's span.
fn has_const(name: &Ident) -> Ident {
    let text = name.to_string();
    let text = text.strip_prefix("r#").unwrap_or(&text);
    Ident::new(&format!("HAS_{}", text.to_uppercase()), name.span())
}

/// `const NAME: bool = value;` with `cfgs` and `doc`, as tokens; the name keeps its span.
fn bool_const(
    cfgs: Vec<TokenTree>,
    doc: Option<String>,
    name: Ident,
    value: bool,
) -> Vec<TokenTree> {
    let mut out = cfgs;
    if let Some(doc) = doc {
        out.extend(code(&format!("#[doc = {doc:?}]")));
    }
    out.extend(code("const"));
    out.push(TokenTree::Ident(name));
    out.extend(code(&format!(": bool = {value};")));
    out
}

fn for_trait(items: &[Item]) -> Vec<TokenTree> {
    let mut out: Vec<TokenTree> = code(
        "#[doc = \"A marker that makes an implementation of this trait without `#[vtable]` \
         fail to build.\"] const USE_VTABLE_ATTR: ();",
    )
    .into_iter()
    .collect();
    if !items
        .iter()
        .any(|item| const_or_type_name(item, "type").as_deref() == Some("OwnerModule"))
    {
        out.extend(code("::kernel_core::__kernel_core_vtable_owner!(trait);"));
    }
    for item in items {
        if let Some(name) = item.function_name() {
            let doc = format!("Indicates if the `{name}` method is overridden by the implementor.");
            out.extend(bool_const(cfgs(item), Some(doc), has_const(&name), false));
        }
    }
    out
}

fn for_impl(items: &[Item]) -> Vec<TokenTree> {
    let consts: Vec<String> = items
        .iter()
        .filter_map(|item| const_or_type_name(item, "const"))
        .collect();
    let mut out: Vec<TokenTree> = code("const USE_VTABLE_ATTR: () = ();")
        .into_iter()
        .collect();
    if !items
        .iter()
        .any(|item| const_or_type_name(item, "type").as_deref() == Some("OwnerModule"))
    {
        out.extend(code(
            "::kernel_core::__kernel_core_vtable_owner!(impl crate);",
        ));
    }
    for item in items {
        if let Some(name) = item.function_name() {
            let has = has_const(&name);
            if consts.contains(&has.to_string()) {
                continue; // Set by hand: it wins.
            }
            out.extend(bool_const(cfgs(item), None, has, true));
        }
    }
    out
}
