//! The validated expansion ruleset: the base game's rules (with the new buildings, whose
//! effects the base crate implements as kinds of effect) and the building draft.

use rulesmith_core::ruleset::decode::{self, Table};
use rulesmith_core::ruleset::{Diagnostics, Kind, Node};
use rulesmith_puerto_rico::rules::{BuildingKind, MAX_BUILDINGS};

/// The most draft slots a ruleset may define.
pub const MAX_SLOTS: usize = 24;

/// How the violet buildings of a game are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Players pick in turn (S001:L495).
    Draft,
    /// The slots are filled at random at setup.
    Random,
    /// Every violet building is in the game.
    All,
}

impl Selection {
    pub const NAMES: [&'static str; 3] = ["draft", "random", "all"];
    const ALL: [Selection; 3] = [Selection::Draft, Selection::Random, Selection::All];
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

fn decode_draft(n: &Node, base: &rulesmith_puerto_rico::Rules, d: &mut Diagnostics) -> Option<Draft> {
    let before = d.len();
    let mut t = Table::new(n, d)?;
    let selection = t.choice(d, "selection", &Selection::NAMES).map(|i| Selection::ALL[i]);
    let candidates = base
        .buildings
        .iter()
        .enumerate()
        .filter(|(_, b)| b.kind == BuildingKind::Violet)
        .fold(0u64, |m, (i, _)| m | (1 << i));
    let slots = t.req(d, "slots", "a list of slot costs").and_then(|node| {
        let costs = decode::ints_of(node, d, 0..=99)?;
        if costs.is_empty() || costs.len() > MAX_SLOTS {
            d.error(node.origin, format!("expected 1 to {MAX_SLOTS} slots"));
            return None;
        }
        let mut ok = true;
        for &c in &costs {
            let any = base.buildings.iter().any(|b| b.kind == BuildingKind::Violet && i64::from(b.cost) == c);
            if !any {
                d.error(node.origin, format!("a slot of cost {c}, but no violet building costs {c}"));
                ok = false;
            }
        }
        ok.then(|| costs.into_iter().map(|c| c as u8).collect::<Vec<u8>>())
    });
    let exclusive = t.req(d, "exclusive", "a list of groups of building ids (`[]` for none)").and_then(|node| {
        let groups = decode::array_of(node, d)?;
        let mut out = Vec::new();
        let mut ok = true;
        for g in groups {
            let Some(ids) = decode::strs_of(g, d) else {
                ok = false;
                continue;
            };
            let mut mask = 0u64;
            for id in ids {
                match base.building_index(id) {
                    Some(i) if candidates & (1 << i) != 0 => mask |= 1 << i,
                    Some(_) => {
                        d.error(
                            g.origin,
                            format!("`{id}` is not a violet building: the draft only chooses violet ones"),
                        );
                        ok = false;
                    }
                    None => {
                        d.error(g.origin, format!("unknown building `{id}`"));
                        ok = false;
                    }
                }
            }
            out.push(mask);
        }
        ok.then_some(out)
    });
    t.finish(d);
    if base.buildings.len() > MAX_BUILDINGS {
        return None;
    }
    (d.len() == before).then_some(Draft { selection: selection?, slots: slots?, exclusive: exclusive?, candidates })
}
