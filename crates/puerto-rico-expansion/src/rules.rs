//! The validated expansion ruleset: the base game's rules (with the new buildings, whose
//! effects the base crate implements as kinds of effect) and the building draft.

use rulesmith_core::ruleset::de::{self, Located};
use rulesmith_core::ruleset::{Diagnostics, Kind, Node};
use rulesmith_puerto_rico::rules::{BuildingKind, MAX_BUILDINGS};
use serde::Deserialize;

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

/// The draft settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub selection: Selection,
    /// The cost of each slot.
    pub slots: Vec<u8>,
    /// Groups of buildings of which at most one may be in a game (bit per building).
    pub exclusive: Vec<u64>,
    /// The violet buildings (bit per building): the ones the draft chooses among.
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

/// The `[draft]` table as the TOML writes it.
#[derive(Deserialize)]
struct RawDraft {
    selection: Selection,
    slots: Located<Vec<Located<i64>>>,
    /// Groups of building ids (`[]` for none).
    exclusive: Vec<Located<Vec<Located<String>>>>,
}

fn decode_draft(n: &Node, base: &rulesmith_puerto_rico::Rules, d: &mut Diagnostics) -> Option<Draft> {
    let before = d.len();
    let raw: RawDraft = de::from_tree(n, d)?;
    let candidates = base
        .buildings
        .iter()
        .enumerate()
        .filter(|(_, b)| b.kind == BuildingKind::Violet)
        .fold(0u64, |m, (i, _)| m | (1 << i));
    let costs = &raw.slots;
    if costs.value.is_empty() || costs.value.len() > MAX_SLOTS {
        d.error(costs.origin, format!("expected 1 to {MAX_SLOTS} slots"));
    }
    let mut slots = Vec::with_capacity(costs.value.len());
    for c in &costs.value {
        let Some(cost) = de::int_in(c, 0..=99, d) else { continue };
        let any = base.buildings.iter().any(|b| b.kind == BuildingKind::Violet && i64::from(b.cost) == cost);
        if !any {
            d.error(c.origin, format!("a slot of cost {cost}, but no violet building costs {cost}"));
        }
        slots.push(cost as u8);
    }
    let mut exclusive = Vec::with_capacity(raw.exclusive.len());
    for group in &raw.exclusive {
        let mut mask = 0u64;
        for id in &group.value {
            match base.building_index(&id.value) {
                Some(i) if candidates & (1 << i) != 0 => mask |= 1 << i,
                Some(_) => d.error(
                    id.origin,
                    format!("`{}` is not a violet building: the draft only chooses violet ones", id.value),
                ),
                None => d.error(
                    id.origin,
                    format!(
                        "unknown building `{}`{}",
                        id.value,
                        rulesmith_core::suggest::hint(&id.value, base.buildings.iter().map(|b| b.id.as_str()))
                    ),
                ),
            }
        }
        exclusive.push(mask);
    }
    if base.buildings.len() > MAX_BUILDINGS {
        return None;
    }
    (d.len() == before).then_some(Draft { selection: raw.selection, slots, exclusive, candidates })
}
