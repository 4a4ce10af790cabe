//! Pickup and deliver: components (barrels, goods, residents) move between places (the
//! supply, players, boards, holds), counted by kind.
//!
//! - [`Tally`]: counts by kind; every game's own count arrays are tallies.
//! - [`transfer`]: moves components of one kind from one tally to another, so the total
//!   is conserved by construction (Puerto Rico's production, sales, returns and spoilage;
//!   Santiago de Cuba's goods; Mundo 163's goods loaded onto and unloaded from trolleys).
//! - [`Hold`]: a capacity and one kind at a time (Puerto Rico's cargo ships).
//! - [`Row`]: spaces filled one good at a time and emptied together (Puerto Rico's
//!   trading house); which goods may join is the game's rule.
//! - [`Demand`]: how much of each kind is still wanted; deliveries cover it (Santiago de
//!   Cuba's ship).
//! - [`DemandSpaces`]: demand spaces, each wanting one kind, covered one at a time
//!   (Mundo 163's cities).
//! - [`holds_needed`]: holds for a cargo whose classes never share a hold (Mundo 163's
//!   trolley: goods and residents).
//! - [`conserved`]: the one conservation check every game's `check_state` calls: the
//!   setup's total of each kind against the sum over every place.
//!
//! Everything is flat, `Copy` and allocation-free: these types sit in game states that
//! playouts clone millions of times.

use serde::{Deserialize, Serialize};

/// Counts of components by kind (kind = a small index).
pub trait Tally {
    /// How many of `kind` are here (0 for a kind this tally does not have).
    fn count(&self, kind: usize) -> u32;
    /// Puts `n` of `kind` here; `false` (and nothing changes) if they do not fit.
    fn put(&mut self, kind: usize, n: u32) -> bool;
    /// Takes `n` of `kind` away; `false` (and nothing changes) if fewer are here.
    fn take(&mut self, kind: usize, n: u32) -> bool;
}

impl<const N: usize> Tally for [u8; N] {
    fn count(&self, kind: usize) -> u32 {
        self.get(kind).map_or(0, |&c| u32::from(c))
    }

    fn put(&mut self, kind: usize, n: u32) -> bool {
        match self.get_mut(kind) {
            Some(c) if u32::from(*c) + n <= u32::from(u8::MAX) => {
                *c += n as u8;
                true
            }
            _ => n == 0,
        }
    }

    fn take(&mut self, kind: usize, n: u32) -> bool {
        match self.get_mut(kind) {
            Some(c) if u32::from(*c) >= n => {
                *c -= n as u8;
                true
            }
            _ => n == 0,
        }
    }
}

/// Moves up to `n` of `kind` from `from` to `to`; returns how many moved (fewer when
/// `from` holds fewer or `to` has no room). What leaves one place arrives at the other.
pub fn transfer(from: &mut impl Tally, to: &mut impl Tally, kind: usize, n: u32) -> u32 {
    let moved = n.min(from.count(kind));
    if moved == 0 || !to.put(kind, moved) {
        return 0;
    }
    if !from.take(kind, moved) {
        // Unreachable (`moved` is at most what `from` holds); undo to stay conserved.
        to.take(kind, moved);
        return 0;
    }
    moved
}

/// A hold of a given capacity carrying one kind at a time: a cargo ship. Its fields carry
/// invariants (load within capacity, a kind exactly while loaded): edited copies are
/// validated with [`Hold::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hold<G> {
    capacity: u8,
    /// The kind on board (`good` in the games' JSON), `None` while empty.
    good: Option<G>,
    load: u8,
}

impl<G> Default for Hold<G> {
    fn default() -> Self {
        Hold { capacity: 0, good: None, load: 0 }
    }
}

impl<G: Copy + Eq> Hold<G> {
    /// An empty hold.
    pub fn new(capacity: u8) -> Self {
        Hold { capacity, good: None, load: 0 }
    }

    /// A hold already carrying `load` of `good` (a position set up by a test or scenario);
    /// `None` if that breaks its invariants.
    pub fn loaded(capacity: u8, good: G, load: u8) -> Option<Self> {
        (load <= capacity).then_some(if load == 0 {
            Hold::new(capacity)
        } else {
            Hold { capacity, good: Some(good), load }
        })
    }

    pub fn capacity(&self) -> u8 {
        self.capacity
    }

    /// The kind on board, if any.
    pub fn good(&self) -> Option<G> {
        self.good
    }

    /// How many are on board.
    pub fn load(&self) -> u8 {
        self.load
    }

