//! The game state: flat, fixed-size data (no heap), so that a clone is a memcpy.

use crate::goods::{ByGood, Good};
use crate::limits::{MAX_BUILDINGS, MAX_PLANTATIONS, MAX_ROLES, MAX_SHIPS, MAX_SPACES, MAX_TRADING_HOUSE};
use crate::phase::Building;
pub use crate::phase::{Checkpoint, Offer, Pending, Phase, SeatSet};
pub use crate::phases::captain::shipping::Shipping;
pub use crate::phases::craftsman::production::Production;
pub use crate::phases::mayor::placement::Placement;
pub use crate::phases::settler::settlement::Settlement;
use rulesmith_game::steps::{RoleBoard, Rotation};
use rulesmith_game::{ByPlayer, Rng, Seat, names};
use serde::{Deserialize, Serialize};

/// A building in a player's city.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CityBuilding {
    /// Index into the ruleset's buildings (its id in the JSON).
    #[serde(serialize_with = "names::write_id::<Building, _>", deserialize_with = "names::read_id::<Building, _>")]
    pub building: u8,
    pub colonists: u8,
}

/// One player's board and holdings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    pub doubloons: u16,
    /// VP earned during the game (chips, and paper once the chips ran out).
    pub vp: u16,
    pub goods: ByGood<u8>,
    /// Plantations on the island, by kind.
    pub plantations: ByGood<u8>,
    /// Occupied plantations, by kind.
    pub plantations_occupied: ByGood<u8>,
    pub quarries: u8,
    pub quarries_occupied: u8,
    /// Island spaces filled by tiles of the ruleset's extension (the expansion's forests,
    /// [`crate::extension`]): no circle, no production. Read and written by `crate::json`
    /// under the extension's name for them.
    #[serde(skip)]
    pub extension_tiles: u8,
    /// Colonists waiting in San Juan (during the mayor phase: colonists not yet placed).
    pub san_juan: u8,
    #[serde(with = "city_serde")]
    pub city: City,
}

/// A city: buildings kept sorted by building index, so equal cities compare equal.
#[derive(Clone, Copy, Default)]
pub struct City {
    pub slots: [CityBuilding; MAX_SPACES],
    pub len: u8,
}

impl City {
    pub fn iter(&self) -> impl Iterator<Item = &CityBuilding> {
        self.slots[..self.len as usize].iter()
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut CityBuilding> {
        self.slots[..self.len as usize].iter_mut()
    }

    pub fn as_slice(&self) -> &[CityBuilding] {
        &self.slots[..self.len as usize]
    }

    pub fn has(&self, building: u8) -> bool {
        self.iter().any(|b| b.building == building)
    }

    /// Inserts keeping the order; returns false if full.
    pub fn insert(&mut self, building: u8, colonists: u8) -> bool {
        let len = self.len as usize;
        if len >= MAX_SPACES {
            return false;
        }
        let pos = self.slots[..len].iter().position(|b| b.building > building).unwrap_or(len);
        self.slots.copy_within(pos..len, pos + 1);
        self.slots[pos] = CityBuilding { building, colonists };
        self.len += 1;
        true
    }
}

/// Equality, hashing and debug output of the flat arrays look at the used part only.
macro_rules! slice_value {
    ($t:ty) => {
        impl PartialEq for $t {
            fn eq(&self, other: &Self) -> bool {
                self.as_slice() == other.as_slice()
            }
        }
        impl Eq for $t {}
        impl std::hash::Hash for $t {
            fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
                self.as_slice().hash(h);
            }
        }
        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list().entries(self.as_slice()).finish()
            }
        }
    };
}

slice_value!(City);
slice_value!(Stack);

