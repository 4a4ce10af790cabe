//! Derived decoding: a `serde` deserializer over the located tree, so a game's typed rules
//! read themselves as `#[derive(Deserialize)]` structs (strict: every key they do not name
//! is an error), each field by its range or its own reader, with the checks that span
//! sections after.
//!
//! Every problem is collected, each at its file:line:col (across `extends`), not only the
//! first: a value of the wrong type is reported and read as a neutral value (0, `false`,
//! `""`, empty) so reading goes on; a key the struct does not have is reported (naming the
//! keys it has) and skipped; a key it needs and the file lacks is reported at its table
//! (an `Option` field is the one way to make a key optional, and says so in the type).
//! A value that cannot be read at all (a field type's own check failed) is reported where
//! it is; an array stops there, and the table around it is still read.
//!
//! An enum reads from a string naming a unit variant (`kind = "city"`), or from a table
//! whose `kind` names the variant and whose other keys are the variant's fields
//! (`effect = { kind = "trade_bonus", doubloons = 1 }`, each variant strict about its
//! keys): the closed vocabularies of effect kinds, derived.
//!
//! [`Located`] keeps a value's origin for a reader's or a later check's own messages; [`Int`] is
//! an integer whose fixed range is part of the shape (checked while reading, and named in
//! the message when the key is missing or the value wrong). A typed rule can read itself
//! with no raw copy between: a number field by its range ([`byte`], [`num`]), a table by
//! player count by the counts of the pass ([`per_players_byte`] inside [`with_players`]),
//! a field with its own reader that reports what it finds wrong in reading order
//! ([`reject`], or [`checked`] around a helper that writes to [`Diagnostics`]), and a
//! name another section declares looked up as it is read ([`with_context`], [`lookup`]).
//!
//! ```ignore
//! #[derive(Deserialize)]
//! struct Rules {
//!     #[serde(deserialize_with = "de::num::<1, 10_000, _, _>")]
//!     max_rounds: u32,
//!     #[serde(deserialize_with = "de::per_players_byte::<1, 200, _>")]
//!     residents: [u8; MAX_PLAYERS + 1],
//!     label: Option<String>,
//! }
//! let before = d.len();
//! let rules: Rules = de::with_players(2..=4, || de::from_tree(tree, d))?;
//! // … the checks that span fields …
//! (d.len() == before).then_some(rules)
//! ```

use super::diag::{Diagnostics, Origin};
use super::node::{Entry, Kind, Node};
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};
use std::cell::RefCell;
use std::fmt;
use std::ops::RangeInclusive;

/// Reads `node` into `T`; every problem goes into `d`. The value comes back whenever the
/// reading got through, problems or not (neutral values stand in for what was wrong), so
/// the validation step finds its own problems too; a [`Located`] stand-in has the origin
/// [`Origin::REPORTED`], and checks of it stay silent. The caller refuses the ruleset if
/// `d` grew.
pub fn from_tree<T: DeserializeOwned>(node: &Node, d: &mut Diagnostics) -> Option<T> {
    let sink = Sink::default();
    let outer = PROBLEMS.with(|p| p.replace(Some(Vec::new())));
    let read =
        T::deserialize(De { node: Some(node), at: node.origin, key: None, sink: &sink, quiet: false, range: None });
    let mut problems = PROBLEMS.with(|p| p.replace(outer)).unwrap_or_default();
    if let Err(e) = &read {
        if !e.reported {
            problems.push((e.origin.unwrap_or(node.origin), e.message.clone()));
        }
    }
    for (origin, message) in problems {
        d.error(origin, message);
    }
    read.ok()
}

