// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Reading struct definitions and generics: what `syn` gives Linux 7.3's pin-init macros.
//!
//! Only what the macros need is read; everything else stays tokens, copied to the output as
//! written (so errors in it are the compiler's, at the user's code).

use proc_macro::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};

use crate::tokens::Error;
use crate::tokens::{is_group, is_ident, is_punct, take_attributes, take_visibility, Attribute};

/// Whether `tokens[at]` is a `>` that closes an angle bracket: not the `>` of `->`.
fn closes_angle(tokens: &[TokenTree], at: usize) -> bool {
    is_punct(&tokens[at], '>')
        && !(at > 0
            && matches!(&tokens[at - 1], TokenTree::Punct(p)
                if p.as_char() == '-' && p.spacing() == Spacing::Joint))
}

/// Splits type-level tokens (generic parameters, where clauses, fields) at the commas outside
/// angle brackets: `Foo<A, B>` is one piece, and `->` closes nothing. A trailing comma makes no
/// empty piece.
pub(crate) fn split_commas(tokens: &[TokenTree]) -> Vec<Vec<TokenTree>> {
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0_usize, 0);
    for at in 0..tokens.len() {
        if is_punct(&tokens[at], '<') {
            depth += 1;
        } else if closes_angle(tokens, at) {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && is_punct(&tokens[at], ',') {
            pieces.push(tokens[start..at].to_vec());
            start = at + 1;
        }
    }
    if start < tokens.len() {
        pieces.push(tokens[start..].to_vec());
    }
    pieces
}

/// The kind of one generic parameter.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamKind {
    /// `'a: 'b`.
    Lifetime,
    /// `T: Bound = Default`.
    Type,
    /// `const N: usize = 3`.
    Const,
}

/// One generic parameter.
#[derive(Clone)]
pub(crate) struct Param {
    pub(crate) kind: ParamKind,
    /// Its name: `'a`, `T` or `N`.
    pub(crate) name: Vec<TokenTree>,
    /// As declared, without the default: `T: Bound`, `const N: usize`.
    pub(crate) declared: Vec<TokenTree>,
    /// `= Default`, if any.
    pub(crate) default: Vec<TokenTree>,
}

/// The generic parameters and where clause of an item.
#[derive(Clone, Default)]
pub(crate) struct Generics {
    pub(crate) params: Vec<Param>,
    /// The where clause's predicates, without `where`; maybe with a trailing comma.
    pub(crate) predicates: Vec<TokenTree>,
}

impl Generics {
    /// Reads `<...>` at `tokens[*at..]`, if there.
    pub(crate) fn take_params(tokens: &[TokenTree], at: &mut usize) -> Result<Self, Error> {
        let mut generics = Generics::default();
        if !tokens.get(*at).is_some_and(|t| is_punct(t, '<')) {
            return Ok(generics);
        }
        let open = *at;
        let mut depth = 0_usize;
        let mut close = None;
        for index in open..tokens.len() {
            if is_punct(&tokens[index], '<') {
                depth += 1;
            } else if closes_angle(tokens, index) {
                depth -= 1;
                if depth == 0 {
                    close = Some(index);
                    break;
                }
            }
        }
        let Some(close) = close else {
            return Err(Error::new(
                tokens[open].span(),
                "unclosed `<` of generic parameters",
            ));
        };
        for piece in split_commas(&tokens[open + 1..close]) {
            generics.params.push(Param::parse(piece)?);
        }
        *at = close + 1;
        Ok(generics)
    }

    /// Reads `where ...` at `tokens[*at..]`, up to (not including) the first brace group or `;`.
    pub(crate) fn take_where(&mut self, tokens: &[TokenTree], at: &mut usize) {
        if !tokens.get(*at).is_some_and(|t| is_ident(t, "where")) {
            return;
        }
        *at += 1;
        while let Some(tree) = tokens.get(*at) {
            if is_group(tree, Delimiter::Brace) || is_punct(tree, ';') {
                break;
            }
            self.predicates.push(tree.clone());
            *at += 1;
        }
    }

    /// `<extra, params...>` with the parameters as declared (defaults kept): for a struct.
    pub(crate) fn declaration(&self, extra: Option<&str>) -> TokenStream {
        self.angle(extra, |param, out| {
            out.extend(param.declared.iter().cloned());
            out.extend(param.default.iter().cloned());
        })
    }

