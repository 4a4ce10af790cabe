//! The game state: plain data, fixed arrays, cheap to clone.

use crate::fixed::Arr;
use crate::rules::{MAX_CITIES, MAX_DECK, MAX_EDGES, MAX_GOODS, MAX_ROW, MAX_TILES};
use rulesmith_game::cargo::DemandSpaces;
use rulesmith_game::{ByPlayer, OptId, Rng, Seat};
use serde::{Deserialize, Serialize};

/// Where in the game we are (REF §2.3: 3 C purchase → 3 D residents → 3 E trolley → 3 H).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Setup: capitals are chosen in reverse turn order (REF §2.2 step 7).
    #[default]
    Capital,
    /// 3 C, first part: buy one privilege or none.
    Privilege,
    /// 3 C, second part: one trolley upgrade or none.
    Upgrade,
    /// 3 C, third part: buy residents.
    BuyResidents,
    /// 3 D.
    Residents,
    /// 3 E (3 H income follows automatically when it ends).
    Trolley,
    Over,
}

pub const PHASE_NAMES: [(&str, Phase); 7] = [
    ("capital", Phase::Capital),
    ("privilege", Phase::Privilege),
    ("upgrade", Phase::Upgrade),
    ("buy_residents", Phase::BuyResidents),
    ("residents", Phase::Residents),
    ("trolley", Phase::Trolley),
    ("over", Phase::Over),
];

/// How the game ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    #[default]
    None,
    /// Enough goods delivered by the end of a round (REF §2.9).
    DeliveredGoods,
    /// The ruleset's safety bound on rounds (a chosen default, not a rule of the game).
    RoundLimit,
}

/// A transport trolley.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Trolley {
    /// None before the player chooses a capital (where it starts).
    pub tile: OptId,
    /// Movement left this turn, in half points.
    pub half_mp: u8,
    pub goods: [u8; MAX_GOODS],
    pub residents: u8,
}

impl Trolley {
    pub fn goods_count(&self) -> u8 {
        self.goods.iter().sum()
    }
}

/// One player's pieces and holdings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    pub money: i32,
    /// The capital's tile, none before it is chosen.
    pub capital: OptId,
    /// Upgrade levels (indices into the ruleset's `movement` and `holds`).
    pub movement_level: u8,
    pub holds_level: u8,
    /// Bit `k` set when the player owns privilege type `k`.
    pub privileges: u32,
    /// Bit `t` set when the player has a settlement on tile `t`.
    pub settlements: u64,
    /// Bit `e` set when the player has a road on edge `e`.
    pub roads: [u64; MAX_EDGES / 64],
    /// Tiles touched by the player's roads (derived from `roads`, kept for speed).
    pub network: u64,
    /// Edges where the player may still build a road (a bit per edge): between two own
    /// tiles, without the player's road, an end on the network (before the first road: at
    /// the capital). Derived from the settlements, capital and roads, kept as they change
    /// (`residents::settle`, `residents::place_road`); reading JSON computes it and the
    /// state check compares it with [`crate::residents::open_roads`].
    pub open_roads: [u64; MAX_EDGES / 64],
    /// Active residents that may still move along roads.
    pub active: Arr<u8, MAX_TILES>,
    /// Active residents that already moved along roads this phase (they may still act).
    pub moved: Arr<u8, MAX_TILES>,
    pub exhausted: Arr<u8, MAX_TILES>,
    /// The tiles with active, moved and exhausted residents, and those at the tile limit
    /// ([`crate::purchase::tile_limit`]), a bit per tile: derived from the counters above
    /// and kept as they change ([`crate::purchase::recount`]), so that listing 3 D reads
    /// no counter of an empty tile; reading JSON computes them and the state check
    /// compares them with [`crate::purchase::resident_tiles`].
    pub tiles: ResidentTiles,
    /// Pieces in storage (derived from the totals, kept for speed).
    pub residents_in_storage: u8,
    pub settlements_in_storage: u8,
    pub trolley: Trolley,
    pub delivered: [u8; MAX_GOODS],
    /// Income of the player's last 3 H (tie-break, REF §2.10).
    pub last_income: i32,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            money: 0,
            capital: OptId::NONE,
            movement_level: 0,
            holds_level: 0,
            privileges: 0,
            settlements: 0,
            roads: [0; MAX_EDGES / 64],
            network: 0,
            open_roads: [0; MAX_EDGES / 64],
            active: Arr::default(),
            moved: Arr::default(),
            exhausted: Arr::default(),
            tiles: ResidentTiles::default(),
            residents_in_storage: 0,
            settlements_in_storage: 0,
            trolley: Trolley::default(),
            delivered: [0; MAX_GOODS],
            last_income: 0,
        }
    }
}

/// Where a player's residents stand, a bit per tile ([`Player::tiles`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ResidentTiles {
    pub active: u64,
    pub moved: u64,
    pub exhausted: u64,
    /// No room for one more resident (REF §6 Q5).
    pub full: u64,
}

impl Player {
    pub fn has_road(&self, edge: u8) -> bool {
        let e = usize::from(edge);
        self.roads.get(e / 64).is_some_and(|w| w & (1 << (e % 64)) != 0)
    }

