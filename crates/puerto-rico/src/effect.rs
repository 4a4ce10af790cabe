//! The closed vocabulary of violet-building effects, read straight from the ruleset:
//! each field declares its range or its reader, so no raw copy stands between the TOML
//! and the typed effect.

use crate::goods::MAX_GOODS;
use crate::limits::MAX_SPACES;
use crate::role_kind::RoleKind;
use rulesmith_game::ruleset::Origin;
use rulesmith_game::ruleset::de::{self, Int, Located};

/// The closed vocabulary of violet-building effects. A building picks one kind and its
/// parameters in the ruleset; effects work only while the building is occupied. Read
/// straight from the ruleset (`effect = { kind = "trade_bonus", doubloons = 1 }`): its
/// `kind` names the variant, each field declares its range or reader.
///
/// The kinds' names ([`EFFECT_KINDS`]) and indices ([`EffectKind`]) are derived from this
/// enum, so the vocabulary is written once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, strum::VariantNames, strum::EnumDiscriminants)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[strum_discriminants(name(EffectKind))]
pub enum Effect {
    None,
    /// Trader phase: extra doubloons when the owner sells (small/large market).
    TradeBonus {
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        doubloons: u8,
    },
    /// Settler phase: draw an extra face-down plantation before taking one (hacienda).
    ExtraPlantation,
    /// Settler phase: take a quarry instead of a face-up plantation (construction hut).
    QuarryInstead,
    /// End of captain phase: keep every barrel of this many kinds (warehouses).
    Storage {
        #[serde(deserialize_with = "storage_kinds")]
        kinds: u8,
    },
    /// Settler phase: a colonist from the supply (else the ship) onto the new tile (hospice).
    ColonistOnNewTile,
    /// Trader phase: sell a kind already in the trading house (office).
    SellDuplicates,
    /// Craftsman phase: doubloons by the number of kinds produced (factory).
    ProductionBonus {
        #[serde(deserialize_with = "by_kinds")]
        doubloons_by_kinds: [u8; MAX_GOODS + 1],
    },
    /// Builder phase: a colonist from the supply (else the ship) onto the new building
    /// (university).
    ColonistOnNewBuilding,
    /// Captain phase: extra VP each time the owner loads (harbor).
    ShippingBonus {
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        vp: u8,
    },
    /// Captain phase: once per phase ship all barrels of one kind to the supply (wharf).
    OwnShip,
    /// Game end: VP per small and per normal production building (guild hall).
    ProductionBuildingBonus {
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        small: u8,
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        normal: u8,
    },
    /// Game end: VP by filled island spaces (residence).
    IslandBonus {
        #[serde(deserialize_with = "vp_by_filled")]
        vp_by_filled: [u8; MAX_SPACES + 1],
    },
    /// Game end: 1 VP per `per` colonists on the board (fortress).
    ColonistBonus {
        #[serde(deserialize_with = "de::byte::<1, 99, _>")]
        per: u8,
    },
    /// Game end: 1 VP per `per` VP of chips (customs house).
    VpChipBonus {
        #[serde(deserialize_with = "de::byte::<1, 99, _>")]
        per: u8,
    },
    /// Game end: `per` VP per violet building (city hall).
    VioletBuildingBonus {
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        per: u8,
    },
    /// Craftsman phase: `extra` more barrels of each good in `goods` (bit per good) when the
    /// owner produced that good and has a normal (not small) production building of it
    /// occupied (aqueduct).
    ProductionPerNormalPlant {
        #[serde(deserialize_with = "goods_mask")]
        goods: u8,
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        extra: u8,
    },
    /// Settler phase: place a forest (a plantation tile face down) instead of a tile;
    /// builder phase: 1 doubloon off per `forests_per_doubloon` forests, with no column
    /// limit (forest house). `discount_when_unoccupied`: the discount needs the building
    /// only, not its colonist. `from_face_up`: the tile comes from the face-up row (chosen
    /// by the player) instead of the face-down stack.
    ForestTiles {
        #[serde(deserialize_with = "de::byte::<1, { MAX_SPACES as i64 }, _>")]
        forests_per_doubloon: u8,
        discount_when_unoccupied: bool,
        #[serde(rename = "tile_from", deserialize_with = "from_face_up")]
        from_face_up: bool,
    },
    /// Builder phase: when short of doubloons, return up to this many colonists, goods and
    /// VP, each for 1 doubloon, to pay exactly the shortfall (black market).
    PayWithComponents {
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        colonists: u8,
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        goods: u8,
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        vp: u8,
    },
    /// End of captain phase: keep this many more barrels of any kinds (storehouse).
    ExtraStorageBarrels {
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        barrels: u8,
    },
    /// The building's colonists are guests: outside the mayor phase the owner may move
    /// them to any empty circle, plantation or quarry, at the start of each phase
    /// (`at_phase_start`), before the captain-phase storage (`before_storage`) and on
    /// the owner's own turn inside a phase (`on_own_turn`, S001:L557 "durante").
    Guests {
        at_phase_start: bool,
        before_storage: bool,
        on_own_turn: bool,
    },
    /// Trader phase: sell the one good in the owner's own one-good house instead of the
    /// trading house, any kind, even when the trading house is full (trading post).
    /// `market_bonus`: whether markets add their doubloons there.
    OwnTradingPost {
        market_bonus: bool,
    },
    /// Builder phase: VP when the owner builds, by the new building's column (index
    /// column − 1; past the list, its last entry) (church).
    BuildVpByColumn {
        #[serde(deserialize_with = "vp_by_column")]
        vp_by_column: [u8; MAX_SPACES + 1],
    },
    /// Captain phase: once per phase, ship any mix of goods (at least `min_barrels`) to the
    /// supply for 1 VP per `barrels_per_vp` barrels; `harbor_bonus`: whether the owner's
    /// per-load VP (harbor) apply (small wharf).
    MixedShip {
        #[serde(deserialize_with = "de::byte::<1, 99, _>")]
        barrels_per_vp: u8,
        #[serde(deserialize_with = "de::byte::<1, 99, _>")]
        min_barrels: u8,
        harbor_bonus: bool,
    },
    /// Captain phase: doubloons each time the owner loads, and `captain` more to the
    /// owner who is the captain, loading or not (lighthouse).
    DoubloonPerLoad {
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        doubloons: u8,
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        captain: u8,
    },
    /// Craftsman phase: doubloons = barrels of the owner's most produced good (goods in
    /// `exclude` left out, bit per good) minus `minus` (specialty factory).
    DoubloonsByTopProduction {
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        minus: u8,
        #[serde(deserialize_with = "goods_mask")]
        exclude: u8,
    },
    /// The owner's privilege is multiplied by `factor` when they choose a role of a kind
    /// in `roles` (bit per [`RoleKind`]) (library).
    DoublePrivilege {
        #[serde(deserialize_with = "de::byte::<1, 5, _>")]
        factor: u8,
        #[serde(deserialize_with = "role_kinds")]
        roles: u8,
    },
    /// Captain phase, before anyone loads: 1 VP per `barrels_per_vp` barrels of the same
    /// good the owner holds, counted per good (union hall).
    VpPerPairOnHold {
        #[serde(deserialize_with = "de::byte::<1, 99, _>")]
        barrels_per_vp: u8,
    },
    /// Takes no colonist and needs none (statue); the ruleset gives it 0 circles.
    NoColonist,
    /// Game end: VP by the number of groups of `size` island tiles of one kind
    /// (plantation kinds, quarries, forests) (cloister).
    TileGroupsBonus {
        #[serde(deserialize_with = "de::byte::<1, { MAX_SPACES as i64 }, _>")]
        size: u8,
        #[serde(deserialize_with = "vp_by_groups")]
        vp_by_groups: [u8; MAX_SPACES + 1],
    },
}