/// Reports a problem a field's own reader found in a value it could read (an unknown
/// name in a list, a table of the wrong length), in reading order with the others, so
/// that a typed rule can read itself from the ruleset with no raw copy between
/// (`#[serde(deserialize_with = …)]`); the reader goes on with the neutral value it
/// returns, and the ruleset is refused. Outside [`from_tree`] the problem is an error;
/// at [`Origin::REPORTED`] (a stand-in's) it is silent.
pub fn reject<E: de::Error>(origin: Origin, message: impl Into<String>) -> Result<(), E> {
    if origin == Origin::REPORTED {
        return Ok(()); // a stand-in: its problem is reported
    }
    let message = message.into();
    let kept = PROBLEMS.with(|p| p.borrow_mut().as_mut().map(|list| list.push((origin, message.clone()))).is_some());
    if kept { Ok(()) } else { Err(E::custom(message)) }
}

/// An [`Int`] read straight into a `u8` field of a typed rule
/// (`#[serde(deserialize_with = "de::byte::<0, 99, _>")]`); 0 stands in for a value
/// that could not be read (its problem reported).
pub fn byte<'de, const MIN: i64, const MAX: i64, D: de::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    const { assert!(0 <= MIN && MIN <= MAX && MAX <= u8::MAX as i64) };
    <Int<MIN, MAX> as de::Deserialize>::deserialize(d).map(|i| i.get().map_or(0, |v| v as u8))
}

/// An [`Int`] read straight into a numeric field of a typed rule (`i32`, `u16`, `u32` …)
/// (`#[serde(deserialize_with = "de::num::<0, 10_000, _, _>")]`); the default stands in
/// for a value that could not be read (its problem reported).
pub fn num<'de, const MIN: i64, const MAX: i64, T: TryFrom<i64> + Default, D: de::Deserializer<'de>>(
    d: D,
) -> Result<T, D::Error> {
    <Int<MIN, MAX> as de::Deserialize>::deserialize(d)
        .map(|i| i.get().and_then(|v| T::try_from(v).ok()).unwrap_or_default())
}

/// Runs a validation helper (one that writes to [`Diagnostics`], such as [`per_players`]
/// or [`id`]) inside a field's own reader: what it finds is reported as by [`reject`].
pub fn checked<E: de::Error, R>(check: impl FnOnce(&mut Diagnostics) -> R) -> Result<R, E> {
    let mut d = Diagnostics::default();
    let out = check(&mut d);
    for item in d.items {
        reject(item.origin.unwrap_or(Origin::REPORTED), item.message)?;
    }
    Ok(out)
}

thread_local! {
    /// The player counts of the ruleset being read ([`with_players`]).
    static PLAYERS: std::cell::Cell<Option<(usize, usize)>> = const { std::cell::Cell::new(None) };
}

/// Runs `pass` (a [`from_tree`]) knowing the ruleset's player counts, which the
/// per-player-count tables read by [`per_players_byte`] must cover.
pub fn with_players<R>(players: RangeInclusive<usize>, pass: impl FnOnce() -> R) -> R {
    let outer = PLAYERS.with(|p| p.replace(Some((*players.start(), *players.end()))));
    let out = pass();
    PLAYERS.with(|p| p.set(outer));
    out
}

/// A per-player-count table of the pass's player counts ([`with_players`]; 2 players
/// outside one) read straight into a field indexed by player count, each value from
/// `MIN` to `MAX` (see [`per_players`]); 0 stands in where a value was wrong.
pub fn per_players_byte<'de, const MIN: i64, const MAX: i64, D: de::Deserializer<'de>>(
    d: D,
) -> Result<[u8; crate::MAX_PLAYERS + 1], D::Error> {
    const { assert!(0 <= MIN && MIN <= MAX && MAX <= u8::MAX as i64) };
    let table = <Located<Entries<Located<i64>>> as de::Deserialize>::deserialize(d)?;
    let (lo, hi) = PLAYERS.with(|p| p.get()).unwrap_or((2, 2));
    let values = checked(|d| per_players(&table, lo..=hi, MIN..=MAX, d))?;
    let mut out = [0; crate::MAX_PLAYERS + 1];
    for (slot, v) in out.iter_mut().zip(values.unwrap_or_default()) {
        *slot = v.map_or(0, |v| v as u8);
    }
    Ok(out)
}