    /// `<extra, params...>` without defaults: for `impl<...>`.
    pub(crate) fn impl_params(&self, extra: Option<&str>) -> TokenStream {
        self.angle(extra, |param, out| {
            out.extend(param.declared.iter().cloned())
        })
    }

    /// `<extra, names...>`: the arguments that name the type.
    pub(crate) fn type_args(&self, extra: Option<&str>) -> TokenStream {
        self.angle(extra, |param, out| out.extend(param.name.iter().cloned()))
    }

    /// `where predicates, extra...`, or nothing if both are empty.
    pub(crate) fn where_clause(&self, extra: &[TokenStream]) -> TokenStream {
        if self.predicates.is_empty() && extra.is_empty() {
            return TokenStream::new();
        }
        let mut out: Vec<TokenTree> = vec![Ident::new("where", Span::call_site()).into()];
        out.extend(self.predicates.iter().cloned());
        for predicate in extra {
            if out
                .last()
                .is_some_and(|t| !is_punct(t, ',') && !is_ident(t, "where"))
            {
                out.push(Punct::new(',', Spacing::Alone).into());
            }
            out.extend(predicate.clone());
        }
        out.into_iter().collect()
    }

    /// Puts `bound` first in the bounds of every type parameter: `T` becomes `T: bound`,
    /// `T: Copy` becomes `T: bound + Copy`.
    pub(crate) fn bound_type_params(&mut self, bound: &TokenStream) {
        for param in self.params.iter_mut().filter(|p| p.kind == ParamKind::Type) {
            let mut declared = param.name.clone();
            declared.push(Punct::new(':', Spacing::Alone).into());
            declared.extend(bound.clone());
            let rest = &param.declared[param.name.len()..];
            if rest.first().is_some_and(|t| is_punct(t, ':')) && rest.len() > 1 {
                declared.push(Punct::new('+', Spacing::Alone).into());
                declared.extend(rest[1..].iter().cloned());
            }
            param.declared = declared;
        }
    }

    fn angle(
        &self,
        extra: Option<&str>,
        mut each: impl FnMut(&Param, &mut Vec<TokenTree>),
    ) -> TokenStream {
        if self.params.is_empty() && extra.is_none() {
            return TokenStream::new();
        }
        let mut out: Vec<TokenTree> = vec![Punct::new('<', Spacing::Alone).into()];
        if let Some(extra) = extra {
            out.extend(crate::tokens::code(extra));
            out.push(Punct::new(',', Spacing::Alone).into());
        }
        for param in &self.params {
            each(param, &mut out);
            out.push(Punct::new(',', Spacing::Alone).into());
        }
        out.push(Punct::new('>', Spacing::Alone).into());
        out.into_iter().collect()
    }
}

impl Param {
    fn parse(tokens: Vec<TokenTree>) -> Result<Self, Error> {
        if let Some(pound) = tokens.first().filter(|t| is_punct(t, '#')) {
            return Err(Error::new(
                pound.span(),
                "attributes on generic parameters are not supported by the pin-init macros",
            ));
        }
        let (kind, name) = match (tokens.first(), tokens.get(1)) {
            (Some(TokenTree::Punct(p)), Some(TokenTree::Ident(_))) if p.as_char() == '\'' => {
                (ParamKind::Lifetime, tokens[..2].to_vec())
            }
            (Some(TokenTree::Ident(c)), Some(TokenTree::Ident(n))) if c.to_string() == "const" => {
                (ParamKind::Const, vec![TokenTree::Ident(n.clone())])
            }
            (Some(TokenTree::Ident(t)), _) => (ParamKind::Type, vec![TokenTree::Ident(t.clone())]),
            (other, _) => {
                let span = other.map_or_else(Span::call_site, TokenTree::span);
                return Err(Error::new(span, "expected a generic parameter"));
            }
        };
        // The default is the `=` outside angle brackets (`Item = u8` in a bound is inside).
        let mut depth = 0_usize;
        let mut split = tokens.len();
        for index in 0..tokens.len() {
            if is_punct(&tokens[index], '<') {
                depth += 1;
            } else if closes_angle(&tokens, index) {
                depth = depth.saturating_sub(1);
            } else if depth == 0 && is_punct(&tokens[index], '=') {
                split = index;
                break;
            }
        }
        Ok(Param {
            kind,
            name,
            declared: tokens[..split].to_vec(),
            default: tokens[split..].to_vec(),
        })
    }
}