impl Effect {
    /// The effect's kind, as an index into [`EFFECT_KINDS`].
    pub fn kind_index(&self) -> usize {
        EffectKind::from(self) as usize
    }
}

/// Indices of effect kinds in [`EFFECT_KINDS`] (for [`crate::rules::Rules::has_effect`]).
pub mod kind {
    use crate::effect::EffectKind;

    pub const PRODUCTION_PER_NORMAL_PLANT: usize = EffectKind::ProductionPerNormalPlant as usize;
    pub const FOREST_TILES: usize = EffectKind::ForestTiles as usize;
    pub const PAY_WITH_COMPONENTS: usize = EffectKind::PayWithComponents as usize;
    pub const EXTRA_STORAGE_BARRELS: usize = EffectKind::ExtraStorageBarrels as usize;
    pub const GUESTS: usize = EffectKind::Guests as usize;
    pub const OWN_TRADING_POST: usize = EffectKind::OwnTradingPost as usize;
    pub const BUILD_VP_BY_COLUMN: usize = EffectKind::BuildVpByColumn as usize;
    pub const MIXED_SHIP: usize = EffectKind::MixedShip as usize;
    pub const DOUBLOON_PER_LOAD: usize = EffectKind::DoubloonPerLoad as usize;
    pub const DOUBLOONS_BY_TOP_PRODUCTION: usize = EffectKind::DoubloonsByTopProduction as usize;
    pub const DOUBLE_PRIVILEGE: usize = EffectKind::DoublePrivilege as usize;
    pub const VP_PER_PAIR_ON_HOLD: usize = EffectKind::VpPerPairOnHold as usize;
}

