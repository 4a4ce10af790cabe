//! The ruleset as written: strict structs the core's deserializer reads from the merged
//! TOML tree ([`rulesmith_core::ruleset::de`]), every key required unless its type says
//! `Option`. [`crate::rules::decode`] validates them into [`crate::rules::Rules`]; no rule
//! value has a default here.

use rulesmith_core::MAX_PLAYERS;
use rulesmith_core::ruleset::de::{Entries, Int, Located, RulesetMeta};
use serde::Deserialize;

type L<T> = Located<T>;
/// An amount of money an effect gives or takes.
pub type Money = Int<0, 10_000>;
/// A per-player-count table (`{ 2 = 30, 3 = 25, 4 = 20 }`).
pub type PerPlayers = L<Entries<L<i64>>>;

#[derive(Deserialize)]
pub struct Raw {
    pub ruleset: RulesetMeta,
    pub players: L<Players>,
    pub goods: Goods,
    pub terrains: L<Entries<L<Terrain>>>,
    pub cities: L<Vec<L<City>>>,
    pub map: L<Map>,
    pub setup: Setup,
    pub purchase: Purchase,
    pub roads: Roads,
    pub trolley: Trolley,
    pub privileges: L<Privileges>,
    pub privilege_types: L<Vec<L<PrivilegeType>>>,
    pub income: Income,
    pub end: End,
    pub scoring: Scoring,
}

#[derive(Deserialize)]
pub struct Players {
    pub min: Int<2, { MAX_PLAYERS as i64 }>,
    pub max: Int<2, { MAX_PLAYERS as i64 }>,
}

#[derive(Deserialize)]
pub struct Goods {
    pub types: L<Vec<String>>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    City,
    Land,
    Water,
}

#[derive(Deserialize)]
pub struct Terrain {
    pub kind: TerrainKind,
    pub road_residents: Int<0, 20>,
    pub enter_mp: L<f64>,
    /// Land only.
    pub income: Option<Int<0, 1000>>,
    pub counted: bool,
}

#[derive(Deserialize)]
pub struct City {
    pub id: L<String>,
    pub goods: L<String>,
    pub demands: L<Vec<L<String>>>,
}

#[derive(Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DealLand {
    Fixed,
    Shuffled,
}

#[derive(Deserialize)]
pub struct Map {
    pub deal_land: DealLand,
    pub goods_per_city: Int<0, 20>,
    pub hexes: L<Vec<L<Hex>>>,
}

#[derive(Deserialize)]
pub struct Hex {
    pub name: String,
    pub q: Int<-20, 20>,
    pub r: Int<-20, 20>,
    pub terrain: String,
    /// City tiles only.
    pub city: Option<L<String>>,
}

#[derive(Deserialize)]
pub struct Setup {
    pub starting_money: Int<0, 100_000>,
    pub residents: PerPlayers,
    pub settlements: PerPlayers,
    pub trolley_start_goods: Int<0, 8>,
}

#[derive(Deserialize)]
pub struct Purchase {
    pub resident_price: Int<0, 10_000>,
    pub capital_limit: Int<1, 200>,
    pub settlement_limit: Int<1, 200>,
    pub limits_always: bool,
}

#[derive(Deserialize)]
pub struct Roads {
    pub opposing_road_extra: Int<0, 10>,
    pub residents_returned: Int<0, 1>,
}

#[derive(Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AboardAtEnd {
    Unload,
    Stay,
}

#[derive(Deserialize)]
pub struct Trolley {
    pub movement: L<Vec<L<i64>>>,
    pub movement_upgrade_cost: Int<0, 10_000>,
    pub holds: L<Vec<L<i64>>>,
    pub holds_upgrade_cost: Int<0, 10_000>,
    pub goods_per_hold: Int<0, 4>,
    pub residents_per_hold: Int<0, 8>,
    pub own_road_mp: L<f64>,
    pub needs_own_tile_without_residents: bool,
    pub residents_aboard_at_end: AboardAtEnd,
    pub max_moves_per_turn: Int<1, 200>,
}

#[derive(Deserialize)]
pub struct Privileges {
    pub price: Int<1, 10_000>,
    pub initial_row: PerPlayers,
    pub refill_below: PerPlayers,
    pub full_sets: PerPlayers,
    pub random_extra: PerPlayers,
}

#[derive(Deserialize)]
pub struct PrivilegeType {
    pub id: L<String>,
    /// How the card is named on screens; its id when absent.
    pub label: Option<String>,
    pub back: Int<1, 9>,
    pub effects: Vec<L<Effect>>,
}

/// An effect: its `kind` names the variant, the other keys are that kind's parameters
/// (strict: a key the kind does not take is an error).
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    CitySettlementIncome { money: Money },
    UpgradeDiscount { money: Money },
    RoadCost { terrain: L<String>, residents: Int<0, 20> },
    VictoryPoints { vp: Int<0, 1000> },
    ResidentPrice { money: Money },
    ExtraMovement { mp: L<f64> },
    TrolleyEnterCost { terrain: L<String>, mp: L<f64> },
    ExtraResidentAction,
    FreeRoad,
}

#[derive(Deserialize)]
pub struct Income {
    pub capital: Int<0, 10_000>,
    pub per_additional_city: Int<0, 10_000>,
    pub complete_set: Int<0, 10_000>,
    pub cap_by_connected_cities: bool,
}

#[derive(Deserialize)]
pub struct End {
    pub delivered_goods: PerPlayers,
    pub max_rounds: Int<1, 10_000>,
}

#[derive(Deserialize)]
pub struct Scoring {
    pub goods_of_a_kind: L<Vec<Int<0, 1000>>>,
    pub complete_set: Int<0, 1000>,
}
