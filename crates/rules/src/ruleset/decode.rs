//! Hand reading of a tree for the core's own files of free shape (`[ruleset]`, scenario
//! files with their JSON Pointer keys), collecting every problem (unknown keys, wrong types, impossible values)
//! instead of stopping at the first; and the player-count and id rules [`super::de`]
//! shares. Games read their rulesets with [`super::de`].
//!
//! ```ignore
//! let mut t = Table::new(node, d)?;          // error if `node` is not a table
//! let name = t.str(d, "ruleset");            // required
//! let vp = t.int_or(d, "vp", 0, 0..=99);     // optional with a default
//! t.finish(d);                               // unknown keys → errors naming the known ones
//! ```

use super::diag::{Diagnostics, Origin};
use super::node::{Entry, Kind, Node};
use std::ops::RangeInclusive;

/// A table being read: remembers which keys were asked for, so [`Table::finish`] can
/// report every other key as unknown.
pub struct Table<'n> {
    node: &'n Node,
    entries: &'n [Entry],
    known: Vec<&'static str>,
}

impl<'n> Table<'n> {
    /// `None` (with an error) if `node` is not a table.
    pub fn new(node: &'n Node, d: &mut Diagnostics) -> Option<Self> {
        match node.entries() {
            Some(entries) => Some(Table { node, entries, known: Vec::new() }),
            None => {
                d.error(node.origin, format!("expected a table, found {}", node.type_name()));
                None
            }
        }
    }

    /// The value of `key`, if present (the key becomes known).
    pub fn get(&mut self, key: &'static str) -> Option<&'n Node> {
        if !self.known.contains(&key) {
            self.known.push(key);
        }
        self.entries.iter().find(|e| e.key == key).map(|e| &e.value)
    }

    /// The value of a required key; a missing key is an error at the table.
    pub fn req(&mut self, d: &mut Diagnostics, key: &'static str, expected: &str) -> Option<&'n Node> {
        let v = self.get(key);
        if v.is_none() {
            d.error(self.node.origin, format!("missing key `{key}`: expected {expected}"));
        }
        v
    }

    pub fn int_or(
        &mut self,
        d: &mut Diagnostics,
        key: &'static str,
        default: i64,
        range: RangeInclusive<i64>,
    ) -> Option<i64> {
        match self.get(key) {
            Some(n) => int_in(n, d, range),
            None => Some(default),
        }
    }

    /// A string; an `id` must also be notation-safe ([`id_of`]).
    pub fn str(&mut self, d: &mut Diagnostics, key: &'static str) -> Option<&'n str> {
        let n = self.req(d, key, "a string")?;
        if key == "id" { id_of(n, d) } else { str_of(n, d) }
    }

    pub fn str_or(&mut self, d: &mut Diagnostics, key: &'static str, default: &'n str) -> Option<&'n str> {
        match self.get(key) {
            Some(n) => str_of(n, d),
            None => Some(default),
        }
    }

    pub fn opt_table(&mut self, d: &mut Diagnostics, key: &'static str) -> Option<Table<'n>> {
        let n = self.get(key)?;
        Table::new(n, d)
    }

    pub fn opt_array(&mut self, d: &mut Diagnostics, key: &'static str) -> Option<&'n [Node]> {
        let n = self.get(key)?;
        array_of(n, d)
    }

    /// Marks every key as known (the caller reads the table as a map).
    pub fn entries_as_map(&mut self) -> &'n [Entry] {
        let entries = self.entries;
        self.known.clear();
        self.known.push("\u{0}*");
        entries
    }

    /// Reports every key that was never asked for.
    pub fn finish(self, d: &mut Diagnostics) {
        if self.known.first() == Some(&"\u{0}*") {
            return;
        }
        for e in self.entries {
            if !self.known.contains(&e.key.as_str()) {
                let mut expected: Vec<&str> = self.known.clone();
                expected.sort_unstable();
                let msg = if expected.is_empty() {
                    format!("unknown key `{}`: this table takes no keys", e.key)
                } else {
                    format!(
                        "unknown key `{}`: expected one of {}{}",
                        e.key,
                        quoted(&expected),
                        crate::suggest::hint(&e.key, expected.iter().copied())
                    )
                };
                d.error(e.key_origin, msg);
            }
        }
    }
}

fn quoted(words: &[&str]) -> String {
    words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
}

pub fn int_in(n: &Node, d: &mut Diagnostics, range: RangeInclusive<i64>) -> Option<i64> {
    match n.kind {
        Kind::Int(i) if range.contains(&i) => Some(i),
        Kind::Int(i) => {
            d.error(
                n.origin,
                format!("{i} is out of range: expected an integer from {} to {}", range.start(), range.end()),
            );
            None
        }
        _ => {
            d.error(n.origin, format!("expected an integer, found {}", n.type_name()));
            None
        }
    }
}

pub fn str_of<'n>(n: &'n Node, d: &mut Diagnostics) -> Option<&'n str> {
    match &n.kind {
        Kind::Str(s) => Some(s),
        _ => {
            d.error(n.origin, format!("expected a string, found {}", n.type_name()));
            None
        }
    }
}

/// An id: it appears in actions, so it must be something the notation can type back —
/// non-empty, lowercase letters, digits, `-` and `_`, no spaces.
pub fn id_of<'n>(n: &'n Node, d: &mut Diagnostics) -> Option<&'n str> {
    checked_id(str_of(n, d)?, n.origin, d)
}

