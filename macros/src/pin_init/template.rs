// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Code templates with holes: the little of `quote!` that the pin-init macros need.
//!
//! A template is Rust source in a string; `#name` in it is a hole, filled with the tokens given
//! for `name`. The template's own tokens get the call-site span (as `quote!`'s do); the tokens
//! that fill the holes keep theirs, so a user's expression still points at the user's code in
//! an error, and an identifier made with `Span::mixed_site()` stays hidden from the user's code.
//! Comments in a template (the `// SAFETY:` ones before its `unsafe` blocks) are for the reader
//! of this crate: they do not reach the expansion.

use proc_macro::{Group, Ident, Span, TokenStream, TokenTree};

use crate::tokens::code;

/// `template` with each `#name` replaced by the tokens `holes` gives for `name`.
///
/// A hole the template names but `holes` lacks is a bug in this crate, hence a panic.
pub(crate) fn fill(template: &str, holes: &[(&str, TokenStream)]) -> TokenStream {
    substitute(code(template), holes)
}

fn substitute(stream: TokenStream, holes: &[(&str, TokenStream)]) -> TokenStream {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut at = 0;
    while at < trees.len() {
        match (&trees[at], trees.get(at + 1)) {
            (TokenTree::Punct(pound), Some(TokenTree::Ident(name))) if pound.as_char() == '#' => {
                let name = name.to_string();
                let Some((_, tokens)) = holes.iter().find(|(hole, _)| *hole == name) else {
                    panic!("kernel-core-macros: a template names `#{name}`, which is not given");
                };
                out.extend(tokens.clone());
                at += 2;
            }
            (TokenTree::Group(group), _) => {
                let mut copy = Group::new(group.delimiter(), substitute(group.stream(), holes));
                copy.set_span(group.span());
                out.push(TokenTree::Group(copy));
                at += 1;
            }
            (tree, _) => {
                out.push(tree.clone());
                at += 1;
            }
        }
    }
    out.into_iter().collect()
}

/// An identifier that the user's code cannot name: `Span::mixed_site()` gives it the
/// hygiene of a `macro_rules!` local, as Linux 7.3's macros do for their internal variables.
pub(crate) fn hidden(name: &str) -> TokenStream {
    TokenTree::Ident(Ident::new(name, Span::mixed_site())).into()
}

/// `tokens` with every span (in groups too) moved to where `at` points, keeping the call
/// site's hygiene: an error about generated code is then reported at the user's tokens that
/// caused it, while names in it still resolve as the template's.
pub(crate) fn located_at(tokens: TokenStream, at: Span) -> TokenStream {
    let span = Span::call_site().located_at(at);
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(group) => {
                let mut copy = Group::new(group.delimiter(), located_at(group.stream(), at));
                copy.set_span(span);
                TokenTree::Group(copy)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// Concatenates token streams.
pub(crate) fn join(parts: impl IntoIterator<Item = TokenStream>) -> TokenStream {
    let mut out = TokenStream::new();
    out.extend(parts);
    out
}

/// A string literal token.
pub(crate) fn string(text: &str) -> TokenStream {
    TokenTree::Literal(proc_macro::Literal::string(text)).into()
}
