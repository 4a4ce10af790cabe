//! The validated expansion ruleset: the base game's rules (with the new buildings, whose
//! effects the base crate implements as kinds of effect) and the building draft, which
//! reads itself from `[draft]` by the core's deserializer ([`rulesmith_game::ruleset::de`])
//! with the base game's buildings at hand: every key required, every problem reported.

use rulesmith_game::ruleset::de::{self, Int, Located};
use rulesmith_game::ruleset::{Diagnostics, Kind, Node};
use rulesmith_puerto_rico::rules::{BuildingKind, MAX_BUILDINGS};
use serde::{Deserialize, Deserializer};

/// The most draft slots a ruleset may define.
pub const MAX_SLOTS: usize = 24;

/// How the violet buildings of a game are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// Players pick in turn (S001:L495).
    Draft,
    /// The slots are filled at random at setup.
    Random,
    /// Every violet building is in the game.
    All,
}

/// The draft settings, read straight from `[draft]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Draft {
    pub selection: Selection,
    /// The cost of each slot.
    #[serde(deserialize_with = "slots")]
    pub slots: Vec<u8>,
    /// Groups of buildings of which at most one may be in a game (bit per building),
    /// written as groups of building ids (`[]` for none).
    #[serde(deserialize_with = "exclusive")]
    pub exclusive: Vec<u64>,
    /// The violet buildings (bit per building): the ones the draft chooses among (from
    /// the base game's buildings, not a key of `[draft]`).
    #[serde(skip)]
    pub candidates: u64,
}

/// The validated expansion ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub base: rulesmith_puerto_rico::Rules,
    pub draft: Draft,
}

/// Decodes the whole merged tree: `[draft]` here, everything else by the base game.
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Rules> {
    let before = d.len();
    let mut base_tree = tree.clone();
    let mut draft_node = None;
    if let Kind::Table(entries) = &mut base_tree.kind {
        if let Some(i) = entries.iter().position(|e| e.key == "draft") {
            draft_node = Some(entries.remove(i).value);
        }
    }
    let base = rulesmith_puerto_rico::rules::decode(&base_tree, d);
    let Some(draft_node) = draft_node else {
        d.error(
            tree.origin,
            "missing table `[draft]`: expected the building draft settings (`selection`, `slots`, `exclusive`)",
        );
        return None;
    };
    let draft = base.as_ref().and_then(|b| decode_draft(&draft_node, b, d));
    match (base, draft) {
        (Some(mut base), Some(draft)) if d.len() == before => {
            // The expansion's guests and forests play behind the base game's extension
            // points.
            base.extension = rulesmith_puerto_rico::extension::Hook::new(&crate::extension::EXPANSION);
            Some(Rules { base, draft })
        }
        _ => None,
    }
}

/// The base game's buildings as the draft's readers look them up: id, cost, violet.
struct Buildings(Vec<(String, u8, bool)>);

fn decode_draft(n: &Node, base: &rulesmith_puerto_rico::Rules, d: &mut Diagnostics) -> Option<Draft> {
    if base.buildings.len() > MAX_BUILDINGS {
        return None; // refused by the base game's reading
    }
    let before = d.len();
    let buildings =
        Buildings(base.buildings.iter().map(|b| (b.id.clone(), b.cost, b.kind == BuildingKind::Violet)).collect());
    let mut draft: Draft = de::with_context(buildings, || de::from_tree(n, d))?;
    draft.candidates = base
        .buildings
        .iter()
        .enumerate()
        .filter(|(_, b)| b.kind == BuildingKind::Violet)
        .fold(0u64, |m, (i, _)| m | (1 << i));
    (d.len() == before).then_some(draft)
}

// The fields' own readers: they report what they find wrong with `de::reject`, going on.

/// 1 to [`MAX_SLOTS`] costs, each the cost of some violet building.
fn slots<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    let costs = Located::<Vec<Int<0, 99>>>::deserialize(d)?;
    if costs.value.is_empty() || costs.value.len() > MAX_SLOTS {
        de::reject(costs.origin, format!("expected 1 to {MAX_SLOTS} slots"))?;
    }
    let buildings = de::context(|b: &Buildings| b.0.iter().filter(|b| b.2).map(|b| b.1).collect::<Vec<u8>>());
    let violet_costs = buildings.unwrap_or_default();
    let mut slots = Vec::with_capacity(costs.value.len());
    for c in &costs.value {
        let Some(cost) = c.get() else { continue };
        let cost = cost as u8;
        if !violet_costs.contains(&cost) {
            de::reject(c.origin, format!("a slot of cost {cost}, but no violet building costs {cost}"))?;
        }
        slots.push(cost);
    }
    Ok(slots)
}

/// Groups of violet buildings by id, each as a mask.
fn exclusive<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
    let groups = Vec::<Located<Vec<Located<String>>>>::deserialize(d)?;
    let buildings = de::context(|b: &Buildings| b.0.iter().map(|(id, _, violet)| (id.clone(), *violet)).collect());
    let buildings: Vec<(String, bool)> = buildings.unwrap_or_default();
    let mut exclusive = Vec::with_capacity(groups.len());
    for group in &groups {
        let mut mask = 0u64;
        for id in &group.value {
            match buildings.iter().position(|(b, _)| *b == id.value) {
                Some(i) if buildings[i].1 => mask |= 1 << i,
                Some(_) => de::reject(
                    id.origin,
                    format!("`{}` is not a violet building: the draft only chooses violet ones", id.value),
                )?,
                None => {
                    let hint = rulesmith_game::suggest::hint(&id.value, buildings.iter().map(|(b, _)| b.as_str()));
                    de::reject(id.origin, format!("unknown building `{}`{hint}", id.value))?
                }
            }
        }
        exclusive.push(mask);
    }
    Ok(exclusive)
}
