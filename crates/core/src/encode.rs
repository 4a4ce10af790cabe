//! Fixed-size numbers for learning: integer action ids with a legal mask, and a
//! fixed-length observation vector of a seat's view. Game-independent, so every game
//! (and every house-ruled ruleset) gets them without code of its own.
//!
//! **Action ids.** The id of an action is the FNV-1a hash of its notation (the canonical
//! spelling the game prints) modulo the size of the id space. The same action has the
//! same id in every state, game and process. When two actions legal in the same state
//! share an id, the later one in the game's legal order takes the next free id (wrapping);
//! a bigger id space makes that rarer (see [`assign_ids`]).
//!
//! **Observations.** [`encode_view`] walks a view (the state a seat may see, from
//! `Game::observe`, which hides what the seat may not know) with a serde serializer
//! and adds each leaf into the bucket its path hashes to (feature hashing; a path's hash
//! combines its steps' hashes, keys by FNV-1a, see `combine`):
//! - a number at path `p` adds its value to bucket `h(p)`, except 64-bit unsigned
//!   integers, which the games use as bit sets (tiles, roads, buildings): each set bit `i`
//!   adds 1 to bucket `h(p, i)`;
//! - `true` at `p` adds 1 to `h(p)`; `false` adds nothing;
//! - a string or unit variant `s` at `p` adds 1 to `h(p', s)`, where `p'` is `p` with the
//!   index of the innermost list replaced by `[]`: a list of names becomes counts of
//!   names (a face-down stack's canonical order is not order information);
//! - `None` at `p` adds 1 to `h(p, none)`;
//! - the seeded generator (the core's [`crate::Rng`], whatever the view holds there) adds
//!   nothing.
//!
//! Only what the view serializes can reach the vector, so nothing hidden leaks as long
//! as the view hides it; the vector has the same length for every state.

use serde::ser::{self, Serialize};

/// The default size of the action id space.
pub const DEFAULT_ACTION_IDS: u32 = 4096;
/// The default length of the observation vector.
pub const DEFAULT_OBSERVATION_LEN: usize = 1024;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a of `bytes`, continuing from `h`.
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

/// One step of a path's hash: the parent's hash and the hash of the step (a key's FNV-1a,
/// a tagged index), mixed cheaply; [`Encoder::add`] finishes with an avalanche.
fn combine(h: u64, step: u64) -> u64 {
    (h.rotate_left(23) ^ step).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

fn avalanche(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

const TAG_NUMBER: u64 = 1;
const TAG_NONE: u64 = 2;
const TAG_ANY_INDEX: u64 = 3;
const TAG_BIT: u64 = 1 << 62;
const TAG_INDEX: u64 = 1 << 63;

/// The id of an action's notation in an id space of `size` ids (before collisions).
pub fn action_hash(notation: &str, size: u32) -> u32 {
    (fnv(FNV_OFFSET, notation.as_bytes()) % u64::from(size.max(1))) as u32
}

/// Ids of the legal actions (in the game's legal order), collision-free: a later action
/// whose id is taken gets the next free one. `size` must exceed the number of actions.
pub fn assign_ids(notations: &[String], size: u32, out: &mut Vec<u32>) {
    out.clear();
    let size = size.max(1);
    for n in notations {
        let mut id = action_hash(n, size);
        // Bounded: at most `notations.len()` ids are taken.
        for _ in 0..=notations.len() {
            if !out.contains(&id) {
                break;
            }
            id = (id + 1) % size;
        }
        out.push(id);
    }
}

/// Writes the observation vector of `view` into `out` (zeroed first).
pub fn encode_view<T: Serialize + ?Sized>(view: &T, out: &mut [f32]) {
    out.fill(0.0);
    if out.is_empty() {
        return;
    }
    let mut e = Encoder { out, full: FNV_OFFSET, anon: FNV_OFFSET };
    // The encoder itself never fails; a view whose serializer fails is left partial.
    let _ = view.serialize(&mut e);
}

/// Why encoding stopped (only a view's own serializer can fail).
#[derive(Debug)]
pub struct EncodeError(String);

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for EncodeError {}
impl ser::Error for EncodeError {
    fn custom<M: std::fmt::Display>(msg: M) -> Self {
        EncodeError(msg.to_string())
    }
}

/// The serializer: `full` hashes the path so far, `anon` the same path with the innermost
/// list index replaced by `[]`.
struct Encoder<'a> {
    out: &'a mut [f32],
    full: u64,
    anon: u64,
}

impl Encoder<'_> {
    fn add(&mut self, h: u64, v: f32) {
        let n = self.out.len() as u64;
        // Multiply-shift maps the hash onto 0..n without a division (the hot path).
        let i = ((u128::from(avalanche(h)) * u128::from(n)) >> 64) as usize;
        if let Some(x) = self.out.get_mut(i) {
            *x += v;
        }
    }
    fn number(&mut self, v: f64) {
        let h = combine(self.full, TAG_NUMBER);
        self.add(h, v as f32);
    }
    fn name(&mut self, s: &str) {
        let h = combine(self.anon, fnv(FNV_OFFSET, s.as_bytes()));
        self.add(h, 1.0);
    }
    /// Serializes `value` one level down (`key` for a field, `None` + `index` for a list item).
    fn child<T: Serialize + ?Sized>(&mut self, key: Key<'_>, value: &T) -> Result<(), EncodeError> {
        let (full, anon) = (self.full, self.anon);
        match key {
            Key::Field(k) => {
                let k = fnv(FNV_OFFSET, k);
                self.full = combine(full, k);
                self.anon = combine(anon, k);
            }
            Key::Index(i) => {
                self.full = combine(full, TAG_INDEX | i);
                self.anon = combine(full, TAG_ANY_INDEX);
            }
        }
        let r = value.serialize(&mut *self);
        self.full = full;
        self.anon = anon;
        r
    }
}