thread_local! {
    /// What the fields' readers of the pass under way look names up in ([`with_context`]).
    static CONTEXT: RefCell<Option<std::rc::Rc<dyn std::any::Any>>> = const { RefCell::new(None) };
}

/// Runs `pass` (a [`from_tree`]) with `context` at hand for the fields' own readers
/// ([`context`]): the names that other sections declare (goods, flowers, buildings), taken
/// from the tree or from rules read before, so that a name is looked up as it is read.
pub fn with_context<C: 'static, R>(context: C, pass: impl FnOnce() -> R) -> R {
    let outer = CONTEXT.with(|c| c.replace(Some(std::rc::Rc::new(context))));
    let out = pass();
    CONTEXT.with(|c| c.replace(outer));
    out
}

/// `f` of the context of the pass under way ([`with_context`]); `None` outside one, or
/// if that context is not a `C`.
pub fn context<C: 'static, R>(f: impl FnOnce(&C) -> R) -> Option<R> {
    // Cloned out, so a reader may start a pass of its own inside `f`.
    let c = CONTEXT.with(|c| c.borrow().clone())?;
    c.downcast_ref::<C>().map(f)
}

/// The index of `name` among `names` (the ids a ruleset declares for `what`: goods,
/// flowers …), or `None` with the problem reported as by [`reject`], naming every id
/// and the closest one as a hint. An empty name stands in for an id that was wrong (its
/// problem reported): it keeps its place, and is neither matched nor listed.
pub fn lookup<'a, E: de::Error>(
    names: impl IntoIterator<Item = &'a str>,
    what: &str,
    name: &Located<String>,
) -> Result<Option<usize>, E> {
    let names: Vec<&str> = names.into_iter().collect();
    if let Some(i) = names.iter().position(|n| !n.is_empty() && *n == name.value) {
        return Ok(Some(i));
    }
    let known: Vec<&str> = names.into_iter().filter(|n| !n.is_empty()).collect();
    let hint = crate::suggest::hint(&name.value, known.iter().copied());
    let message = format!("unknown {what} `{}`: expected one of {}{hint}", name.value, known.join(", "));
    reject(name.origin, message).map(|()| None)
}

/// A value with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Located<T> {
    pub value: T,
    pub origin: Origin,
}

const LOCATED: &str = "$rulesmith::Located";
const LOCATED_ORIGIN: &str = "$origin";
const LOCATED_VALUE: &str = "$value";

impl<'de, T: de::Deserialize<'de>> de::Deserialize<'de> for Located<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: de::Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Located<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a value of a ruleset")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Located<T>, A::Error> {
                let mut origin = None;
                let mut value = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key == LOCATED_ORIGIN {
                        origin = Some(unpack(map.next_value::<u128>()?));
                    } else {
                        value = Some(map.next_value::<T>()?);
                    }
                }
                match (value, origin) {
                    (Some(value), Some(origin)) => Ok(Located { value, origin }),
                    _ => Err(de::Error::custom("a located value is read from a ruleset only")),
                }
            }
        }
        d.deserialize_struct(LOCATED, &[LOCATED_ORIGIN, LOCATED_VALUE], V(std::marker::PhantomData))
    }
}

/// An integer from `MIN` to `MAX` with where it was written: the range is part of the
/// declared shape, so a value outside it, or a key the table lacks, is reported naming it
/// (`missing key `ships`: expected an integer from 1 to 50`). For ranges the ruleset itself
/// decides (a count of its own lists), read a [`Located`] integer and check it with
/// [`int_in`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Int<const MIN: i64, const MAX: i64> {
    pub value: i64,
    pub origin: Origin,
}

impl<const MIN: i64, const MAX: i64> Int<MIN, MAX> {
    /// The value; `None` for a stand-in (its problem is reported).
    pub fn get(&self) -> Option<i64> {
        (self.origin != Origin::REPORTED).then_some(self.value)
    }
}

thread_local! {
    /// The problems of the reading under way, in reading order (`None` outside one).
    static PROBLEMS: RefCell<Option<Vec<(Origin, String)>>> = const { RefCell::new(None) };
    /// The range of the [`Int`] being read, for the reader of its located value.
    static RANGE: std::cell::Cell<Option<(i64, i64)>> = const { std::cell::Cell::new(None) };
}

