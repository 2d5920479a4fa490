// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `module!`: the parser.
//!
//! It reads Linux 7.3's syntax and refuses what 7.3's macro refuses, with its messages: the
//! keys `type`, `name`, `authors`, `description`, `license`, `alias`, `firmware`, `imports_ns`
//! and `params`, in that order, each once and each followed by a comma; `type`, `name` and
//! `license` required; ASCII string literals for all but `description`; a parameter is
//! `name: type { default: expr, description: "...", }` with `type` one of the integer types or
//! `bool`. What it parsed goes to one `macro_rules!`,
//! `kernel_core::__kernel_core_module!`, defined once for the host and once for the kernel
//! (`kernel-core/src/env/{host,kernel}/module.rs`), as
//!
//! ```text
//! input: [<the macro's input, unchanged>],
//! type: [<the type's tokens>],
//! name: "<name>",
//! log_prefix: b"<name>\0",
//! authors: ["<author>", ...],
//! author: ["<the authors joined by \", \">"] (none without authors),
//! description: ["<description>"] (or []),
//! license: "<license>",
//! alias: [...], firmware: [...], imports_ns: [...],
//! params: [{
//!     name: <ident>, name_str: "<name>", type: <ident>, type_str: "<type>",
//!     default: [<the default's tokens>], description: "<description>",
//! } ...],
//! ```
//!
//! with every string decoded (escapes resolved) and written back as a plain literal. `input`
//! lets a kernel that has 7.3's `module!` hand the input to it unchanged; `author` is the one
//! string of Linux 6.12's `author:` key.

use proc_macro::{Delimiter, Group, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

use crate::tokens::{is_punct, path, Error};

/// The keys, in the order they must come.
const KEYS: &[&str] = &[
    "type",
    "name",
    "authors",
    "description",
    "license",
    "alias",
    "firmware",
    "imports_ns",
    "params",
];

/// The keys without which there is no module.
const REQUIRED: &[&str] = &["type", "name", "license"];

/// The types a parameter may have: those Linux 7.3 has `PARAM_OPS_*` for.
const PARAM_TYPES: &[&str] = &[
    "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "isize", "usize", "bool",
];

/// A parameter of `params`.
struct Param {
    name: proc_macro::Ident,
    ty: proc_macro::Ident,
    default: Vec<TokenTree>,
    description: String,
    description_span: Span,
}

/// A decoded string literal and where it was.
struct Str {
    value: String,
    span: Span,
}

/// What `module!` was given.
#[derive(Default)]
struct Info {
    ty: Vec<TokenTree>,
    name: Option<Str>,
    authors: Vec<Str>,
    description: Option<Str>,
    license: Option<Str>,
    alias: Vec<Str>,
    firmware: Vec<Str>,
    imports_ns: Vec<Str>,
    params: Vec<Param>,
}

/// Expands `module! { input }`.
pub(crate) fn expand(input: TokenStream) -> Result<TokenStream, Error> {
    let tokens: Vec<TokenTree> = input.clone().into_iter().collect();
    let info = parse(&tokens)?;
    Ok(emit(input, &info))
}

/// A cursor over a token list.
struct Cursor<'a> {
    tokens: &'a [TokenTree],
    at: usize,
    /// Where an error about a missing token goes: the group's closing delimiter, or the macro
    /// call's end.
    end: Span,
}

impl<'a> Cursor<'a> {
    fn new(tokens: &'a [TokenTree], end: Span) -> Self {
        Self { tokens, at: 0, end }
    }

