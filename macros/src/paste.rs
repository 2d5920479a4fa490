// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `paste!`: identifiers built from pieces, as the kernel's `kernel::macros::paste!` does.
//!
//! The reference is what Linux 7.3's `rust/macros/paste.rs` does, which is not always what its
//! documentation says:
//!
//! - A paste group is a `[ ]` group of at least three tokens, the first `<` and the last `>`.
//!   It becomes one identifier, with the span of the whole group. `[<>]` and `[< >]` (two
//!   tokens) are no paste group: like every other group, they are searched for paste groups
//!   and otherwise pass through unchanged.
//! - The pieces between `<` and `>` are concatenated: identifiers, a leading `r#` dropped
//!   (`[<r#fn>]` is the keyword `fn`), `$crate` kept as it is; literals, as written, except
//!   that a literal both starting and ending with `"` loses those two quotes (no unescaping:
//!   `r"x"`, `b"x"`, `'x'` and `1u8` stay as written); and invisible groups (what a
//!   `macro_rules!` fragment such as `$x:literal` arrives as), whose contents are pieces of
//!   their own, concatenated in place.
//! - A modifier `:name` (any `:`, followed by an identifier) rewrites the piece just before it:
//!   `lower` and `upper` change its case (Unicode, so `ß:upper` is `SS`); `span` changes
//!   nothing. The kernel documents `:span` as giving the result that piece's span, but its code
//!   only records the span and never uses it; `:span` is accepted, at most once per group, for
//!   the same compatibility, and has no effect. Modifiers chain (`[<x:upper:lower>]`). Inside an
//!   invisible group, a modifier applies to that group's own pieces, and `:span` may appear
//!   once in it besides once outside it.
//! - The concatenation must make an identifier as `proc_macro::Ident::new` accepts it:
//!   keywords and `_` included (`let [<_>] = 1;`), also `$crate`, and non-ASCII text after NFC
//!   normalization.
//! - A `macro_rules!` fragment used as a path segment arrives as an invisible group, which a
//!   path cannot contain, so after expanding each token stream (at every nesting level) an
//!   invisible group just before or just after a `::` is replaced by its contents. Like the
//!   kernel, this only looks at a `::` (its first `:` joint to the second) that has a token
//!   both before and after it in the stream: a `::` that starts or ends a stream unwraps
//!   nothing. The walk is the kernel's, position for position: the `::`s from the end of the
//!   stream to its start, for each the group after it, then the group before it.
//!
//! Where the kernel panics (an unknown modifier, a token that cannot be a piece, a
//! concatenation that is not an identifier), this crate reports a compile error at the
//! offending token, with a message naming the problem: misuse never panics.

use crate::tokens::{is_punct, Error};
use proc_macro::{Delimiter, Group, Ident, Spacing, Span, TokenStream, TokenTree};
use std::panic;

/// Expands `paste! { ... }`.
pub(crate) fn expand(input: TokenStream) -> Result<TokenStream, Error> {
    let mut tokens: Vec<TokenTree> = input.into_iter().collect();
    expand_tokens(&mut tokens)?;
    Ok(tokens.into_iter().collect())
}

/// Replaces the paste groups of `tokens`, recursively, then unwraps the invisible groups next
/// to its `::`s.
fn expand_tokens(tokens: &mut Vec<TokenTree>) -> Result<(), Error> {
    for token in tokens.iter_mut() {
        let TokenTree::Group(group) = token else {
            continue;
        };
        let span = group.span();
        let mut inner: Vec<TokenTree> = group.stream().into_iter().collect();
        if is_paste_group(group.delimiter(), &inner) {
            *token = TokenTree::Ident(concat(&inner[1..inner.len() - 1], span)?);
        } else {
            expand_tokens(&mut inner)?;
            let mut rebuilt = Group::new(group.delimiter(), inner.into_iter().collect());
            rebuilt.set_span(span);
            *token = TokenTree::Group(rebuilt);
        }
    }
    remove_invisible_groups_in_paths(tokens);
    Ok(())
}

/// Whether a group delimited by `delimiter` around `inner` is `[< pieces >]`: at least three
/// tokens, so `[<>]` is not one.
fn is_paste_group(delimiter: Delimiter, inner: &[TokenTree]) -> bool {
    delimiter == Delimiter::Bracket
        && inner.len() >= 3
        && is_punct(&inner[0], '<')
        && is_punct(&inner[inner.len() - 1], '>')
}