/// One field of a struct or union.
pub(crate) struct Field {
    pub(crate) attributes: Vec<Attribute>,
    pub(crate) visibility: Vec<TokenTree>,
    /// `None` in a tuple struct.
    pub(crate) name: Option<Ident>,
    pub(crate) ty: Vec<TokenTree>,
}

impl Field {
    /// The field as declared.
    pub(crate) fn to_tokens(&self) -> TokenStream {
        let mut out: Vec<TokenTree> = Vec::new();
        for attribute in &self.attributes {
            out.extend(attribute.tokens.iter().cloned());
        }
        out.extend(self.visibility.iter().cloned());
        if let Some(name) = &self.name {
            out.push(name.clone().into());
            out.push(Punct::new(':', Spacing::Alone).into());
        }
        out.extend(self.ty.iter().cloned());
        out.into_iter().collect()
    }
}

/// The body of a struct, enum or union.
pub(crate) enum Body {
    /// `{ a: A, b: B }`, with the brace's span.
    Named(Vec<Field>, Span),
    /// `(A, B)`, with the parenthesis's span.
    Tuple(Vec<Field>, Span),
    /// `;`.
    Unit,
}

/// A struct, enum or union definition, as a derive or attribute macro gets it.
pub(crate) struct ItemDef {
    pub(crate) attributes: Vec<Attribute>,
    pub(crate) visibility: Vec<TokenTree>,
    /// `struct`, `enum` or `union`.
    pub(crate) keyword: Ident,
    pub(crate) name: Ident,
    pub(crate) generics: Generics,
    /// For an enum, `Body::Named` with no fields: an enum's body is never read.
    pub(crate) body: Body,
}

impl ItemDef {
    /// Reads a struct, enum or union definition; `what` names the macro, for errors.
    pub(crate) fn parse(item: TokenStream, what: &str) -> Result<Self, Error> {
        let tokens: Vec<TokenTree> = item.into_iter().collect();
        let mut at = 0;
        let attributes = take_attributes(&tokens, &mut at, false);
        let visibility = take_visibility(&tokens, &mut at);
        let keyword = match tokens.get(at) {
            Some(TokenTree::Ident(k)) if ["struct", "enum", "union"].contains(&&*k.to_string()) => {
                k.clone()
            }
            other => {
                let span = other.map_or_else(Span::call_site, TokenTree::span);
                return Err(Error::new(
                    span,
                    format!("{what} can only be applied to struct, enum and union definitions"),
                ));
            }
        };
        let name = match tokens.get(at + 1) {
            Some(TokenTree::Ident(name)) => name.clone(),
            other => {
                let span = other.map_or(keyword.span(), TokenTree::span);
                return Err(Error::new(span, "expected the type's name"));
            }
        };
        at += 2;
        let mut generics = Generics::take_params(&tokens, &mut at)?;
        generics.take_where(&tokens, &mut at);
        let body = match tokens.get(at) {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                at += 1;
                if keyword.to_string() == "enum" {
                    Body::Named(Vec::new(), g.span())
                } else {
                    Body::Named(fields(g, true)?, g.span())
                }
            }
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
                at += 1;
                generics.take_where(&tokens, &mut at);
                if !tokens.get(at).is_some_and(|t| is_punct(t, ';')) {
                    return Err(Error::new(g.span(), "expected `;` after a tuple struct"));
                }
                at += 1;
                Body::Tuple(fields(g, false)?, g.span())
            }
            Some(t) if is_punct(t, ';') => {
                at += 1;
                Body::Unit
            }
            other => {
                let span = other.map_or(name.span(), TokenTree::span);
                return Err(Error::new(span, "expected the type's body"));
            }
        };
        if let Some(extra) = tokens.get(at) {
            return Err(Error::new(
                extra.span(),
                "unexpected tokens after the type's definition",
            ));
        }
        Ok(ItemDef {
            attributes,
            visibility,
            keyword,
            name,
            generics,
            body,
        })
    }

    /// The fields, none for a unit struct.
    pub(crate) fn fields(&self) -> &[Field] {
        match &self.body {
            Body::Named(fields, _) | Body::Tuple(fields, _) => fields,
            Body::Unit => &[],
        }
    }

    /// The fields, mutably.
    pub(crate) fn fields_mut(&mut self) -> &mut Vec<Field> {
        match &mut self.body {
            Body::Named(fields, _) | Body::Tuple(fields, _) => fields,
            Body::Unit => unreachable!("no caller asks for a unit struct's fields"),
        }
    }

    /// `Name<T, U>`: the type, named with its own parameters.
    pub(crate) fn self_type(&self) -> TokenStream {
        let mut out: TokenStream = TokenTree::Ident(self.name.clone()).into();
        out.extend(self.generics.type_args(None));
        out
    }

    /// `Name::<T, U>`: the type, named so that it reads the same in types and expressions.
    pub(crate) fn self_path(&self) -> TokenStream {
        let mut out: TokenStream = TokenTree::Ident(self.name.clone()).into();
        if !self.generics.params.is_empty() {
            out.extend(crate::tokens::code("::"));
            out.extend(self.generics.type_args(None));
        }
        out
    }

    /// The definition again.
    pub(crate) fn to_tokens(&self) -> TokenStream {
        let mut out: Vec<TokenTree> = Vec::new();
        for attribute in &self.attributes {
            out.extend(attribute.tokens.iter().cloned());
        }
        out.extend(self.visibility.iter().cloned());
        out.push(self.keyword.clone().into());
        out.push(self.name.clone().into());
        out.extend(self.generics.declaration(None));
        let where_clause = self.generics.where_clause(&[]);
        match &self.body {
            Body::Named(fields, span) => {
                out.extend(where_clause);
                out.push(field_group(fields, Delimiter::Brace, *span));
            }
            Body::Tuple(fields, span) => {
                out.push(field_group(fields, Delimiter::Parenthesis, *span));
                out.extend(where_clause);
                out.push(Punct::new(';', Spacing::Alone).into());
            }
            Body::Unit => {
                out.extend(where_clause);
                out.push(Punct::new(';', Spacing::Alone).into());
            }
        }
        out.into_iter().collect()
    }
}