    pub fn is_full(&self) -> bool {
        self.load >= self.capacity
    }

    /// How many of `good` still fit: none while it carries another kind.
    pub fn room_for(&self, good: G) -> u8 {
        match self.good {
            Some(g) if g != good => 0,
            _ => self.capacity.saturating_sub(self.load),
        }
    }

    /// Loads up to `n` of `good` from `from` (a tally where `kind` counts `good`); returns
    /// how many went on board.
    pub fn load_from(&mut self, from: &mut impl Tally, good: G, kind: usize, n: u32) -> u8 {
        let n = n.min(u32::from(self.room_for(good))).min(from.count(kind));
        if n == 0 || !from.take(kind, n) {
            return 0;
        }
        self.good = Some(good);
        self.load += n as u8;
        n as u8
    }

    /// Empties the hold into `to` (`kind` of its good); the hold is free for any kind.
    pub fn unload_into(&mut self, to: &mut impl Tally, kind: impl Fn(G) -> usize) {
        if let Some(g) = self.good {
            if to.put(kind(g), u32::from(self.load)) {
                *self = Hold::new(self.capacity);
            }
        }
    }

    /// Whether an (edited) hold keeps its invariants and the setup's capacity.
    pub fn check(&self, capacity: u8) -> Result<(), String> {
        if self.capacity != capacity {
            return Err(format!("capacity {}, the setup's holds {capacity}", self.capacity));
        }
        if self.load > self.capacity || (self.load > 0) != self.good.is_some() {
            return Err(format!(
                "a load of {} in a hold of {} ({})",
                self.load,
                self.capacity,
                match self.good {
                    Some(_) => "with a good",
                    None => "with no good",
                }
            ));
        }
        Ok(())
    }
}

/// A row of up to `N` spaces that take one good each, filled from the left and emptied
/// together into the supply: Puerto Rico's trading house. Which goods may join (distinct
/// kinds, an owner's exception) is the game's rule; the row keeps its spaces, and an
/// edited copy is validated with [`Row::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Row<G, const N: usize> {
    #[serde(with = "option_arrays")]
    #[serde(bound(serialize = "G: Serialize", deserialize = "G: Deserialize<'de>"))]
    spaces: [Option<G>; N],
}

impl<G: Copy, const N: usize> Default for Row<G, N> {
    fn default() -> Self {
        Row { spaces: [None; N] }
    }
}

