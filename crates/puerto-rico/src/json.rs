//! The state as users read and edit it: building indices are building ids, in the one
//! serde pass over the state with the ruleset's ids (the core's naming layer,
//! [`rulesmith_game::names`]: every error at its JSON Pointer, naming the ids it
//! expected). What is left here is what depends on the ruleset or the phase: the keys only
//! extensions use, and a decision's building outside its decision.

use crate::goods::GoodName;
use crate::phase::Building;
use crate::rules::Rules;
use crate::state::{Phase, State};
use rulesmith_game::names::{self, Kind};
use serde_json::Value;

/// Keys of the state that only expansion effects use: left out of the JSON of rulesets
/// without such effects, so that the base game's JSON stays as it was (`pending` only
/// while no decision is under way: the base game's craftsman privilege uses it too).
const EXTENDED_KEYS: [&str; 3] = ["held_tiles", "out_of_game", "pending"];

/// The buildings of decisions in progress, named here rather than in the serde pass:
/// `pending`'s parts are flattened into it, and serde's flattening loses the pointer.
const PENDING_BUILDINGS: [&str; 2] = ["build", "mixed_building"];

/// Runs a serde pass over the state JSON with the ruleset's building ids and goods.
pub fn with_names<R>(rules: &Rules, pass: impl FnOnce() -> R) -> R {
    let goods: Vec<&String> = rules.good_names().collect();
    names::with([(Building::WHAT, rules.buildings.iter().map(|b| &b.id).collect()), (GoodName::WHAT, goods)], pass)
}

pub fn to_json(rules: &Rules, s: &State) -> Value {
    let mut v = with_names(rules, || serde_json::to_value(s)).unwrap_or(Value::Null);
    if let Some(pending) = v.get_mut("pending") {
        // A decision's building index means something only while the decision is under way.
        let live = [s.phase == Phase::BuildPayment, s.phase == Phase::MixedShip];
        for (key, live) in PENDING_BUILDINGS.into_iter().zip(live) {
            if let Some(b) = pending.get_mut(key) {
                let id = b.as_u64().and_then(|i| rules.buildings.get(i as usize)).filter(|_| live);
                *b = id.map_or(Value::Null, |x| Value::String(x.id.clone()));
            }
        }
    }
    if !rules.extended() && s.out_of_game == 0 {
        if let Some(m) = v.as_object_mut() {
            for k in EXTENDED_KEYS {
                // A decision under way (the craftsman's privilege picks) is kept: without
                // it a state read back would lose the decision.
                if k != "pending" || s.pending == crate::state::Pending::default() {
                    m.remove(k);
                }
            }
        }
        if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
            for p in players.iter_mut().filter_map(Value::as_object_mut) {
                p.remove("extension_tiles");
            }
        }
    }
    v
}

pub fn from_json(rules: &Rules, mut v: Value) -> Result<State, String> {
    if let Some(pending) = v.get_mut("pending") {
        for key in PENDING_BUILDINGS {
            if let Some(b) = pending.get_mut(key) {
                // Null while no such decision is under way.
                if !b.is_null() {
                    let ids = rules.buildings.iter().map(|b| b.id.as_str());
                    let id = b.as_str().unwrap_or_default();
                    *b = Value::from(names::index(&format!("/pending/{key}"), Building::WHAT, id, ids)?);
                }
            }
        }
    }
    let mut s: State = with_names(rules, || rulesmith_game::game::from_json(&v))?;
    // What the placement keeps besides its group follows from the board.
    s.mayor.left = crate::phases::mayor::left(rules, &s);
    Ok(s)
}