fn field_group(fields: &[Field], delimiter: Delimiter, span: Span) -> TokenTree {
    let mut body = TokenStream::new();
    for field in fields {
        body.extend(field.to_tokens());
        body.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
    }
    let mut group = Group::new(delimiter, body);
    group.set_span(span);
    group.into()
}

/// The fields in `group`: `name: Type` with `named`, else `Type`.
fn fields(group: &Group, named: bool) -> Result<Vec<Field>, Error> {
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    let mut out = Vec::new();
    for piece in split_commas(&tokens) {
        let mut at = 0;
        let attributes = take_attributes(&piece, &mut at, false);
        let visibility = take_visibility(&piece, &mut at);
        let name = if named {
            match (piece.get(at), piece.get(at + 1)) {
                (Some(TokenTree::Ident(name)), Some(colon)) if is_punct(colon, ':') => {
                    at += 2;
                    Some(name.clone())
                }
                (other, _) => {
                    let span = other.map_or(group.span(), TokenTree::span);
                    return Err(Error::new(span, "expected a field: `name: Type`"));
                }
            }
        } else {
            None
        };
        if at == piece.len() {
            return Err(Error::new(group.span(), "expected the field's type"));
        }
        out.push(Field {
            attributes,
            visibility,
            name,
            ty: piece[at..].to_vec(),
        });
    }
    Ok(out)
}

/// `tokens` with every `Self` replaced by `replacement` (in groups too).
///
/// `#[pin_data]` defines types of its own with the struct's generics and field types, where
/// `Self` would name the wrong type. Linux 7.3 replaces it the same way (outside nested items,
/// which cannot appear in a field's type in practice).
pub(crate) fn replace_self(tokens: &[TokenTree], replacement: &TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::with_capacity(tokens.len());
    for tree in tokens {
        match tree {
            TokenTree::Ident(ident) if ident.to_string() == "Self" => {
                out.extend(crate::pin_init::template::located_at(
                    replacement.clone(),
                    ident.span(),
                ));
            }
            TokenTree::Group(group) => {
                let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                let mut copy = Group::new(
                    group.delimiter(),
                    replace_self(&inner, replacement).into_iter().collect(),
                );
                copy.set_span(group.span());
                out.push(copy.into());
            }
            other => out.push(other.clone()),
        }
    }
    out
}
