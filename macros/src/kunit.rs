// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `#[kunit_tests(suite)]`: one module, two expansions.
//!
//! The output is
//!
//! ```text
//! ::kernel_core::kunit::__if_host! { <host expansion> }
//! ::kernel_core::kunit::__if_kernel! { <kernel expansion> }
//! ```
//!
//! and `kernel-core` keeps exactly one of the two (see its `env` module).
//!
//! - Host: the module, renamed to the suite name so tests are listed as `suite::case`, plus a
//!   `use suite as original_name;` so the old name keeps working.
//! - Kernel (what `rust/macros/kunit.rs` of Linux 7.2 and 7.3 does, on 6.12 too): the module under
//!   `#[cfg(CONFIG_KUNIT = "y")]`, `assert!`/`assert_eq!`/`assert_ne!` shadowed by KUnit
//!   versions, one `extern "C"` wrapper per test, a NUL-terminated `kunit_case` array, a
//!   `kunit_suite`, and a pointer to it in `.kunit_test_suites`.

use crate::tokens::{
    code, is_ident, path, split_items, take_attributes, take_visibility, Attribute, Error, Item,
};
use proc_macro::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

/// KUnit's limit: `char name[256]` in `struct kunit_suite`, NUL included.
const MAX_SUITE_NAME: usize = 255;

/// A `#[test]` function of the module.
struct TestCase {
    name: Ident,
    cfgs: Vec<Attribute>,
    ignored: bool,
    should_panic: Option<Span>,
}

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
    let items = split_items(&body[body_at..]);

    let module = Module {
        suite,
        name,
        outer,
        visibility,
        inner,
        items,
    };
    let mut out = TokenStream::new();
    out.extend(wrap("__if_host", host(&module)));
    out.extend(wrap("__if_kernel", kernel(&module)));
    Ok(out)
}

/// The parsed `#[kunit_tests(suite)] mod name { ... }`.
struct Module {
    suite: Ident,
    name: Ident,
    outer: Vec<Attribute>,
    visibility: Vec<TokenTree>,
    inner: Vec<Attribute>,
    items: Vec<Item>,
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

/// `::kernel_core::kunit::<which>! { tokens }`.
fn wrap(which: &str, tokens: Vec<TokenTree>) -> TokenStream {
    let mut out = path(&["kernel_core", "kunit", which], Span::call_site());
    out.extend(code("!"));
    out.push(TokenTree::Group(Group::new(
        Delimiter::Brace,
        tokens.into_iter().collect(),
    )));
    out.into_iter().collect()
}

/// `mod <name> { <inner> <contents> }` with the module's outer attributes and visibility.
fn module(m: &Module, name: &Ident, contents: Vec<TokenTree>) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for attribute in &m.outer {
        out.extend(attribute.tokens.iter().cloned());
    }
    out.extend(m.visibility.iter().cloned());
    out.extend(code("mod"));
    out.push(TokenTree::Ident(name.clone()));
    let mut body = Vec::new();
    for attribute in &m.inner {
        body.extend(attribute.tokens.iter().cloned());
    }
    body.extend(contents);
    out.push(TokenTree::Group(Group::new(
        Delimiter::Brace,
        body.into_iter().collect(),
    )));
    out
}

/// The host expansion: the module unchanged but for its name.
fn host(m: &Module) -> Vec<TokenTree> {
    let mut contents = Vec::new();
    for item in &m.items {
        item.to_tokens(&mut contents);
    }
    let mut out = module(m, &m.suite, contents);
    if m.suite.to_string() != m.name.to_string() {
        out.extend(code("#[allow(unused_imports)]"));
        out.extend(m.visibility.iter().cloned());
        out.extend(code("use"));
        out.push(TokenTree::Ident(m.suite.clone()));
        out.extend(code("as"));
        out.push(TokenTree::Ident(m.name.clone()));
        out.extend(code(";"));
    }
    out
}

