//! Questions about one player's board: occupied effects, capacities, costs.

use crate::effect::EffectKind;
use crate::goods::{ByGood, Good};
use crate::rules::{BuildingKind, Effect, Rules};
use crate::state::{Player, State};

/// The effects of a player's occupied buildings.
pub fn effects<'r>(rules: &'r Rules, p: &'r Player) -> impl Iterator<Item = &'r Effect> + 'r {
    p.city
        .as_slice()
        .iter()
        .filter(|b| b.colonists > 0)
        .filter_map(|b| rules.buildings.get(b.building as usize))
        .map(|x| &x.effect)
}

/// Whether one of the player's occupied buildings has an effect of this kind (by the flat
/// table: the playouts ask this in most phases).
pub fn has(rules: &Rules, p: &Player, kind: EffectKind) -> bool {
    let kind = kind as u8;
    p.city.iter().any(|b| b.colonists > 0 && rules.table.get(b.building).effect == kind)
}

/// The effect kinds of the player's occupied buildings, a bit per kind index (for several
/// questions about one board at once).
pub fn occupied_kinds(rules: &Rules, p: &Player) -> u32 {
    p.city.iter().filter(|b| b.colonists > 0).fold(0, |m, b| m | rules.table.effect_bit(b.building))
}

/// Whether `kinds` (from [`occupied_kinds`]) holds this kind.
pub fn holds(kinds: u32, kind: EffectKind) -> bool {
    kinds & (1 << kind as u32) != 0
}

/// City spaces used.
pub fn city_spaces_used(rules: &Rules, p: &Player) -> u8 {
    p.city.iter().map(|b| rules.table.get(b.building).spaces).sum()
}

/// Filled island spaces: plantations, quarries and the extension's tiles (forests) (of a
/// checked state: the check counts an edited one without overflow).
pub fn island_used(p: &Player) -> u8 {
    p.plantations.0.iter().sum::<u8>() + p.quarries + p.extension_tiles
}

/// The effects of every building a player owns, occupied or not.
pub fn owned_effects<'r>(rules: &'r Rules, p: &'r Player) -> impl Iterator<Item = (&'r Effect, bool)> + 'r {
    p.city
        .as_slice()
        .iter()
        .filter_map(|b| rules.buildings.get(b.building as usize).map(|x| (&x.effect, b.colonists > 0)))
}

/// The first occupied effect for which `pick` gives a value.
pub fn find<T>(rules: &Rules, p: &Player, pick: impl Fn(&Effect) -> Option<T>) -> Option<T> {
    effects(rules, p).find_map(pick)
}

/// Doubloons off any building from the ruleset's extension (the expansion's forests).
pub fn extension_discount(rules: &Rules, p: &Player) -> u8 {
    rules.extension.get().map_or(0, |ext| ext.build_discount(rules, p))
}

/// Colonists the player could return to pay for a building: all but those on the
/// buildings that take the returns.
pub fn returnable_colonists(rules: &Rules, p: &Player) -> u32 {
    let on_payers: u32 = p
        .city
        .iter()
        .filter(|b| {
            matches!(rules.buildings.get(b.building as usize).map(|x| x.effect), Some(Effect::PayWithComponents { .. }))
        })
        .map(|b| u32::from(b.colonists))
        .sum();
    colonists(p) - on_payers
}

/// Most colonists, goods and VP the player may return to pay for a building.
pub fn payment_limits(rules: &Rules, p: &Player) -> [u8; 3] {
    let mut out = [0u8; 3];
    for e in effects(rules, p) {
        if let Effect::PayWithComponents { colonists, goods, vp } = *e {
            out[0] = out[0].saturating_add(colonists);
            out[1] = out[1].saturating_add(goods);
            out[2] = out[2].saturating_add(vp);
        }
    }
    out
}