impl<'de, const MIN: i64, const MAX: i64> de::Deserialize<'de> for Int<MIN, MAX> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        RANGE.with(|r| r.set(Some((MIN, MAX))));
        let v = Located::<i64>::deserialize(d);
        RANGE.with(|r| r.set(None));
        v.map(|l| Int { value: l.value, origin: l.origin })
    }
}

fn pack(o: Origin) -> u128 {
    (u128::from(o.file) << 64) | (u128::from(o.start) << 32) | u128::from(o.end)
}

fn unpack(v: u128) -> Origin {
    Origin { file: (v >> 64) as u16, start: (v >> 32) as u32, end: v as u32 }
}

/// A table read in file order: each key (with its origin) and its value. For tables whose
/// keys are names the ruleset chooses (terrains, player counts); the order is kept because
/// names become indices.
#[derive(Clone, Debug, PartialEq)]
pub struct Entries<T>(pub Vec<(Located<String>, T)>);

impl<'de, T: de::Deserialize<'de>> de::Deserialize<'de> for Entries<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: de::Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Entries<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Entries<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<Located<String>>()? {
                    out.push((k, map.next_value::<T>()?));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The `[ruleset]` table: the loader has checked it; games read the name.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct RulesetMeta {
    pub name: Option<String>,
    pub game: Option<String>,
    pub description: Option<String>,
    pub extends: Option<de::IgnoredAny>,
}

/// A per-player-count table such as `{ 2 = 3, 3 = 2, 4 = 3 }`: every count in `players`
/// present, no other (counts a derived ruleset dropped, inherited from its base, are moot);
/// each value in `range`. Values indexed by player count.
pub fn per_players(
    table: &Located<Entries<Located<i64>>>,
    players: RangeInclusive<usize>,
    range: RangeInclusive<i64>,
    d: &mut Diagnostics,
) -> Option<Vec<Option<i64>>> {
    per_players_with(table, players, d, |v, d| int_in(v, range.clone(), d))
}

/// [`per_players`] with values of any shape, each read by `value`.
pub fn per_players_with<T, V: Clone>(
    table: &Located<Entries<T>>,
    players: RangeInclusive<usize>,
    d: &mut Diagnostics,
    mut value: impl FnMut(&T, &mut Diagnostics) -> Option<V>,
) -> Option<Vec<Option<V>>> {
    let keys: Vec<(&str, Origin)> = table.value.0.iter().map(|(k, _)| (k.value.as_str(), k.origin)).collect();
    let (counts, mut ok) = super::decode::player_count_keys(&keys, table.origin, players.clone(), d);
    let mut out: Vec<Option<V>> = vec![None; players.end() + 1];
    for ((_, v), count) in table.value.0.iter().zip(counts) {
        if let Some(p) = count {
            match value(v, d) {
                Some(v) => out[p] = Some(v),
                None => ok = false,
            }
        }
    }
    ok.then_some(out)
}

