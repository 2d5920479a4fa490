// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[kunit_tests(suite)]`: the parser.
//!
//! This macro only reads the module: its attributes, its items, and which items are `#[test]`
//! functions with which `#[cfg]`s and `#[ignore]`. It hands the parsed suite to one
//! `macro_rules!`, `kernel_core::kunit::__suite!`, which has a host definition and a kernel
//! definition (`kernel-core/src/env/{host,kernel}/kunit.rs`): the two expansions, and what
//! KUnit's ABI looks like, live there and nowhere else. The input to `__suite!` is
//!
//! ```text
//! dollar: $,
//! suite: <suite name>,
//! module: [<outer attributes> <visibility> mod <name>],
//! inner: [<inner attributes>],
//! items: [<every item that is not a test>],
//! tests: [{
//!     name: <fn name>,
//!     cfg: [<the predicates of its #[cfg]s, each followed by a comma>],
//!     ignore: [<its #[ignore] attribute, if any>],
//!     attrs: [<its other attributes>],
//!     item: [<the fn item, attributes excluded>],
//! } ...],
//! ```
//!
//! Two things are the parser's because they hold in both worlds alike:
//!
//! - The forms a suite may not contain are rejected here, with one message for both worlds:
//!   `#[should_panic]`, and tests that take arguments, are generic, or are `async`.
//! - In const contexts (`const` and `static` initializers, `const fn` bodies, `const { }`
//!   blocks) `assert!`, `assert_eq!` and `assert_ne!` are the standard macros, as they are
//!   anywhere outside a suite: the suite's own versions report to a test framework at run
//!   time, which const evaluation cannot call (E0015). Each such context that uses them starts
//!   with three `macro_rules!` that name the standard ones again.

use crate::tokens::{
    code, is_group, is_ident, is_punct, path, split_items, take_attributes, take_visibility, Error,
    Item,
};
use proc_macro::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

/// KUnit's limit: `char name[256]` in `struct kunit_suite`, NUL included.
const MAX_SUITE_NAME: usize = 255;

/// Expands `#[kunit_tests(attr)] item`.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream, Error> {
    let suite = suite_name(attr)?;
    let tokens: Vec<TokenTree> = item.into_iter().collect();

    let mut at = 0;
    let outer = take_attributes(&tokens, &mut at, false);
    let visibility = take_visibility(&tokens, &mut at);
    let module_span = tokens.get(at).map_or_else(Span::call_site, TokenTree::span);
    if !tokens.get(at).is_some_and(|t| is_ident(t, "mod")) {
        return Err(Error::new(
            module_span,
            "#[kunit_tests(suite)] applies to a module: `mod tests { ... }`",
        ));
    }
    let name = match tokens.get(at + 1) {
        Some(TokenTree::Ident(name)) => name.clone(),
        other => {
            return Err(Error::new(
                other.map_or(module_span, TokenTree::span),
                "expected the module's name after `mod`",
            ))
        }
    };
    let body = match tokens.get(at + 2) {
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => group.stream(),
        other => return Err(Error::new(
            other.map_or(name.span(), TokenTree::span),
            "#[kunit_tests(suite)] needs an inline module (`mod tests { ... }`), not `mod tests;`",
        )),
    };
    if let Some(extra) = tokens.get(at + 3) {
        return Err(Error::new(
            extra.span(),
            "unexpected tokens after the module",
        ));
    }

    let body: Vec<TokenTree> = body.into_iter().collect();
    let mut body_at = 0;
    let inner = take_attributes(&body, &mut body_at, true);

    let mut items = Vec::new();
    let mut tests = Vec::new();
    for item in split_items(&body[body_at..]) {
        let is_test = item.attributes.iter().any(|a| a.is("test", false));
        match item.function_name().filter(|_| is_test) {
            Some(function) => tests.push(test_case(function, &item)?),
            None => {
                let mut tokens = Vec::new();
                item.to_tokens(&mut tokens);
                items.extend(standard_asserts_in_const_contexts(tokens));
            }
        }
    }

    let mut module = Vec::new();
    for attribute in &outer {
        module.extend(attribute.tokens.iter().cloned());
    }
    module.extend(visibility);
    module.extend(code("mod"));
    module.push(TokenTree::Ident(name));

    let mut input = Vec::new();
    // `$`, for the `macro_rules!` that `__suite!` defines.
    input.extend(code("dollar: $,"));
    input.extend(code("suite:"));
    let suite_ident = suite.clone();
    input.push(TokenTree::Ident(suite));
    input.extend(code(","));
    field(&mut input, "module", module);
    field(
        &mut input,
        "inner",
        inner
            .iter()
            .flat_map(|a| a.tokens.iter().cloned())
            .collect(),
    );
    field(&mut input, "items", items);
    field(&mut input, "tests", tests.into_iter().flatten().collect());

    let mut out = unique_suite_name(&suite_ident);
    out.extend(path(
        &["kernel_core", "kunit", "__suite"],
        Span::call_site(),
    ));
    out.extend(code("!"));
    out.push(TokenTree::Group(Group::new(
        Delimiter::Brace,
        input.into_iter().collect(),
    )));
    Ok(out.into_iter().collect())
}

