// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `pin_init!` and `init!`: initialisers of structs, field by field, in place.
//!
//! Kernel counterpart: `rust/pin-init/internal/src/init.rs` (Linux 7.3). The input is
//!
//! ```text
//! #[default_error(Error)]*  &this in?  Path { field, field: value, field <- init,
//!                                              _: { code }, #[cfg(..)] field..., ..Zeroable::init_zeroed() }  ? Error
//! ```
//!
//! and the expansion is a closure over the slot, made an initialiser by
//! `::pin_init::pin_init_from_closure` (or `init_from_closure`), that:
//!
//! 1. with `..Zeroable::init_zeroed()`, checks that the struct is `Zeroable` and zeroes it;
//! 2. with `&this in`, binds `this`, a `NonNull` to the slot;
//! 3. initialises the fields in the order written, each through its `Slot` (pinned or not as
//!    `#[pin_data]` says; always unpinned for `init!`), keeping a `DropGuard` per field, which
//!    drops the field in place if a later one fails (`?`) or panics, and binding the field's
//!    name to it (`&mut T`, or `Pin<&mut T>` when pinned) for the initialisers after it;
//! 4. forgets the guards once all fields are there, and returns the `InitOk` proof that only
//!    this expansion can make (so user code cannot `return Ok` early);
//! 5. holds, in a closure never called, the compile-time checks: a reference to each named
//!    field (an unaligned field of a packed struct is an error) and a struct expression naming
//!    each field once (a missing or repeated field is the compiler's own error, at the user's
//!    code); with `..Zeroable::init_zeroed()`, fields may be missing.
//!
//! Without `syn`, the expressions are found by splitting the body at the commas outside any
//! group, closure parameter list, turbofish (`::<A, B>`), qualified path (`<A as B>::`) or type
//! after `as`; this module is that splitting and the expansion above.

use proc_macro::{Delimiter, Group, Ident, Spacing, Span, TokenStream, TokenTree};

use super::template::{fill, hidden, join, located_at};
use crate::tokens::{is_group, is_ident, is_punct, take_attributes, Attribute, Error};

/// What a field of the initialiser does.
enum Kind {
    /// `name` or `name: value`: the value is moved into the field.
    Value(Ident, Option<Vec<TokenTree>>),
    /// `name <- init`: the field is initialised in place.
    Init(Ident, Vec<TokenTree>),
    /// `_: { code }`: runs the code, in order with the fields.
    Code(Group),
}

/// One entry of the initialiser's body.
struct Entry {
    attributes: Vec<Attribute>,
    kind: Kind,
}

/// The parsed input.
struct Initializer {
    default_error: Option<TokenStream>,
    this: Option<Ident>,
    path: Vec<TokenTree>,
    entries: Vec<Entry>,
    /// The tokens of `..Zeroable::init_zeroed()`, if it ends the body.
    zeroing: Option<Vec<TokenTree>>,
    error: Option<TokenStream>,
}

