//! The state as JSON with names instead of indices: what `rulesmith state` prints and
//! scenario files address with JSON Pointers (e.g. `/players/0/goods/sugar`,
//! `/buildings/bank/owner`, `/ship/dice/white`, `/car`).
//!
//! ```json
//! {
//!   "players": [{ "pesos": 3, "vp": 2, "goods": { "sugar": 1, ... }, "pawn": null }],
//!   "street": ["pedro", "maria", ...],          // the stops after the port, clockwise
//!   "car": "port",                               // or the citizen the car stands at
//!   "inactive": { "pedro": false, ... },
//!   "buildings": { "bank": { "flower": "blue", "owner": null }, ... },
//!   "ship": { "departed": 0, "value": 2, "dice": { "white": 2, "orange": 0, ... },
//!             "aside": ["orange"], "awaiting_demand": false },
//!   "supply": { "sugar": 5, ... },
//!   "turn": { "player": 0, "round": 1, "citizen": null, "visited": false, "roll_pending": false },
//!   "phase": { "step": "drive" },
//!   "rng": { ... }
//! }
//! ```
//! `phase.step` is one of `demand`, `drive`, `pickpocket` (with `victim`), `choose_good`,
//! `lawyer`, `pawn`, `use` (with `building`), `loading` (with `current` and `passed`, a
//! list of seats), `over`.
//!
//! Both ways go through one serde-derived shape (`StateJson`); what is left by hand is
//! turning the ruleset's names into indices and back.