/// The kernel expansion: a KUnit suite.
fn kernel(m: &Module) -> Vec<TokenTree> {
    const RT: &str = "::kernel_core::kunit::__rt";

    // The KUnit assertions, in textual scope for the whole module.
    let mut contents: Vec<TokenTree> = code(
        "#[allow(unused_macros)]
        macro_rules! assert {
            ($($arguments:tt)*) => { ::kernel_core::__kernel_core_kunit_assert!($($arguments)*) };
        }
        #[allow(unused_macros)]
        macro_rules! assert_eq {
            ($($arguments:tt)*) => { ::kernel_core::__kernel_core_kunit_assert_eq!($($arguments)*) };
        }
        #[allow(unused_macros)]
        macro_rules! assert_ne {
            ($($arguments:tt)*) => { ::kernel_core::__kernel_core_kunit_assert_ne!($($arguments)*) };
        }",
    )
    .into_iter()
    .collect();

    let mut cases = Vec::new();
    for item in &m.items {
        let is_test = item.attributes.iter().any(|a| a.is("test", false));
        let Some(function) = item.function_name().filter(|_| is_test) else {
            item.to_tokens(&mut contents);
            continue;
        };
        cases.push(TestCase {
            name: function,
            cfgs: item
                .attributes
                .iter()
                .filter(|a| a.is("cfg", true))
                .cloned()
                .collect(),
            ignored: item.attributes.iter().any(|a| a.is("ignore", true)),
            should_panic: item
                .attributes
                .iter()
                .find(|a| a.is("should_panic", true))
                .map(|a| a.tokens[0].span()),
        });
        // The function itself, without the attributes only the host's test harness knows.
        contents.extend(code("#[allow(dead_code)]"));
        for attribute in &item.attributes {
            if !(attribute.is("test", false)
                || attribute.is("ignore", true)
                || attribute.is("should_panic", true))
            {
                contents.extend(attribute.tokens.iter().cloned());
            }
        }
        contents.extend(item.rest.iter().cloned());
    }

    let mut entries = Vec::new();
    for case in &cases {
        if let Some(span) = case.should_panic {
            contents.extend(
                Error::new(
                    span,
                    "#[should_panic] tests cannot run under KUnit: a panic in the kernel is a \
                     crash, not a test result. Return a Result or assert instead.",
                )
                .into_compile_error(),
            );
        }
        let wrapper = format!("__kunit_case_{}", case.name);
        contents.extend(code(&format!(
            "#[doc(hidden)] #[allow(unused_unsafe)] unsafe extern \"C\" fn {wrapper}(test: *mut {RT}::Test)"
        )));
        // KUnit passes the wrapper the `struct kunit` of this very case.
        let mut body: Vec<TokenTree> = code(&format!(
            "unsafe {{ {RT}::set_status(test, {RT}::SKIPPED) }};"
        ))
        .into_iter()
        .collect();
        if !case.ignored {
            for cfg in &case.cfgs {
                body.extend(cfg.tokens.iter().cloned());
            }
            body.extend(code(&format!(
                "{{
                    unsafe {{ {RT}::set_status(test, {RT}::SUCCESS) }};
                    static LOCATION: {RT}::Location = {RT}::Location {{
                        file: {RT}::c_str(::core::concat!(::core::file!(), \"\\0\")),
                        line: ::core::line!(),
                    }};
                    {RT}::check_result({}(), &LOCATION);
                }}",
                case.name
            )));
        }
        contents.push(TokenTree::Group(Group::new(
            Delimiter::Brace,
            body.into_iter().collect(),
        )));

        let label = case.name.to_string();
        let label = label.strip_prefix("r#").unwrap_or(&label);
        entries.extend(code(&format!("{RT}::case(c\"{label}\", {wrapper}),")));
    }

    let count = cases.len() + 1;
    let suite_text = m.suite.to_string();
    let suite_text = suite_text.strip_prefix("r#").unwrap_or(&suite_text);
    contents.extend(code(&format!(
        "static mut __KUNIT_CASES: [{RT}::Case; {count}] = [{entries} {RT}::END];
        #[allow(unused_unsafe)]
        static mut __KUNIT_SUITE: {RT}::Suite = {RT}::suite(
            \"{suite_text}\",
            unsafe {{ ::core::ptr::addr_of_mut!(__KUNIT_CASES) }}.cast::<{RT}::Case>(),
        );
        #[used]
        #[allow(unused_unsafe)]
        #[unsafe(link_section = \".kunit_test_suites\")]
        static mut __KUNIT_SUITE_ENTRY: *const {RT}::Suite =
            unsafe {{ ::core::ptr::addr_of!(__KUNIT_SUITE) }};",
        entries = entries.into_iter().collect::<TokenStream>()
    )));

    let mut out = code("#[cfg(CONFIG_KUNIT = \"y\")]")
        .into_iter()
        .collect::<Vec<_>>();
    out.extend(module(m, &m.name, contents));
    out
}
