// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `fmt!`: `core::format_args!` with every argument wrapped in `kernel_core::fmt::Adapter`, as
//! Linux 7.3's `rust/macros/fmt.rs` expands `kernel::fmt!`.
//!
//! What the kernel's macro does, step for step:
//!
//! - If the first token is not a string literal written with plain double quotes (`"..."`: not
//!   `r"..."`, not a macro call), the input comes back unchanged, without `format_args!`.
//! - The names of the format string's inline arguments (`{name}`, `{name:?}`) are collected
//!   from the literal as written: after each `{` that is not `{{`, up to the next `}`, before a
//!   `:`; empty and all-digit names are positions, not names.
//! - The arguments after the literal are split at their top-level commas. Each becomes
//!   `Adapter(&(arg))`; one with an `=` (`name = value`, split at its first `=`, so `a == b`
//!   must be written `(a == b)`) becomes `name = Adapter(&(value))`, and `name` is then no
//!   inline argument.
//! - Each inline argument left becomes `, name = Adapter(&name)`, in the order of their names.
//! - The whole is `::core::format_args!(...)`, its new tokens spanned at the literal, so that
//!   the inline names resolve where the literal was written (also through `pr_info!`).
//!
//! The adapter is `::kernel_core::fmt::Adapter` here, where the kernel names
//! `::kernel::fmt::Adapter`. One deliberate difference: an inline name that is no identifier
//! (`"\u{1F600}"` is read as the name `1F600`, since the literal is scanned as written) makes
//! the kernel's macro panic; here it is a compile error saying so. Both fail the build.

use std::collections::BTreeSet;

use proc_macro::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};

use crate::tokens::{is_punct, path, Error};

/// Expands `fmt!(input)`.
pub(crate) fn expand(input: TokenStream) -> Result<TokenStream, Error> {
    let mut input = input.into_iter();
    let first = input.next();
    let literal = match &first {
        Some(TokenTree::Literal(literal)) => {
            let written = literal.to_string();
            written
                .strip_prefix('"')
                .and_then(|text| text.strip_suffix('"'))
                .map(|text| (text.to_owned(), literal.span()))
        }
        _ => None,
    };
    let Some((text, span)) = literal else {
        return Ok(first.into_iter().chain(input).collect());
    };
    let mut names = inline_names(&text);

    let mut arguments: Vec<TokenTree> = first.into_iter().collect();
    let mut current = Vec::new();
    for tree in input {
        if is_punct(&tree, ',') {
            wrap(
                &mut arguments,
                std::mem::take(&mut current),
                &mut names,
                span,
            );
            arguments.push(tree);
        } else {
            current.push(tree);
        }
    }
    wrap(&mut arguments, current, &mut names, span);

    for name in names {
        let ident = identifier(&name, span)?;
        arguments.push(punct(',', span));
        arguments.push(TokenTree::Ident(ident.clone()));
        arguments.push(punct('=', span));
        adapter(&mut arguments, vec![TokenTree::Ident(ident)], false, span);
    }

    let mut out = path(&["core", "format_args"], span);
    out.push(punct('!', span));
    out.push(group(Delimiter::Parenthesis, arguments, span));
    Ok(out.into_iter().collect())
}

/// The names of the inline arguments of a format string, as written in its literal.
fn inline_names(mut text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    while let Some((_, rest)) = text.split_once('{') {
        text = rest;
        if let Some(rest) = text.strip_prefix('{') {
            text = rest;
            continue;
        }
        if let Some((inside, rest)) = text.split_once('}') {
            text = rest;
            let name = inside.split_once(':').map_or(inside, |(name, _)| name);
            if !name.is_empty() && !name.chars().all(|c| c.is_ascii_digit()) {
                names.insert(name.to_owned());
            }
        }
    }
    names
}

/// Appends one argument of the macro, wrapped: `Adapter(&(value))` or
/// `name = Adapter(&(value))`. An empty argument (after a trailing comma) adds nothing.
fn wrap(
    out: &mut Vec<TokenTree>,
    argument: Vec<TokenTree>,
    names: &mut BTreeSet<String>,
    span: Span,
) {
    if argument.is_empty() {
        return;
    }
    let value = match argument.iter().position(|tree| is_punct(tree, '=')) {
        Some(at) => {
            let name: TokenStream = argument[..at].iter().cloned().collect();
            names.remove(&name.to_string());
            out.extend(argument[..=at].iter().cloned());
            argument[at + 1..].to_vec()
        }
        None => argument,
    };
    adapter(out, value, true, span);
}

/// Appends `::kernel_core::fmt::Adapter(&(value))`, or `...(&value)` without `parenthesized`.
fn adapter(out: &mut Vec<TokenTree>, value: Vec<TokenTree>, parenthesized: bool, span: Span) {
    out.extend(path(&["kernel_core", "fmt", "Adapter"], span));
    let mut inner = vec![punct('&', span)];
    if parenthesized {
        inner.push(group(Delimiter::Parenthesis, value, span));
    } else {
        inner.extend(value);
    }
    out.push(group(Delimiter::Parenthesis, inner, span));
}

/// The identifier `name` at `span`, or an error if `name` is none.
fn identifier(name: &str, span: Span) -> Result<Ident, Error> {
    let parsed: Option<Vec<TokenTree>> = name
        .parse::<TokenStream>()
        .ok()
        .map(|s| s.into_iter().collect());
    match parsed.as_deref() {
        Some([TokenTree::Ident(ident)]) if ident.to_string() == name && !name.starts_with("r#") => {
            Ok(Ident::new(name, span))
        }
        _ => Err(Error::new(
            span,
            format!(
                "fmt!: `{{{name}}}` in the format string reads as an argument named `{name}`, \
                 which is not an identifier (Linux 7.3's fmt! fails on it too)"
            ),
        )),
    }
}

/// The punctuation `ch`, alone, at `span`.
fn punct(ch: char, span: Span) -> TokenTree {
    let mut punct = Punct::new(ch, Spacing::Alone);
    punct.set_span(span);
    TokenTree::Punct(punct)
}

/// A group of `tokens` at `span`.
fn group(delimiter: Delimiter, tokens: Vec<TokenTree>, span: Span) -> TokenTree {
    let mut group = Group::new(delimiter, tokens.into_iter().collect());
    group.set_span(span);
    TokenTree::Group(group)
}