    pub fn set_road(&mut self, edge: u8) {
        let e = usize::from(edge);
        if let Some(w) = self.roads.get_mut(e / 64) {
            *w |= 1 << (e % 64);
        }
    }

    pub fn has_privilege(&self, kind: u8) -> bool {
        kind < 32 && self.privileges & (1 << kind) != 0
    }

    /// The player's headquarters or a settlement stands on the tile.
    pub fn owns(&self, tile: u8) -> bool {
        OptId::some(tile) == self.capital || (tile < 64 && self.settlements & (1 << tile) != 0)
    }

    pub fn residents_on(&self, tile: u8) -> u8 {
        let t = usize::from(tile);
        self.active.get(t).copied().unwrap_or(0)
            + self.moved.get(t).copied().unwrap_or(0)
            + self.exhausted.get(t).copied().unwrap_or(0)
    }

    pub fn active_on(&self, tile: u8) -> u8 {
        let t = usize::from(tile);
        self.active.get(t).copied().unwrap_or(0) + self.moved.get(t).copied().unwrap_or(0)
    }

    pub fn delivered_count(&self) -> u32 {
        self.delivered.iter().map(|&n| u32::from(n)).sum()
    }
}

/// What the player to move has done so far this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    /// Residents are bought in tile order, so each set of purchases has one spelling:
    /// the lowest tile still allowed (none before the first is bought).
    pub purchase_from: OptId,
    pub free_road_used: bool,
    pub extra_action_used: bool,
    /// Cities on which the player placed a settlement this turn (privilege I (2)).
    pub cities_settled: u8,
    /// Tiles the trolley entered this turn.
    pub trolley_moves: u8,
    /// Since the trolley last moved: goods types (bit g) and residents (bit 15) loaded,
    /// resp. unloaded here. Undoing one of them at the same stop is refused, so that
    /// loading and unloading cannot cycle.
    pub loaded_here: u16,
    pub unloaded_here: u16,
}

pub const RESIDENT_BIT: u16 = 1 << 15;

impl Default for Turn {
    fn default() -> Self {
        Turn {
            purchase_from: OptId::NONE,
            free_road_used: false,
            extra_action_used: false,
            cities_settled: 0,
            trolley_moves: 0,
            loaded_here: 0,
            unloaded_here: 0,
        }
    }
}

/// The full state of a game of World 163.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: u8,
    pub rng: Rng,
    pub phase: Phase,
    pub end: End,
    pub current: Seat,
    /// 1-based round once play begins (0 while capitals are chosen).
    pub round: u32,
    /// Terrain of each tile (fixed by the map, or dealt at setup).
    pub terrain: Arr<u8, MAX_TILES>,
    /// Goods left on each city (of the city's own type).
    pub city_stock: [u8; MAX_CITIES],
    /// Each city's demand spaces that deliveries covered (the core's demand spaces).
    pub covered: [DemandSpaces; MAX_CITIES],
    /// Goods lying on each tile (unloaded where nobody demanded them).
    pub loose: Arr<[u8; MAX_GOODS], MAX_TILES>,
    /// Privilege deck, bottom first (the top card is the last).
    pub deck: Arr<u8, MAX_DECK>,
    pub deck_len: u8,
    /// The face-up row in draw order; the first `free` cost $0, the rest the price.
    pub row: [u8; MAX_ROW],
    pub row_len: u8,
    pub free: u8,
    pub p: ByPlayer<Player>,
    pub turn: Turn,
}

impl State {
    pub fn player(&self, seat: Seat) -> &Player {
        &self.p.as_slice()[usize::from(seat).min(self.p.len().saturating_sub(1))]
    }

    pub fn cur(&self) -> &Player {
        self.player(self.current)
    }

    pub fn cur_mut(&mut self) -> &mut Player {
        let i = usize::from(self.current).min(self.p.len().saturating_sub(1));
        &mut self.p.as_mut_slice()[i]
    }

    /// The goods lying loose on `tile` and the trolley goods of the player to move, to move
    /// goods between them ([`rulesmith_game::cargo::transfer`]).
    pub fn loose_and_trolley(&mut self, tile: usize) -> (&mut [u8; MAX_GOODS], &mut [u8; MAX_GOODS]) {
        let i = usize::from(self.current).min(self.p.len().saturating_sub(1));
        let tile = tile.min(MAX_TILES - 1);
        (&mut self.loose[tile], &mut self.p.as_mut_slice()[i].trolley.goods)
    }

    pub fn row(&self) -> &[u8] {
        &self.row[..usize::from(self.row_len).min(MAX_ROW)]
    }

    pub fn deck(&self) -> &[u8] {
        &self.deck[..usize::from(self.deck_len).min(MAX_DECK)]
    }

    /// Goods delivered by all players together (REF §2.9).
    pub fn delivered_total(&self) -> u32 {
        self.p.iter().map(Player::delivered_count).sum()
    }
}

/// Tiles with the player's headquarters or a settlement.
pub fn own_tiles(p: &Player) -> u64 {
    p.settlements | capital_bit(p)
}

/// The capital's tile as a bit (0 before it is chosen).
#[inline]
pub fn capital_bit(p: &Player) -> u64 {
    // On every listing of 3 D and 3 E: one comparison, as none's byte is past 63.
    let t = p.capital.to_bits();
    if t < 64 { 1 << t } else { 0 }
}