enum Key<'k> {
    Field(&'k [u8]),
    Index(u64),
}

/// Collects a map key as bytes (keys are names or numbers in every game's state).
struct KeyBytes(Vec<u8>);

macro_rules! key_num {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, v: $t) -> Result<(), EncodeError> {
            self.0.extend_from_slice(v.to_string().as_bytes());
            Ok(())
        }
    )*};
}

impl ser::Serializer for &mut KeyBytes {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = ser::Impossible<(), EncodeError>;
    type SerializeTuple = ser::Impossible<(), EncodeError>;
    type SerializeTupleStruct = ser::Impossible<(), EncodeError>;
    type SerializeTupleVariant = ser::Impossible<(), EncodeError>;
    type SerializeMap = ser::Impossible<(), EncodeError>;
    type SerializeStruct = ser::Impossible<(), EncodeError>;
    type SerializeStructVariant = ser::Impossible<(), EncodeError>;
    key_num!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64, serialize_f32: f32,
        serialize_f64: f64, serialize_char: char);
    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.0.extend_from_slice(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), EncodeError> {
        self.0.extend_from_slice(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), EncodeError> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), EncodeError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), EncodeError> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), EncodeError> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> Result<(), EncodeError> {
        self.serialize_str(v)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<(), EncodeError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), EncodeError> {
        Err(ser::Error::custom("unsupported map key"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, EncodeError> {
        Err(ser::Error::custom("unsupported map key"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, EncodeError> {
        Err(ser::Error::custom("unsupported map key"))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, EncodeError> {
        Err(ser::Error::custom("unsupported map key"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, EncodeError> {
        Err(ser::Error::custom("unsupported map key"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, EncodeError> {
        Err(ser::Error::custom("unsupported map key"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, EncodeError> {
        Err(ser::Error::custom("unsupported map key"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, EncodeError> {
        Err(ser::Error::custom("unsupported map key"))
    }
}

/// A list, tuple or map being walked: the next index, or the pending map key.
struct Compound<'e, 'a> {
    enc: &'e mut Encoder<'a>,
    index: u64,
    key: KeyBytes,
    /// The generator's fields: left out.
    skip: bool,
}

/// The serde name of the generator inside [`crate::Rng`] (`rand_pcg::Pcg32`); a test
/// below fails if a dependency update renames it.
const GENERATOR: &str = "Lcg64Xsh32";

macro_rules! leaf_num {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, v: $t) -> Result<(), EncodeError> {
            self.number(v as f64);
            Ok(())
        }
    )*};
}

impl<'e, 'a> ser::Serializer for &'e mut Encoder<'a> {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Compound<'e, 'a>;
    type SerializeTuple = Compound<'e, 'a>;
    type SerializeTupleStruct = Compound<'e, 'a>;
    type SerializeTupleVariant = Compound<'e, 'a>;
    type SerializeMap = Compound<'e, 'a>;
    type SerializeStruct = Compound<'e, 'a>;
    type SerializeStructVariant = Compound<'e, 'a>;

    leaf_num!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64, serialize_u8: u8,
        serialize_u16: u16, serialize_u32: u32, serialize_f32: f32, serialize_f64: f64);

    fn serialize_u64(self, v: u64) -> Result<(), EncodeError> {
        let mut bits = v;
        while bits != 0 {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            let h = combine(self.full, TAG_BIT | u64::from(i));
            self.add(h, 1.0);
        }
        Ok(())
    }

    fn serialize_bool(self, v: bool) -> Result<(), EncodeError> {
        if v {
            self.number(1.0);
        }
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), EncodeError> {
        self.name(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.name(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), EncodeError> {
        for (i, b) in v.iter().enumerate() {
            self.child(Key::Index(i as u64), b)?;
        }
        Ok(())
    }
    fn serialize_none(self) -> Result<(), EncodeError> {
        let h = combine(self.full, TAG_NONE);
        self.add(h, 1.0);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), EncodeError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), EncodeError> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), EncodeError> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> Result<(), EncodeError> {
        self.name(v);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result<(), EncodeError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), EncodeError> {
        self.name(variant);
        self.child(Key::Field(variant.as_bytes()), v)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, EncodeError> {
        Ok(Compound { enc: self, index: 0, key: KeyBytes(Vec::new()), skip: false })
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, EncodeError> {
        Ok(Compound { enc: self, index: 0, key: KeyBytes(Vec::new()), skip: false })
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, EncodeError> {
        Ok(Compound { enc: self, index: 0, key: KeyBytes(Vec::new()), skip: false })
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, EncodeError> {
        self.name(variant);
        Ok(Compound { enc: self, index: 0, key: KeyBytes(Vec::new()), skip: false })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, EncodeError> {
        Ok(Compound { enc: self, index: 0, key: KeyBytes(Vec::new()), skip: false })
    }
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Self::SerializeStruct, EncodeError> {
        Ok(Compound { enc: self, index: 0, key: KeyBytes(Vec::new()), skip: name == GENERATOR })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, EncodeError> {
        self.name(variant);
        Ok(Compound { enc: self, index: 0, key: KeyBytes(Vec::new()), skip: false })
    }
}

impl Compound<'_, '_> {
    fn item<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), EncodeError> {
        let i = self.index;
        self.index += 1;
        self.enc.child(Key::Index(i), v)
    }
}

macro_rules! seq_like {
    ($($tr:ident :: $f:ident),*) => {$(
        impl ser::$tr for Compound<'_, '_> {
            type Ok = ();
            type Error = EncodeError;
            fn $f<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), EncodeError> {
                self.item(v)
            }
            fn end(self) -> Result<(), EncodeError> {
                Ok(())
            }
        }
    )*};
}
seq_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), EncodeError> {
        self.key.0.clear();
        k.serialize(&mut self.key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), EncodeError> {
        let key = std::mem::take(&mut self.key.0);
        let r = self.enc.child(Key::Field(&key), v);
        self.key.0 = key;
        r
    }
    fn end(self) -> Result<(), EncodeError> {
        Ok(())
    }
}

macro_rules! struct_like {
    ($($tr:ident),*) => {$(
        impl ser::$tr for Compound<'_, '_> {
            type Ok = ();
            type Error = EncodeError;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, k: &'static str, v: &T) -> Result<(), EncodeError> {
                if self.skip {
                    return Ok(());
                }
                self.enc.child(Key::Field(k.as_bytes()), v)
            }
            fn end(self) -> Result<(), EncodeError> {
                Ok(())
            }
        }
    )*};
}
struct_like!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_distinct() {
        let legal: Vec<String> = ["settler", "mayor", "builder"].map(String::from).to_vec();
        let mut a = Vec::new();
        assign_ids(&legal, 4096, &mut a);
        assert_eq!(a[0], action_hash("settler", 4096));
        // A tiny space forces collisions: the ids stay distinct.
        assign_ids(&legal, 3, &mut a);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2]);
    }

    #[test]
    fn a_list_of_names_is_counted_not_ordered() {
        #[derive(serde::Serialize)]
        struct View {
            stack: Vec<&'static str>,
            vp: u16,
        }
        let mut a = vec![0.0; 64];
        let mut b = vec![0.0; 64];
        encode_view(&View { stack: vec!["corn", "sugar", "corn"], vp: 3 }, &mut a);
        encode_view(&View { stack: vec!["corn", "corn", "sugar"], vp: 3 }, &mut b);
        assert_eq!(a, b);
        encode_view(&View { stack: vec!["corn", "sugar", "sugar"], vp: 3 }, &mut b);
        assert_ne!(a, b);
        assert_eq!(a.iter().sum::<f32>(), 6.0);
    }

    #[test]
    fn the_generator_is_left_out_and_bit_sets_are_bits() {
        #[derive(serde::Serialize)]
        struct View {
            rng: crate::Rng,
            tiles: u64,
        }
        let mut a = vec![0.0; 64];
        let mut b = vec![0.0; 64];
        encode_view(&View { rng: crate::Rng::from_seed(1), tiles: 0b1011 }, &mut a);
        encode_view(&View { rng: crate::Rng::from_seed(2), tiles: 0b1011 }, &mut b);
        assert_eq!(a, b);
        assert_eq!(a.iter().sum::<f32>(), 3.0);
    }
}