    fn peek(&self) -> Option<&'a TokenTree> {
        self.tokens.get(self.at)
    }

    fn is_empty(&self) -> bool {
        self.at >= self.tokens.len()
    }

    /// Where the next token is, or the end.
    fn span(&self) -> Span {
        self.peek().map_or(self.end, TokenTree::span)
    }

    /// Takes the punctuation `ch`, or fails with "expected `ch`".
    fn expect_punct(&mut self, ch: char) -> Result<(), Error> {
        match self.peek() {
            Some(token) if is_punct(token, ch) => {
                self.at += 1;
                Ok(())
            }
            // At the end: after the last token, as `module!` keys all end with a comma.
            None if self.at > 0 => Err(Error::new(
                self.tokens[self.at - 1].span(),
                format!("expected `{ch}` after this"),
            )),
            _ => Err(Error::new(self.span(), format!("expected `{ch}`"))),
        }
    }

    /// Takes an identifier (keywords included), or fails.
    fn expect_ident(&mut self) -> Result<proc_macro::Ident, Error> {
        match self.peek() {
            Some(TokenTree::Ident(ident)) => {
                self.at += 1;
                Ok(ident.clone())
            }
            _ => Err(Error::new(self.span(), "expected identifier")),
        }
    }

    /// Takes a group delimited by `delimiter`, or fails naming `what`.
    fn expect_group(&mut self, delimiter: Delimiter, what: &str) -> Result<&'a Group, Error> {
        match self.peek() {
            Some(TokenTree::Group(group)) if group.delimiter() == delimiter => {
                self.at += 1;
                Ok(group)
            }
            _ => Err(Error::new(self.span(), format!("expected {what}"))),
        }
    }

    /// Takes a string literal, or fails; with `ascii`, one of ASCII characters only.
    fn expect_str(&mut self, ascii: bool) -> Result<Str, Error> {
        let span = self.span();
        let value = match self.peek() {
            Some(TokenTree::Literal(literal)) => string_value(&literal.to_string()),
            _ => None,
        };
        let Some(value) = value else {
            return Err(Error::new(span, "expected string literal"));
        };
        if ascii && !value.is_ascii() {
            return Err(Error::new(span, "expected ASCII-only string literal"));
        }
        self.at += 1;
        Ok(Str { value, span })
    }

    /// Takes the tokens up to the next comma outside angle brackets, at least one, or fails
    /// naming `what`. In a type (`generics`), every `<` opens angle brackets; in an expression
    /// only a turbofish's (`::<`) and a qualified path's at the start do, so that `1 << 40`
    /// and `a < b` are operators.
    fn take_until_comma(&mut self, what: &str, generics: bool) -> Result<Vec<TokenTree>, Error> {
        let start = self.at;
        let mut depth = 0_usize;
        while let Some(token) = self.peek() {
            let previous = (self.at > start).then(|| &self.tokens[self.at - 1]);
            match token {
                TokenTree::Punct(p) if p.as_char() == ',' && depth == 0 => break,
                TokenTree::Punct(p) if p.as_char() == '<' => {
                    let opens = generics
                        || depth > 0
                        || previous.is_none()
                        || previous.is_some_and(|t| is_punct(t, ':'));
                    if opens {
                        depth += 1;
                    }
                }
                // Not the `>` of `->` or `=>`.
                TokenTree::Punct(p)
                    if p.as_char() == '>'
                        && !previous.is_some_and(|t| is_punct(t, '-') || is_punct(t, '=')) =>
                {
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
            self.at += 1;
        }
        if self.at == start {
            return Err(Error::new(self.span(), format!("expected {what}")));
        }
        Ok(self.tokens[start..self.at].to_vec())
    }
}

/// The keys of a `key: value,` list, checked as Linux 7.3's `parse_ordered_fields!` checks
/// them: `read` parses each value; the keys must be among `expected`, each once, those of
/// `required` present, and in the order of `expected`.
fn ordered_fields(
    cursor: &mut Cursor<'_>,
    expected: &[&str],
    required: &[&str],
    span: Span,
    mut read: impl FnMut(&str, &mut Cursor<'_>) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut seen: Vec<String> = Vec::new();
    while !cursor.is_empty() {
        let key = cursor.expect_ident()?;
        let name = key.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
        if seen.contains(&name) {
            return Err(Error::new(
                key.span(),
                format!("duplicated key \"{name}\". Keys can only be specified once."),
            ));
        }
        cursor.expect_punct(':')?;
        if !expected.contains(&name.as_str()) {
            return Err(Error::new(
                key.span(),
                format!("unknown key \"{name}\". Valid keys are: {expected:?}."),
            ));
        }
        read(&name, cursor)?;
        cursor.expect_punct(',')?;
        seen.push(name);
    }
    for key in required {
        if !seen.iter().any(|seen| seen == key) {
            return Err(Error::new(span, format!("missing required key \"{key}\"")));
        }
    }
    let ordered: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|key| seen.iter().any(|seen| seen == key))
        .collect();
    if seen != ordered {
        return Err(Error::new(
            span,
            format!("keys are not ordered as expected. Order them like: {ordered:?}."),
        ));
    }
    Ok(())
}

fn parse(tokens: &[TokenTree]) -> Result<Info, Error> {
    let mut info = Info::default();
    let mut cursor = Cursor::new(tokens, Span::call_site());
    ordered_fields(
        &mut cursor,
        KEYS,
        REQUIRED,
        Span::call_site(),
        |key, cursor| {
            match key {
                "type" => info.ty = cursor.take_until_comma("a type", true)?,
                "name" => info.name = Some(cursor.expect_str(true)?),
                "authors" => info.authors = string_list(cursor)?,
                "description" => info.description = Some(cursor.expect_str(false)?),
                "license" => info.license = Some(cursor.expect_str(true)?),
                "alias" => info.alias = string_list(cursor)?,
                "firmware" => info.firmware = string_list(cursor)?,
                "imports_ns" => info.imports_ns = string_list(cursor)?,
                "params" => info.params = params(cursor)?,
                _ => unreachable!("checked against KEYS"),
            }
            Ok(())
        },
    )?;
    if let Some(name) = &info.name {
        if name.value.contains('\0') {
            return Err(Error::new(name.span, "the module's name contains a NUL"));
        }
    }
    Ok(info)
}

/// `["a", "b", ...]`: ASCII string literals in brackets, separated by commas (a last one
/// allowed).
fn string_list(cursor: &mut Cursor<'_>) -> Result<Vec<Str>, Error> {
    let group = cursor.expect_group(Delimiter::Bracket, "`[`")?;
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    let mut inner = Cursor::new(&tokens, group.span_close());
    let mut list = Vec::new();
    while !inner.is_empty() {
        list.push(inner.expect_str(true)?);
        if inner.is_empty() {
            break;
        }
        inner.expect_punct(',')?;
    }
    Ok(list)
}

/// `{ name: type { default: expr, description: "...", }, ... }`.
fn params(cursor: &mut Cursor<'_>) -> Result<Vec<Param>, Error> {
    let group = cursor.expect_group(Delimiter::Brace, "`{`")?;
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    let mut inner = Cursor::new(&tokens, group.span_close());
    let mut list: Vec<Param> = Vec::new();
    while !inner.is_empty() {
        let name = inner.expect_ident()?;
        inner.expect_punct(':')?;
        let ty = match inner.peek() {
            Some(TokenTree::Ident(ty)) if PARAM_TYPES.contains(&ty.to_string().as_str()) => {
                ty.clone()
            }
            other => {
                return Err(Error::new(
                    inner.span(),
                    format!(
                        "unsupported parameter type{}: a module parameter is one of {}",
                        other.map_or_else(String::new, |t| format!(" `{t}`")),
                        PARAM_TYPES.join(", ")
                    ),
                ))
            }
        };
        inner.at += 1;
        let fields = inner.expect_group(Delimiter::Brace, "`{`")?;
        let field_tokens: Vec<TokenTree> = fields.stream().into_iter().collect();
        let mut field_cursor = Cursor::new(&field_tokens, fields.span_close());
        let (mut default, mut description) = (Vec::new(), None);
        ordered_fields(
            &mut field_cursor,
            &["default", "description"],
            &["default", "description"],
            fields.span(),
            |key, cursor| {
                match key {
                    "default" => default = cursor.take_until_comma("an expression", false)?,
                    _ => description = Some(cursor.expect_str(false)?),
                }
                Ok(())
            },
        )?;
        let description = description.expect("a required key");
        if list
            .iter()
            .any(|param| param.name.to_string() == name.to_string())
        {
            return Err(Error::new(
                name.span(),
                format!("the parameter `{name}` is declared twice"),
            ));
        }
        list.push(Param {
            name,
            ty,
            default,
            description: description.value,
            description_span: description.span,
        });
        if inner.is_empty() {
            break;
        }
        inner.expect_punct(',')?;
    }
    Ok(list)
}

/// The value of a string literal token (`"..."` or `r#"..."#`), escapes resolved; `None` for
/// any other literal (byte and C strings, numbers, a suffix).
fn string_value(text: &str) -> Option<String> {
    if let Some(raw) = text.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let body = raw[hashes..].strip_prefix('"')?;
        let body = body.strip_suffix(&"#".repeat(hashes))?;
        return body.strip_suffix('"').map(str::to_string);
    }
    let body = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '\\' => out.push('\\'),
            '0' => out.push('\0'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'x' => {
                let digits: String = [chars.next()?, chars.next()?].iter().collect();
                let value = u8::from_str_radix(&digits, 16).ok().filter(|v| *v < 0x80)?;
                out.push(char::from(value));
            }
            'u' => {
                if chars.next()? != '{' {
                    return None;
                }
                let mut digits = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        '_' => {}
                        digit => digits.push(digit),
                    }
                }
                out.push(char::from_u32(u32::from_str_radix(&digits, 16).ok()?)?);
            }
            '\n' | '\r' => {
                // A line continuation: the line break and the whitespace after it go.
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A string literal of `value`, at `span`.
fn string(value: &str, span: Span) -> TokenTree {
    let mut literal = Literal::string(value);
    literal.set_span(span);
    TokenTree::Literal(literal)
}

/// `[a, b, ...]` of string literals.
fn string_group(values: &[Str]) -> TokenTree {
    let mut list = Vec::new();
    for (index, value) in values.iter().enumerate() {
        if index > 0 {
            list.push(TokenTree::Punct(Punct::new(',', Spacing::Alone)));
        }
        list.push(string(&value.value, value.span));
    }
    TokenTree::Group(Group::new(Delimiter::Bracket, list.into_iter().collect()))
}

/// `key: value,` into `out`.
fn field(out: &mut Vec<TokenTree>, key: &str, value: impl IntoIterator<Item = TokenTree>) {
    out.push(TokenTree::Ident(proc_macro::Ident::new(
        key,
        Span::call_site(),
    )));
    out.push(TokenTree::Punct(Punct::new(':', Spacing::Alone)));
    out.extend(value);
    out.push(TokenTree::Punct(Punct::new(',', Spacing::Alone)));
}

/// A bracket group of `tokens`.
fn bracket(tokens: impl IntoIterator<Item = TokenTree>) -> TokenTree {
    TokenTree::Group(Group::new(Delimiter::Bracket, tokens.into_iter().collect()))
}

fn emit(input: TokenStream, info: &Info) -> TokenStream {
    let name = info.name.as_ref().expect("a required key");
    let license = info.license.as_ref().expect("a required key");
    let mut body = Vec::new();
    field(&mut body, "input", [bracket(input)]);
    field(&mut body, "type", [bracket(info.ty.iter().cloned())]);
    field(&mut body, "name", [string(&name.value, name.span)]);
    let mut prefix = Literal::byte_string(format!("{}\0", name.value).as_bytes());
    prefix.set_span(name.span);
    field(&mut body, "log_prefix", [TokenTree::Literal(prefix)]);
    field(&mut body, "authors", [string_group(&info.authors)]);
    let joined: Vec<Str> = if info.authors.is_empty() {
        Vec::new()
    } else {
        let value: Vec<&str> = info.authors.iter().map(|a| a.value.as_str()).collect();
        vec![Str {
            value: value.join(", "),
            span: info.authors[0].span,
        }]
    };
    field(&mut body, "author", [string_group(&joined)]);
    let description: Vec<Str> = info
        .description
        .iter()
        .map(|d| Str {
            value: d.value.clone(),
            span: d.span,
        })
        .collect();
    field(&mut body, "description", [string_group(&description)]);
    field(&mut body, "license", [string(&license.value, license.span)]);
    field(&mut body, "alias", [string_group(&info.alias)]);
    field(&mut body, "firmware", [string_group(&info.firmware)]);
    field(&mut body, "imports_ns", [string_group(&info.imports_ns)]);
    let mut params = Vec::new();
    for param in &info.params {
        let mut fields = Vec::new();
        field(&mut fields, "name", [TokenTree::Ident(param.name.clone())]);
        let name = param.name.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name);
        field(&mut fields, "name_str", [string(name, param.name.span())]);
        field(&mut fields, "type", [TokenTree::Ident(param.ty.clone())]);
        let ty = param.ty.to_string();
        field(&mut fields, "type_str", [string(&ty, param.ty.span())]);
        field(
            &mut fields,
            "default",
            [bracket(param.default.iter().cloned())],
        );
        field(
            &mut fields,
            "description",
            [string(&param.description, param.description_span)],
        );
        params.push(TokenTree::Group(Group::new(
            Delimiter::Brace,
            fields.into_iter().collect(),
        )));
    }
    field(&mut body, "params", [bracket(params)]);

    let mut out = path(&["kernel_core", "__kernel_core_module"], Span::call_site());
    out.push(TokenTree::Punct(Punct::new('!', Spacing::Alone)));
    out.push(TokenTree::Group(Group::new(
        Delimiter::Brace,
        body.into_iter().collect(),
    )));
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::string_value;

    #[test]
    fn strings_decode_as_rust_reads_them() {
        assert_eq!(string_value(r#""plain""#).as_deref(), Some("plain"));
        assert_eq!(
            string_value(r#""a\n\t\\\"\'\0\x41\u{1F980}""#).as_deref(),
            Some("a\n\t\\\"'\0A\u{1F980}")
        );
        assert_eq!(
            string_value("\"one \\\n    two\"").as_deref(),
            Some("one two")
        );
        assert_eq!(
            string_value(r###"r#"raw "quoted" \n"#"###).as_deref(),
            Some(r#"raw "quoted" \n"#)
        );
        assert_eq!(string_value(r#"r"x""#).as_deref(), Some("x"));
        assert_eq!(string_value(r#"b"bytes""#), None);
        assert_eq!(string_value(r#"c"c""#), None);
        assert_eq!(string_value("42"), None);
        assert_eq!(string_value(r#""x"suffix"#), None);
        assert_eq!(string_value(r#""\x80""#), None);
        assert_eq!(string_value(r#""\q""#), None);
    }
}