/// `s` if it is a notation-safe id, else the problem at `origin`.
pub fn checked_id<'s>(s: &'s str, origin: Origin, d: &mut Diagnostics) -> Option<&'s str> {
    let safe = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
    if s.is_empty() || !s.chars().all(safe) {
        d.error(
            origin,
            format!("id {s:?}: expected lowercase letters, digits, `-` or `_` (it is typed back in actions)"),
        );
        return None;
    }
    Some(s)
}

pub fn bool_of(n: &Node, d: &mut Diagnostics) -> Option<bool> {
    match n.kind {
        Kind::Bool(b) => Some(b),
        _ => {
            d.error(n.origin, format!("expected true or false, found {}", n.type_name()));
            None
        }
    }
}

pub fn array_of<'n>(n: &'n Node, d: &mut Diagnostics) -> Option<&'n [Node]> {
    match &n.kind {
        Kind::Array(items) => Some(items),
        _ => {
            d.error(n.origin, format!("expected an array, found {}", n.type_name()));
            None
        }
    }
}

/// An array of integers, each in `range`.
pub fn ints_of(n: &Node, d: &mut Diagnostics, range: RangeInclusive<i64>) -> Option<Vec<i64>> {
    let items = array_of(n, d)?;
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for i in items {
        match int_in(i, d, range.clone()) {
            Some(v) => out.push(v),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

/// An array of strings.
pub fn strs_of<'n>(n: &'n Node, d: &mut Diagnostics) -> Option<Vec<&'n str>> {
    let items = array_of(n, d)?;
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for i in items {
        match str_of(i, d) {
            Some(v) => out.push(v),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

/// True for a value that comes from a ruleset the file being read `extends` (file 0 is the
/// file itself).
pub fn inherited(origin: Origin) -> bool {
    origin.file != 0
}

/// The keys of a per-player-count table (with their origins): each key's count when it is
/// one of `players`; unknown counts and missing ones reported (counts a derived ruleset
/// dropped, inherited from its base, are moot, not errors located in the base's file).
/// Returns the counts by key and whether all was well.
pub fn player_count_keys(
    keys: &[(&str, Origin)],
    table: Origin,
    players: RangeInclusive<usize>,
    d: &mut Diagnostics,
) -> (Vec<Option<usize>>, bool) {
    let mut ok = true;
    let mut present = vec![false; players.end() + 1];
    let counts = keys
        .iter()
        .map(|&(key, origin)| match key.parse::<usize>() {
            Ok(p) if players.contains(&p) => {
                present[p] = true;
                Some(p)
            }
            Ok(p) if inherited(origin) && p <= crate::MAX_PLAYERS => None,
            _ => {
                d.error(
                    origin,
                    format!("unknown player count `{key}`: expected {} to {}", players.start(), players.end()),
                );
                ok = false;
                None
            }
        })
        .collect();
    for p in players.clone() {
        if !present[p] {
            d.error(
                table,
                format!(
                    "missing the value for {p} players: a per-player-count table must cover {} to {}",
                    players.start(),
                    players.end()
                ),
            );
            ok = false;
        }
    }
    (counts, ok)
}
