// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The little token handling that `syn` would otherwise provide.

use proc_macro::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};

/// A compile error at a span.
pub(crate) struct Error {
    span: Span,
    message: String,
}

impl Error {
    /// An error with `message`, reported at `span`.
    pub(crate) fn new(span: Span, message: impl Into<String>) -> Self {
        Self {
            span,
            message: message.into(),
        }
    }

    /// `::core::compile_error! { "message" }`, spanned so the error points at the culprit.
    pub(crate) fn into_compile_error(self) -> TokenStream {
        let span = self.span;
        let mut message = proc_macro::Literal::string(&self.message);
        message.set_span(span);
        let body: TokenStream = TokenTree::Literal(message).into();
        let mut out = Vec::new();
        out.extend(path(&["core", "compile_error"], span));
        let mut bang = Punct::new('!', Spacing::Alone);
        bang.set_span(span);
        out.push(TokenTree::Punct(bang));
        let mut group = Group::new(Delimiter::Brace, body);
        group.set_span(span);
        out.push(TokenTree::Group(group));
        out.into_iter().collect()
    }
}

/// `::a::b::...` with every token at `span`.
pub(crate) fn path(segments: &[&str], span: Span) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for segment in segments {
        let mut first = Punct::new(':', Spacing::Joint);
        first.set_span(span);
        let mut second = Punct::new(':', Spacing::Alone);
        second.set_span(span);
        out.push(TokenTree::Punct(first));
        out.push(TokenTree::Punct(second));
        out.push(TokenTree::Ident(Ident::new(segment, span)));
    }
    out
}

/// Parses Rust source written by this crate; it is always valid, so failure is a bug here.
pub(crate) fn code(source: &str) -> TokenStream {
    source
        .parse()
        .unwrap_or_else(|_| panic!("kernel-core-macros produced invalid tokens: {source}"))
}

/// Whether `tree` is the punctuation `ch`.
pub(crate) fn is_punct(tree: &TokenTree, ch: char) -> bool {
    matches!(tree, TokenTree::Punct(p) if p.as_char() == ch)
}

/// Whether `tree` is the identifier `name`.
pub(crate) fn is_ident(tree: &TokenTree, name: &str) -> bool {
    matches!(tree, TokenTree::Ident(i) if i.to_string() == name)
}

/// Whether `tree` is a group delimited by `delimiter`.
pub(crate) fn is_group(tree: &TokenTree, delimiter: Delimiter) -> bool {
    matches!(tree, TokenTree::Group(g) if g.delimiter() == delimiter)
}

/// A `#[...]` or `#![...]` attribute.
#[derive(Clone)]
pub(crate) struct Attribute {
    /// `#`, maybe `!`, and the bracket group.
    pub(crate) tokens: Vec<TokenTree>,
    /// The bracket group's contents.
    pub(crate) body: Vec<TokenTree>,
}

impl Attribute {
    /// The first identifier of the attribute's path: `cfg` for `#[cfg(x)]`.
    pub(crate) fn name(&self) -> Option<String> {
        match self.body.first() {
            Some(TokenTree::Ident(ident)) => Some(ident.to_string()),
            _ => None,
        }
    }

    /// Whether the attribute is exactly `#[name]`, or `#[name(...)]`/`#[name = ...]` when
    /// `with_arguments` is set.
    pub(crate) fn is(&self, name: &str, with_arguments: bool) -> bool {
        self.name().as_deref() == Some(name) && (with_arguments || self.body.len() == 1)
    }
}

/// Takes the attributes at the front of `tokens[*at..]`; with `inner`, the `#![...]` ones.
pub(crate) fn take_attributes(tokens: &[TokenTree], at: &mut usize, inner: bool) -> Vec<Attribute> {
    let mut attributes = Vec::new();
    loop {
        let start = *at;
        let Some(pound) = tokens.get(start) else {
            break;
        };
        if !is_punct(pound, '#') {
            break;
        }
        let mut next = start + 1;
        let bang = tokens.get(next).is_some_and(|t| is_punct(t, '!'));
        if bang != inner {
            break;
        }
        if bang {
            next += 1;
        }
        match tokens.get(next) {
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Bracket => {
                attributes.push(Attribute {
                    tokens: tokens[start..=next].to_vec(),
                    body: group.stream().into_iter().collect(),
                });
                *at = next + 1;
            }
            _ => break,
        }
    }
    attributes
}

