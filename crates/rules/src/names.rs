//! The ruleset's names in state JSON. Games keep counts and flags by index (goods,
//! buildings, tiles, privileges …); their state JSON shows them as maps keyed by the
//! ruleset's names, so that scenarios can point at `/players/0/goods/sugar`. Every game
//! writes and reads those maps here, with every error at the JSON Pointer of the key:
//! `/players/0/goods/rum: unknown key (expected one of corn, sugar)`.
//!
//! All in the serde pass: a game declares its state JSON with [`Id`] (an index shown
//! as its name) and [`Every`] / [`Given`] (values by index shown as a map by name) and
//! runs the pass inside [`with`], which gives the ruleset's names of each [`Kind`]; the
//! pointer of every error comes from the pass ([`crate::game::from_json`]). A state whose
//! own layout is its JSON keeps its plain integers and names them with the field adapters
//! ([`write_id`], [`write_given`], [`write_set`] and their readers).

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cell::RefCell;
use std::marker::PhantomData;

/// A kind of named thing of a ruleset (goods, citizens, tiles …).
pub trait Kind {
    /// What one is called in messages (`unknown citizen `x``), and its list's key in
    /// [`with`].
    const WHAT: &'static str;
}

/// Declares kinds of names: `kinds!(Good = "good", pub(crate) Citizen = "citizen")`.
#[macro_export]
macro_rules! kinds {
    ($($vis:vis $kind:ident = $what:literal),* $(,)?) => {$(
        $vis struct $kind;
        impl $crate::names::Kind for $kind {
            const WHAT: &'static str = $what;
        }
    )*};
}
pub use kinds;

thread_local! {
    /// The names of each kind for the serde pass under way ([`with`]).
    static VOCABULARY: RefCell<Vec<(&'static str, Vec<String>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `pass` (a serde pass over state JSON) with the ruleset's names of each kind
/// (`[("citizen", citizens.iter().map(|c| &c.id)), …]`).
pub fn with<'a, R, I: IntoIterator<Item = &'a String>>(
    vocabulary: impl IntoIterator<Item = (&'static str, I)>,
    pass: impl FnOnce() -> R,
) -> R {
    let lists = vocabulary.into_iter().map(|(what, names)| (what, names.into_iter().cloned().collect())).collect();
    let outer = VOCABULARY.with(|v| v.replace(lists));
    let out = pass();
    VOCABULARY.with(|v| v.replace(outer));
    out
}

/// The names of `K` in the pass under way (none outside [`with`]).
fn names_of<K: Kind, R>(f: impl FnOnce(&[String]) -> R) -> R {
    VOCABULARY.with(|v| {
        let v = v.borrow();
        f(v.iter().find(|(what, _)| *what == K::WHAT).map_or(&[][..], |(_, names)| names))
    })
}

/// An index into the ruleset's list of `K`, written as its name.
pub struct Id<K>(u8, PhantomData<K>);

impl<K> Id<K> {
    pub fn new(index: u8) -> Self {
        Id(index, PhantomData)
    }

    pub fn index(&self) -> u8 {
        self.0
    }
}

impl<K: Kind> Serialize for Id<K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        names_of::<K, _>(|names| names.get(usize::from(self.0)).map_or("?", String::as_str).serialize(s))
    }
}

impl<'de, K: Kind> Deserialize<'de> for Id<K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        names_of::<K, _>(|names| match names.iter().position(|n| *n == name) {
            Some(i) => Ok(Id::new(i as u8)),
            None => Err(de::Error::custom(unknown(K::WHAT, &name, names.iter().map(String::as_str)))),
        })
    }
}

/// Field adapters for a state that keeps indices in plain integers (its layout is the
/// playouts'): `#[serde(serialize_with = "names::write_id::<Building, _>", deserialize_with
/// = "names::read_id::<Building, _>")]` on a `u8` writes and reads it as a name, like [`Id`].
pub fn write_id<K: Kind, S: Serializer>(index: &u8, s: S) -> Result<S::Ok, S::Error> {
    Id::<K>::new(*index).serialize(s)
}

/// See [`write_id`].
pub fn read_id<'de, K: Kind, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    Id::<K>::deserialize(d).map(|id| id.index())
}

