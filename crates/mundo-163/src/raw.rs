//! The ruleset as written: strict structs the core's deserializer reads from the merged
//! TOML tree ([`rulesmith_core::ruleset::de`]), every key required unless its type says
//! `Option`. [`crate::rules::decode`] validates them into [`crate::rules::Rules`]; no rule
//! value has a default here.

use rulesmith_core::ruleset::de::{Entries, Located, RulesetMeta};
use serde::Deserialize;

type L<T> = Located<T>;
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
    pub min: L<i64>,
    pub max: L<i64>,
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
    pub road_residents: L<i64>,
    pub enter_mp: L<f64>,
    /// Land only.
    pub income: Option<L<i64>>,
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
    pub goods_per_city: L<i64>,
    pub hexes: L<Vec<L<Hex>>>,
}

#[derive(Deserialize)]
pub struct Hex {
    pub name: String,
    pub q: L<i64>,
    pub r: L<i64>,
    pub terrain: String,
    /// City tiles only.
    pub city: Option<L<String>>,
}

#[derive(Deserialize)]
pub struct Setup {
    pub starting_money: L<i64>,
    pub residents: PerPlayers,
    pub settlements: PerPlayers,
    pub trolley_start_goods: L<i64>,
}

#[derive(Deserialize)]
pub struct Purchase {
    pub resident_price: L<i64>,
    pub capital_limit: L<i64>,
    pub settlement_limit: L<i64>,
    pub limits_always: bool,
}

#[derive(Deserialize)]
pub struct Roads {
    pub opposing_road_extra: L<i64>,
    pub residents_returned: L<i64>,
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
    pub movement_upgrade_cost: L<i64>,
    pub holds: L<Vec<L<i64>>>,
    pub holds_upgrade_cost: L<i64>,
    pub goods_per_hold: L<i64>,
    pub residents_per_hold: L<i64>,
    pub own_road_mp: L<f64>,
    pub needs_own_tile_without_residents: bool,
    pub residents_aboard_at_end: AboardAtEnd,
    pub max_moves_per_turn: L<i64>,
}

#[derive(Deserialize)]
pub struct Privileges {
    pub price: L<i64>,
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
    pub back: L<i64>,
    pub effects: Vec<L<Effect>>,
}

/// An effect: its `kind` names the variant, the other keys are that kind's parameters
/// (strict: a key the kind does not take is an error).
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    CitySettlementIncome { money: L<i64> },
    UpgradeDiscount { money: L<i64> },
    RoadCost { terrain: L<String>, residents: L<i64> },
    VictoryPoints { vp: L<i64> },
    ResidentPrice { money: L<i64> },
    ExtraMovement { mp: L<f64> },
    TrolleyEnterCost { terrain: L<String>, mp: L<f64> },
    ExtraResidentAction,
    FreeRoad,
}

#[derive(Deserialize)]
pub struct Income {
    pub capital: L<i64>,
    pub per_additional_city: L<i64>,
    pub complete_set: L<i64>,
    pub cap_by_connected_cities: bool,
}

#[derive(Deserialize)]
pub struct End {
    pub delivered_goods: PerPlayers,
    pub max_rounds: L<i64>,
}

#[derive(Deserialize)]
pub struct Scoring {
    pub goods_of_a_kind: L<Vec<L<i64>>>,
    pub complete_set: L<i64>,
}