/// Effect kinds whose rules the base game leaves to an extension ([`crate::extension`]):
/// a ruleset with them plays only in the game that brings the extension.
pub const EXTENSION_KINDS: u32 = (1 << kind::GUESTS) | (1 << kind::FOREST_TILES);

/// Index of the first effect kind that needs state beyond the base game's (forests,
/// guests, multi-step payments …): rulesets without any keep the base state JSON.
pub const FIRST_EXTENDED_KIND: usize = kind::PRODUCTION_PER_NORMAL_PLANT;

/// Every effect kind's name, as the ruleset writes it (`kind = "trade_bonus"`), in the
/// enum's order: an index here is [`Effect::kind_index`].
pub const EFFECT_KINDS: &[&str] = <Effect as strum::VariantNames>::VARIANTS;

// The readers of effect parameters that are more than an integer in a range: each
// reports what it finds wrong where it was written ([`de::reject`]) and returns a neutral
// value, so that reading goes on.

type Names = Located<Vec<Located<String>>>;
type Smalls = Located<Vec<Int<0, 99>>>;

/// Storage: at most every kind of the ruleset's goods is kept.
fn storage_kinds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let goods = crate::reading::goods_read().len() as u8;
    de::byte::<0, 99, D>(d).map(|kinds| kinds.min(goods))
}

/// A list of small numbers, each checked by its shape; `None` if one stands in.
fn smalls<'de, D: serde::Deserializer<'de>>(d: D) -> Result<(Option<Vec<u8>>, Origin), D::Error> {
    let v = <Smalls as serde::Deserialize>::deserialize(d)?;
    Ok((v.value.iter().map(|n| n.get().map(|n| n as u8)).collect(), v.origin))
}

/// Doubloons for 0 to every kind of the ruleset's goods produced (factory).
fn by_kinds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[u8; MAX_GOODS + 1], D::Error> {
    let goods = crate::reading::goods_read().len();
    let (list, at) = smalls(d)?;
    let mut table = [0; MAX_GOODS + 1];
    let Some(list) = list else { return Ok(table) };
    if list.len() != goods + 1 {
        let found = list.len();
        de::reject(at, format!("expected {} numbers (for 0 to {goods} kinds produced), found {found}", goods + 1))?;
        return Ok(table);
    }
    table[..list.len()].copy_from_slice(&list);
    Ok(table)
}

