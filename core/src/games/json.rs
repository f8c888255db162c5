//! A component set read from JSON, its errors in a designer's words: the dotted key a bad
//! value sits at (`colour_bonus[0].first`, by `serde_path_to_error`) and what it should be
//! ("a whole number 0 to 255", not serde's `u8`), without serde's line and column, which
//! point into the document cdsim merged and not into the file the designer wrote.

use serde::de::DeserializeOwned;

/// The value `text` holds, or one line: `KEY: expected KIND, got VALUE` (`what` begins a
/// line whose fault has no key, e.g. "castles components JSON").
pub fn from_json<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let key = e.path().to_string();
        let inner = e.into_inner();
        let said = if inner.is_data() { words(&plain(&inner)) } else { inner.to_string() };
        if key.is_empty() || key == "." || !inner.is_data() {
            format!("{what}: {said}")
        } else {
            format!("{key}: {said}")
        }
    })
}

/// serde's message without its " at line L column C".
fn plain(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// serde's data error in words (its own text where it is none of those below).
fn words(msg: &str) -> String {
    let typed = msg.strip_prefix("invalid type: ").or_else(|| msg.strip_prefix("invalid value: "));
    if let Some((got, expected)) = typed.and_then(|rest| rest.split_once(", expected ")) {
        return format!("expected {}, got {}", kind(expected), value(got));
    }
    if let Some((name, known)) = msg.strip_prefix("unknown field ").and_then(|r| r.split_once(", expected ")) {
        return format!("unknown key {} (known: {})", quoted(name), names(known));
    }
    if let Some(name) = msg.strip_prefix("unknown field ").and_then(|r| r.strip_suffix(", there are no fields")) {
        return format!("unknown key {} (it takes none)", quoted(name));
    }
    if let Some((name, known)) = msg.strip_prefix("unknown variant ").and_then(|r| r.split_once(", expected ")) {
        return format!("unknown value {} (known: {})", quoted(name), names(known));
    }
    if let Some(name) = msg.strip_prefix("missing field ") {
        return format!("missing key {}", quoted(name));
    }
    if let Some(name) = msg.strip_prefix("duplicate field ") {
        return format!("key {} given twice", quoted(name));
    }
    msg.to_string()
}

/// What serde expected, as a designer says it.
fn kind(expected: &str) -> String {
    let whole = |lo: i128, hi: i128| format!("a whole number {lo} to {hi}");
    match expected {
        "u8" => whole(0, u8::MAX.into()),
        "u16" => whole(0, u16::MAX.into()),
        "u32" | "u64" | "usize" => "a whole number, 0 or more".into(),
        "i8" => whole(i8::MIN.into(), i8::MAX.into()),
        "i16" => whole(i16::MIN.into(), i16::MAX.into()),
        "i32" | "i64" | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a sequence" => "a list".into(),
        "a string" => "text".into(),
        "a boolean" => "true or false".into(),
        "a map" => "an object".into(),
        _ if expected.starts_with("struct ") => "an object".into(),
        _ => expected.into(),
    }
}

/// The value serde was given (`integer `-4``, `string "five"`, `sequence`), as written.
fn value(got: &str) -> String {
    for tag in ["integer ", "floating point ", "boolean ", "string ", "char "] {
        if let Some(rest) = got.strip_prefix(tag) {
            return rest.trim_matches('`').to_string();
        }
    }
    match got {
        "sequence" => "a list".into(),
        "map" => "an object".into(),
        "unit value" => "null".into(),
        _ => got.into(),
    }
}

/// A name serde quotes in backticks, in double quotes.
fn quoted(name: &str) -> String {
    format!("{:?}", name.trim_matches('`'))
}

/// serde's list of names (`a` or `b`, one of `a`, `b`, `c`), comma-separated.
fn names(list: &str) -> String {
    let list = list.strip_prefix("one of ").unwrap_or(list);
    list.split(", ")
        .flat_map(|part| part.split(" or "))
        .map(|name| name.trim_matches('`'))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::from_json;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Entry {
        #[allow(dead_code, reason = "read only to be checked")]
        first: u8,
        #[allow(dead_code, reason = "read only to be checked")]
        #[serde(default)]
        colour: Option<Colour>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Colour {
        Red,
        Blue,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Set {
        #[allow(dead_code, reason = "read only to be checked")]
        bonus: Vec<Entry>,
        #[allow(dead_code, reason = "read only to be checked")]
        #[serde(default)]
        start: i32,
    }

    fn said(text: &str) -> String {
        from_json::<Set>("toy components JSON", text).unwrap_err()
    }

    #[test]
    fn each_fault_names_its_key_and_what_it_should_be_without_a_place() {
        assert_eq!(said(r#"{"bonus": [{"first": 1}, {"first": -4}]}"#),
                   "bonus[1].first: expected a whole number 0 to 255, got -4");
        assert_eq!(said(r#"{"bonus": [{"first": 1e30}]}"#),
                   "bonus[0].first: expected a whole number 0 to 255, got 1e+30");
        assert_eq!(said(r#"{"bonus": [], "start": "five"}"#),
                   r#"start: expected a whole number, got "five""#);
        assert_eq!(said(r#"{"bonus": "x"}"#), r#"bonus: expected a list, got "x""#);
        assert_eq!(said(r#"{"bonus": [{"first": 1, "frist": 6}]}"#),
                   r#"bonus[0].frist: unknown key "frist" (known: first, colour)"#);
        assert_eq!(said(r#"{"bonus": [{"first": 1, "colour": "purple"}]}"#),
                   r#"bonus[0].colour: unknown value "purple" (known: red, blue)"#);
        assert_eq!(said(r#"{"bonus": [{}]}"#), r#"bonus[0]: missing key "first""#);
        assert_eq!(said(r#"{"bonus": [], "nosuch": 1, "more": 2}"#),
                   r#"nosuch: unknown key "nosuch" (known: bonus, start)"#);
    }

    #[test]
    fn a_document_that_is_not_json_says_what_it_is() {
        let line = said("{");
        assert!(line.starts_with("toy components JSON: EOF"), "{line}");
    }
}
