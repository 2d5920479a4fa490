// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A small JSON reader for cargo's `--message-format=json` lines (this crate takes no
//! dependency for it): objects, arrays, strings with their escapes, numbers, `true`, `false`
//! and `null`.

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, its members in order.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> &[Value] {
        match self {
            Value::Array(elements) => elements,
            _ => &[],
        }
    }
}

/// Parses one JSON value that makes up all of `text` (surrounding whitespace aside).
pub fn parse(text: &str) -> Result<Value, String> {
    let mut parser = Parser {
        chars: text.chars().collect(),
        at: 0,
    };
    let value = parser.value()?;
    parser.skip_whitespace();
    if parser.at != parser.chars.len() {
        return Err(format!("trailing characters at {}", parser.at));
    }
    Ok(value)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Result<char, String> {
        let c = self.peek().ok_or("unexpected end")?;
        self.at += 1;
        Ok(c)
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        let got = self.next()?;
        if got == c {
            Ok(())
        } else {
            Err(format!("expected `{c}`, found `{got}` at {}", self.at - 1))
        }
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, String> {
        for c in word.chars() {
            self.expect(c)?;
        }
        Ok(value)
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_whitespace();
        match self.peek().ok_or("unexpected end")? {
            '{' => self.object(),
            '[' => self.array(),
            '"' => Ok(Value::String(self.string()?)),
            't' => self.literal("true", Value::Bool(true)),
            'f' => self.literal("false", Value::Bool(false)),
            'n' => self.literal("null", Value::Null),
            c if c == '-' || c.is_ascii_digit() => {
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_digit() || "+-.eE".contains(c))
                {
                    self.at += 1;
                }
                Ok(Value::Number(self.chars[start..self.at].iter().collect()))
            }
            c => Err(format!("unexpected `{c}` at {}", self.at)),
        }
    }

    fn object(&mut self) -> Result<Value, String> {
        self.expect('{')?;
        let mut members = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some('}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_whitespace();
            let key = self.string()?;
            self.skip_whitespace();
            self.expect(':')?;
            members.push((key, self.value()?));
            self.skip_whitespace();
            match self.next()? {
                ',' => continue,
                '}' => return Ok(Value::Object(members)),
                c => return Err(format!("expected `,` or `}}`, found `{c}`")),
            }
        }
    }

    fn array(&mut self) -> Result<Value, String> {
        self.expect('[')?;
        let mut elements = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(']') {
            self.at += 1;
            return Ok(Value::Array(elements));
        }
        loop {
            elements.push(self.value()?);
            self.skip_whitespace();
            match self.next()? {
                ',' => continue,
                ']' => return Ok(Value::Array(elements)),
                c => return Err(format!("expected `,` or `]`, found `{c}`")),
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect('"')?;
        let mut out = String::new();
        loop {
            match self.next()? {
                '"' => return Ok(out),
                '\\' => match self.next()? {
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    '/' => out.push('/'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'u' => {
                        let unit = self.hex4()?;
                        let c = if (0xd800..0xdc00).contains(&unit) {
                            // A surrogate pair: `\uD83D\uDE00`.
                            self.expect('\\')?;
                            self.expect('u')?;
                            let low = self.hex4()?;
                            char::from_u32(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00))
                        } else {
                            char::from_u32(unit)
                        };
                        out.push(c.unwrap_or('\u{fffd}'));
                    }
                    c => return Err(format!("unknown escape `\\{c}`")),
                },
                c => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut value = 0;
        for _ in 0..4 {
            let digit = self.next()?.to_digit(16).ok_or("bad \\u escape")?;
            value = value * 16 + digit;
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_message_shapes() {
        let line = r#"{"reason":"compiler-message","target":{"name":"ex_001","kind":["bin"]},"message":{"level":"error","rendered":"error[E0425]: x\n  --> a.rs:1:2\n","spans":[],"code":null,"n":-1.5e3,"ok":true}}"#;
        let value = parse(line).expect("valid JSON");
        assert_eq!(
            value.get("reason").and_then(Value::as_str),
            Some("compiler-message")
        );
        let target = value.get("target").expect("a target");
        assert_eq!(target.get("name").and_then(Value::as_str), Some("ex_001"));
        assert_eq!(
            target.get("kind").map(Value::as_array).map(<[Value]>::len),
            Some(1)
        );
        let message = value.get("message").expect("a message");
        assert_eq!(
            message.get("rendered").and_then(Value::as_str),
            Some("error[E0425]: x\n  --> a.rs:1:2\n")
        );
        assert_eq!(message.get("code"), Some(&Value::Null));
        assert_eq!(message.get("n"), Some(&Value::Number("-1.5e3".into())));
        assert_eq!(message.get("ok"), Some(&Value::Bool(true)));
    }

    #[test]
    fn escapes_and_errors() {
        assert_eq!(
            parse(r#""a\"b\\c\u00e9\ud83d\ude00\t""#),
            Ok(Value::String("a\"b\\cé😀\t".into()))
        );
        assert_eq!(parse(" [ ] "), Ok(Value::Array(vec![])));
        assert_eq!(parse("{}"), Ok(Value::Object(vec![])));
        assert!(parse("{\"a\":}").is_err());
        assert!(parse("[1,]").is_err());
        assert!(parse("\"open").is_err());
        assert!(parse("1 2").is_err());
    }
}