/// The texts of the pieces in `tokens`, modifiers applied.
///
/// An invisible group's contents are pieces of their own, read by a call of their own: a
/// modifier there cannot reach a piece outside, and `:span` is counted separately.
fn pieces(tokens: &[TokenTree]) -> Result<Vec<String>, Error> {
    let mut out: Vec<String> = Vec::new();
    let mut had_span = false;
    let mut it = tokens.iter();
    while let Some(token) = it.next() {
        match token {
            TokenTree::Ident(ident) => {
                let text = ident.to_string();
                out.push(text.strip_prefix("r#").unwrap_or(&text).to_string());
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                let unquoted = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
                out.push(unquoted.map_or_else(|| text.clone(), str::to_string));
            }
            TokenTree::Punct(colon) if colon.as_char() == ':' => {
                let Some(TokenTree::Ident(modifier)) = it.next() else {
                    return Err(Error::new(
                        colon.span(),
                        "paste!: `:` must be followed by a modifier: `lower`, `upper` or `span`",
                    ));
                };
                let Some(last) = out.last_mut() else {
                    return Err(Error::new(
                        modifier.span(),
                        "paste!: a modifier must follow the piece it applies to, as in `[<$name:lower>]`",
                    ));
                };
                match modifier.to_string().as_str() {
                    "lower" => *last = last.to_lowercase(),
                    "upper" => *last = last.to_uppercase(),
                    // Accepted as the kernel accepts it, without effect: see the module docs.
                    "span" if had_span => {
                        return Err(Error::new(
                            modifier.span(),
                            "paste!: `:span` may appear at most once in a `[< >]` group",
                        ));
                    }
                    "span" => had_span = true,
                    other => {
                        return Err(Error::new(
                            modifier.span(),
                            format!("paste!: unknown modifier `{other}`: use `lower`, `upper` or `span`"),
                        ));
                    }
                }
            }
            // `$x` where `x` is a macro_rules fragment may arrive as an invisible group.
            TokenTree::Group(group) if group.delimiter() == Delimiter::None => {
                let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                out.extend(pieces(&inner)?);
            }
            other => {
                return Err(Error::new(
                    other.span(),
                    format!(
                        "paste!: `{other}` cannot be part of an identifier: `[< >]` takes identifiers, literals and `:lower`/`:upper`/`:span`"
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// Concatenates the pieces of one paste group into an identifier with the group's span.
fn concat(tokens: &[TokenTree], group_span: Span) -> Result<Ident, Error> {
    let text: String = pieces(tokens)?.concat();
    if text.is_empty() {
        return Err(Error::new(
            group_span,
            "paste!: the pieces make an empty identifier",
        ));
    }
    new_ident(&text, group_span).ok_or_else(|| {
        Error::new(
            group_span,
            format!("paste!: the pieces make `{text}`, which is not a valid identifier"),
        )
    })
}

/// `Ident::new(text, span)`, or `None` where that panics (as the kernel's `paste!` then does).
fn new_ident(text: &str, span: Span) -> Option<Ident> {
    if text.is_ascii() && text != "$crate" {
        // `proc_macro`'s own rule for ASCII: keywords and `_` are identifiers, `r#x` is not.
        let mut chars = text.chars();
        let valid = chars
            .next()
            .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
            && chars.all(|c| c == '_' || c.is_ascii_alphanumeric());
        return valid.then(|| Ident::new(text, span));
    }
    // Beyond ASCII, and for `$crate` (which rustc 1.95 accepts and 1.85 does not), only the
    // compiler knows (NFC normalization, then `XID_Start`/`XID_Continue`), and its answer is
    // whether `Ident::new` panics. The panic is caught here, before it leaves
    // the macro; `proc_macro` keeps panics inside an expansion quiet, so nothing is printed.
    panic::catch_unwind(|| Ident::new(text, span)).ok()
}

/// Unwraps invisible groups next to `::`: a path segment cannot be a group, and `$x::y` where
/// `$x` was a `macro_rules` fragment produces one.
///
/// The kernel's walk, position for position: each `::` with a token before and after it, from
/// the last to the first; the group after it is unwrapped, then the group before it. Splicing
/// moves nothing before the spliced group, so the walk goes on at the next lower position, which
/// may now fall on the first tokens of contents just spliced in, as it does in the kernel.
fn remove_invisible_groups_in_paths(tokens: &mut Vec<TokenTree>) {
    /// The contents of an invisible group.
    fn invisible(token: &TokenTree) -> Option<TokenStream> {
        match token {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => Some(g.stream()),
            _ => None,
        }
    }
    // `at` is where the `::` starts: from `len - 3` (a token after it) down to 1 (one before).
    let mut at = tokens.len().saturating_sub(2);
    while at > 1 {
        at -= 1;
        let is_path_sep = matches!(
            (&tokens[at], &tokens[at + 1]),
            (TokenTree::Punct(a), TokenTree::Punct(b))
                if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
        );
        // Only empty invisible groups, unwrapped to nothing, can leave a `::` without a token
        // after it here (the kernel then indexes out of bounds); such a `::` is skipped.
        let Some(after) = tokens.get(at + 2) else {
            continue;
        };
        if !is_path_sep {
            continue;
        }
        if let Some(stream) = invisible(after) {
            tokens.splice(at + 2..at + 3, stream);
        }
        if let Some(stream) = invisible(&tokens[at - 1]) {
            tokens.splice(at - 1..at, stream);
        }
    }
}