fn vp_by_filled<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[u8; MAX_SPACES + 1], D::Error> {
    table_of(d, "VP for 0, 1, … filled spaces")
}

fn vp_by_column<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[u8; MAX_SPACES + 1], D::Error> {
    table_of(d, "VP for a building of column 1, 2, …")
}

fn vp_by_groups<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[u8; MAX_SPACES + 1], D::Error> {
    table_of(d, "VP for 0, 1, 2, … groups")
}

/// A list of 1 to `MAX_SPACES + 1` small numbers, padded with its last entry.
fn table_of<'de, D: serde::Deserializer<'de>>(d: D, what: &str) -> Result<[u8; MAX_SPACES + 1], D::Error> {
    let (list, at) = smalls(d)?;
    let Some(list) = list else { return Ok([0; MAX_SPACES + 1]) };
    let Some(&last) = list.last().filter(|_| list.len() <= MAX_SPACES + 1) else {
        de::reject(at, format!("expected 1 to {} numbers ({what})", MAX_SPACES + 1))?;
        return Ok([0; MAX_SPACES + 1]);
    };
    let mut table = [last; MAX_SPACES + 1];
    table[..list.len()].copy_from_slice(&list);
    Ok(table)
}

/// A list of goods as a bit mask (bit per good).
fn goods_mask<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let goods = crate::reading::goods_read();
    let mut mask = 0u8;
    for name in <Names as serde::Deserialize>::deserialize(d)?.value {
        match goods.iter().position(|g| *g == name.value) {
            Some(g) => mask |= 1 << g,
            None => {
                let hint = rulesmith_game::suggest::hint(&name.value, goods.iter().map(String::as_str));
                de::reject(name.origin, format!("unknown good `{}`: expected {}{hint}", name.value, goods.join(", ")))?
            }
        }
    }
    Ok(mask)
}

/// A list of role kinds as a bit mask ([`RoleKind::bit`]).
pub(crate) fn role_kinds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let mut mask = 0u8;
    for name in <Names as serde::Deserialize>::deserialize(d)?.value {
        match RoleKind::NAMES.iter().position(|k| *k == name.value) {
            Some(i) => mask |= RoleKind::ALL[i].bit(),
            None => de::reject(
                name.origin,
                format!(
                    "unknown role kind `{}`: expected {}{}",
                    name.value,
                    RoleKind::NAMES.join(", "),
                    rulesmith_game::suggest::hint(&name.value, RoleKind::NAMES.iter().copied())
                ),
            )?,
        }
    }
    Ok(mask)
}

/// Where a forest's tile comes from.
#[derive(serde::Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
enum TileFrom {
    Stack,
    FaceUp,
}

fn from_face_up<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    <TileFrom as serde::Deserialize>::deserialize(d).map(|t| t == TileFrom::FaceUp)
}

#[cfg(test)]
mod tests {
    use super::{EFFECT_KINDS, Effect};

    /// The names derived for the kinds are the names serde reads: each is a variant of
    /// `Effect` (a unit kind reads from its name alone; the others then ask for their
    /// parameters), in the enum's order.
    #[test]
    fn effect_kind_names_are_what_the_ruleset_reads() {
        assert_eq!(EFFECT_KINDS.len(), 30);
        for (i, name) in EFFECT_KINDS.iter().enumerate() {
            match serde_json::from_value::<Effect>(serde_json::json!(name)) {
                Ok(e) => assert_eq!(e.kind_index(), i, "{name}"),
                Err(e) => assert!(!e.to_string().contains("unknown variant"), "{name}: {e}"),
            }
        }
        assert_eq!(EFFECT_KINDS[Effect::TradeBonus { doubloons: 1 }.kind_index()], "trade_bonus");
        assert!(serde_json::from_value::<Effect>(serde_json::json!("no_such_kind")).is_err());
    }
}
