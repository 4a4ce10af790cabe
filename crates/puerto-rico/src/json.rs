//! The state as users read and edit it: building indices become building ids.

use crate::rules::Rules;
use crate::state::{Phase, State};
use serde_json::{Map, Value};

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
        let mut m = Map::new();
        for (i, x) in rules.buildings.iter().enumerate() {
            m.insert(x.id.clone(), Value::from(counts.get(i).copied().unwrap_or(0)));
        }
        *b = Value::Object(m);
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

pub fn from_json(rules: &Rules, mut v: Value) -> Result<State, String> {
    if let Some(out) = v.get_mut("out_of_game") {
        let Some(ids) = out.as_array() else { return Err("/out_of_game: expected a list of building ids".into()) };
        let mut mask = 0u64;
        for (k, id) in ids.iter().enumerate() {
            let id = id.as_str().unwrap_or_default();
            let i = rules.building_index(id).ok_or_else(|| format!("/out_of_game/{k}: unknown building `{id}`"))?;
            mask |= 1 << i;
        }
        *out = Value::from(mask);
    }
    if let Some(pending) = v.get_mut("pending") {
        for key in ["build", "mixed_building"] {
            if let Some(b) = pending.get_mut(key) {
                let i = match b.as_str() {
                    Some(id) => {
                        rules.building_index(id).ok_or_else(|| format!("/pending/{key}: unknown building `{id}`"))?
                    }
                    None => 0,
                };
                *b = Value::from(i);
            }
        }
    }
    if let Some(b) = v.get_mut("colonist_offer").and_then(|o| o.get_mut("building")) {
        let id = b.as_str().unwrap_or_default().to_string();
        let i =
            rules.building_index(&id).ok_or_else(|| format!("/colonist_offer/building: unknown building `{id}`"))?;
        *b = Value::from(i);
    }
    if let Some(b) = v.get_mut("buildings") {
        let Some(m) = b.as_object() else { return Err("/buildings: expected a map from building id to count".into()) };
        let mut counts = vec![0u64; rules.buildings.len()];
        for (id, n) in m {
            let i = rules.building_index(id).ok_or_else(|| format!("/buildings/{id}: unknown building"))?;
            counts[i] = n
                .as_u64()
                .filter(|&n| n <= 255)
                .ok_or_else(|| format!("/buildings/{id}: expected a count from 0 to 255"))?;
        }
        *b = Value::from(counts);
    }
    if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
        for (pi, p) in players.iter_mut().enumerate() {
            if let Some(city) = p.get_mut("city").and_then(Value::as_array_mut) {
                for (ci, c) in city.iter_mut().enumerate() {
                    if let Some(b) = c.get_mut("building") {
                        let id = b.as_str().unwrap_or_default().to_string();
                        let i = rules
                            .building_index(&id)
                            .ok_or_else(|| format!("/players/{pi}/city/{ci}/building: unknown building `{id}`"))?;
                        *b = Value::from(i);
                    }
                }
            }
        }
    }
    rulesmith_core::game::from_json(&v)
}