/// A list of player counts (the counts a role card is used with), each in `players`;
/// counts outside `players` inherited from an `extends` base are dropped, not errors.
pub fn player_counts(
    list: &Located<Vec<Located<i64>>>,
    players: RangeInclusive<usize>,
    d: &mut Diagnostics,
) -> Option<Vec<usize>> {
    let mut out = Vec::with_capacity(list.value.len());
    let mut ok = true;
    for v in &list.value {
        let moot = super::decode::inherited(v.origin)
            && !players.contains(&(v.value as usize))
            && (0..=crate::MAX_PLAYERS as i64).contains(&v.value);
        if moot {
            continue;
        }
        match int_in(v, *players.start() as i64..=*players.end() as i64, d) {
            Some(p) => out.push(p as usize),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

/// An id: it appears in actions, so the notation must be able to type it back:
/// non-empty, lowercase letters, digits, `-` and `_`.
pub fn id<'v>(v: &'v Located<String>, d: &mut Diagnostics) -> Option<&'v str> {
    super::decode::checked_id(&v.value, v.origin, d)
}

/// An integer in `range`, or the problem at its origin (`None` and silent for a stand-in).
pub fn int_in(v: &Located<i64>, range: RangeInclusive<i64>, d: &mut Diagnostics) -> Option<i64> {
    if v.origin == Origin::REPORTED {
        None
    } else if range.contains(&v.value) {
        Some(v.value)
    } else {
        d.error(
            v.origin,
            format!("{} is out of range: expected an integer from {} to {}", v.value, range.start(), range.end()),
        );
        None
    }
}

/// Where a value stands in for one that could not be read (a [`Located`] there takes
/// the origin [`Origin::REPORTED`]); problems go to the reading's list ([`PROBLEMS`]).
#[derive(Default)]
struct Sink(RefCell<Vec<Origin>>);

impl Sink {
    fn report(&self, origin: Origin, message: String) {
        PROBLEMS.with(|p| {
            if let Some(list) = p.borrow_mut().as_mut() {
                list.push((origin, message));
            }
        });
    }

    /// The value at `origin` (or missing from the table there) stands in.
    fn stand_in(&self, origin: Origin) {
        self.0.borrow_mut().push(origin);
    }
}

/// A problem; `reported` once it is in the sink (so it is not reported twice on its way up).
#[derive(Debug)]
pub struct Error {
    message: String,
    origin: Option<Origin>,
    reported: bool,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error { message: msg.to_string(), origin: None, reported: false }
    }
}

/// Reads one value: `node` is `None` for a key its table lacks (`at` is then the table's
/// origin, `key` its name); `quiet` while standing in for a value already reported.
#[derive(Clone, Copy)]
struct De<'a> {
    node: Option<&'a Node>,
    at: Origin,
    key: Option<&'a str>,
    sink: &'a Sink,
    quiet: bool,
    /// The range of an [`Int`]: its value is checked against it, and named when missing.
    range: Option<(i64, i64)>,
}

impl<'a> De<'a> {
    fn origin(&self) -> Origin {
        self.node.map_or(self.at, |n| n.origin)
    }

    /// Reports that the value is not `expected`; the caller goes on with a neutral value.
    fn wrong(&self, expected: &str) {
        if self.quiet {
            return;
        }
        self.sink.stand_in(self.origin());
        match (self.node, self.key) {
            (None, Some(key)) => self.sink.report(self.at, format!("missing key `{key}`: expected {expected}")),
            (None, None) => self.sink.report(self.at, format!("missing value: expected {expected}")),
            (Some(n), _) => self.sink.report(n.origin, format!("expected {expected}, found {}", n.type_name())),
        }
    }

    /// The same reader standing in silently (its problem is reported).
    fn silent(self) -> Self {
        De { node: None, quiet: true, ..self }
    }

    fn int(&self, range: RangeInclusive<i128>) -> Option<i128> {
        let range = match self.range {
            Some((lo, hi)) => i128::from(lo)..=i128::from(hi),
            None => range,
        };
        match self.node.map(|n| &n.kind) {
            Some(Kind::Int(i)) if range.contains(&i128::from(*i)) => Some(i128::from(*i)),
            Some(Kind::Int(i)) => {
                if !self.quiet {
                    self.sink.stand_in(self.origin());
                    self.sink.report(
                        self.origin(),
                        format!("{i} is out of range: expected an integer from {} to {}", range.start(), range.end()),
                    );
                }
                None
            }
            _ => {
                match self.range {
                    Some((lo, hi)) => self.wrong(&format!("an integer from {lo} to {hi}")),
                    None => self.wrong("an integer"),
                }
                None
            }
        }
    }
}

macro_rules! ints {
    ($($method:ident $visit:ident $t:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            let n = self.int(i128::from(<$t>::MIN)..=i128::from(<$t>::MAX)).unwrap_or(0);
            v.$visit(<$t>::try_from(n).unwrap_or_default())
        }
    )*};
}