/// Expands `pin_init!` (`pinned`) or `init!`.
pub(crate) fn expand(input: TokenStream, pinned: bool) -> Result<TokenStream, Error> {
    let init = parse(input)?;
    let error = init
        .error
        .clone()
        .or_else(|| init.default_error.clone())
        .unwrap_or_else(|| crate::tokens::code("::core::convert::Infallible"));
    let (has_data, get_data, from_closure) = if pinned {
        ("HasPinData", "__pin_data", "pin_init_from_closure")
    } else {
        ("HasInitData", "__init_data", "init_from_closure")
    };
    let data = hidden("__data");
    let zeroing = match &init.zeroing {
        None => TokenStream::new(),
        Some(tokens) => {
            // The check is reported at `..Zeroable::init_zeroed()` (at `Zeroable`: rustc 1.85
            // cannot join spans).
            let check = located_at(
                crate::tokens::code("assert_zeroable(slot);"),
                tokens[2].span(),
            );
            fill(
                "// `..Zeroable::init_zeroed()` ends the fields: the struct must be `Zeroable`,
                 // and its memory is zeroed first, so that the fields not named are zero.
                 fn assert_zeroable<T: ?::core::marker::Sized>(_: *mut T)
                 where
                     T: ::pin_init::Zeroable,
                 {}
                 #check
                 // SAFETY: `slot` is valid for writes, and all zero bytes are a valid value of
                 // the struct, which `assert_zeroable` proved `Zeroable`.
                 unsafe { ::core::ptr::write_bytes(slot, 0, 1) };",
                &[("check", check)],
            )
        }
    };
    let this = match &init.this {
        None => TokenStream::new(),
        Some(this) => fill(
            // SAFETY: `slot` is valid for writes, hence not null.
            "let #this = unsafe { ::core::ptr::NonNull::new_unchecked(slot) };",
            &[("this", TokenTree::Ident(this.clone()).into())],
        ),
    };
    let fields = init_fields(&init.entries, pinned, &data);
    let check = field_check(&init);
    let path: TokenStream = init.path.iter().cloned().collect();
    Ok(fill(
        "{
             // SAFETY: The expansions of the initializer macros may call this; this is one.
             let #data = unsafe {
                 use ::pin_init::__internal::#has_data;
                 // Not `<#path as #has_data>::`, which would need the generics the user may
                 // leave to inference.
                 #path::#get_data()
             };
             // `__make_closure` checks that the closure is one over `#path` and infers `slot`.
             let init = #data.__make_closure::<_, #error>(move |slot| {
                 #zeroing
                 #this
                 #fields
                 #check
                 // SAFETY: Every field has been initialized above (checked at compile time
                 // below), and this is the macro that may make the proof.
                 ::core::result::Result::Ok(unsafe { ::pin_init::__internal::InitOk::new() })
             });
             let init = move |slot| -> ::core::result::Result<(), #error> {
                 init(slot).map(|__InitOk| ())
             };
             // SAFETY: On `Ok`, the closure has initialized every field (each named once, or
             // zeroed first) through its slot, pinned where `#[pin_data]` says so (`init!`
             // pins none, and gives only `Init`s the slots); on an error or a panic, the
             // guards have dropped the fields initialized so far, leaving the memory
             // uninitialized.
             unsafe { ::pin_init::#from_closure::<_, #error>(init) }
         }",
        &[
            ("data", data),
            ("has_data", ident(has_data)),
            ("path", path),
            ("get_data", ident(get_data)),
            ("error", error),
            ("zeroing", zeroing),
            ("this", this),
            ("fields", fields),
            ("check", check),
            ("from_closure", ident(from_closure)),
        ],
    ))
}

fn ident(name: &str) -> TokenStream {
    TokenTree::Ident(Ident::new(name, Span::call_site())).into()
}

/// The `#[cfg]`s among `attributes`.
fn cfgs(attributes: &[Attribute]) -> TokenStream {
    attributes
        .iter()
        .filter(|a| a.is("cfg", true))
        .flat_map(|a| a.tokens.iter().cloned())
        .collect()
}

fn all(attributes: &[Attribute]) -> TokenStream {
    attributes
        .iter()
        .flat_map(|a| a.tokens.iter().cloned())
        .collect()
}

/// The statements that initialise the fields, in order, then forget their guards.
fn init_fields(entries: &[Entry], pinned: bool, data: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    let mut forgets = TokenStream::new();
    for entry in entries {
        let attributes = all(&entry.attributes);
        let (name, value, in_place) = match &entry.kind {
            Kind::Code(block) => {
                out.extend(fill(
                    "#attributes #block",
                    &[
                        ("attributes", attributes),
                        ("block", TokenTree::Group(block.clone()).into()),
                    ],
                ));
                continue;
            }
            Kind::Value(name, Some(value)) => (name, value.iter().cloned().collect(), false),
            Kind::Value(name, None) => (name, TokenTree::Ident(name.clone()).into(), false),
            Kind::Init(name, init) => (name, init.iter().cloned().collect(), true),
        };
        let field: TokenStream = TokenTree::Ident(name.clone()).into();
        let slot = if pinned {
            fill(
                // SAFETY: `slot` is valid and aligned; the field check below proves the field
                // aligned and named once, so its memory is uninitialized and only this slot's.
                "(unsafe { #data.#field(slot) })",
                &[("data", data.clone()), ("field", field.clone())],
            )
        } else {
            fill(
                // SAFETY: As above; `init!` treats every field as unpinned.
                "(unsafe {
                     ::pin_init::__internal::Slot::<::pin_init::__internal::Unpinned, _>::new(
                         &raw mut (*slot).#field,
                     )
                 })",
                &[("field", field.clone())],
            )
        };
        let bare = name.to_string();
        let guard = hidden(&format!(
            "__{}_guard",
            bare.strip_prefix("r#").unwrap_or(&bare)
        ));
        let holes = [
            ("attributes", attributes),
            ("cfgs", cfgs(&entry.attributes)),
            ("slot", slot),
            ("value", value),
            ("guard", guard),
            ("field", field),
        ];
        out.extend(if in_place {
            fill("#attributes let mut #guard = #slot.init(#value)?;", &holes)
        } else {
            fill("#attributes let mut #guard = #slot.write(#value);", &holes)
        });
        out.extend(fill(
            "#cfgs
             // `non_snake_case`: the struct's definition gets that warning already.
             #[allow(unused_variables, non_snake_case)]
             let #field = #guard.let_binding();",
            &holes,
        ));
        forgets.extend(fill("#cfgs ::core::mem::forget(#guard);", &holes));
    }
    // Every field is initialized: the guards must not drop them any more.
    join([out, forgets])
}

