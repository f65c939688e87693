//! OpenAPI's parameter styles (the table of OpenAPI 3.1.1 §4.8.12.4, and the RFC 6570
//! expansions it builds on) as data: how one value, a scalar, a list or an object, is written
//! into a path segment, a header, a cookie or one query pair, and read back. The client writes
//! with [`Style::expand`]; the server reads with [`Style::scalar`], [`Style::list`] and
//! [`Style::object`]. One file, shared by both runtimes, so the two cannot disagree.
//!
//! Each name and value is encoded by the caller's `encode` (the client percent-encodes every
//! character but RFC 3986's unreserved ones in a path, a query or a cookie, so a `,`, `.`, `;`
//! or `=` inside a value never reads as a separator) and decoded by the caller's `decode` (a
//! header is written as it is: HTTP gives header values no percent-encoding). `deepObject` and
//! exploded `form` lists and objects are several query pairs, not one value: the query
//! writer and reader own those.
//!
//! Decisions:
//! `docs/decisions/0033-parameter-styles-and-encoded-delimiters.md`,
//! `docs/decisions/0034-every-style-as-openapi-writes-it.md`.

/// `style`, for one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `blue`, `blue,black`, `R,100,G,200` (exploded: `R=100,G=200`): paths and headers.
    Simple,
    /// `.blue`, `.blue,black` (exploded: `.blue.black`), `.R,100` (exploded: `.R=100.G=200`).
    Label,
    /// `;color=blue`, `;color=blue,black` (exploded: `;color=blue;color=black`),
    /// `;color=R,100` (exploded: `;R=100;G=200`).
    Matrix,
    /// One pair's value: `blue`, `blue,black`, `R,100,G,200`: queries and cookies.
    Form,
    /// `blue%20black`, `R%20100%20G%20200`: a query pair's value. An item's own space is
    /// written the same way, so items holding spaces do not survive this style (OpenAPI's
    /// table leaves no other spelling); `+` and a bare space are read as the delimiter too.
    SpaceDelimited,
    /// `blue|black`, `R|100|G|200`: a query pair's value. `|` is written as it is (an item's own
    /// `|` is encoded, so the split stays unambiguous); a value without a bare `|` is split at
    /// `%7C`, as OpenAPI 3.1.1's table spells the delimiter.
    PipeDelimited,
}

/// A parameter's value as the styles see it: what its JSON is, flattened one level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flat {
    /// A string, number or boolean, as text.
    Scalar(String),
    /// An array's items, as text; `null` items are left out.
    List(Vec<String>),
    /// Members in order; `null` members are left out.
    Object(Vec<(String, String)>),
}

impl Flat {
    /// The flat form of a JSON value: a string as it is, a number or boolean as its JSON
    /// text, a list or object of those. Anything nested deeper has no form in any style: the
    /// error says so.
    pub fn of(value: &serde_json::Value) -> Result<Flat, String> {
        use serde_json::Value;
        fn scalar(value: &Value) -> Result<String, String> {
            match value {
                Value::String(s) => Ok(s.clone()),
                Value::Number(_) | Value::Bool(_) => Ok(value.to_string()),
                Value::Null => Ok(String::new()),
                _ => Err(
                    "a value nested in a list or object has no form in a parameter style".into(),
                ),
            }
        }
        Ok(match value {
            Value::Array(items) => Flat::List(items.iter().map(scalar).collect::<Result<_, _>>()?),
            Value::Object(members) => Flat::Object(
                members
                    .iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| Ok((k.clone(), scalar(v)?)))
                    .collect::<Result<_, String>>()?,
            ),
            other => Flat::Scalar(scalar(other)?),
        })
    }
}