impl<G: Copy + Eq, const N: usize> Row<G, N> {
    /// How many goods lie in the row.
    pub fn len(&self) -> usize {
        self.spaces.iter().filter(|g| g.is_some()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the first `spaces` spaces (the game's row) are all taken.
    pub fn is_full(&self, spaces: usize) -> bool {
        self.len() >= spaces
    }

    pub fn contains(&self, good: G) -> bool {
        self.spaces.contains(&Some(good))
    }

    /// How many of `good` lie in the row.
    pub fn count(&self, good: G) -> u32 {
        self.spaces.iter().filter(|g| **g == Some(good)).count() as u32
    }

    /// The spaces in order (`None`: empty).
    pub fn spaces(&self) -> &[Option<G>; N] {
        &self.spaces
    }

    /// Lays `good` on the first empty space; `false` if none is left.
    pub fn put(&mut self, good: G) -> bool {
        match self.spaces.iter_mut().find(|x| x.is_none()) {
            Some(slot) => {
                *slot = Some(good);
                true
            }
            None => false,
        }
    }

    /// Empties the row into `to` (`kind` of each good).
    pub fn empty_into(&mut self, to: &mut impl Tally, kind: impl Fn(G) -> usize) {
        for slot in self.spaces.iter_mut() {
            if let Some(g) = *slot {
                if to.put(kind(g), 1) {
                    *slot = None;
                }
            }
        }
    }

    /// Whether an (edited) row keeps to the game's `spaces`.
    pub fn check(&self, spaces: usize) -> Result<(), String> {
        if self.spaces.iter().skip(spaces).any(Option::is_some) {
            return Err(format!("more than {spaces} goods"));
        }
        Ok(())
    }
}

/// How much of each of `N` kinds is still wanted; deliveries cover it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Demand<const N: usize> {
    #[serde(with = "arrays")]
    open: [u8; N],
}

impl<const N: usize> Default for Demand<N> {
    fn default() -> Self {
        Demand { open: [0; N] }
    }
}

impl<const N: usize> Demand<N> {
    /// Wanted amounts by kind.
    pub fn new(open: [u8; N]) -> Self {
        Demand { open }
    }

    /// How much of `kind` is still wanted.
    pub fn open(&self, kind: usize) -> u8 {
        self.open.get(kind).copied().unwrap_or(0)
    }

    /// All the amounts, by kind.
    pub fn as_array(&self) -> &[u8; N] {
        &self.open
    }

    /// Sets what `kind` wants (a new demand is rolled, or dice are set aside).
    pub fn set(&mut self, kind: usize, n: u8) {
        if let Some(o) = self.open.get_mut(kind) {
            *o = n;
        }
    }

    /// Covers up to `n` of `kind` (goods delivered elsewhere); returns how many counted.
    pub fn cover(&mut self, kind: usize, n: u8) -> u8 {
        match self.open.get_mut(kind) {
            Some(o) => {
                let n = n.min(*o);
                *o -= n;
                n
            }
            None => 0,
        }
    }

    /// Whether nothing is wanted any more.
    pub fn is_met(&self) -> bool {
        self.open.iter().all(|&o| o == 0)
    }
}

/// `demand[kind]` reads what is still wanted (0 for a kind past the end).
impl<const N: usize> std::ops::Index<usize> for Demand<N> {
    type Output = u8;

    fn index(&self, kind: usize) -> &u8 {
        self.open.get(kind).unwrap_or(&0)
    }
}

/// Demand spaces, each wanting one kind (the ruleset lists them), covered one at a time
/// in list order. Bit `i` set when space `i` is covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DemandSpaces(u16);

impl DemandSpaces {
    /// The most spaces one place may have.
    pub const MAX: usize = 16;

    pub fn from_bits(bits: u16) -> Self {
        DemandSpaces(bits)
    }

    pub fn bits(&self) -> u16 {
        self.0
    }

    pub fn is_covered(&self, space: usize) -> bool {
        space < Self::MAX && self.0 & (1 << space) != 0
    }

    /// The first uncovered space of `spaces` wanting `kind`.
    pub fn open_space<K: PartialEq + Copy>(&self, spaces: &[K], kind: K) -> Option<usize> {
        spaces.iter().take(Self::MAX).enumerate().find(|&(i, &k)| k == kind && !self.is_covered(i)).map(|(i, _)| i)
    }

    /// Marks space `space` covered (a position set up by a scenario).
    pub fn set_covered(&mut self, space: usize) {
        if space < Self::MAX {
            self.0 |= 1 << space;
        }
    }

    /// Whether an (edited) set covers only spaces that exist.
    pub fn check(&self, spaces: usize) -> Result<(), String> {
        if spaces < Self::MAX && u32::from(self.0) >> spaces != 0 {
            return Err(format!("covers a demand space past the {spaces} there are"));
        }
        Ok(())
    }
}

/// Holds needed for a cargo of classes that never share a hold: `(count, per_hold)` for
/// each class (Mundo 163: goods, residents). A class that cannot be carried at all
/// (`per_hold` 0) needs more holds than anything has.
pub fn holds_needed(classes: &[(u32, u8)]) -> u32 {
    classes
        .iter()
        .map(|&(n, per)| match (n, per) {
            (0, _) => 0,
            (_, 0) => u32::MAX / 4,
            (n, per) => n.div_ceil(u32::from(per)),
        })
        .fold(0u32, u32::saturating_add)
}

/// The conservation check: for each kind, the sum over `places` of `count(place, kind)`
/// must be the setup's `total(kind)`. On the first kind that differs: `(kind, found,
/// expected)`, for the game to name in its message.
pub fn conserved<P>(
    kinds: usize,
    total: impl Fn(usize) -> u32,
    places: &[P],
    count: impl Fn(&P, usize) -> u32,
) -> Result<(), (usize, u32, u32)> {
    for k in 0..kinds {
        let found = places.iter().map(|p| count(p, k)).fold(0u32, u32::saturating_add);
        let expected = total(k);
        if found != expected {
            return Err((k, found, expected));
        }
    }
    Ok(())
}

mod arrays {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer, const N: usize>(v: &[u8; N], s: S) -> Result<S::Ok, S::Error> {
        v.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(d: D) -> Result<[u8; N], D::Error> {
        let v: Vec<u8> = Vec::deserialize(d)?;
        let len = v.len();
        v.try_into().map_err(|_| serde::de::Error::custom(format!("expected {N} counts, found {len}")))
    }
}

mod option_arrays {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer, G: Serialize, const N: usize>(v: &[Option<G>; N], s: S) -> Result<S::Ok, S::Error> {
        v.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, G: Deserialize<'de>, const N: usize>(
        d: D,
    ) -> Result<[Option<G>; N], D::Error> {
        let v: Vec<Option<G>> = Vec::deserialize(d)?;
        let len = v.len();
        v.try_into().map_err(|_| serde::de::Error::custom(format!("expected {N} spaces, found {len}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_row_fills_from_the_left_and_empties_into_the_supply() {
        let mut supply = [0u8, 0, 0];
        let mut row: Row<u8, 5> = Row::default();
        assert!(row.put(2) && row.put(0) && row.put(2));
        assert_eq!((row.len(), row.count(2), row.contains(1)), (3, 2, false));
        assert!(row.is_full(3) && !row.is_full(4));
        assert_eq!(row.check(2), Err("more than 2 goods".to_string()));
        let json = serde_json::to_string(&row).unwrap();
        assert_eq!(json, "[2,0,2,null,null]");
        assert_eq!(serde_json::from_str::<Row<u8, 5>>(&json).unwrap(), row);
        assert!(serde_json::from_str::<Row<u8, 5>>("[1]").is_err(), "a row keeps its length");
        row.empty_into(&mut supply, usize::from);
        assert_eq!((row.is_empty(), supply), (true, [1, 0, 2]));
        assert!((0..5).all(|_| row.put(1)) && !row.put(1), "no sixth space");
    }

    #[test]
    fn a_hold_carries_one_kind_within_its_capacity() {
        let mut supply = [5u8, 9];
        let mut ship: Hold<u8> = Hold::new(4);
        assert_eq!(ship.load_from(&mut supply, 1, 1, 6), 4);
        assert_eq!((ship.good(), ship.load(), supply), (Some(1), 4, [5, 5]));
        assert!(ship.is_full());
        assert_eq!(ship.room_for(0), 0, "another kind never fits");
        ship.unload_into(&mut supply, usize::from);
        assert_eq!((ship.good(), ship.load(), supply), (None, 0, [5, 9]));
        assert_eq!(Hold::loaded(3, 0u8, 4), None);
        assert!(Hold::loaded(3, 0u8, 2).unwrap().check(3).is_ok());
        assert!(Hold::loaded(3, 0u8, 2).unwrap().check(4).unwrap_err().contains("capacity 3"));
    }

    #[test]
    fn demands_are_covered_by_deliveries() {
        let mut d: Demand<3> = Demand::new([2, 0, 1]);
        assert_eq!(d.cover(0, 5), 2, "no more than is wanted");
        assert_eq!(d.cover(1, 1), 0);
        assert_eq!(d.as_array(), &[0, 0, 1]);
        assert!(!d.is_met());
        assert_eq!(d.cover(2, 3), 1);
        assert!(d.is_met());
        let mut spaces = DemandSpaces::default();
        let wants = [1, 2, 1];
        assert_eq!(spaces.open_space(&wants, 1), Some(0));
        spaces.set_covered(0);
        assert_eq!(spaces.open_space(&wants, 1), Some(2));
        spaces.set_covered(2);
        assert_eq!(spaces.open_space(&wants, 1), None);
        assert!(DemandSpaces::from_bits(0b1000).check(3).is_err());
    }

    #[test]
    fn holds_for_classes_that_never_share() {
        assert_eq!(holds_needed(&[(3, 1), (3, 2)]), 5);
        assert_eq!(holds_needed(&[(0, 0), (1, 2)]), 1);
        assert!(holds_needed(&[(1, 0)]) > 1000);
    }

    proptest! {
        /// Any sequence of transfers between places keeps every kind's total.
        #[test]
        fn transfers_conserve(moves in proptest::collection::vec((0usize..3, 0usize..3, 0usize..4, 0u32..300), 0..60)) {
            let mut places = [[10u8, 0, 200, 7], [0u8, 5, 55, 0], [1u8, 1, 0, 250]];
            let totals: Vec<u32> = (0..4).map(|k| places.iter().map(|p| p.count(k)).sum()).collect();
            for (a, b, k, n) in moves {
                if a == b {
                    continue;
                }
                let (lo, hi) = (a.min(b), a.max(b));
                let (left, right) = places.split_at_mut(hi);
                let (x, y) = (&mut left[lo], &mut right[0]);
                if a < b { transfer(x, y, k, n); } else { transfer(y, x, k, n); }
            }
            prop_assert!(conserved(4, |k| totals[k], &places, |p, k| p.count(k)).is_ok());
        }
    }
}