impl<'de, 'a> de::Deserializer<'de> for De<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.node.map(|n| &n.kind) {
            None => {
                self.wrong("a value");
                v.visit_unit()
            }
            Some(Kind::Table(_)) => self.deserialize_map(v),
            Some(Kind::Array(_)) => self.deserialize_seq(v),
            Some(Kind::Str(s)) => v.visit_str(s),
            Some(Kind::Int(i)) => v.visit_i64(*i),
            Some(Kind::Float(f)) => v.visit_f64(*f),
            Some(Kind::Bool(b)) => v.visit_bool(*b),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.node.map(|n| &n.kind) {
            Some(Kind::Bool(b)) => v.visit_bool(*b),
            _ => {
                self.wrong("true or false");
                v.visit_bool(false)
            }
        }
    }

    ints!(deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16, deserialize_i32 visit_i32 i32,
          deserialize_i64 visit_i64 i64, deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16,
          deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64);

    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let n = self.int(0..=i128::from(u64::MAX)).unwrap_or(0);
        v.visit_u128(n as u128)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_f64(v)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.node.map(|n| &n.kind) {
            Some(Kind::Float(f)) => v.visit_f64(*f),
            Some(Kind::Int(i)) => v.visit_f64(*i as f64),
            _ => {
                self.wrong("a number");
                v.visit_f64(0.0)
            }
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.node.map(|n| &n.kind) {
            Some(Kind::Str(s)) => v.visit_str(s),
            _ => {
                self.wrong("a string");
                v.visit_str("")
            }
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }

    /// A key the table lacks is `None` (the one way a key is optional); a present key is
    /// read as the value inside.
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.node {
            None => v.visit_none(),
            Some(_) => v.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, v: V) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.node.map(|n| &n.kind) {
            Some(Kind::Array(items)) => v.visit_seq(Seq { items: items.iter(), de: self }),
            _ => {
                self.wrong("an array");
                v.visit_seq(Seq { items: [].iter(), de: self })
            }
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.node.map(|n| &n.kind) {
            Some(Kind::Table(entries)) => v.visit_map(Map::new(self, entries, None)),
            _ => {
                self.wrong("a table");
                v.visit_map(Map::new(self, &[], None))
            }
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        if name == LOCATED {
            let stand_ins_before = self.sink.0.borrow().len();
            let range = RANGE.with(|r| r.take());
            return v.visit_map(LocatedAccess { de: De { range, ..self }, step: 0, stand_ins_before });
        }
        match self.node.map(|n| &n.kind) {
            Some(Kind::Table(entries)) => {
                let origin = self.origin();
                for e in entries.iter().filter(|e| !fields.contains(&e.key.as_str())) {
                    let mut known: Vec<&str> = fields.to_vec();
                    known.sort_unstable();
                    let msg = if known.is_empty() {
                        format!("unknown key `{}`: this table takes no keys", e.key)
                    } else {
                        format!(
                            "unknown key `{}`: expected one of {}{}",
                            e.key,
                            known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "),
                            crate::suggest::hint(&e.key, known.iter().copied())
                        )
                    };
                    self.sink.report(e.key_origin, msg);
                }
                v.visit_map(Map::new(De { at: origin, ..self }, entries, Some(fields)))
            }
            _ => {
                self.wrong("a table");
                v.visit_map(Map::new(self.silent(), &[], Some(fields)))
            }
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        // Unit variants written as strings (`kind = "city"`).
        let quoted = || variants.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ");
        // A table naming its variant with `kind` (`{ kind = "trade_bonus", doubloons = 1 }`).
        if let Some(Kind::Table(entries)) = self.node.map(|n| &n.kind) {
            let kind = entries.iter().find(|e| e.key == KIND);
            let name = match kind.map(|e| (&e.value.kind, e.value.origin)) {
                Some((Kind::Str(s), _)) if variants.contains(&s.as_str()) => Some(s.as_str()),
                Some((Kind::Str(s), at)) => {
                    if !self.quiet {
                        self.sink.report(
                            at,
                            format!(
                                "unknown value `{s}`: expected one of {}{}",
                                quoted(),
                                crate::suggest::hint(s, variants.iter().copied())
                            ),
                        );
                    }
                    None
                }
                Some((_, at)) => {
                    De { node: kind.map(|e| &e.value), at, key: Some(KIND), ..self }
                        .wrong(&format!("one of {}", quoted()));
                    None
                }
                None => {
                    De { node: None, key: Some(KIND), ..self }.wrong(&format!("one of {}", quoted()));
                    None
                }
            };
            // An unknown variant stands in as the first, silently (its problem is reported).
            let (name, de) = match name {
                Some(name) => (name, self),
                None => {
                    self.sink.stand_in(self.origin());
                    (variants.first().copied().unwrap_or(""), self.silent())
                }
            };
            return v.visit_enum(Tagged { name, de, entries: if de.quiet { &[] } else { entries } });
        }
        // A string names its variant; a struct variant named so reports the keys it lacks.
        let (name, de) = match self.node.map(|n| &n.kind) {
            Some(Kind::Str(s)) if variants.contains(&s.as_str()) => (s.as_str(), self),
            Some(Kind::Str(s)) => {
                if !self.quiet {
                    self.sink.stand_in(self.origin());
                    self.sink.report(
                        self.origin(),
                        format!(
                            "unknown value `{s}`: expected one of {}{}",
                            quoted(),
                            crate::suggest::hint(s, variants.iter().copied())
                        ),
                    );
                }
                (variants.first().copied().unwrap_or(""), self.silent())
            }
            _ => {
                self.wrong(&format!("one of {}", quoted()));
                (variants.first().copied().unwrap_or(""), self.silent())
            }
        };
        v.visit_enum(Tagged { name, de, entries: &[] })
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }
}

/// The key that names a table's variant.
const KIND: &str = "kind";

/// A table whose `kind` names its variant: the other keys are the variant's fields.
struct Tagged<'a> {
    name: &'a str,
    de: De<'a>,
    entries: &'a [Entry],
}

impl<'de, 'a> de::EnumAccess<'de> for Tagged<'a> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let name: de::value::StrDeserializer<'_, Error> = self.name.into_deserializer();
        Ok((seed.deserialize(name)?, self))
    }
}

