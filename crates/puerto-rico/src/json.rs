//! The state as users read and edit it: building indices become building ids, through
//! the core's naming layer ([`rulesmith_core::names`]: every error at its JSON Pointer,
//! naming the ids it expected).

use crate::rules::Rules;
use crate::state::{Phase, State};
use rulesmith_core::names;
use serde_json::Value;

/// Keys of the state that only expansion effects use: left out of the JSON of rulesets
/// without such effects, so that the base game's JSON stays as it was (`pending` only
/// while no decision is under way: the base game's craftsman privilege uses it too).
const EXTENDED_KEYS: [&str; 3] = ["held_tiles", "out_of_game", "pending"];

pub fn to_json(rules: &Rules, s: &State) -> Value {
    let mut v = serde_json::to_value(s).unwrap_or(Value::Null);
    if let Some(out) = v.get_mut("out_of_game") {
        let ids: Vec<Value> = rules
            .buildings
            .iter()
            .enumerate()
            .filter(|(i, _)| !s.in_game(*i))
            .map(|(_, b)| Value::String(b.id.clone()))
            .collect();
        *out = Value::Array(ids);
    }
    if let Some(pending) = v.get_mut("pending") {
        // A building index means something only while its decision is under way.
        let live = [s.phase == Phase::BuildPayment, s.phase == Phase::MixedShip];
        for (key, live) in ["build", "mixed_building"].into_iter().zip(live) {
            if let Some(b) = pending.get_mut(key) {
                let id =
                    b.as_u64().and_then(|i| rules.buildings.get(i as usize)).filter(|_| live).map(|x| x.id.clone());
                *b = id.map_or(Value::Null, Value::String);
            }
        }
    }
    if let Some(b) = v.get_mut("colonist_offer").and_then(|o| o.get_mut("building")) {
        let id = b.as_u64().and_then(|i| rules.buildings.get(i as usize)).map(|x| x.id.clone());
        *b = id.map_or(Value::Null, Value::String);
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
    if let Some(b) = v.get_mut("buildings") {
        let counts: Vec<u64> = b.as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default();
        let counts: Vec<u64> = (0..rules.buildings.len()).map(|i| counts.get(i).copied().unwrap_or(0)).collect();
        *b = serde_json::to_value(names::map(ids(rules), &counts)).unwrap_or(Value::Null);
    }
    if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
        for p in players {
            if let Some(city) = p.get_mut("city").and_then(Value::as_array_mut) {
                for c in city {
                    if let Some(b) = c.get_mut("building") {
                        let id = b.as_u64().and_then(|i| rules.buildings.get(i as usize)).map(|x| x.id.clone());
                        *b = id.map_or(Value::Null, Value::String);
                    }
                }
            }
        }
    }
    v
}

/// The building ids, in building order.
fn ids(rules: &Rules) -> impl Iterator<Item = &str> + Clone {
    rules.buildings.iter().map(|b| b.id.as_str())
}

pub fn from_json(rules: &Rules, mut v: Value) -> Result<State, String> {
    // The index of the building whose id is the value at `path`.
    let index = |path: &str, b: &Value| names::index(path, "building", b.as_str().unwrap_or_default(), ids(rules));
    if let Some(out) = v.get_mut("out_of_game") {
        let Some(list) = out.as_array() else { return Err("/out_of_game: expected a list of building ids".into()) };
        let mut mask = 0u64;
        for (k, id) in list.iter().enumerate() {
            mask |= 1 << index(&format!("/out_of_game/{k}"), id)?;
        }
        *out = Value::from(mask);
    }
    if let Some(pending) = v.get_mut("pending") {
        for key in ["build", "mixed_building"] {
            if let Some(b) = pending.get_mut(key) {
                // Null while no such decision is under way.
                let i = if b.is_null() { 0 } else { index(&format!("/pending/{key}"), b)? };
                *b = Value::from(i);
            }
        }
    }
    if let Some(b) = v.get_mut("colonist_offer").and_then(|o| o.get_mut("building")) {
        *b = Value::from(index("/colonist_offer/building", b)?);
    }
    if let Some(b) = v.get_mut("buildings") {
        let m: std::collections::BTreeMap<String, u8> = rulesmith_core::game::from_json(b).map_err(|e| {
            let sep = if e.starts_with('/') { "" } else { ": " };
            format!("/buildings{sep}{e}")
        })?;
        let counts: [u8; crate::limits::MAX_BUILDINGS] = names::some("/buildings", &m, ids(rules))?;
        *b = Value::from(&counts[..rules.buildings.len()]);
    }
    if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
        for (pi, p) in players.iter_mut().enumerate() {
            if let Some(city) = p.get_mut("city").and_then(Value::as_array_mut) {
                for (ci, c) in city.iter_mut().enumerate() {
                    if let Some(b) = c.get_mut("building") {
                        *b = Value::from(index(&format!("/players/{pi}/city/{ci}/building"), b)?);
                    }
                }
            }
        }
    }
    rulesmith_core::game::from_json(&v)
}
