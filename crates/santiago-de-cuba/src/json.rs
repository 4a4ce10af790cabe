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
//! Both ways go through one serde-derived shape (`StateJson`), whose names are the
//! ruleset's, given to the serde pass ([`names::with`]): an unknown name fails at its
//! JSON Pointer there. What is left by hand is what the shape cannot say (the car's
//! port, the ship's value on its track, the round of loading).

use crate::rules::{MAX_BUILDINGS, MAX_CITIZENS, MAX_DICE, MAX_GOODS, Rules};
use crate::state::{Phase, Player, Ship, State, Turn};
use rulesmith_game::names::{self, Every, Id};
use rulesmith_game::steps::PassRound;
use rulesmith_game::{ByPlayer, GameError, OptId, Rng, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;

names::kinds!(Good = "good", Citizen = "citizen", Building = "building", Die = "die", Flower = "flower");

/// Runs a serde pass over the state JSON with the ruleset's names.
fn with_names<R>(r: &Rules, pass: impl FnOnce() -> R) -> R {
    let goods: Vec<&String> = r.goods.iter().map(|x| &x.id).collect();
    let citizens = r.citizens.iter().map(|x| &x.id).collect();
    let buildings = r.buildings.iter().map(|x| &x.id).collect();
    let dice = r.dice.iter().map(|x| &x.id).collect();
    let flowers = r.flowers.iter().map(|x| &x.id).collect();
    let vocabulary =
        [("good", goods), ("citizen", citizens), ("building", buildings), ("die", dice), ("flower", flowers)];
    names::with(vocabulary, pass)
}

/// The state as JSON (keys sorted, as `serde_json` writes maps).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateJson {
    players: Vec<PlayerJson>,
    street: Vec<Id<Citizen>>,
    car: String,
    inactive: Every<Citizen, bool>,
    buildings: Every<Building, BuildingJson>,
    ship: ShipJson,
    supply: Every<Good, u8>,
    turn: TurnJson,
    phase: PhaseJson,
    rng: Rng,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerJson {
    pesos: u16,
    vp: u16,
    goods: Every<Good, u8>,
    // Required although it may be null (a bare `Option` field may be left out).
    #[serde(deserialize_with = "Option::deserialize")]
    pawn: Option<Id<Building>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BuildingJson {
    flower: Id<Flower>,
    // Required although it may be null (a bare `Option` field may be left out).
    #[serde(deserialize_with = "Option::deserialize")]
    owner: Option<Seat>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShipJson {
    departed: u8,
    value: u8,
    dice: Every<Die, u8>,
    aside: Vec<Id<Die>>,
    awaiting_demand: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnJson {
    player: Seat,
    round: u32,
    // Required although it may be null (a bare `Option` field may be left out).
    #[serde(deserialize_with = "Option::deserialize")]
    citizen: Option<Id<Citizen>>,
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
    // A name read by hand: the tagged enum reads its fields from a buffer, which would
    // lose the pointer to the field.
    Use { building: String },
    Loading { current: Seat, passed: Vec<Seat> },
    Over {},
}

/// An index, or none, as a name or null.
fn some_id<K>(i: OptId) -> Option<Id<K>> {
    i.get().map(Id::new)
}

/// A name or null, as an index or none.
fn none_or<K>(id: Option<Id<K>>) -> OptId {
    id.map(|i| i.index()).into()
}

pub fn to_json(r: &Rules, s: &State) -> Value {
    let phase = match s.phase {
        Phase::Demand => PhaseJson::Demand {},
        Phase::Drive => PhaseJson::Drive {},
        Phase::Pickpocket { victim } => PhaseJson::Pickpocket { victim },
        Phase::ChooseGood => PhaseJson::ChooseGood {},
        Phase::Lawyer => PhaseJson::Lawyer {},
        Phase::Pawn { .. } => PhaseJson::Pawn {},
        Phase::Use { building } => PhaseJson::Use { building: r.building_name(building).to_string() },
        Phase::Loading { round } => PhaseJson::Loading {
            current: round.current(),
            passed: (0..round.players() as Seat).filter(|&p| round.has_passed(p)).collect(),
        },
        Phase::Over => PhaseJson::Over {},
    };
    let (nc, nd) = (r.citizens.len() as u8, r.dice.len() as u8);
    let json = StateJson {
        players: s
            .players
            .iter()
            .map(|p| PlayerJson { pesos: p.pesos, vp: p.vp, goods: Every::new(p.goods), pawn: some_id(p.pawn) })
            .collect(),
        street: s.street[..usize::from(nc)].iter().map(|&c| Id::new(c)).collect(),
        car: s.car_citizen().map_or("port", |c| r.citizen_name(c)).to_string(),
        inactive: Every::new((0..nc).map(|c| s.is_inactive(c))),
        buildings: Every::new(
            (0..r.buildings.len()).map(|b| BuildingJson { flower: Id::new(s.flower[b]), owner: s.owner[b].get() }),
        ),
        ship: ShipJson {
            departed: s.ship.departed,
            value: r.value_track.get(usize::from(s.ship.marker)).copied().unwrap_or(0),
            dice: Every::new((0..usize::from(nd)).map(|d| s.ship.dice.open(d))),
            aside: (0..nd).filter(|&d| !s.on_ship(d)).map(Id::new).collect(),
            awaiting_demand: s.ship.awaiting_demand,
        },
        supply: Every::new(s.supply),
        turn: TurnJson {
            player: s.turn.player,
            round: s.turn.round,
            citizen: some_id(s.turn.citizen),
            visited: s.turn.visited,
            roll_pending: s.turn.roll_pending,
        },
        phase,
        rng: s.rng.clone(),
    };
    with_names(r, || serde_json::to_value(json)).unwrap_or(Value::Null)
}

fn bad(msg: impl Into<String>) -> GameError {
    GameError::InvalidState(msg.into())
}

pub fn from_json(r: &Rules, v: &Value) -> Result<State, GameError> {
    let j: StateJson = with_names(r, || rulesmith_game::game::from_json(v)).map_err(bad)?;

    if j.players.is_empty() || j.players.len() > rulesmith_game::MAX_PLAYERS {
        return Err(bad(format!("/players: expected 1 to {} players", rulesmith_game::MAX_PLAYERS)));
    }
    let seats = j.players.len();
    let mut players: ByPlayer<Player> = ByPlayer::new(seats);
    for (i, p) in j.players.into_iter().enumerate() {
        let goods = p.goods.array::<MAX_GOODS>();
        players[i as Seat] = Player { pesos: p.pesos, vp: p.vp, goods, pawn: none_or(p.pawn) };
    }

    if j.street.len() != r.citizens.len() {
        return Err(bad(format!("/street: expected {} citizens, found {}", r.citizens.len(), j.street.len())));
    }
    let mut street = [0u8; MAX_CITIZENS];
    for (slot, c) in street.iter_mut().zip(&j.street) {
        *slot = c.index();
    }
    let car = match j.car.as_str() {
        "port" => 0,
        name => {
            let citizens = r.citizens.iter().map(|c| c.id.as_str());
            let c = names::index("/car", "citizen", name, citizens).map_err(bad)? as u8;
            street[..r.citizens.len()].iter().position(|&x| x == c).map_or(0, |i| i as u8 + 1)
        }
    };
    let inactive = j.inactive.0.iter().enumerate().filter(|&(_, &x)| x).fold(0u16, |m, (c, _)| m | 1 << c);

    let mut flower = [0u8; MAX_BUILDINGS];
    let mut owner = [OptId::NONE; MAX_BUILDINGS];
    for (i, (id, b)) in r.buildings.iter().zip(j.buildings.0).enumerate() {
        flower[i] = b.flower.index();
        owner[i] = match b.owner {
            Some(o) if o > OptId::MAX => {
                return Err(bad(format!("/buildings/{}/owner: expected a seat or null", id.id)));
            }
            o => o.into(),
        };
    }

    let value = j.ship.value;
    let marker = r
        .value_track
        .iter()
        .position(|&v| v == value)
        .ok_or_else(|| bad(format!("/ship/value: {value} is not on the value track {:?}", r.value_track)))?;
    let mut dice: [u8; MAX_DICE] = j.ship.dice.array();
    let mut aside = 0u8;
    for d in &j.ship.aside {
        aside |= 1 << d.index();
        // A die set aside demands nothing, whatever it showed (S002:L110).
        dice[usize::from(d.index())] = 0;
    }
    let ship = Ship {
        departed: j.ship.departed,
        marker: marker as u8,
        dice: rulesmith_game::cargo::Demand::new(dice),
        aside,
        awaiting_demand: j.ship.awaiting_demand,
    };
    let supply = j.supply.array();

    let seat = |path: &str, s: Seat| {
        if usize::from(s) < seats { Ok(s) } else { Err(bad(format!("{path}: expected a seat of the {seats} players"))) }
    };
    let turn = Turn {
        player: seat("/turn/player", j.turn.player)?,
        round: j.turn.round,
        citizen: none_or(j.turn.citizen),
        visited: j.turn.visited,
        roll_pending: j.turn.roll_pending,
    };

    let phase = match j.phase {
        PhaseJson::Demand {} => Phase::Demand,
        PhaseJson::Drive {} => Phase::Drive,
        PhaseJson::Pickpocket { victim } => Phase::Pickpocket { victim: seat("/phase/victim", victim)? },
        PhaseJson::ChooseGood {} => Phase::ChooseGood,
        PhaseJson::Lawyer {} => Phase::Lawyer,
        // Found from the position below, once the rest of the state is read.
        PhaseJson::Pawn {} => Phase::Pawn { to: 0 },
        PhaseJson::Use { building } => {
            let buildings = r.buildings.iter().map(|b| b.id.as_str());
            Phase::Use {
                building: names::index("/phase/building", "building", &building, buildings).map_err(bad)? as u8,
            }
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

    let mut state = State { players, street, car, inactive, flower, owner, ship, supply, turn, phase, rng: j.rng };
    if let Phase::Pawn { .. } = state.phase {
        state.phase = Phase::Pawn { to: crate::engine::destinations(r, &state) };
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulesmith_game::Game;
    use serde_json::json;

    fn game() -> crate::SantiagoDeCuba {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/santiago-de-cuba.toml");
        let loaded = rulesmith_game::ruleset::load(path.to_str().unwrap(), &[]).unwrap();
        crate::decode(&loaded.tree, &mut rulesmith_game::ruleset::Diagnostics::default()).unwrap()
    }

    #[test]
    fn a_bad_state_is_refused_naming_where() {
        let g = game();
        let good = to_json(&g.rules, &g.new_game(3, 9).unwrap());
        assert_eq!(to_json(&g.rules, &from_json(&g.rules, &good).unwrap()), good);
        let cases: [(&str, serde_json::Value, &str); 11] = [
            ("/players/0/pesos", json!(70000), "/players/0/pesos: invalid value: integer `70000`"),
            ("/players/1/goods/zzz", json!(1), "/players/1/goods/zzz: unknown key (expected one of"),
            ("/phase", json!({ "step": "fly" }), "/phase/step: unknown variant `fly`"),
            ("/phase", json!({ "step": "drive", "x": 1 }), "/phase: unknown field `x`"),
            ("/ship/dice/red", json!("a"), "/ship/dice/red: invalid type: string \"a\", expected u8"),
            ("/street/0", json!("nobody"), "/street/0: unknown citizen `nobody` (expected one of"),
            ("/buildings/bank/owner", json!(255), "/buildings/bank/owner: expected a seat or null"),
            ("/turn/player", json!(255), "/turn/player: expected a seat of the 3 players"),
            ("/phase", json!({ "step": "pickpocket", "victim": 3 }), "/phase/victim: expected a seat of the 3 players"),
            ("/ship/value", json!(9), "/ship/value: 9 is not on the value track"),
            ("/car", json!("zorro"), "/car: unknown citizen `zorro`"),
        ];
        for (at, value, message) in cases {
            let err = rulesmith_testkit::kit::refused_json(&g, &good, at, value);
            assert!(err.contains(message), "{at}: {err}");
        }
        let mut v = good.clone();
        v["turn"].as_object_mut().unwrap().remove("citizen");
        let err = from_json(&g.rules, &v).unwrap_err().to_string();
        assert!(err.contains("/turn: missing field `citizen`"), "{err}");
    }
}
