//! A building's `effect` as the ruleset writes it: its `kind` names the variant, the other
//! keys are that kind's parameters (strict: a key the kind does not take is an error).
//! Read by the core's derived deserializer; [`crate::rules`] validates it into an
//! [`Effect`](crate::rules::Effect).

use rulesmith_core::ruleset::de::Located;
use serde::Deserialize;

type L<T> = Located<T>;
type Ints = L<Vec<L<i64>>>;
type Names = L<Vec<L<String>>>;

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