/// Most doubloons the player can raise by returning components.
pub fn payment_capacity(rules: &Rules, p: &Player) -> u16 {
    if !rules.has_effect(crate::rules::kind::PAY_WITH_COMPONENTS) {
        return 0;
    }
    let [c, g, v] = payment_limits(rules, p);
    if c == 0 && g == 0 && v == 0 {
        return 0;
    }
    let c = u32::from(c).min(returnable_colonists(rules, p));
    let g = u32::from(g).min(p.goods.total());
    let v = u32::from(v).min(u32::from(p.vp));
    (c + g + v) as u16
}

/// Colonists anywhere on the board, San Juan included.
pub fn colonists(p: &Player) -> u32 {
    p.plantations_occupied.0.iter().map(|&c| u32::from(c)).sum::<u32>()
        + u32::from(p.quarries_occupied)
        + p.city.iter().map(|b| u32::from(b.colonists)).sum::<u32>()
        + u32::from(p.san_juan)
}

/// Empty circles on the player's buildings.
pub fn empty_building_circles(rules: &Rules, p: &Player) -> u32 {
    p.city
        .iter()
        .map(|b| {
            let circles = rules.buildings.get(b.building as usize).map_or(0, |x| x.circles);
            u32::from(circles.saturating_sub(b.colonists))
        })
        .sum()
}

/// Barrels a player produces of each good, before the supply limits it: occupied
/// plantations, and for goods that need a building (`needs_building`: all but corn,
/// S000:L472) at most the occupied production circles.
pub fn production(rules: &Rules, p: &Player) -> ByGood<u8> {
    let mut capacity = ByGood::<u8>::default();
    for b in p.city.iter() {
        // The good a production building makes, from the flat table (a bit, none for
        // other buildings).
        let makes = rules.table.get(b.building).makes;
        if makes != 0 {
            let good = Good::at(makes.trailing_zeros() as usize);
            capacity[good] = capacity[good].saturating_add(b.colonists);
        }
    }
    let mut out = ByGood::default();
    for g in Good::every() {
        let plantations = p.plantations_occupied[g];
        out[g] = if rules.needs_building[g] { plantations.min(capacity[g]) } else { plantations };
    }
    out
}

/// What building `b` costs this player now (quarries capped by column, builder privilege,
/// never below 0).
pub fn build_cost(rules: &Rules, p: &Player, b: usize, privilege: u8) -> u16 {
    let Some(x) = rules.buildings.get(b) else { return u16::MAX };
    cost_after(x.cost, x.column, p.quarries_occupied, privilege.saturating_add(extension_discount(rules, p)))
}

/// A building's cost after occupied quarries (capped by its column) and `off` doubloons of
/// other discounts, never below 0.
pub fn cost_after(cost: u8, column: u8, quarries_occupied: u8, off: u8) -> u16 {
    u16::from(cost.saturating_sub(quarries_occupied.min(column)).saturating_sub(off))
}

/// Kinds of goods the player's warehouses keep whole.
pub fn storage_kinds(rules: &Rules, p: &Player) -> u8 {
    if !holds(occupied_kinds(rules, p), EffectKind::Storage) {
        return 0;
    }
    effects(rules, p).map(|e| if let Effect::Storage { kinds } = e { *kinds } else { 0 }).sum()
}

/// Barrels of any kinds the player keeps beyond the free one (storehouse).
pub fn extra_storage_barrels(rules: &Rules, p: &Player) -> u8 {
    effects(rules, p)
        .map(|e| if let Effect::ExtraStorageBarrels { barrels } = e { *barrels } else { 0 })
        .fold(0u8, u8::saturating_add)
}

/// Doubloons per load (lighthouse).
pub fn doubloons_per_load(rules: &Rules, p: &Player) -> u16 {
    effects(rules, p)
        .map(|e| if let Effect::DoubloonPerLoad { doubloons, .. } = e { u16::from(*doubloons) } else { 0 })
        .sum()
}

/// Island tiles of one kind: 5 plantation kinds, quarries, forests.
pub fn tile_counts(p: &Player) -> [u8; 7] {
    let pl = p.plantations.0;
    [pl[0], pl[1], pl[2], pl[3], pl[4], p.quarries, p.extension_tiles]
}

