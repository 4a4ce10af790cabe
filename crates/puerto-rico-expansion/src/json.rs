//! The expansion's state JSON: the base game's, with the expansion's names for what the
//! base game stores generically (the island spaces the extension's tiles fill are
//! `/players/N/forests`, the base game's `extension_tiles`; the tiles it holds face down
//! `/forest_tiles`, its `held_tiles`), and the draft, `/draft`: each slot's cost (the
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

/// (the base game's key, the expansion's) at the top of the state, and in each player.
const TOP: (&str, &str) = ("held_tiles", "forest_tiles");
const PLAYER: (&str, &str) = ("extension_tiles", "forests");

/// The base game's JSON with the expansion's names.
pub fn rename_out(v: &mut Value) {
    rename(v, TOP.0, TOP.1, false);
    each_player(v, |p| rename(p, PLAYER.0, PLAYER.1, false));
}

/// The expansion's JSON with the base game's names (before the base game reads it).
pub fn rename_in(v: &mut Value) {
    rename(v, TOP.1, TOP.0, true);
    each_player(v, |p| rename(p, PLAYER.1, PLAYER.0, true));
}

/// A message of the base game's check or reader, naming the expansion's keys.
pub fn rename_error(e: GameError) -> GameError {
    match e {
        GameError::InvalidState(m) => GameError::InvalidState(rename_message(&m)),
        e => e,
    }
}

fn rename_message(m: &str) -> String {
    m.replace(&format!("/{}", TOP.0), &format!("/{}", TOP.1))
        .replace(&format!("/{}", PLAYER.0), &format!("/{}", PLAYER.1))
}

/// Moves `from` to `to`. `strict`: a `to` already there without `from` is dropped (a
/// state read in the expansion's names gives no meaning to the base game's).
fn rename(v: &mut Value, from: &str, to: &str, strict: bool) {
    if let Some(m) = v.as_object_mut() {
        match m.remove(from) {
            Some(x) => {
                m.insert(to.into(), x);
            }
            None if strict => {
                m.remove(to);
            }
            None => {}
        }
    }
}

fn each_player(v: &mut Value, mut f: impl FnMut(&mut Value)) {
    if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
        players.iter_mut().for_each(&mut f);
    }
}