/// Makes a second suite of the same name in the crate a compile error that names both.
///
/// KUnit identifies a suite by its name, and two suites of one name in one module run both
/// but report under one name, which no verdict can tell apart. So each suite defines a
/// `#[macro_export]` macro named after it, at the crate root whatever module it is in: a
/// second definition is E0428 ("the name ... is defined multiple times"), in both worlds,
/// and every token is spanned at the suite's name, so the error points at both
/// `#[kunit_tests(...)]` attributes.
fn unique_suite_name(suite: &Ident) -> Vec<TokenTree> {
    let span = suite.span();
    let name = suite.to_string();
    let name = name.strip_prefix("r#").unwrap_or(&name);
    let mut tokens: Vec<TokenTree> = code(&format!(
        "#[doc(hidden)] #[macro_export] macro_rules! \
         kunit_suite_name_used_twice_in_this_crate__{name} {{ () => {{}}; }}"
    ))
    .into_iter()
    .collect();
    respan(&mut tokens, span);
    tokens
}

/// Gives every token of `tokens`, at any depth, `span`.
fn respan(tokens: &mut [TokenTree], span: Span) {
    for token in tokens {
        match token {
            TokenTree::Group(group) => {
                let mut inner: Vec<TokenTree> = group.stream().into_iter().collect();
                respan(&mut inner, span);
                let mut respanned = Group::new(group.delimiter(), inner.into_iter().collect());
                respanned.set_span(span);
                *token = TokenTree::Group(respanned);
            }
            other => other.set_span(span),
        }
    }
}

/// Appends `name: [tokens],` to `out`.
fn field(out: &mut Vec<TokenTree>, name: &str, tokens: Vec<TokenTree>) {
    out.extend(code(name));
    out.extend(code(":"));
    out.push(TokenTree::Group(Group::new(
        Delimiter::Bracket,
        tokens.into_iter().collect(),
    )));
    out.extend(code(","));
}

/// `{ name: .., cfg: [..], ignore: [..], attrs: [..], item: [..], }` for one `#[test]` fn, or
/// the error of a form that no suite may contain.
fn test_case(name: Ident, item: &Item) -> Result<Vec<TokenTree>, Error> {
    if let Some(attribute) = item.attributes.iter().find(|a| a.is("should_panic", true)) {
        return Err(Error::new(
            attribute.tokens[0].span(),
            "#[should_panic] tests cannot be KUnit cases: in the kernel a panic is a crash, not a \
             test result. Return a Result, or assert, instead.",
        ));
    }
    check_signature(&name, &item.rest)?;

    let mut cfg = Vec::new();
    let mut ignore = Vec::new();
    let mut attrs = Vec::new();
    for attribute in &item.attributes {
        if attribute.is("test", false) {
        } else if attribute.is("cfg", true) {
            // `#[cfg(predicate)]`: the body is `cfg` and one parenthesized group.
            if let Some(TokenTree::Group(group)) = attribute.body.get(1) {
                cfg.extend(group.stream());
                cfg.extend(code(","));
            }
        } else if attribute.is("ignore", true) {
            ignore.extend(attribute.tokens.iter().cloned());
        } else {
            attrs.extend(attribute.tokens.iter().cloned());
        }
    }

    let mut case = Vec::new();
    case.extend(code("name:"));
    case.push(TokenTree::Ident(name));
    case.extend(code(","));
    field(&mut case, "cfg", cfg);
    field(&mut case, "ignore", ignore);
    field(&mut case, "attrs", attrs);
    field(
        &mut case,
        "item",
        standard_asserts_in_const_contexts(item.rest.clone()),
    );
    Ok(vec![TokenTree::Group(Group::new(
        Delimiter::Brace,
        case.into_iter().collect(),
    ))])
}

