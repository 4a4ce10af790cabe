//! A TOML tree that remembers where every key and value came from, so that errors
//! found after merging files still point at the right file, line and column.

use super::diag::{Diagnostics, Origin};
use toml_edit::{Item, Value};

/// A value of a ruleset tree, with its origin.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub origin: Origin,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Table(Vec<Entry>),
    Array(Vec<Node>),
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// A key of a table with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_origin: Origin,
    pub value: Node,
}

impl Node {
    pub fn table(entries: Vec<Entry>, origin: Origin) -> Self {
        Node { kind: Kind::Table(entries), origin }
    }

    /// What kind of value this is, in words for messages.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Table(_) => "a table",
            Kind::Array(_) => "an array",
            Kind::Str(_) => "a string",
            Kind::Int(_) => "an integer",
            Kind::Float(_) => "a float",
            Kind::Bool(_) => "a boolean",
        }
    }

    pub fn entries(&self) -> Option<&[Entry]> {
        match &self.kind {
            Kind::Table(e) => Some(e),
            _ => None,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries()?.iter().find(|e| e.key == key).map(|e| &e.value)
    }

    /// Looks a dotted path up (`ruleset.game`).
    pub fn path(&self, path: &str) -> Option<&Node> {
        path.split('.').try_fold(self, |n, k| n.get(k))
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The tree as JSON (tables keep their key order).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.kind {
            Kind::Table(entries) => J::Object(entries.iter().map(|e| (e.key.clone(), e.value.to_json())).collect()),
            Kind::Array(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Kind::Str(s) => J::String(s.clone()),
            Kind::Int(i) => J::from(*i),
            Kind::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
            Kind::Bool(b) => J::Bool(*b),
        }
    }

    /// The tree as a TOML value.
    pub fn to_toml(&self) -> toml::Value {
        use toml::Value as T;
        match &self.kind {
            Kind::Table(entries) => T::Table(entries.iter().map(|e| (e.key.clone(), e.value.to_toml())).collect()),
            Kind::Array(items) => T::Array(items.iter().map(Node::to_toml).collect()),
            Kind::Str(s) => T::String(s.clone()),
            Kind::Int(i) => T::Integer(*i),
            Kind::Float(f) => T::Float(*f),
            Kind::Bool(b) => T::Boolean(*b),
        }
    }
}

/// Parses one file's text into a tree. Syntax errors are reported with their location.
pub fn parse(file: usize, text: &str, diags: &mut Diagnostics) -> Option<Node> {
    let doc = match toml_edit::Document::parse(text.to_string()) {
        Ok(doc) => doc,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let msg = e.message().trim().replace('\n', "; ");
            diags.error(Origin::new(file, span), format!("invalid TOML: {msg}"));
            return None;
        }
    };
    let root = Origin::new(file, 0..0);
    Some(from_table(file, doc.as_table(), root, diags))
}

fn origin_of(file: usize, span: Option<std::ops::Range<usize>>, fallback: Origin) -> Origin {
    span.map_or(fallback, |s| Origin::new(file, s))
}

fn from_table(file: usize, table: &toml_edit::Table, origin: Origin, diags: &mut Diagnostics) -> Node {
    let mut entries = Vec::new();
    for (key, item) in table.iter() {
        let key_origin = table.get_key_value(key).and_then(|(k, _)| k.span()).map_or(origin, |s| Origin::new(file, s));
        if let Some(value) = from_item(file, item, key_origin, diags) {
            entries.push(Entry { key: key.to_string(), key_origin, value });
        }
    }
    Node::table(entries, origin)
}

fn from_item(file: usize, item: &Item, fallback: Origin, diags: &mut Diagnostics) -> Option<Node> {
    match item {
        Item::None => None,
        Item::Value(v) => Some(from_value(file, v, fallback, diags)),
        Item::Table(t) => {
            let origin = origin_of(file, t.span(), fallback);
            Some(from_table(file, t, origin, diags))
        }
        Item::ArrayOfTables(a) => {
            let origin = origin_of(file, a.span(), fallback);
            let items = a
                .iter()
                .map(|t| {
                    let o = origin_of(file, t.span(), origin);
                    from_table(file, t, o, diags)
                })
                .collect();
            Some(Node { kind: Kind::Array(items), origin })
        }
    }
}

fn from_value(file: usize, value: &Value, fallback: Origin, diags: &mut Diagnostics) -> Node {
    let origin = origin_of(file, value.span(), fallback);
    let kind = match value {
        Value::String(s) => Kind::Str(s.value().clone()),
        Value::Integer(i) => Kind::Int(*i.value()),
        Value::Float(f) => Kind::Float(*f.value()),
        Value::Boolean(b) => Kind::Bool(*b.value()),
        Value::Datetime(_) => {
            diags.error(origin, "dates are not used in rulesets; expected a number, string, boolean, array or table");
            Kind::Str(String::new())
        }
        Value::Array(a) => Kind::Array(a.iter().map(|v| from_value(file, v, origin, diags)).collect()),
        Value::InlineTable(t) => {
            let mut entries = Vec::new();
            for (key, v) in t.iter() {
                let key_origin =
                    t.get_key_value(key).and_then(|(k, _)| k.span()).map_or(origin, |s| Origin::new(file, s));
                entries.push(Entry { key: key.to_string(), key_origin, value: from_value(file, v, key_origin, diags) });
            }
            Kind::Table(entries)
        }
    };
    Node { kind, origin }
}
