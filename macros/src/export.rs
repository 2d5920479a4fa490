// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[export]`: a Rust function that C calls through a header.
//!
//! Linux 7.3's checks the function's type against the declaration that bindgen made of the
//! header (`kernel::bindings::<name>`) and turns name mangling off. The check is the world's:
//! this parser makes sure the item is a function with the C ABI (which that check also
//! requires), and hands it to `kernel_core::__kernel_core_export!`
//! (`kernel-core/src/env/{host,kernel}/module.rs`) as `name: <fn name>, item: [<the fn>]`.

use proc_macro::{Span, TokenStream, TokenTree};

use crate::tokens::{code, is_ident, take_attributes, take_visibility, Error, Item};

/// Expands `#[export(attr)] item`.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream, Error> {
    if let Some(token) = attr.into_iter().next() {
        return Err(Error::new(token.span(), "`#[export]` takes no arguments"));
    }
    let tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    let mut at = 0;
    let attributes = take_attributes(&tokens, &mut at, false);
    let parsed = Item {
        attributes,
        rest: tokens[at..].to_vec(),
    };
    let span = tokens.get(at).map_or_else(Span::call_site, TokenTree::span);
    let Some(name) = parsed.function_name() else {
        return Err(Error::new(
            span,
            "`#[export]` applies to a function that C calls through a header",
        ));
    };
    if !c_abi(&parsed.rest) {
        return Err(Error::new(
            name.span(),
            format!(
                "`#[export]` functions are called from C: declare `{name}` `extern \"C\"`, as \
                 its declaration in the C header is"
            ),
        ));
    }
    let mut out: Vec<TokenTree> = code("::kernel_core::__kernel_core_export!")
        .into_iter()
        .collect();
    let mut body: Vec<TokenTree> = code("name:").into_iter().collect();
    body.push(TokenTree::Ident(name));
    body.extend(code(", item:"));
    body.push(TokenTree::Group(proc_macro::Group::new(
        proc_macro::Delimiter::Bracket,
        item,
    )));
    out.push(TokenTree::Group(proc_macro::Group::new(
        proc_macro::Delimiter::Brace,
        body.into_iter().collect(),
    )));
    Ok(out.into_iter().collect())
}

/// Whether the qualifiers before `fn` in `rest` say `extern` or `extern "C"`.
fn c_abi(rest: &[TokenTree]) -> bool {
    let mut at = 0;
    take_visibility(rest, &mut at);
    while let Some(token) = rest.get(at) {
        if is_ident(token, "fn") {
            return false;
        }
        if is_ident(token, "extern") {
            return match rest.get(at + 1) {
                Some(TokenTree::Literal(abi)) => abi.to_string() == "\"C\"",
                _ => true, // `extern fn` is `extern "C" fn`.
            };
        }
        at += 1;
    }
    false
}