/// Rejects what neither world can call as a test: arguments, generics, `async`.
fn check_signature(name: &Ident, rest: &[TokenTree]) -> Result<(), Error> {
    let Some(fn_at) = rest.iter().position(|t| is_ident(t, "fn")) else {
        return Ok(());
    };
    if let Some(keyword) = rest[..fn_at].iter().find(|t| is_ident(t, "async")) {
        return Err(Error::new(
            keyword.span(),
            format!("test `{name}` is `async`: KUnit cases are plain functions"),
        ));
    }
    match rest.get(fn_at + 2) {
        Some(TokenTree::Group(params)) if params.delimiter() == Delimiter::Parenthesis => {
            if !params.stream().is_empty() {
                return Err(Error::new(
                    params.span(),
                    format!("test `{name}` takes arguments: KUnit calls its cases with none"),
                ));
            }
            Ok(())
        }
        Some(other) if is_punct(other, '<') => Err(Error::new(
            other.span(),
            format!("test `{name}` is generic: a KUnit case is one function, not a family"),
        )),
        _ => Ok(()),
    }
}

/// The suite name: one identifier of at most 255 bytes.
fn suite_name(attr: TokenStream) -> Result<Ident, Error> {
    let mut trees = attr.into_iter();
    let name = match (trees.next(), trees.next()) {
        (Some(TokenTree::Ident(name)), None) => name,
        (None, _) => {
            return Err(Error::new(
                Span::call_site(),
                "#[kunit_tests] needs the suite name: #[kunit_tests(my_driver_tests)]",
            ))
        }
        (Some(first), _) => {
            return Err(Error::new(
                first.span(),
                "the suite name must be a single identifier: #[kunit_tests(my_driver_tests)]",
            ))
        }
    };
    let text = name.to_string();
    let text = text.strip_prefix("r#").unwrap_or(&text);
    if text.len() > MAX_SUITE_NAME {
        return Err(Error::new(
            name.span(),
            format!(
                "KUnit suite names are limited to {MAX_SUITE_NAME} bytes; this one has {}",
                text.len()
            ),
        ));
    }
    Ok(name)
}

/// The names the suites shadow, which const contexts must see as the standard macros.
const ASSERTS: [&str; 3] = ["assert", "assert_eq", "assert_ne"];

/// Whether `tokens`, at any depth, call `assert!`, `assert_eq!` or `assert_ne!`.
fn calls_asserts(tokens: &[TokenTree]) -> bool {
    tokens.iter().enumerate().any(|(i, tree)| match tree {
        TokenTree::Group(group) => calls_asserts(&group.stream().into_iter().collect::<Vec<_>>()),
        TokenTree::Ident(_) => {
            ASSERTS.iter().any(|name| is_ident(tree, name))
                && tokens.get(i + 1).is_some_and(|t| is_punct(t, '!'))
        }
        _ => false,
    })
}

/// `macro_rules!` that make `assert!` and its siblings the standard ones again, followed by
/// `contents`, in a group of `delimiter` with `span`.
fn with_standard_asserts(delimiter: Delimiter, span: Span, contents: Vec<TokenTree>) -> TokenTree {
    let contents = standard_asserts_in_const_contexts(contents);
    let mut body = Vec::new();
    if calls_asserts(&contents) {
        for name in ASSERTS {
            body.extend(code(&format!(
                "#[allow(unused_macros)] macro_rules! {name} {{ \
                 ($($arguments:tt)*) => {{ ::core::{name}!($($arguments)*) }}; }}"
            )));
        }
    }
    body.extend(contents);
    let mut group = Group::new(delimiter, body.into_iter().collect());
    group.set_span(span);
    TokenTree::Group(group)
}

