// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `paste!`: identifiers built from pieces, as the kernel's `kernel::macros::paste!` does.
//!
//! Every `[< ... >]` group in the input becomes one identifier, the concatenation of its
//! pieces: identifiers (a leading `r#` dropped), literals (string literals without their
//! quotes), and the modifiers `:lower`, `:upper` and `:span` applied to the piece before them.
//! Everything else passes through unchanged, nested groups included. Misuse is a compile
//! error at the offending token, never a panic.

use crate::tokens::Error;
use proc_macro::{Delimiter, Group, Ident, Spacing, Span, TokenStream, TokenTree};

/// Expands `paste! { ... }`.
pub(crate) fn expand(input: TokenStream) -> Result<TokenStream, Error> {
    let mut tokens: Vec<TokenTree> = input.into_iter().collect();
    expand_tokens(&mut tokens)?;
    Ok(tokens.into_iter().collect())
}

/// Replaces the `[< >]` groups of `tokens`, recursively.
fn expand_tokens(tokens: &mut Vec<TokenTree>) -> Result<(), Error> {
    for token in tokens.iter_mut() {
        let TokenTree::Group(group) = token else {
            continue;
        };
        let inner: Vec<TokenTree> = group.stream().into_iter().collect();
        let is_paste = group.delimiter() == Delimiter::Bracket
            && inner.len() >= 2
            && matches!(&inner[0], TokenTree::Punct(p) if p.as_char() == '<')
            && matches!(&inner[inner.len() - 1], TokenTree::Punct(p) if p.as_char() == '>');
        if is_paste {
            *token = TokenTree::Ident(concat(&inner[1..inner.len() - 1], group.span())?);
        } else {
            let mut inner = inner;
            expand_tokens(&mut inner)?;
            let mut replaced = Group::new(group.delimiter(), inner.into_iter().collect());
            replaced.set_span(group.span());
            *token = TokenTree::Group(replaced);
        }
    }
    remove_invisible_groups_in_paths(tokens);
    Ok(())
}

/// A piece of a pasted identifier, with the span it came from.
struct Piece {
    text: String,
    span: Span,
}

/// The pieces of one `[< >]` group, modifiers applied; also the `:span` choice, if any.
fn pieces(
    tokens: &[TokenTree],
    out: &mut Vec<Piece>,
    chosen: &mut Option<Span>,
) -> Result<(), Error> {
    let mut it = tokens.iter();
    while let Some(token) = it.next() {
        match token {
            TokenTree::Ident(ident) => {
                let text = ident.to_string();
                let text = text.strip_prefix("r#").unwrap_or(&text).to_string();
                out.push(Piece { text, span: ident.span() });
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                let text = match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
                    Some(unquoted) => unquoted.to_string(),
                    None => text,
                };
                out.push(Piece { text, span: literal.span() });
            }
            TokenTree::Punct(colon) if colon.as_char() == ':' => {
                let Some(TokenTree::Ident(modifier)) = it.next() else {
                    return Err(Error::new(
                        colon.span(),
                        "paste!: expected a modifier after `:` (`lower`, `upper` or `span`)",
                    ));
                };
                let Some(last) = out.last_mut() else {
                    return Err(Error::new(
                        modifier.span(),
                        "paste!: a modifier must follow the piece it applies to, as in `[<$name:lower>]`",
                    ));
                };
                match modifier.to_string().as_str() {
                    "lower" => last.text = last.text.to_lowercase(),
                    "upper" => last.text = last.text.to_uppercase(),
                    "span" => {
                        if chosen.is_some() {
                            return Err(Error::new(
                                modifier.span(),
                                "paste!: `:span` may appear at most once in a `[< >]` group",
                            ));
                        }
                        *chosen = Some(last.span);
                    }
                    other => {
                        return Err(Error::new(
                            modifier.span(),
                            format!("paste!: unknown modifier `{other}`: use `lower`, `upper` or `span`"),
                        ))
                    }
                }
            }
            // `$x` where `x` is a macro_rules fragment arrives as an invisible group.
            TokenTree::Group(group) if group.delimiter() == Delimiter::None => {
                let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                pieces(&inner, out, chosen)?;
            }
            other => {
                return Err(Error::new(
                    other.span(),
                    format!(
                        "paste!: `{other}` cannot be part of an identifier: `[< >]` takes identifiers, literals and `:lower`/`:upper`/`:span`"
                    ),
                ))
            }
        }
    }
    Ok(())
}

/// Concatenates the pieces of one `[< >]` group into an identifier.
fn concat(tokens: &[TokenTree], group_span: Span) -> Result<Ident, Error> {
    let mut parts = Vec::new();
    let mut chosen = None;
    pieces(tokens, &mut parts, &mut chosen)?;
    let text: String = parts.iter().map(|p| p.text.as_str()).collect();
    let valid = text
        .chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_alphabetic())
        && text.chars().all(|c| c == '_' || c.is_alphanumeric())
        && text != "_";
    if !valid {
        return Err(Error::new(
            group_span,
            format!("paste!: the pieces make `{text}`, which is not a valid identifier"),
        ));
    }
    Ok(Ident::new(&text, chosen.unwrap_or(group_span)))
}

/// Unwraps invisible groups next to `::`: a path segment cannot be a group, and `$x::y` where
/// `$x` was a `macro_rules` fragment produces one.
fn remove_invisible_groups_in_paths(tokens: &mut Vec<TokenTree>) {
    /// The contents of an invisible group.
    fn invisible(token: &TokenTree) -> Option<TokenStream> {
        match token {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => Some(g.stream()),
            _ => None,
        }
    }
    let mut i = tokens.len();
    while i >= 2 {
        i -= 1;
        let is_path_sep = matches!(
            (&tokens[i - 1], &tokens[i]),
            (TokenTree::Punct(a), TokenTree::Punct(b))
                if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
        );
        if !is_path_sep {
            continue;
        }
        if let Some(stream) = tokens.get(i + 1).and_then(invisible) {
            tokens.splice(i + 1..i + 2, stream);
        }
        if let Some(stream) = i.checked_sub(2).and_then(|at| invisible(&tokens[at])) {
            tokens.splice(i - 2..i - 1, stream);
        }
    }
}