/// The compile-time checks: each named field aligned, and named once (all of them, unless the
/// struct was zeroed first).
fn field_check(init: &Initializer) -> TokenStream {
    let mut references = TokenStream::new();
    let mut named = TokenStream::new();
    for entry in &init.entries {
        let (Kind::Value(name, _) | Kind::Init(name, _)) = &entry.kind else {
            continue;
        };
        let holes = [
            ("attributes", all(&entry.attributes)),
            ("field", TokenTree::Ident(name.clone()).into()),
        ];
        // Reported at the field's name.
        let reference = located_at(fill("&(*slot).#field", &holes), name.span());
        references.extend(fill(
            "#attributes let _ = #reference;",
            &[
                ("attributes", all(&entry.attributes)),
                ("reference", reference),
            ],
        ));
        named.extend(fill("#attributes #field: loop {},", &holes));
    }
    if init.zeroing.is_some() {
        named.extend(crate::tokens::code("..::core::mem::zeroed()"));
    }
    let mut body = Group::new(Delimiter::Brace, named);
    if let Some(last) = init.path.last() {
        body.set_span(last.span());
    }
    fill(
        "// Never called: the checks are the compiler's, of this code.
         #[allow(unreachable_code)]
         // SAFETY: Never executed.
         let _ = || unsafe {
             // A reference to a field is an error (E0793) if the field may be unaligned,
             // as in a packed struct: slots must be aligned.
             #references
             // The fields named once each, or all of them: a missing or repeated field is
             // the compiler's error, at the user's struct path.
             ::core::ptr::write(slot, #path #body)
         };",
        &[
            ("references", references),
            ("path", init.path.iter().cloned().collect()),
            ("body", TokenTree::Group(body).into()),
        ],
    )
}

fn parse(input: TokenStream) -> Result<Initializer, Error> {
    let tokens: Vec<TokenTree> = input.into_iter().collect();
    let mut at = 0;
    let mut default_error = None;
    for attribute in take_attributes(&tokens, &mut at, false) {
        match attribute.body.as_slice() {
            [TokenTree::Ident(name), TokenTree::Group(ty)]
                if name.to_string() == "default_error"
                    && ty.delimiter() == Delimiter::Parenthesis
                    && !ty.stream().is_empty() =>
            {
                default_error = Some(ty.stream());
            }
            _ => {
                return Err(Error::new(
                    attribute.tokens[0].span(),
                    "unknown initializer attribute",
                ))
            }
        }
    }
    let this = match (tokens.get(at), tokens.get(at + 1), tokens.get(at + 2)) {
        (Some(and), Some(TokenTree::Ident(this)), Some(in_))
            if is_punct(and, '&') && is_ident(in_, "in") =>
        {
            at += 3;
            Some(this.clone())
        }
        (Some(and), _, _) if is_punct(and, '&') => {
            return Err(Error::new(
                and.span(),
                "expected `&this in` before the struct's path",
            ));
        }
        _ => None,
    };
    let path_start = at;
    while tokens
        .get(at)
        .is_some_and(|t| !is_group(t, Delimiter::Brace))
    {
        at += 1;
    }
    let Some(TokenTree::Group(body)) = tokens.get(at) else {
        let span = tokens.last().map_or_else(Span::call_site, TokenTree::span);
        return Err(Error::new(
            span,
            "expected a struct initializer: `Path { field: value, ... }`",
        ));
    };
    if at == path_start {
        return Err(Error::new(
            body.span(),
            "expected the struct's path before `{`",
        ));
    }
    let path = tokens[path_start..at].to_vec();
    at += 1;
    let error = match tokens.get(at) {
        None => None,
        Some(question) if is_punct(question, '?') => {
            if at + 1 == tokens.len() {
                return Err(Error::new(
                    question.span(),
                    "expected the error type after `?`",
                ));
            }
            Some(tokens[at + 1..].iter().cloned().collect())
        }
        Some(other) => {
            return Err(Error::new(
                other.span(),
                "expected `? ErrorType` or nothing after the initializer's `}`",
            ))
        }
    };
    let (entries, zeroing) = parse_body(body)?;
    Ok(Initializer {
        default_error,
        this,
        path,
        entries,
        zeroing,
        error,
    })
}

/// Whether `tokens[at]` is the punctuation `first` joined to a following `second`.
fn is_joint(tokens: &[TokenTree], at: usize, first: char, second: char) -> bool {
    matches!(&tokens[at], TokenTree::Punct(p) if p.as_char() == first && p.spacing() == Spacing::Joint)
        && tokens.get(at + 1).is_some_and(|t| is_punct(t, second))
}

fn parse_body(body: &Group) -> Result<(Vec<Entry>, Option<Vec<TokenTree>>), Error> {
    let tokens: Vec<TokenTree> = body.stream().into_iter().collect();
    let mut entries = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let attributes = take_attributes(&tokens, &mut at, false);
        let Some(first) = tokens.get(at) else {
            return Err(Error::new(
                body.span(),
                "expected a field after the attributes",
            ));
        };
        if is_joint(&tokens, at, '.', '.') {
            let end = expression_end(&tokens, at + 2);
            let rest = &tokens[at..end];
            if !is_zeroing(&rest[2..]) || !attributes.is_empty() {
                return Err(Error::new(
                    rest.get(2).map_or(first.span(), TokenTree::span),
                    "expected nothing or `..Zeroable::init_zeroed()`.",
                ));
            }
            if let Some(extra) = tokens.get(end) {
                return Err(Error::new(
                    extra.span(),
                    "`..Zeroable::init_zeroed()` must come last, without a comma after it",
                ));
            }
            return Ok((entries, Some(rest.to_vec())));
        }
        let kind = match first {
            TokenTree::Ident(underscore) if underscore.to_string() == "_" => {
                match (tokens.get(at + 1), tokens.get(at + 2)) {
                    (Some(colon), Some(TokenTree::Group(block)))
                        if is_punct(colon, ':') && block.delimiter() == Delimiter::Brace =>
                    {
                        at += 3;
                        Kind::Code(block.clone())
                    }
                    _ => {
                        return Err(Error::new(
                            underscore.span(),
                            "expected a block after `_:`: `_: { ... }`",
                        ))
                    }
                }
            }
            TokenTree::Ident(name) => {
                at += 1;
                match tokens.get(at) {
                    None => Kind::Value(name.clone(), None),
                    Some(comma) if is_punct(comma, ',') => Kind::Value(name.clone(), None),
                    Some(colon) if is_punct(colon, ':') => {
                        let end = expression_end(&tokens, at + 1);
                        let value = tokens[at + 1..end].to_vec();
                        if value.is_empty() {
                            return Err(Error::new(
                                colon.span(),
                                "expected an expression after `:`",
                            ));
                        }
                        at = end;
                        Kind::Value(name.clone(), Some(value))
                    }
                    Some(_) if is_joint(&tokens, at, '<', '-') => {
                        let end = expression_end(&tokens, at + 2);
                        let init = tokens[at + 2..end].to_vec();
                        if init.is_empty() {
                            return Err(Error::new(
                                tokens[at + 1].span(),
                                "expected an initializer after `<-`",
                            ));
                        }
                        at = end;
                        Kind::Init(name.clone(), init)
                    }
                    Some(other) => {
                        return Err(Error::new(
                            other.span(),
                            "expected `:`, `<-`, `,` or `}` after the field's name",
                        ))
                    }
                }
            }
            other => {
                return Err(Error::new(
                    other.span(),
                    "expected a field (`name`, `name: value`, `name <- initializer`), \
                     `_: { ... }` or `..Zeroable::init_zeroed()`",
                ))
            }
        };
        if let Kind::Value(name, _) | Kind::Init(name, _) = &kind {
            check_field_name(name)?;
        }
        entries.push(Entry { attributes, kind });
        match tokens.get(at) {
            None => break,
            Some(comma) if is_punct(comma, ',') => at += 1,
            Some(other) => {
                return Err(Error::new(
                    other.span(),
                    "expected `,` or `}` after the field",
                ));
            }
        }
    }
    Ok((entries, None))
}