/// Rewrites every const context in `tokens` (at any depth) so that the assertions there are
/// the standard macros (see the module documentation).
fn standard_asserts_in_const_contexts(tokens: Vec<TokenTree>) -> Vec<TokenTree> {
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut at = 0;
    while at < tokens.len() {
        let tree = &tokens[at];
        let previous = out.last();
        let item_start = previous.is_none_or(|p| {
            is_punct(p, ';')
                || is_group(p, Delimiter::Brace)
                || is_group(p, Delimiter::Bracket)
                || is_group(p, Delimiter::Parenthesis)
                || is_ident(p, "pub")
        });
        let is_const = is_ident(tree, "const") && !previous.is_some_and(|p| is_punct(p, '*'));
        let is_static = is_ident(tree, "static") && !previous.is_some_and(|p| is_punct(p, '\''));
        if is_const
            && tokens
                .get(at + 1)
                .is_some_and(|t| is_group(t, Delimiter::Brace))
        {
            // `const { ... }`
            let TokenTree::Group(block) = &tokens[at + 1] else {
                unreachable!()
            };
            out.push(tree.clone());
            out.push(with_standard_asserts(
                Delimiter::Brace,
                block.span(),
                block.stream().into_iter().collect(),
            ));
            at += 2;
            continue;
        }
        if is_const && const_fn_keyword(&tokens[at + 1..]) {
            // `const [unsafe] [extern "abi"] fn name<..>(..) -> T where .. { body }`
            out.push(tree.clone());
            at += 1;
            while at < tokens.len() && !is_group(&tokens[at], Delimiter::Brace) {
                if is_punct(&tokens[at], ';') {
                    break;
                }
                out.push(tokens[at].clone());
                at += 1;
            }
            if let Some(TokenTree::Group(body)) = tokens.get(at) {
                if body.delimiter() == Delimiter::Brace {
                    out.push(with_standard_asserts(
                        Delimiter::Brace,
                        body.span(),
                        body.stream().into_iter().collect(),
                    ));
                    at += 1;
                }
            }
            continue;
        }
        if (is_const || is_static) && item_start {
            // `const NAME: T = expr;`, `static [mut] NAME: T = expr;`
            let Some(equals) = (at..tokens.len())
                .take_while(|&i| !is_punct(&tokens[i], ';'))
                .find(|&i| is_punct(&tokens[i], '=') && !is_punct(&tokens[i - 1], '='))
            else {
                out.push(tree.clone());
                at += 1;
                continue;
            };
            let end = (equals..tokens.len())
                .find(|&i| is_punct(&tokens[i], ';'))
                .unwrap_or(tokens.len());
            out.extend(tokens[at..=equals].iter().cloned());
            let initializer = tokens[equals + 1..end].to_vec();
            if calls_asserts(&initializer) {
                let span = initializer[0].span();
                out.push(with_standard_asserts(Delimiter::Brace, span, initializer));
            } else {
                out.extend(initializer);
            }
            at = end;
            continue;
        }
        match tree {
            TokenTree::Group(group) => {
                let mut rewritten = Group::new(
                    group.delimiter(),
                    standard_asserts_in_const_contexts(group.stream().into_iter().collect())
                        .into_iter()
                        .collect(),
                );
                rewritten.set_span(group.span());
                out.push(TokenTree::Group(rewritten));
            }
            _ => out.push(tree.clone()),
        }
        at += 1;
    }
    out
}

/// Whether `after_const` (the tokens after a `const`) starts a `const fn`.
fn const_fn_keyword(after_const: &[TokenTree]) -> bool {
    for tree in after_const {
        match tree {
            TokenTree::Ident(i) if i.to_string() == "fn" => return true,
            TokenTree::Ident(i) if matches!(i.to_string().as_str(), "unsafe" | "extern") => {}
            TokenTree::Literal(_) => {}
            _ => return false,
        }
    }
    false
}