impl<'a> Tagged<'a> {
    /// Reports the keys other than `kind` that the variant does not take.
    fn unknown_keys(&self, fields: &[&str]) {
        let mut names: Vec<&str> = fields.iter().copied().chain([KIND]).collect();
        names.sort_unstable();
        let known = names.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
        for e in self.entries.iter().filter(|e| e.key != KIND && !fields.contains(&e.key.as_str())) {
            let hint = crate::suggest::hint(&e.key, names.iter().copied());
            self.de.sink.report(e.key_origin, format!("unknown key `{}`: expected one of {known}{hint}", e.key));
        }
    }
}

impl<'de, 'a> de::VariantAccess<'de> for Tagged<'a> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        self.unknown_keys(&[]);
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_seq(self.de, v)
    }

    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], v: V) -> Result<V::Value, Error> {
        self.unknown_keys(fields);
        let origin = self.de.origin();
        v.visit_map(Map::new(De { at: origin, ..self.de }, self.entries, Some(fields)))
    }
}

/// Array elements. One that cannot be read at all is reported and ends the array (a seed
/// cannot be asked twice), so the table around it is still read.
struct Seq<'a, I: Iterator<Item = &'a Node>> {
    items: I,
    de: De<'a>,
}

impl<'de, 'a, I: Iterator<Item = &'a Node>> de::SeqAccess<'de> for Seq<'a, I> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some(node) = self.items.next() else { return Ok(None) };
        let de = De { node: Some(node), at: node.origin, key: None, ..self.de };
        match seed.deserialize(de) {
            Ok(v) => Ok(Some(v)),
            // The element cannot stand in for itself: the array ends here, its problem
            // reported (the whole read fails; the table around it goes on).
            Err(e) => {
                report(self.de.sink, e, node.origin);
                Ok(None)
            }
        }
    }
}

