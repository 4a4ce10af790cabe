//! A fixed-capacity map keyed by seat: no heap, `Copy` when `T` is.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A seat at the table, 0-based, in turn order from the first player.
pub type Seat = u8;

/// The most seats any bundled game seats.
pub const MAX_PLAYERS: usize = 5;

/// One `T` per seat, for up to [`MAX_PLAYERS`] seats. Serialises as a list of the
/// seated players only.
#[derive(Clone, Copy)]
pub struct ByPlayer<T> {
    items: [T; MAX_PLAYERS],
    len: u8,
}

impl<T: Copy + Default> ByPlayer<T> {
    /// `players` seats, each holding `T::default()`. Callers validate `players` first.
    pub fn new(players: usize) -> Self {
        ByPlayer { items: [T::default(); MAX_PLAYERS], len: players.min(MAX_PLAYERS) as u8 }
    }

    pub fn filled(players: usize, value: T) -> Self {
        ByPlayer { items: [value; MAX_PLAYERS], len: players.min(MAX_PLAYERS) as u8 }
    }
}

impl<T> ByPlayer<T> {
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.as_mut_slice().iter_mut()
    }
    pub fn seats(&self) -> impl Iterator<Item = Seat> + use<T> {
        0..self.len
    }
}

// Equality, hashing and debug output look at the seated players only: the unused tail is
// not part of the value.
impl<T: PartialEq> PartialEq for ByPlayer<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq> Eq for ByPlayer<T> {}

impl<T: std::hash::Hash> std::hash::Hash for ByPlayer<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h);
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for ByPlayer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T> std::ops::Index<Seat> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, seat: Seat) -> &T {
        &self.as_slice()[seat as usize]
    }
}

impl<T> std::ops::IndexMut<Seat> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.as_mut_slice()[seat as usize]
    }
}

impl<T: Serialize> Serialize for ByPlayer<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de, T: Deserialize<'de> + Copy + Default> Deserialize<'de> for ByPlayer<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: Vec<T> = Vec::deserialize(d)?;
        if v.is_empty() || v.len() > MAX_PLAYERS {
            return Err(serde::de::Error::custom(format!("expected 1 to {MAX_PLAYERS} players, found {}", v.len())));
        }
        let mut out = ByPlayer::new(v.len());
        out.as_mut_slice().copy_from_slice(&v);
        Ok(out)
    }
}
