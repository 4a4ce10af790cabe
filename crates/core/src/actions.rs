//! A game's actions in notation, kept in one buffer (the record of a simulated game): its
//! own module so the game loop can fill it without depending on records.

use serde::{Deserialize, Serialize};

/// A game's actions in notation, in one buffer: a recorded run names every decision, and
/// a string each would cost an allocation (and a free) per decision.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Actions {
    /// The names in order, each after a `","` that follows the one before: between `["`
    /// and `"]`, the text of their JSON list (when no name needs escaping), written at once.
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<usize>,
}

/// What comes between two names in [`Actions::text`].
const BETWEEN: &str = "\",\"";

impl Actions {
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for about `names` names without growing (a game's worth: a few hundred).
    pub fn with_capacity(names: usize) -> Self {
        Actions { text: String::with_capacity(names * 16), ends: Vec::with_capacity(names) }
    }

    /// Adds the name that `write` writes at the end of the buffer it is given (e.g.
    /// [`crate::Game::write_action`]).
    pub fn push_with(&mut self, write: impl FnOnce(&mut String)) {
        if !self.ends.is_empty() {
            self.text.push_str(BETWEEN);
        }
        write(&mut self.text);
        self.ends.push(self.text.len());
    }

    pub fn push(&mut self, name: &str) {
        self.push_with(|text| text.push_str(name));
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Bytes of the names and their separators (what a record line holds of them).
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`th name (from 0).
    pub fn get(&self, i: usize) -> Option<&str> {
        let start = if i == 0 { 0 } else { *self.ends.get(i - 1)? + BETWEEN.len() };
        self.text.get(start..*self.ends.get(i)?)
    }

    pub fn iter(&self) -> Names<'_> {
        Names { text: &self.text, start: 0, ends: self.ends.iter() }
    }

    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }

    /// Appends the names as a JSON list: the bytes serde_json writes for them. Names are
    /// lowercase words (ids are checked notation-safe when a ruleset is read), so the
    /// buffer is the list's text as it stands unless a name holds a quote, a backslash or
    /// a control character: one pass over the bytes tells, then serde_json writes it.
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        if self.ends.is_empty() {
            out.extend_from_slice(b"[]");
            return Ok(());
        }
        // No branch per byte and byte-wide sums: the pass vectorises (a chunk's count of
        // quotes fits in a byte).
        let (mut escapes, mut quotes) = (0u8, 0usize);
        for chunk in self.text.as_bytes().chunks(128) {
            let (mut e, mut q) = (0u8, 0u8);
            for &b in chunk {
                e |= u8::from(b < 0x20) | u8::from(b == b'\\');
                q += u8::from(b == b'"');
            }
            escapes |= e;
            quotes += usize::from(q);
        }
        // Two quotes in each `","` between names, none in a name.
        if escapes != 0 || quotes != 2 * (self.ends.len() - 1) {
            return serde_json::to_writer(out, self);
        }
        out.reserve(self.text.len() + 4);
        out.extend_from_slice(b"[\"");
        out.extend_from_slice(self.text.as_bytes());
        out.extend_from_slice(b"\"]");
        Ok(())
    }
}

/// The names of [`Actions`], in order.
#[derive(Clone, Debug)]
pub struct Names<'a> {
    text: &'a str,
    start: usize,
    ends: std::slice::Iter<'a, usize>,
}

impl<'a> Iterator for Names<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let end = *self.ends.next()?;
        let name = self.text.get(self.start..end).unwrap_or_default();
        self.start = end + BETWEEN.len();
        Some(name)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ends.size_hint()
    }
}

impl ExactSizeIterator for Names<'_> {}

impl<'a> IntoIterator for &'a Actions {
    type Item = &'a str;
    type IntoIter = Names<'a>;

    fn into_iter(self) -> Names<'a> {
        self.iter()
    }
}

impl<S: AsRef<str>> FromIterator<S> for Actions {
    fn from_iter<I: IntoIterator<Item = S>>(names: I) -> Self {
        let mut actions = Actions::new();
        for name in names {
            actions.push(name.as_ref());
        }
        actions
    }
}

impl From<Vec<String>> for Actions {
    fn from(names: Vec<String>) -> Self {
        names.into_iter().collect()
    }
}

/// A list of strings, as `Vec<String>` is.
impl Serialize for Actions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Actions {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<String>::deserialize(deserializer).map(Actions::from)
    }
}
