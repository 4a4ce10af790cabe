//! The expansion's state JSON: the base game's, with the expansion's names for what the
//! base game stores generically (the island spaces the extension's tiles fill are
//! `/players/N/forests`, the base game's `extension_tiles`; the tiles it holds face down
//! `/forest_tiles`, its `held_tiles`: `extension::FOREST_NAMES`, which the base game reads, writes
//! and names in its messages), and the draft, `/draft`: each slot's cost (the
//! ruleset's) and the building in it, by id, or `null`.

use crate::rules::{MAX_SLOTS, Rules};
use crate::state::{Draft, State};
use rulesmith_game::game::GameError;
use rulesmith_game::names::{self, Id, Kind};
use serde::{Deserialize, Serialize};
use serde_json::Value;

names::kinds!(Building = "building");

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DraftJson {
    slots: Vec<Slot>,
    over: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Slot {
    cost: u8,
    /// Left out, the slot is empty.
    #[serde(default)]
    building: Option<Id<Building>>,
}

/// Only the draft, the rest of the state left to the base game.
#[derive(Deserialize)]
struct WithDraft {
    draft: Option<DraftJson>,
}

/// Runs a serde pass over the state JSON with the ruleset's building ids.
fn with_ids<R>(rules: &Rules, pass: impl FnOnce() -> R) -> R {
    names::with([(Building::WHAT, rules.base.buildings.iter().map(|b| &b.id))], pass)
}

/// The draft's JSON.
pub fn draft_out(rules: &Rules, s: &State) -> Value {
    let slots = rules.draft.slots.iter().zip(&s.draft.slots);
    let draft = DraftJson {
        slots: slots.map(|(&cost, b)| Slot { cost, building: b.map(Id::new) }).collect(),
        over: s.draft.over,
    };
    with_ids(rules, || serde_json::to_value(draft)).unwrap_or(Value::Null)
}

/// Reads `/draft` (and takes it out of the state JSON, for the base game to read the rest).
pub fn draft_in(rules: &Rules, value: &mut Value) -> Result<Draft, GameError> {
    let bad = |m: String| GameError::InvalidState(m);
    let read: WithDraft = with_ids(rules, || rulesmith_game::game::from_json(value)).map_err(bad)?;
    let draft = read.draft.ok_or_else(|| bad("/draft: missing (the building draft)".into()))?;
    if draft.slots.len() != rules.draft.slots.len() {
        let (found, slots) = (draft.slots.len(), rules.draft.slots.len());
        return Err(bad(format!("/draft/slots: {found} slots, the ruleset has {slots}")));
    }
    let mut slots = [None; MAX_SLOTS];
    for (i, (slot, &cost)) in draft.slots.iter().zip(&rules.draft.slots).enumerate() {
        if slot.cost != cost {
            return Err(bad(format!("/draft/slots/{i}/cost: the slot costs {cost}")));
        }
        slots[i] = slot.building.as_ref().map(Id::index);
    }
    if let Some(m) = value.as_object_mut() {
        m.remove("draft");
    }
    Ok(Draft { slots, over: draft.over })
}