/// An array of values by index written as a map by name, like [`Given`] (see [`write_id`]).
pub fn write_given<K: Kind, T: Serialize, S: Serializer, const N: usize>(
    values: &[T; N],
    s: S,
) -> Result<S::Ok, S::Error> {
    write_map::<K, T, S>(values, s)
}

/// See [`write_given`]: names left out take the default.
pub fn read_given<'de, K: Kind, T: Deserialize<'de> + Copy + Default, D: Deserializer<'de>, const N: usize>(
    d: D,
) -> Result<[T; N], D::Error> {
    Given::<K, T>::deserialize(d).map(|g| g.array())
}

/// A set of indices (bit `i` for index `i`) written as the list of their names, in the
/// ruleset's order (see [`write_id`]).
pub fn write_set<K: Kind, S: Serializer>(bits: &u64, s: S) -> Result<S::Ok, S::Error> {
    let known = names_of::<K, _>(|names| names.len()).min(64);
    s.collect_seq((0..known as u8).filter(|&i| bits & (1 << i) != 0).map(Id::<K>::new))
}

/// See [`write_set`]: a name listed twice is in the set once.
pub fn read_set<'de, K: Kind, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let ids = Vec::<Id<K>>::deserialize(d)?;
    Ok(ids.iter().fold(0u64, |bits, id| bits | 1u64.checked_shl(u32::from(id.0)).unwrap_or(0)))
}

/// Values in the order of the ruleset's list of `K`, written as a map by name; read, the
/// map names every one and nothing else.
pub struct Every<K, T>(pub Vec<T>, PhantomData<K>);

/// [`Every`] whose map, read, may leave names out (their values take the default).
pub struct Given<K, T>(pub Vec<T>, PhantomData<K>);

impl<K, T> Every<K, T> {
    pub fn new(values: impl IntoIterator<Item = T>) -> Self {
        Every(values.into_iter().collect(), PhantomData)
    }
}

impl<K, T> Given<K, T> {
    pub fn new(values: impl IntoIterator<Item = T>) -> Self {
        Given(values.into_iter().collect(), PhantomData)
    }
}

impl<K: Kind, T: Copy + Default> Every<K, T> {
    /// The values as an array by index (the places past the names take the default).
    pub fn array<const N: usize>(&self) -> [T; N] {
        padded(&self.0)
    }
}

impl<K: Kind, T: Copy + Default> Given<K, T> {
    /// The values as an array by index (the places past the names take the default).
    pub fn array<const N: usize>(&self) -> [T; N] {
        padded(&self.0)
    }
}

fn padded<T: Copy + Default, const N: usize>(values: &[T]) -> [T; N] {
    let mut out = [T::default(); N];
    for (slot, &v) in out.iter_mut().zip(values) {
        *slot = v;
    }
    out
}

fn write_map<K: Kind, T: Serialize, S: Serializer>(values: &[T], s: S) -> Result<S::Ok, S::Error> {
    names_of::<K, _>(|names| {
        let mut m = s.serialize_map(Some(names.len().min(values.len())))?;
        for (name, v) in names.iter().zip(values) {
            m.serialize_entry(name, v)?;
        }
        m.end()
    })
}

impl<K: Kind, T: Serialize> Serialize for Every<K, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write_map::<K, T, S>(&self.0, s)
    }
}

impl<K: Kind, T: Serialize> Serialize for Given<K, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write_map::<K, T, S>(&self.0, s)
    }
}

impl<'de, K: Kind, T: Deserialize<'de>> Deserialize<'de> for Every<K, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let read = d.deserialize_map(MapByName::<K, T>(PhantomData))?;
        let names = names_of::<K, _>(|names| names.to_vec());
        let mut values = Vec::with_capacity(read.len());
        for (name, v) in names.iter().zip(read) {
            values.push(v.ok_or_else(|| de::Error::custom(format!("missing key `{name}`")))?);
        }
        Ok(Every::new(values))
    }
}

impl<'de, K: Kind, T: Deserialize<'de> + Default> Deserialize<'de> for Given<K, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let read = d.deserialize_map(MapByName::<K, T>(PhantomData))?;
        Ok(Given::new(read.into_iter().map(Option::unwrap_or_default)))
    }
}