mod city_serde {
    use super::{City, CityBuilding};
    use crate::limits::MAX_SPACES;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(c: &City, s: S) -> Result<S::Ok, S::Error> {
        c.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<City, D::Error> {
        let mut v: Vec<CityBuilding> = Vec::deserialize(d)?;
        if v.len() > MAX_SPACES {
            return Err(serde::de::Error::custom(format!("a city holds at most {MAX_SPACES} buildings")));
        }
        v.sort_by_key(|b| b.building);
        let mut c = City::default();
        for b in v {
            c.slots[c.len as usize] = b;
            c.len += 1;
        }
        Ok(c)
    }
}

/// A cargo ship.
/// A cargo ship: the core's hold, one good at a time (S000:L319-326).
pub type Ship = rulesmith_game::cargo::Hold<Good>;

/// The trading house: goods sold in the trader phase, one per space (S000:L267-276).
pub type TradingHouse = rulesmith_game::cargo::Row<Good, MAX_TRADING_HOUSE>;

/// The whole game. Its JSON (serde) is `crate::json`'s shape: what the phases keep is
/// read and written under the keys it always had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub round: u32,
    pub governor: Seat,
    pub phase: Phase,
    /// Roles chosen so far this round.
    pub roles_chosen: u8,
    /// Seat that chose the role being played (`governor` during role selection).
    pub chooser: Seat,
    /// Index of the role being played.
    pub role: u8,
    /// The seat to act (meaningful in every phase but `GameOver`).
    pub current: Seat,
    /// Each player once from the chooser (settler, mayor placement, builder, trader, storage).
    pub rotation: Rotation,
    pub roles: RoleBoard<MAX_ROLES>,
    pub players: ByPlayer<Player>,
    pub colonist_supply: u8,
    pub colonist_ship: u8,
    pub vp_chips: u16,
    pub quarry_supply: u8,
    pub goods_supply: ByGood<u8>,
    /// Face-down plantation stack, drawn from the end.
    pub stack: Stack,
    pub face_up: ByGood<u8>,
    pub discards: ByGood<u8>,
    /// Buildings left on the board, by building index (a map by id in the JSON; ids left
    /// out have none).
    pub buildings: [u8; MAX_BUILDINGS],
    pub ships: [Ship; MAX_SHIPS],
    pub ship_count: u8,
    pub trading_house: TradingHouse,
    /// What each phase remembers between turns, each part owned by its phase's module
    /// (`phases::*`); the state JSON keeps their keys at the top (`crate::json`).
    pub settler: Settlement,
    pub captain: Shipping,
    pub mayor: Placement,
    pub craftsman: Production,
    /// End conditions met (bits: 1 colonists, 2 city full, 4 VP chips).
    pub end_triggers: u8,
    /// Plantation tiles the ruleset's extension holds out of play, by the good on their
    /// face (the expansion's forests lie face down, [`crate::extension`]).
    pub held_tiles: ByGood<u8>,
    /// Buildings that are not in this game (bit per building index), e.g. not drafted (a
    /// list of ids in the JSON).
    pub out_of_game: u64,
    /// Decisions in progress that span several actions (expansion effects).
    pub pending: Pending,
    /// Where the colonist offered by a hospice or university would go.
    pub colonist_offer: Option<Offer>,
    pub rng: Rng,
}

pub const END_COLONISTS: u8 = 1;
pub const END_CITY: u8 = 2;
pub const END_VP: u8 = 4;

/// The face-down plantation stack.
#[derive(Clone, Copy)]
pub struct Stack {
    pub tiles: [Good; MAX_PLANTATIONS],
    pub len: u8,
}

impl Default for Stack {
    fn default() -> Self {
        Stack { tiles: [Good::default(); MAX_PLANTATIONS], len: 0 }
    }
}

impl Stack {
    pub fn as_slice(&self) -> &[Good] {
        &self.tiles[..self.len as usize]
    }

    pub fn push(&mut self, g: Good) {
        if (self.len as usize) < MAX_PLANTATIONS {
            self.tiles[self.len as usize] = g;
            self.len += 1;
        }
    }

    pub fn pop(&mut self) -> Option<Good> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.tiles[self.len as usize])
    }

    pub fn counts(&self) -> ByGood<u8> {
        let mut c = ByGood::default();
        for &g in self.as_slice() {
            c[g] += 1;
        }
        c
    }

    pub fn shuffle(&mut self, rng: &mut Rng) {
        let len = self.len as usize;
        rng.shuffle(&mut self.tiles[..len]);
    }
}

/// The stack as a list of tiles, bottom first.
pub(crate) mod stack_serde {
    use super::Stack;
    use crate::goods::Good;
    use crate::limits::MAX_PLANTATIONS;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(st: &Stack, s: S) -> Result<S::Ok, S::Error> {
        st.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Stack, D::Error> {
        let v: Vec<Good> = Vec::deserialize(d)?;
        if v.len() > MAX_PLANTATIONS {
            return Err(serde::de::Error::custom(format!("the stack holds at most {MAX_PLANTATIONS} tiles")));
        }
        let mut st = Stack::default();
        for g in v {
            st.push(g);
        }
        Ok(st)
    }
}

impl State {
    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    pub fn ships(&self) -> &[Ship] {
        &self.ships[..self.ship_count as usize]
    }

    /// The top face-down plantation tile; an empty stack is first refilled from the
    /// discards (as when revealing, S000:L146).
    pub fn draw_face_down(&mut self) -> Option<Good> {
        if self.stack.len == 0 {
            // Every place: those past the ruleset's goods are empty.
            for g in Good::every() {
                for _ in 0..self.discards[g] {
                    self.stack.push(g);
                }
                self.discards[g] = 0;
            }
            self.stack.shuffle(&mut self.rng);
        }
        self.stack.pop()
    }

    /// The buildings of the first `n` indices still on the board, a bit each: eight counts
    /// at a time (a byte's high bit set where it is not zero, then the eight bits gathered
    /// by one multiplication), as the builder asks before every turn.
    pub fn buildings_left(&self, n: usize) -> u64 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let mut left = 0u64;
        for (k, chunk) in self.buildings.chunks_exact(8).enumerate().take(n.div_ceil(8)) {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(chunk);
            let w = u64::from_le_bytes(bytes);
            let high = (w | ((w & LOW7) + LOW7)) & !LOW7;
            left |= ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
        }
        if n < 64 { left & ((1u64 << n) - 1) } else { left }
    }

    pub fn in_game(&self, building: usize) -> bool {
        building >= 64 || self.out_of_game & (1 << building) == 0
    }
}