use crate::rules::{MAX_BUILDINGS, MAX_CITIZENS, MAX_DICE, MAX_GOODS, NONE, Rules};
use crate::state::{Phase, Player, Ship, State, Turn};
use rulesmith_core::steps::PassRound;
use rulesmith_core::{ByPlayer, GameError, Rng, Seat, names};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The state as JSON (keys sorted, as `serde_json` writes maps).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateJson {
    players: Vec<PlayerJson>,
    street: Vec<String>,
    car: String,
    inactive: BTreeMap<String, bool>,
    buildings: BTreeMap<String, BuildingJson>,
    ship: ShipJson,
    supply: BTreeMap<String, u8>,
    turn: TurnJson,
    phase: PhaseJson,
    rng: Rng,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerJson {
    pesos: u16,
    vp: u16,
    goods: BTreeMap<String, u8>,
    // Required although it may be null (a bare `Option` field may be left out).
    #[serde(deserialize_with = "Option::deserialize")]
    pawn: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BuildingJson {
    flower: String,
    // Required although it may be null (a bare `Option` field may be left out).
    #[serde(deserialize_with = "Option::deserialize")]
    owner: Option<Seat>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShipJson {
    departed: u8,
    value: u8,
    dice: BTreeMap<String, u8>,
    aside: Vec<String>,
    awaiting_demand: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnJson {
    player: Seat,
    round: u32,
    // Required although it may be null (a bare `Option` field may be left out).
    #[serde(deserialize_with = "Option::deserialize")]
    citizen: Option<String>,
    visited: bool,
    roll_pending: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "step", deny_unknown_fields)]
// Steps without data are `{}` variants: a unit variant would let unknown keys through.
enum PhaseJson {
    Demand {},
    Drive {},
    Pickpocket { victim: Seat },
    ChooseGood {},
    Lawyer {},
    Pawn {},
    Use { building: String },
    Loading { current: Seat, passed: Vec<Seat> },
    Over {},
}

pub fn to_json(r: &Rules, s: &State) -> Value {
    let goods = |g: &[u8; MAX_GOODS]| names::map(r.goods.iter().map(|x| x.id.as_str()), g);
    let building = |b: u8| (b != NONE).then(|| r.building_name(b).to_string());
    let citizen = |c: u8| (c != NONE).then(|| r.citizen_name(c).to_string());
    let inactive: Vec<bool> = (0..r.citizens.len() as u8).map(|c| s.is_inactive(c)).collect();
    let buildings = r.buildings.iter().enumerate().map(|(b, x)| {
        let owner = (s.owner[b] != NONE).then_some(s.owner[b]);
        (x.id.clone(), BuildingJson { flower: r.flower_name(s.flower[b]).to_string(), owner })
    });
    let dice: Vec<u8> = (0..r.dice.len()).map(|d| s.ship.dice.open(d)).collect();
    let phase = match s.phase {
        Phase::Demand => PhaseJson::Demand {},
        Phase::Drive => PhaseJson::Drive {},
        Phase::Pickpocket { victim } => PhaseJson::Pickpocket { victim },
        Phase::ChooseGood => PhaseJson::ChooseGood {},
        Phase::Lawyer => PhaseJson::Lawyer {},
        Phase::Pawn => PhaseJson::Pawn {},
        Phase::Use { building } => PhaseJson::Use { building: r.building_name(building).to_string() },
        Phase::Loading { round } => PhaseJson::Loading {
            current: round.current(),
            passed: (0..round.players() as Seat).filter(|&p| round.has_passed(p)).collect(),
        },
        Phase::Over => PhaseJson::Over {},
    };
    let json = StateJson {
        players: s
            .players
            .iter()
            .map(|p| PlayerJson { pesos: p.pesos, vp: p.vp, goods: goods(&p.goods), pawn: building(p.pawn) })
            .collect(),
        street: s.street[..r.citizens.len()].iter().map(|&c| r.citizen_name(c).to_string()).collect(),
        car: s.car_citizen().map_or("port", |c| r.citizen_name(c)).to_string(),
        inactive: names::map(r.citizens.iter().map(|c| c.id.as_str()), &inactive),
        buildings: buildings.collect(),
        ship: ShipJson {
            departed: s.ship.departed,
            value: r.value_track.get(usize::from(s.ship.marker)).copied().unwrap_or(0),
            dice: names::map(r.dice.iter().map(|d| d.id.as_str()), &dice),
            aside: (0..r.dice.len() as u8).filter(|&d| !s.on_ship(d)).map(|d| r.die_name(d).to_string()).collect(),
            awaiting_demand: s.ship.awaiting_demand,
        },
        supply: goods(&s.supply),
        turn: TurnJson {
            player: s.turn.player,
            round: s.turn.round,
            citizen: citizen(s.turn.citizen),
            visited: s.turn.visited,
            roll_pending: s.turn.roll_pending,
        },
        phase,
        rng: s.rng.clone(),
    };
    serde_json::to_value(json).unwrap_or(Value::Null)
}

fn bad(msg: impl Into<String>) -> GameError {
    GameError::InvalidState(msg.into())
}

pub fn from_json(r: &Rules, v: &Value) -> Result<State, GameError> {
    let j: StateJson = rulesmith_core::game::from_json(v).map_err(bad)?;
    let goods = || r.goods.iter().map(|g| g.id.as_str());
    let citizens = || r.citizens.iter().map(|c| c.id.as_str());
    let buildings = || r.buildings.iter().map(|b| b.id.as_str());
    let dice_ids = || r.dice.iter().map(|d| d.id.as_str());
    let building = |path: &str, name: &Option<String>| match name {
        None => Ok(NONE),
        Some(n) => names::index(path, "building", n, buildings()).map(|i| i as u8).map_err(bad),
    };

    if j.players.is_empty() || j.players.len() > rulesmith_core::MAX_PLAYERS {
        return Err(bad(format!("/players: expected 1 to {} players", rulesmith_core::MAX_PLAYERS)));
    }
    let seats = j.players.len();
    let mut players: ByPlayer<Player> = ByPlayer::new(seats);
    for (i, p) in j.players.iter().enumerate() {
        let path = format!("/players/{i}");
        players[i as Seat] = Player {
            pesos: p.pesos,
            vp: p.vp,
            goods: names::every_array(&format!("{path}/goods"), &p.goods, goods()).map_err(bad)?,
            pawn: building(&format!("{path}/pawn"), &p.pawn)?,
        };
    }

    if j.street.len() != r.citizens.len() {
        return Err(bad(format!("/street: expected {} citizens, found {}", r.citizens.len(), j.street.len())));
    }
    let mut street = [0u8; MAX_CITIZENS];
    for (i, name) in j.street.iter().enumerate() {
        street[i] = names::index(&format!("/street/{i}"), "citizen", name, citizens()).map_err(bad)? as u8;
    }
    let car = match j.car.as_str() {
        "port" => 0,
        name => {
            let c = names::index("/car", "citizen", name, citizens()).map_err(bad)? as u8;
            street[..r.citizens.len()].iter().position(|&x| x == c).map_or(0, |i| i as u8 + 1)
        }
    };
    let inactive: [bool; MAX_CITIZENS] = names::every_array("/inactive", &j.inactive, citizens()).map_err(bad)?;
    let inactive = inactive.iter().enumerate().filter(|&(_, &x)| x).fold(0u16, |m, (c, _)| m | 1 << c);

    let mut flower = [0u8; MAX_BUILDINGS];
    let mut owner = [NONE; MAX_BUILDINGS];
    let flowers = || r.flowers.iter().map(|f| f.id.as_str());
    for (i, (k, b)) in buildings().zip(names::every("/buildings", &j.buildings, buildings()).map_err(bad)?).enumerate()
    {
        flower[i] = names::index(&format!("/buildings/{k}/flower"), "flower", &b.flower, flowers()).map_err(bad)? as u8;
        owner[i] = match b.owner {
            Some(NONE) => return Err(bad(format!("/buildings/{k}/owner: expected a seat or null"))),
            Some(o) => o,
            None => NONE,
        };
    }

    let value = j.ship.value;
    let marker = r
        .value_track
        .iter()
        .position(|&v| v == value)
        .ok_or_else(|| bad(format!("/ship/value: {value} is not on the value track {:?}", r.value_track)))?;
    let mut dice: [u8; MAX_DICE] = names::every_array("/ship/dice", &j.ship.dice, dice_ids()).map_err(bad)?;
    let mut aside = 0u8;
    for (i, name) in j.ship.aside.iter().enumerate() {
        let d = names::index(&format!("/ship/aside/{i}"), "die", name, dice_ids()).map_err(bad)? as u8;
        aside |= 1 << d;
        // A die set aside demands nothing, whatever it showed (S002:L110).
        dice[usize::from(d)] = 0;
    }
    let ship = Ship {
        departed: j.ship.departed,
        marker: marker as u8,
        dice: rulesmith_core::cargo::Demand::new(dice),
        aside,
        awaiting_demand: j.ship.awaiting_demand,
    };
    let supply = names::every_array("/supply", &j.supply, goods()).map_err(bad)?;

    let seat = |path: &str, s: Seat| if s == NONE { Err(bad(format!("{path}: expected a seat"))) } else { Ok(s) };
    let turn = Turn {
        player: seat("/turn/player", j.turn.player)?,
        round: j.turn.round,
        citizen: match &j.turn.citizen {
            None => NONE,
            Some(n) => names::index("/turn/citizen", "citizen", n, citizens()).map_err(bad)? as u8,
        },
        visited: j.turn.visited,
        roll_pending: j.turn.roll_pending,
    };

    let phase = match j.phase {
        PhaseJson::Demand {} => Phase::Demand,
        PhaseJson::Drive {} => Phase::Drive,
        PhaseJson::Pickpocket { victim } => Phase::Pickpocket { victim: seat("/phase/victim", victim)? },
        PhaseJson::ChooseGood {} => Phase::ChooseGood,
        PhaseJson::Lawyer {} => Phase::Lawyer,
        PhaseJson::Pawn {} => Phase::Pawn,
        PhaseJson::Use { building: name } => {
            Phase::Use { building: names::index("/phase/building", "building", &name, buildings()).map_err(bad)? as u8 }
        }
        PhaseJson::Loading { current, passed } => {
            let mut round = PassRound::new(seat("/phase/current", current)?, seats);
            for p in passed {
                if usize::from(p) >= seats {
                    return Err(bad("/phase/passed: expected seats"));
                }
                round.pass(p);
            }
            Phase::Loading { round }
        }
        PhaseJson::Over {} => Phase::Over,
    };

    Ok(State { players, street, car, inactive, flower, owner, ship, supply, turn, phase, rng: j.rng })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulesmith_core::Game;
    use serde_json::json;

    fn game() -> crate::SantiagoDeCuba {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/santiago-de-cuba.toml");
        let loaded = rulesmith_core::ruleset::load(path.to_str().unwrap(), &[]).unwrap();
        crate::decode(&loaded.tree, &mut rulesmith_core::ruleset::Diagnostics::default()).unwrap()
    }

    #[test]
    fn a_bad_state_is_refused_naming_where() {
        let g = game();
        let good = to_json(&g.rules, &g.new_game(3, 9).unwrap());
        assert_eq!(to_json(&g.rules, &from_json(&g.rules, &good).unwrap()), good);
        let cases: [(&str, serde_json::Value, &str); 9] = [
            ("/players/0/pesos", json!(70000), "/players/0/pesos: invalid value: integer `70000`"),
            ("/players/1/goods/zzz", json!(1), "/players/1/goods/zzz: unknown key (expected one of"),
            ("/phase", json!({ "step": "fly" }), "/phase/step: unknown variant `fly`"),
            ("/phase", json!({ "step": "drive", "x": 1 }), "/phase: unknown field `x`"),
            ("/ship/dice/red", json!("a"), "/ship/dice/red: invalid type: string \"a\", expected u8"),
            ("/street/0", json!("nobody"), "/street/0: unknown citizen `nobody` (expected one of"),
            ("/buildings/bank/owner", json!(255), "/buildings/bank/owner: expected a seat or null"),
            ("/ship/value", json!(9), "/ship/value: 9 is not on the value track"),
            ("/car", json!("zorro"), "/car: unknown citizen `zorro`"),
        ];
        for (at, value, message) in cases {
            let err = rulesmith_core::testing::kit::refused_json(&g, &good, at, value);
            assert!(err.contains(message), "{at}: {err}");
        }
        let mut v = good.clone();
        v["turn"].as_object_mut().unwrap().remove("citizen");
        let err = from_json(&g.rules, &v).unwrap_err().to_string();
        assert!(err.contains("/turn: missing field `citizen`"), "{err}");
    }
}