/// Takes a visibility (`pub`, `pub(crate)`, `pub(in path)`) at `tokens[*at..]`, if any: also
/// one that a `macro_rules!` passed as a `$v:vis` fragment, which arrives as an invisible group
/// (empty for a private item).
pub(crate) fn take_visibility(tokens: &[TokenTree], at: &mut usize) -> Vec<TokenTree> {
    let start = *at;
    if let Some(TokenTree::Group(group)) = tokens.get(start) {
        let mut inner = group.stream().into_iter();
        if group.delimiter() == Delimiter::None && inner.next().is_none_or(|t| is_ident(&t, "pub"))
        {
            *at += 1;
            return tokens[start..*at].to_vec();
        }
    }
    if tokens.get(start).is_some_and(|t| is_ident(t, "pub")) {
        *at += 1;
        if tokens
            .get(*at)
            .is_some_and(|t| is_group(t, Delimiter::Parenthesis))
        {
            *at += 1;
        }
    }
    tokens[start..*at].to_vec()
}

/// One item of a module body.
pub(crate) struct Item {
    /// Its outer attributes.
    pub(crate) attributes: Vec<Attribute>,
    /// Everything after the attributes.
    pub(crate) rest: Vec<TokenTree>,
}

impl Item {
    /// The function's name if the item is a function (`fn`, `const fn`, `unsafe fn`, ...).
    pub(crate) fn function_name(&self) -> Option<Ident> {
        let mut at = 0;
        take_visibility(&self.rest, &mut at);
        while let Some(tree) = self.rest.get(at) {
            match tree {
                TokenTree::Ident(i) if i.to_string() == "fn" => {
                    return match self.rest.get(at + 1) {
                        Some(TokenTree::Ident(name)) => Some(name.clone()),
                        _ => None,
                    };
                }
                TokenTree::Ident(i)
                    if matches!(
                        i.to_string().as_str(),
                        "const" | "async" | "unsafe" | "extern" | "default" | "safe"
                    ) => {}
                TokenTree::Literal(_) => {} // The ABI of `extern "C" fn`.
                _ => return None,
            }
            at += 1;
        }
        None
    }

    /// The item's tokens, attributes included.
    pub(crate) fn to_tokens(&self, out: &mut Vec<TokenTree>) {
        for attribute in &self.attributes {
            out.extend(attribute.tokens.iter().cloned());
        }
        out.extend(self.rest.iter().cloned());
    }
}

/// Splits a module body (after its inner attributes) into items.
///
/// An item ends at its first top-level `;` or `{...}` group, except for items whose
/// initializer may contain braces (`const X`, `static`, `use`, `type`), which end at `;` only.
/// That is enough to find the functions of a test module and keep everything else verbatim.
pub(crate) fn split_items(tokens: &[TokenTree]) -> Vec<Item> {
    let mut items = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let attributes = take_attributes(tokens, &mut at, false);
        let start = at;
        let mut keyword_at = at;
        take_visibility(tokens, &mut keyword_at);
        let semicolon_only = match tokens.get(keyword_at) {
            Some(t) if is_ident(t, "const") => !tokens.get(keyword_at + 1).is_some_and(|t| {
                ["fn", "unsafe", "async", "extern"]
                    .iter()
                    .any(|k| is_ident(t, k))
            }),
            Some(t) => ["static", "use", "type", "let"]
                .iter()
                .any(|k| is_ident(t, k)),
            None => false,
        };
        while let Some(tree) = tokens.get(at) {
            at += 1;
            if is_punct(tree, ';') || (!semicolon_only && is_group(tree, Delimiter::Brace)) {
                break;
            }
        }
        items.push(Item {
            attributes,
            rest: tokens[start..at].to_vec(),
        });
    }
    items
}