/// Reads a map by the names of `K` into their order (a value per name, `None` where the
/// map leaves it out).
struct MapByName<K, T>(PhantomData<(K, T)>);

impl<'de, K: Kind, T: Deserialize<'de>> Visitor<'de> for MapByName<K, T> {
    type Value = Vec<Option<T>>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a map by {} name", K::WHAT)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let names = names_of::<K, _>(|names| names.to_vec());
        let mut out: Vec<Option<T>> = names.iter().map(|_| None).collect();
        while let Some(key) = map.next_key::<String>()? {
            match names.iter().position(|n| *n == key) {
                Some(i) => out[i] = Some(map.next_value()?),
                // Refused as its value is read, so the pointer names the key.
                None => {
                    let listed = listing(names.iter().map(String::as_str));
                    let hint = crate::suggest::hint(&key, names.iter().map(String::as_str));
                    map.next_value_seed(Refuse(format!("unknown key (expected one of {listed}{hint})")))?;
                }
            }
        }
        Ok(out)
    }
}

/// A value refused whatever it is.
struct Refuse(String);

impl<'de> DeserializeSeed<'de> for Refuse {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, _: D) -> Result<(), D::Error> {
        Err(de::Error::custom(self.0))
    }
}

/// The index of `name` among `names` (a `what`, at `path`).
pub fn index<'a>(
    path: &str,
    what: &str,
    name: &str,
    names: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<usize, String> {
    names.clone().into_iter().position(|k| k == name).ok_or_else(|| format!("{path}: {}", unknown(what, name, names)))
}

fn unknown<'a>(what: &str, name: &str, names: impl IntoIterator<Item = &'a str> + Clone) -> String {
    format!("unknown {what} `{name}` (expected one of {}{})", listing(names.clone()), crate::suggest::hint(name, names))
}

/// The names for a message: all of them, or the first [`LISTED`] and how many there are
/// (a map's 61 tiles would bury the message).
fn listing<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let all: Vec<&str> = names.into_iter().collect();
    if all.len() <= LISTED {
        all.join(", ")
    } else {
        format!("{}, … ({} in all)", all[..LISTED].join(", "), all.len())
    }
}

