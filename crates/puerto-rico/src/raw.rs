//! The ruleset as the TOML writes it: strict structs read by the core's derived
//! deserializer (every key they do not name is an error, every problem located), which
//! [`crate::rules::decode`] validates in one step into the typed [`crate::rules::Rules`].
//! Numbers keep their origin ([`Located`]) for the validation's own messages; ranges,
//! cross-references and the cross-checks are the validation's.

use rulesmith_core::ruleset::de::{Entries, Located, RulesetMeta};
use serde::Deserialize;

type L<T> = Located<T>;
type Ints = L<Vec<L<i64>>>;
type Names = L<Vec<L<String>>>;
/// A table by player count (`{ 2 = 3, 3 = 4 }`).
pub type PerCount<T> = L<Entries<T>>;

#[derive(Deserialize)]
pub struct Raw {
    #[serde(rename = "ruleset")]
    pub _ruleset: RulesetMeta,
    pub players: L<Players>,
    pub board: Board,
    pub goods: Goods,
    pub setup: L<Setup>,
    pub rules: RulesTable,
    pub roles: L<Vec<L<Role>>>,
    pub buildings: L<Vec<L<Building>>>,
}

#[derive(Deserialize)]
pub struct Players {
    pub min: L<i64>,
    pub max: L<i64>,
}

#[derive(Deserialize)]
pub struct Board {
    pub island_spaces: L<i64>,
    pub city_spaces: L<i64>,
}

/// One table per good, in good order.
#[derive(Deserialize)]
pub struct Goods {
    pub corn: Good,
    pub indigo: Good,
    pub sugar: Good,
    pub tobacco: Good,
    pub coffee: Good,
}

#[derive(Deserialize)]
pub struct Good {
    pub price: L<i64>,
    pub barrels: PerCount<L<i64>>,
    pub plantations: PerCount<L<i64>>,
}

#[derive(Deserialize)]
pub struct Setup {
    pub quarries: PerCount<L<i64>>,
    pub colonists_supply: PerCount<L<i64>>,
    pub colonists_ship: PerCount<L<i64>>,
    pub doubloons: PerCount<L<i64>>,
    pub roles_per_round: PerCount<L<i64>>,
    pub vp_chips: PerCount<L<i64>>,
    pub starting_plantations: PerCount<Names>,
    pub ships: PerCount<Ints>,
    pub face_up_extra: L<i64>,
}

/// The `[rules]` table.
#[derive(Deserialize)]
pub struct RulesTable {
    pub coins_on_unchosen_roles: L<i64>,
    pub trading_house_spaces: L<i64>,
    pub free_barrels: L<i64>,
    pub ship_refill_minimum_per_player: L<i64>,
}

#[derive(Deserialize)]
pub struct Role {
    pub id: L<String>,
    pub kind: crate::role_kind::RoleKind,
    pub privilege: L<i64>,
    pub players: Ints,
}

#[derive(Deserialize)]
pub struct Building {
    pub id: L<String>,
    #[serde(rename = "type")]
    pub ty: L<BuildingType>,
    /// City spaces; a building without it takes one.
    pub spaces: Option<L<i64>>,
    pub cost: L<i64>,
    pub vp: L<i64>,
    pub column: L<i64>,
    pub circles: L<i64>,
    pub copies: PerCount<L<i64>>,
    /// Production buildings only.
    pub produces: Option<L<crate::goods::Good>>,
    pub scale: Option<L<Scale>>,
    /// Violet buildings only.
    pub effect: Option<L<RawEffect>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BuildingType {
    Production,
    Violet,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    Small,
    Normal,
}

/// One variant per effect kind (the names of `EFFECT_KINDS`, in their order).
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawEffect {
    None,
    TradeBonus { doubloons: L<i64> },
    ExtraPlantation,
    QuarryInstead,
    Storage { kinds: L<i64> },
    ColonistOnNewTile,
    SellDuplicates,
    ProductionBonus { doubloons_by_kinds: Ints },
    ColonistOnNewBuilding,
    ShippingBonus { vp: L<i64> },
    OwnShip,
    ProductionBuildingBonus { small: L<i64>, normal: L<i64> },
    IslandBonus { vp_by_filled: Ints },
    ColonistBonus { per: L<i64> },
    VpChipBonus { per: L<i64> },
    VioletBuildingBonus { per: L<i64> },
    ProductionPerNormalPlant { goods: Names, extra: L<i64> },
    ForestTiles { forests_per_doubloon: L<i64>, discount_when_unoccupied: bool, tile_from: TileFrom },
    PayWithComponents { colonists: L<i64>, goods: L<i64>, vp: L<i64> },
    ExtraStorageBarrels { barrels: L<i64> },
    Guests { at_phase_start: bool, before_storage: bool, on_own_turn: bool },
    OwnTradingPost { market_bonus: bool },
    BuildVpByColumn { vp_by_column: Ints },
    MixedShip { barrels_per_vp: L<i64>, min_barrels: L<i64>, harbor_bonus: bool },
    DoubloonPerLoad { doubloons: L<i64>, captain: L<i64> },
    DoubloonsByTopProduction { minus: L<i64>, exclude: Names },
    DoublePrivilege { factor: L<i64>, roles: Names },
    VpPerPairOnHold { barrels_per_vp: L<i64> },
    NoColonist,
    TileGroupsBonus { size: L<i64>, vp_by_groups: Ints },
}

/// Where a forest's tile comes from.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TileFrom {
    Stack,
    FaceUp,
}