/// Refuses the field names that Linux 7.3's expansion cannot take, with the reason, rather
/// than accept here what fails in the kernel: its code (written like this one) breaks on them
/// too, but with a panic or unrelated type errors.
fn check_field_name(name: &Ident) -> Result<(), Error> {
    let text = name.to_string();
    if text == "slot" {
        return Err(Error::new(
            name.span(),
            "a field named `slot` cannot be initialized by `pin_init!` or `init!`: the \
             expansion names its pointer to the struct `slot` (as Linux 7.3's does, visibly to \
             the fields' expressions), and the field's binding would hide it; rename the field",
        ));
    }
    if text.starts_with("r#") {
        return Err(Error::new(
            name.span(),
            format!(
                "a raw identifier (`{text}`) cannot name a field in `pin_init!` or `init!`: \
                 Linux 7.3's macros panic on it; rename the field"
            ),
        ));
    }
    Ok(())
}

/// Whether `tokens` is exactly `Zeroable::init_zeroed()`, as Linux 7.3 requires (no leading
/// `::`, no generic arguments, no other path to the trait).
fn is_zeroing(tokens: &[TokenTree]) -> bool {
    matches!(tokens, [zeroable, c1, c2, init_zeroed, TokenTree::Group(args)]
        if is_ident(zeroable, "Zeroable")
            && is_punct(c1, ':')
            && is_punct(c2, ':')
            && is_ident(init_zeroed, "init_zeroed")
            && args.delimiter() == Delimiter::Parenthesis
            && args.stream().is_empty())
}