/// Extra doubloons the player's markets add to a sale.
pub fn trade_bonus(rules: &Rules, p: &Player) -> u16 {
    effects(rules, p).map(|e| if let Effect::TradeBonus { doubloons } = e { u16::from(*doubloons) } else { 0 }).sum()
}

/// Extra VP per load (harbors).
pub fn shipping_bonus(rules: &Rules, p: &Player) -> u16 {
    effects(rules, p).map(|e| if let Effect::ShippingBonus { vp } = e { u16::from(*vp) } else { 0 }).sum()
}

/// The effect kinds that score at the game's end (large buildings' bonuses).
pub(crate) const BONUS_KINDS: u32 = (1 << EffectKind::ProductionBuildingBonus as u32)
    | (1 << EffectKind::IslandBonus as u32)
    | (1 << EffectKind::ColonistBonus as u32)
    | (1 << EffectKind::VpChipBonus as u32)
    | (1 << EffectKind::VioletBuildingBonus as u32)
    | (1 << EffectKind::TileGroupsBonus as u32);

/// VP of the player's buildings plus the bonuses of occupied buildings (final scoring).
pub fn building_points(rules: &Rules, p: &Player) -> i32 {
    // The printed VP from the flat table, and whether an occupied building scores a
    // bonus: the lead-change metric asks for every seat's score at every round end, and
    // bonuses are rare until late in a game.
    let mut vp = 0i32;
    let mut bonus = false;
    for b in p.city.iter() {
        let n = rules.table.get(b.building);
        vp += i32::from(n.vp);
        bonus |= b.colonists > 0 && BONUS_KINDS & (1 << n.effect) != 0;
    }
    if bonus { vp + bonuses(rules, p) } else { vp }
}

/// The bonuses of the player's occupied buildings (final scoring).
pub(crate) fn bonuses(rules: &Rules, p: &Player) -> i32 {
    let mut vp = 0i32;
    for b in p.city.iter() {
        let Some(x) = rules.buildings.get(b.building as usize) else { continue };
        if b.colonists == 0 {
            continue;
        }
        vp += match x.effect {
            Effect::ProductionBuildingBonus { small, normal } => p
                .city
                .iter()
                .map(|b| match rules.buildings.get(b.building as usize).map(|x| x.kind) {
                    Some(BuildingKind::Production { small: true, .. }) => i32::from(small),
                    Some(BuildingKind::Production { small: false, .. }) => i32::from(normal),
                    _ => 0,
                })
                .sum(),
            Effect::IslandBonus { vp_by_filled } => {
                let filled = (island_used(p) as usize).min(vp_by_filled.len() - 1);
                i32::from(vp_by_filled[filled])
            }
            Effect::ColonistBonus { per } => (colonists(p) / u32::from(per.max(1))) as i32,
            Effect::VpChipBonus { per } => i32::from(p.vp) / i32::from(per.max(1)),
            Effect::VioletBuildingBonus { per } => {
                let violet = p
                    .city
                    .iter()
                    .filter(|b| {
                        matches!(rules.buildings.get(b.building as usize).map(|x| x.kind), Some(BuildingKind::Violet))
                    })
                    .count() as i32;
                violet * i32::from(per)
            }
            Effect::TileGroupsBonus { size, vp_by_groups } => {
                let groups: usize = tile_counts(p).iter().map(|&c| usize::from(c / size.max(1))).sum();
                i32::from(vp_by_groups[groups.min(vp_by_groups.len() - 1)])
            }
            _ => 0,
        };
    }
    vp
}

/// Whether the tiles the extension holds lie face down with goods nobody saw (what views
/// hide: the expansion's forests drawn from the stack).
pub fn hidden_held_tiles(rules: &Rules, s: &State) -> bool {
    s.held_tiles.total() > 0 && rules.extension.get().is_some_and(|ext| ext.held_tiles_hidden(rules, s))
}
