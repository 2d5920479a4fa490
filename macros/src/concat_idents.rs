// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `concat_idents!(a, b)`: one identifier `ab`, with the span of `b`, as Linux's
//! `rust/macros/concat_idents.rs` makes it (hygiene follows the second identifier, so a name a
//! macro caller passes as `b` resolves at the caller's site).

use crate::tokens::Error;
use proc_macro::{Ident, Span, TokenStream, TokenTree};

/// Expands `a, b` into the identifier `ab`.
pub(crate) fn expand(input: TokenStream) -> Result<TokenStream, Error> {
    let trees: Vec<TokenTree> = input.into_iter().collect();
    let usage = "concat_idents! takes two identifiers: `concat_idents!(prefix_, name)`";
    let ident = |tree: Option<&TokenTree>| match tree {
        Some(TokenTree::Ident(ident)) => Ok(ident.clone()),
        Some(TokenTree::Group(group))
            if group.delimiter() == proc_macro::Delimiter::None
                && group.stream().into_iter().count() == 1 =>
        {
            match group.stream().into_iter().next() {
                Some(TokenTree::Ident(ident)) => Ok(ident),
                _ => Err(Error::new(group.span(), usage)),
            }
        }
        Some(other) => Err(Error::new(other.span(), usage)),
        None => Err(Error::new(Span::call_site(), usage)),
    };
    let a = ident(trees.first())?;
    match trees.get(1) {
        Some(TokenTree::Punct(p)) if p.as_char() == ',' => {}
        Some(other) => return Err(Error::new(other.span(), usage)),
        None => return Err(Error::new(Span::call_site(), usage)),
    }
    let b = ident(trees.get(2))?;
    if let Some(extra) = trees.get(3) {
        return Err(Error::new(extra.span(), usage));
    }
    let name = format!("{a}{b}");
    let name = name.strip_prefix("r#").unwrap_or(&name).replace("r#", "");
    Ok(TokenStream::from(TokenTree::Ident(Ident::new(
        &name,
        b.span(),
    ))))
}
