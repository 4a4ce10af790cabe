//! Goods and a map keyed by them. Which goods exist, their names, order, prices and
//! colours are the ruleset's (`[goods.*]`, see [`crate::rules::Rules::goods`]); a good
//! here is only an index into that list, so that states stay flat and `Copy`.

use rulesmith_game::names;
use serde::{Deserialize, Serialize};

/// Most goods a ruleset may list (bits per good fit a `u8`: kept kinds, craftsman kinds,
/// effect masks; a seat's barrels fit the one `u64` the metrics keep of them).
pub const MAX_GOODS: usize = 8;

// A good in the state JSON is its name (`crate::json` gives the ruleset's goods to the
// serde pass).
names::kinds!(pub GoodName = "good");

/// A kind of good (and of plantation): an index into the ruleset's goods.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Good(u8);

impl Good {
    /// The good at `index` in the ruleset's order (`index` < [`MAX_GOODS`]).
    pub const fn at(index: usize) -> Good {
        Good(index as u8)
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The bit of this good in a set of goods (bit per good).
    pub fn bit(self) -> u8 {
        1 << self.0
    }

    /// Every place a good may have, used or not: for code that runs without the ruleset
    /// (the places past the ruleset's goods stay empty).
    pub fn every() -> impl Iterator<Item = Good> + Clone {
        (0..MAX_GOODS as u8).map(Good)
    }
}

impl Serialize for Good {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        names::write_id::<GoodName, S>(&self.0, s)
    }
}

impl<'de> Deserialize<'de> for Good {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        names::read_id::<GoodName, D>(d).map(Good)
    }
}

/// One `T` per good. Serialises as a map by the ruleset's goods `{ "corn": .., "indigo": .. }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByGood<T>(pub [T; MAX_GOODS]);

impl<T> std::ops::Index<Good> for ByGood<T> {
    type Output = T;
    fn index(&self, g: Good) -> &T {
        &self.0[g.index()]
    }
}

impl<T> std::ops::IndexMut<Good> for ByGood<T> {
    fn index_mut(&mut self, g: Good) -> &mut T {
        &mut self.0[g.index()]
    }
}

impl ByGood<u8> {
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&v| u32::from(v)).sum()
    }

    /// The goods with a count above 0, as a set (bit per good): each byte folded onto
    /// its lowest bit, and the eight bits gathered by one multiplication (this runs in
    /// every legal-action listing of the captain, trader and settler).
    #[inline]
    pub fn nonzero(&self) -> u8 {
        let x = u64::from_le_bytes(self.0);
        let mut y = x | (x >> 4);
        y |= y >> 2;
        y |= y >> 1;
        y &= 0x0101_0101_0101_0101;
        (y.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
    }

    /// The goods with a count above 0, in order (the hot loops' way over the goods: the
    /// places past the ruleset's goods are always empty).
    #[inline]
    pub fn present(&self) -> Goods {
        Goods(self.nonzero())
    }
}

/// A set of goods (bit per good) iterated in order.
#[derive(Clone, Copy, Debug)]
pub struct Goods(pub u8);

impl Iterator for Goods {
    type Item = Good;

    #[inline]
    fn next(&mut self) -> Option<Good> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Good(i))
    }
}

/// Barrels by good are the core's tallies (kind = [`Good::index`]): they move with
/// [`rulesmith_game::cargo::transfer`].
impl rulesmith_game::cargo::Tally for ByGood<u8> {
    fn count(&self, kind: usize) -> u32 {
        self.0.count(kind)
    }

    fn put(&mut self, kind: usize, n: u32) -> bool {
        self.0.put(kind, n)
    }

    fn take(&mut self, kind: usize, n: u32) -> bool {
        self.0.take(kind, n)
    }
}

impl<T: Serialize> Serialize for ByGood<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        names::write_given::<GoodName, T, S, MAX_GOODS>(&self.0, s)
    }
}

/// Goods left out of the map take the default.
impl<'de, T: Deserialize<'de> + Default + Copy> Deserialize<'de> for ByGood<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        names::read_given::<GoodName, T, D, MAX_GOODS>(d).map(ByGood)
    }
}

/// A good's colour on the play screen (`[goods.*] colour`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Red,
    Yellow,
    Green,
    Blue,
    Magenta,
    Cyan,
    White,
    Black,
}

impl Colour {
    /// The name the screen's style paints with.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::Blue => "blue",
            Colour::Magenta => "magenta",
            Colour::Cyan => "cyan",
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ByGood, Good, MAX_GOODS};

    /// The folded and gathered set is the plain one, for every set of goods.
    #[test]
    fn nonzero_is_the_goods_above_zero() {
        for set in 0..=u8::MAX {
            for value in [1u8, 2, 15, 16, 128, 255] {
                let mut by = ByGood::<u8>::default();
                for i in (0..MAX_GOODS).filter(|i| set & (1 << i) != 0) {
                    by.0[i] = value;
                }
                assert_eq!(by.nonzero(), set, "{by:?}");
                assert!(by.present().eq(Good::every().filter(|&g| by[g] > 0)));
            }
        }
    }
}