/// Most names a message lists.
const LISTED: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_found_or_refused_at_its_pointer() {
        let goods = ["corn", "sugar"];
        assert_eq!(index("/car", "citizen", "sugar", goods), Ok(1));
        let many: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
        let e = index("/tile", "tile", "x", many.iter().map(String::as_str));
        assert_eq!(
            e,
            Err(format!("/tile: unknown tile `x` (expected one of {}, … (20 in all))", many[..16].join(", ")))
        );
        assert_eq!(
            index("/car", "citizen", "rum", goods),
            Err("/car: unknown citizen `rum` (expected one of corn, sugar)".to_string())
        );
    }

    crate::names::kinds!(Good = "good");

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Hold {
        goods: Every<Good, u8>,
        some: Given<Good, u8>,
        pick: Vec<Id<Good>>,
    }

    /// A state's own layout: indices in plain integers, named only in its JSON.
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Packed {
        #[serde(serialize_with = "write_id::<Good, _>", deserialize_with = "read_id::<Good, _>")]
        best: u8,
        #[serde(serialize_with = "write_given::<Good, _, _, 4>", deserialize_with = "read_given::<Good, _, _, 4>")]
        stock: [u8; 4],
        #[serde(serialize_with = "write_set::<Good, _>", deserialize_with = "read_set::<Good, _>")]
        sold_out: u64,
    }

    #[test]
    fn fields_kept_by_index_read_and_write_names() {
        let goods = ["corn".to_string(), "sugar".to_string()];
        let vocabulary = || [("good", goods.iter())];
        // Places past the names (index 2 and up) are not written.
        let packed = Packed { best: 1, stock: [3, 0, 0, 0], sold_out: 0b110 };
        let v = with(vocabulary(), || serde_json::to_value(&packed)).unwrap();
        let written = serde_json::json!({ "best": "sugar", "stock": { "corn": 3, "sugar": 0 }, "sold_out": ["sugar"] });
        assert_eq!(v, written);
        let read = |v: serde_json::Value| with(vocabulary(), || crate::game::from_json::<Packed>(&v));
        let back = read(written.clone()).unwrap();
        assert_eq!((back.best, back.stock, back.sold_out), (1, [3, 0, 0, 0], 0b10));
        let twice = read(serde_json::json!({ "best": "corn", "stock": { "sugar": 2 }, "sold_out": ["corn", "corn"] }));
        let twice = twice.unwrap();
        // serde's own wording names the Rust struct; a user is told a map is expected.
        let not_a_map = read(serde_json::json!(3)).err();
        assert_eq!(not_a_map.as_deref(), Some("invalid type: integer `3`, expected a map"));
        assert_eq!((twice.best, twice.stock, twice.sold_out), (0, [0, 2, 0, 0], 0b1), "left out: 0; twice: once");
        for (edit, message) in [
            (("best", serde_json::json!("rum")), "/best: unknown good `rum` (expected one of corn, sugar)"),
            (("best", serde_json::json!(1)), "/best: invalid type: integer `1`, expected a string"),
            (("stock", serde_json::json!({ "rum": 1 })), "/stock/rum: unknown key (expected one of corn, sugar)"),
            (("stock", serde_json::json!({ "corn": 300 })), "/stock/corn: invalid value: integer `300`, expected u8"),
            (("sold_out", serde_json::json!(["tea"])), "/sold_out/0: unknown good `tea` (expected one of corn, sugar)"),
        ] {
            let mut v = written.clone();
            v[edit.0] = edit.1;
            assert_eq!(read(v).err().as_deref(), Some(message));
        }
    }

    #[test]
    fn names_in_the_serde_pass_with_errors_at_their_pointer() {
        let goods = ["corn".to_string(), "sugar".to_string()];
        let vocabulary = || [("good", goods.iter())];
        let hold = Hold { goods: Every::new([3, 0]), some: Given::new([0, 2]), pick: vec![Id::new(1)] };
        let v = with(vocabulary(), || serde_json::to_value(&hold)).unwrap();
        let written = serde_json::json!({ "goods": { "corn": 3, "sugar": 0 }, "some": { "corn": 0, "sugar": 2 }, "pick": ["sugar"] });
        assert_eq!(v, written);
        let read = |v: serde_json::Value| with(vocabulary(), || crate::game::from_json::<Hold>(&v));
        let back = read(written.clone()).unwrap();
        assert_eq!((back.goods.array::<3>(), back.pick[0].index()), ([3, 0, 0], 1));
        let some = read(serde_json::json!({ "goods": { "corn": 1, "sugar": 1 }, "some": { "sugar": 4 }, "pick": [] }));
        assert_eq!(some.unwrap().some.array::<2>(), [0, 4], "a name left out of a `Given` map takes the default");
        for (edit, message) in [
            (
                ("goods", serde_json::json!({ "corn": 1, "sugar": 1, "rum": 1 })),
                "/goods/rum: unknown key (expected one of corn, sugar)",
            ),
            (("goods", serde_json::json!({ "corn": 1 })), "/goods: missing key `sugar`"),
            (("some", serde_json::json!({ "tea": 1 })), "/some/tea: unknown key (expected one of corn, sugar)"),
            (("pick", serde_json::json!(["corn", "rum"])), "/pick/1: unknown good `rum` (expected one of corn, sugar)"),
            // A misspelt name gets a suggestion.
            (
                ("some", serde_json::json!({ "sugr": 1 })),
                "/some/sugr: unknown key (expected one of corn, sugar; did you mean `sugar`?)",
            ),
            (
                ("pick", serde_json::json!(["cron"])),
                "/pick/0: unknown good `cron` (expected one of corn, sugar; did you mean `corn`?)",
            ),
            // A key holding `/` or `~` is named as RFC 6901 escapes it, so the pointer
            // still leads to it.
            (("some", serde_json::json!({ "a/b~c": 1 })), "/some/a~1b~0c: unknown key (expected one of corn, sugar)"),
        ] {
            let mut v = written.clone();
            v[edit.0] = edit.1;
            assert_eq!(read(v).err().as_deref(), Some(message));
        }
        // Outside a pass with names, every name is unknown.
        assert!(crate::game::from_json::<Hold>(&written).is_err());
    }
}