/// Reports an error that came up from a value (once) and marks it reported.
fn report(sink: &Sink, mut e: Error, origin: Origin) -> Error {
    if !e.reported {
        sink.report(e.origin.unwrap_or(origin), e.message.clone());
        e.reported = true;
    }
    e
}

/// A table's entries; for a struct, then its fields the table lacks (as missing keys).
struct Map<'a> {
    de: De<'a>,
    entries: &'a [Entry],
    fields: Option<&'static [&'static str]>,
    next: usize,
    missing: usize,
    value: Option<De<'a>>,
}

impl<'a> Map<'a> {
    fn new(de: De<'a>, entries: &'a [Entry], fields: Option<&'static [&'static str]>) -> Self {
        Map { de, entries, fields, next: 0, missing: 0, value: None }
    }
}

impl<'de, 'a> de::MapAccess<'de> for Map<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        while let Some(e) = self.entries.get(self.next) {
            self.next += 1;
            if self.fields.is_some_and(|f| !f.contains(&e.key.as_str())) {
                continue; // reported as unknown
            }
            self.value = Some(De { node: Some(&e.value), at: e.value.origin, key: Some(&e.key), ..self.de });
            let key = KeyDe { key: &e.key, origin: e.key_origin };
            return seed.deserialize(key).map(Some);
        }
        let Some(fields) = self.fields else { return Ok(None) };
        while let Some(&field) = fields.get(self.missing) {
            self.missing += 1;
            if self.entries.iter().any(|e| e.key == field) {
                continue;
            }
            self.value = Some(De { node: None, at: self.de.at, key: Some(field), ..self.de });
            return seed.deserialize(KeyDe { key: field, origin: self.de.at }).map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let de = self.value.take().unwrap_or(self.de.silent());
        let origin = de.origin();
        seed.deserialize(de).map_err(|e| report(self.de.sink, e, origin))
    }
}

/// The two entries of a [`Located`] value: the value, then its origin
/// ([`Origin::REPORTED`] if the value stands in for one that could not be read).
struct LocatedAccess<'a> {
    de: De<'a>,
    step: u8,
    stand_ins_before: usize,
}

impl<'de, 'a> de::MapAccess<'de> for LocatedAccess<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let key = match self.step {
            0 => LOCATED_VALUE,
            1 => LOCATED_ORIGIN,
            _ => return Ok(None),
        };
        self.step += 1;
        seed.deserialize(KeyDe { key, origin: self.de.origin() }).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.step {
            1 => seed.deserialize(self.de),
            _ => {
                // A stand-in is a value that could not be read (its problem reported at
                // its place, or, missing, at its table's): a table or list with a problem
                // inside keeps its origin, so the checks across what it holds still run.
                let here = self.de.origin();
                let stood_in = self.de.sink.0.borrow().get(self.stand_ins_before..).is_some_and(|o| o.contains(&here));
                let reported = self.de.quiet || stood_in;
                let origin = if reported { Origin::REPORTED } else { here };
                seed.deserialize(pack(origin).into_deserializer())
            }
        }
    }
}

/// A table key: a string, or a [`Located`] string at the key's own origin.
struct KeyDe<'a> {
    key: &'a str,
    origin: Origin,
}

impl<'de, 'a> de::Deserializer<'de> for KeyDe<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_str(self.key)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        if name == LOCATED {
            return v.visit_map(KeyLocated { key: self, step: 0 });
        }
        v.visit_str(self.key)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

struct KeyLocated<'a> {
    key: KeyDe<'a>,
    step: u8,
}

impl<'de, 'a> de::MapAccess<'de> for KeyLocated<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let key = match self.step {
            0 => LOCATED_ORIGIN,
            1 => LOCATED_VALUE,
            _ => return Ok(None),
        };
        self.step += 1;
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.step {
            1 => seed.deserialize(pack(self.key.origin).into_deserializer()),
            _ => seed.deserialize(self.key.key.into_deserializer()),
        }
    }
}