impl Style {
    /// What separates a list's items or an object's members, exploded or not.
    fn separator(self, explode: bool) -> &'static str {
        match (self, explode) {
            (Style::Label, true) => ".",
            (Style::Matrix, true) => ";",
            (Style::SpaceDelimited, _) => "%20",
            (Style::PipeDelimited, _) => "|",
            _ => ",",
        }
    }

    /// `value` written in this style (`name` is the parameter's, for `matrix`).
    pub fn expand(
        self,
        explode: bool,
        name: &str,
        value: &Flat,
        encode: &dyn Fn(&str) -> String,
    ) -> String {
        let sep = self.separator(explode);
        let mut out = String::new();
        let name = encode(name);
        let matrix_name = |out: &mut String, value: &str| {
            out.push(';');
            out.push_str(&name);
            if !value.is_empty() {
                out.push('=');
                out.push_str(value);
            }
        };
        match value {
            Flat::Scalar(v) => {
                let v = encode(v);
                match self {
                    Style::Label => out.push('.'),
                    Style::Matrix => {
                        matrix_name(&mut out, &v);
                        return out;
                    }
                    _ => {}
                }
                out.push_str(&v);
            }
            Flat::List(items) => {
                let items: Vec<String> = items.iter().map(|i| encode(i)).collect();
                match (self, explode) {
                    (Style::Matrix, true) => {
                        for item in &items {
                            out.push(';');
                            out.push_str(&name);
                            out.push('=');
                            out.push_str(item);
                        }
                        return out;
                    }
                    (Style::Matrix, false) => {
                        matrix_name(&mut out, &items.join(sep));
                        return out;
                    }
                    (Style::Label, _) => out.push('.'),
                    _ => {}
                }
                out.push_str(&items.join(sep));
            }
            Flat::Object(members) => {
                let joined: Vec<String> = if explode {
                    members
                        .iter()
                        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
                        .collect()
                } else {
                    members
                        .iter()
                        .flat_map(|(k, v)| [encode(k), encode(v)])
                        .collect()
                };
                match (self, explode) {
                    (Style::Matrix, true) => {
                        for member in &joined {
                            out.push(';');
                            out.push_str(member);
                        }
                        return out;
                    }
                    (Style::Matrix, false) => {
                        matrix_name(&mut out, &joined.join(sep));
                        return out;
                    }
                    (Style::Label, _) => out.push('.'),
                    _ => {}
                }
                out.push_str(&joined.join(sep));
            }
        }
        out
    }

    /// `sent` without what the style puts before the value (`.`, `;name=`), for a scalar or a
    /// list or object not exploded.
    fn unwrap<'s>(self, name: &str, sent: &'s str) -> Result<&'s str, String> {
        match self {
            Style::Label => sent.strip_prefix('.').ok_or_else(|| {
                format!("expected `.` before the value (style: label), got `{sent}`")
            }),
            Style::Matrix => {
                let rest = sent
                    .strip_prefix(';')
                    .and_then(|s| s.strip_prefix(name))
                    .ok_or_else(|| {
                        format!(
                            "expected `;{name}=` before the value (style: matrix), got `{sent}`"
                        )
                    })?;
                match rest.strip_prefix('=') {
                    Some(value) => Ok(value),
                    None if rest.is_empty() => Ok(""),
                    None => Err(format!(
                        "expected `;{name}=` before the value (style: matrix), got `{sent}`"
                    )),
                }
            }
            _ => Ok(sent),
        }
    }

    /// The pieces of `text` between this style's separators (`%7C` is a pipe too, `+` and a
    /// space are spaces too), each decoded.
    fn split(
        self,
        explode: bool,
        text: &str,
        decode: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Vec<String>, String> {
        if text.is_empty() {
            return Ok(Vec::new());
        }
        let pieces: Vec<&str> = match self {
            Style::SpaceDelimited => text
                .split(['+', ' '])
                .flat_map(|p| p.split("%20"))
                .collect(),
            // A client that writes `|` as it is encodes an item's own (the generated one);
            // one that follows the table's `%7C` writes no bare `|` at all.
            Style::PipeDelimited if text.contains('|') => text.split('|').collect(),
            Style::PipeDelimited => text.split("%7C").flat_map(|p| p.split("%7c")).collect(),
            _ => text.split(self.separator(explode)).collect(),
        };
        pieces
            .into_iter()
            .map(|p| decode(p).ok_or_else(|| "not valid percent-encoded UTF-8".to_string()))
            .collect()
    }

    /// A scalar written in this style, read back.
    pub fn scalar(
        self,
        name: &str,
        sent: &str,
        decode: &dyn Fn(&str) -> Option<String>,
    ) -> Result<String, String> {
        let value = self.unwrap(name, sent)?;
        decode(value).ok_or_else(|| "not valid percent-encoded UTF-8".to_string())
    }

    /// A list written in this style, read back into its items.
    pub fn list(
        self,
        explode: bool,
        name: &str,
        sent: &str,
        decode: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Vec<String>, String> {
        if self == Style::Matrix && explode {
            // `;color=blue;color=black`: each item its own `;name=` (text before the first
            // `;` is no item, and is refused rather than dropped).
            if sent.is_empty() {
                return Ok(Vec::new());
            }
            let Some(rest) = sent.strip_prefix(';') else {
                return Err(format!(
                    "expected `;{name}=` before each item (style: matrix), got `{sent}`"
                ));
            };
            return rest
                .split(';')
                .map(|piece| Style::Matrix.scalar(name, &format!(";{piece}"), decode))
                .collect();
        }
        let text = if self == Style::Label && explode {
            sent.strip_prefix('.').ok_or_else(|| {
                format!("expected `.` before the value (style: label), got `{sent}`")
            })?
        } else {
            self.unwrap(name, sent)?
        };
        self.split(explode, text, decode)
    }

    /// An object written in this style, read back into its members.
    pub fn object(
        self,
        explode: bool,
        name: &str,
        sent: &str,
        decode: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Vec<(String, String)>, String> {
        if explode {
            // Members as `name=value`, between the style's separators.
            let text = match self {
                Style::Label => sent.strip_prefix('.').ok_or_else(|| {
                    format!("expected `.` before the value (style: label), got `{sent}`")
                })?,
                Style::Matrix => sent.strip_prefix(';').ok_or_else(|| {
                    format!("expected `;` before each member (style: matrix), got `{sent}`")
                })?,
                _ => sent,
            };
            if text.is_empty() {
                return Ok(Vec::new());
            }
            return text
                .split(self.separator(true))
                .map(|member| {
                    let (k, v) = member.split_once('=').ok_or_else(|| {
                        format!("expected members as `name=value`, got `{member}`")
                    })?;
                    let decoded = |s: &str| {
                        decode(s).ok_or_else(|| "not valid percent-encoded UTF-8".to_string())
                    };
                    Ok((decoded(k)?, decoded(v)?))
                })
                .collect();
        }
        let text = self.unwrap(name, sent)?;
        let items = self.split(false, text, decode)?;
        if items.len() % 2 != 0 {
            return Err(
                "expected names and values in turn (`name,value,...`), got an odd number of items"
                    .into(),
            );
        }
        Ok(items
            .chunks_exact(2)
            .map(|kv| (kv[0].clone(), kv[1].clone()))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> String {
        s.to_string()
    }
    fn same(s: &str) -> Option<String> {
        Some(s.to_string())
    }

    /// OpenAPI 3.1.1's table, `color` being `blue`, `[blue, black, brown]` and
    /// `{R: 100, G: 200, B: 150}`, written and read back.
    #[test]
    fn the_specification_table_both_ways() {
        let scalar = Flat::Scalar("blue".into());
        let list = Flat::List(vec!["blue".into(), "black".into(), "brown".into()]);
        let object = Flat::Object(vec![
            ("R".into(), "100".into()),
            ("G".into(), "200".into()),
            ("B".into(), "150".into()),
        ]);
        let rows: &[(Style, bool, &str, &str, &str)] = &[
            (
                Style::Matrix,
                false,
                ";color=blue",
                ";color=blue,black,brown",
                ";color=R,100,G,200,B,150",
            ),
            (
                Style::Matrix,
                true,
                ";color=blue",
                ";color=blue;color=black;color=brown",
                ";R=100;G=200;B=150",
            ),
            (
                Style::Label,
                false,
                ".blue",
                ".blue,black,brown",
                ".R,100,G,200,B,150",
            ),
            (
                Style::Label,
                true,
                ".blue",
                ".blue.black.brown",
                ".R=100.G=200.B=150",
            ),
            (
                Style::Simple,
                false,
                "blue",
                "blue,black,brown",
                "R,100,G,200,B,150",
            ),
            (
                Style::Simple,
                true,
                "blue",
                "blue,black,brown",
                "R=100,G=200,B=150",
            ),
            (
                Style::Form,
                false,
                "blue",
                "blue,black,brown",
                "R,100,G,200,B,150",
            ),
            (
                Style::SpaceDelimited,
                false,
                "blue",
                "blue%20black%20brown",
                "R%20100%20G%20200%20B%20150",
            ),
            (
                Style::PipeDelimited,
                false,
                "blue",
                "blue|black|brown",
                "R|100|G|200|B|150",
            ),
        ];
        for &(style, explode, s, l, o) in rows {
            let at = format!("{style:?} explode={explode}");
            assert_eq!(style.expand(explode, "color", &scalar, &plain), s, "{at}");
            assert_eq!(style.expand(explode, "color", &list, &plain), l, "{at}");
            assert_eq!(style.expand(explode, "color", &object, &plain), o, "{at}");
            assert_eq!(style.scalar("color", s, &same).unwrap(), "blue", "{at}");
            assert_eq!(
                Flat::List(style.list(explode, "color", l, &same).unwrap()),
                list,
                "{at}"
            );
            assert_eq!(
                Flat::Object(style.object(explode, "color", o, &same).unwrap()),
                object,
                "{at}"
            );
        }
        // The table's spelling of a pipe is read as one too.
        assert_eq!(
            Style::PipeDelimited
                .list(false, "color", "blue%7Cblack%7Cbrown", &same)
                .unwrap(),
            ["blue", "black", "brown"]
        );
        // A space written as `+` or as itself separates too.
        assert_eq!(
            Style::SpaceDelimited
                .list(false, "color", "blue+black brown", &same)
                .unwrap(),
            ["blue", "black", "brown"]
        );
        // An empty value: `;color` and `.`.
        let empty = Flat::Scalar(String::new());
        assert_eq!(
            Style::Matrix.expand(false, "color", &empty, &plain),
            ";color"
        );
        assert_eq!(Style::Label.expand(false, "color", &empty, &plain), ".");
        assert_eq!(Style::Matrix.scalar("color", ";color", &same).unwrap(), "");
    }

    #[test]
    fn what_does_not_fit_the_style_is_refused_with_why() {
        let err = Style::Matrix.list(true, "c", "c=a;c=b", &same).unwrap_err();
        assert!(err.contains("`;c=`"), "{err}");
        let err = Style::Label.scalar("c", "blue", &same).unwrap_err();
        assert!(err.contains("expected `.`"), "{err}");
        let err = Style::Matrix.scalar("c", ";d=1", &same).unwrap_err();
        assert!(err.contains("`;c=`"), "{err}");
        // A longer name that starts with this one's is another parameter.
        let err = Style::Matrix.scalar("c", ";cd=1", &same).unwrap_err();
        assert!(err.contains("`;c=`"), "{err}");
        let err = Style::Simple
            .object(false, "c", "R,100,G", &same)
            .unwrap_err();
        assert!(err.contains("odd number"), "{err}");
        let err = Style::Simple
            .object(true, "c", "R=100,G", &same)
            .unwrap_err();
        assert!(err.contains("`name=value`"), "{err}");
        assert!(Flat::of(&serde_json::json!({"a": {"b": 1}})).is_err());
        // `null` is the empty value, alone or in a list.
        assert_eq!(
            Flat::of(&serde_json::json!(null)).unwrap(),
            Flat::Scalar(String::new())
        );
        assert_eq!(
            Flat::of(&serde_json::json!([null, "a"])).unwrap(),
            Flat::List(vec![String::new(), "a".into()])
        );
        assert_eq!(
            Flat::of(&serde_json::json!({"a": 1, "b": null, "c": "x"})).unwrap(),
            Flat::Object(vec![("a".into(), "1".into()), ("c".into(), "x".into())])
        );
    }
}