/// Where the expression starting at `tokens[start]` ends: at the first comma that is outside
/// its groups, closure parameters, turbofish and qualified-path brackets, and types after `as`
/// or `->`; or at the end.
fn expression_end(tokens: &[TokenTree], start: usize) -> usize {
    // Depth in angle brackets that are generics (`::<`, `<T as Trait>::`, `as Vec<A, B>`).
    let mut angles = 0_usize;
    // Whether a type is being read (after `as` or `->`), where `<` opens generics.
    let mut in_type = false;
    // Whether an operand may start here (so `|` opens closure parameters and `<` a path).
    let mut operand_start = true;
    let mut at = start;
    while at < tokens.len() {
        let tree = &tokens[at];
        let punct = match tree {
            TokenTree::Punct(p) => Some(p.as_char()),
            _ => None,
        };
        if angles > 0 {
            match punct {
                Some('<') => angles += 1,
                Some('>') if !(at > 0 && is_joint(tokens, at - 1, '-', '>')) => angles -= 1,
                _ => {}
            }
            operand_start = false;
            at += 1;
            continue;
        }
        if in_type {
            match (tree, punct) {
                (_, Some('<')) => {
                    angles = 1;
                    at += 1;
                    continue;
                }
                (_, Some(':' | '&' | '*' | '\'')) | (TokenTree::Ident(_), _) => {
                    at += 1;
                    continue;
                }
                (TokenTree::Group(g), _) if g.delimiter() != Delimiter::Brace => {
                    at += 1;
                    continue;
                }
                _ => in_type = false,
            }
        }
        match (tree, punct) {
            (_, Some(',')) => return at,
            (_, Some(':'))
                if is_joint(tokens, at, ':', ':')
                    && tokens.get(at + 2).is_some_and(|t| is_punct(t, '<')) =>
            {
                angles = 1;
                at += 3;
                continue;
            }
            (_, Some('<')) if operand_start => {
                angles = 1;
            }
            (_, Some('|')) if operand_start => {
                if is_joint(tokens, at, '|', '|') {
                    at += 1;
                } else {
                    // Closure parameters, to the closing `|` (patterns and types in them hold
                    // no `|` outside groups).
                    at += 1;
                    while at < tokens.len() && !is_punct(&tokens[at], '|') {
                        at += 1;
                    }
                }
                operand_start = true;
                at += 1;
                if at < tokens.len() && is_joint(tokens, at, '-', '>') {
                    in_type = true;
                    at += 2;
                }
                continue;
            }
            (_, Some('-')) if is_joint(tokens, at, '-', '>') => {
                in_type = true;
                at += 2;
                continue;
            }
            (TokenTree::Ident(word), _) if word.to_string() == "as" => {
                in_type = true;
                at += 1;
                continue;
            }
            (TokenTree::Ident(word), _) => {
                operand_start = matches!(
                    word.to_string().as_str(),
                    "move"
                        | "async"
                        | "static"
                        | "return"
                        | "break"
                        | "in"
                        | "else"
                        | "mut"
                        | "if"
                        | "while"
                        | "match"
                        | "let"
                );
            }
            (_, Some('?' | '.')) => operand_start = false,
            (_, Some(_)) => {
                // An operator, maybe of several characters (`<<`, `<=`, `&&`): its `<`s
                // open nothing.
                while matches!(&tokens[at], TokenTree::Punct(p) if p.spacing() == Spacing::Joint)
                    && matches!(tokens.get(at + 1), Some(TokenTree::Punct(p)) if p.as_char() != ',')
                {
                    at += 1;
                }
                operand_start = true;
            }
            _ => operand_start = false,
        }
        at += 1;
    }
    tokens.len()
}
