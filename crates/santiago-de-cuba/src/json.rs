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

use crate::rules::{Goods, MAX_BUILDINGS, MAX_CITIZENS, MAX_DICE, MAX_GOODS, NONE, Rules};
use crate::state::{Phase, Player, Ship, State, Turn};
use rulesmith_core::steps::PassRound;
use rulesmith_core::{ByPlayer, GameError, Rng};
use serde_json::{Map, Value, json};

pub fn to_json(r: &Rules, s: &State) -> Value {
    let goods = |g: &Goods| -> Value {
        Value::Object(r.goods.iter().enumerate().map(|(i, x)| (x.id.clone(), json!(g[i]))).collect())
    };
    let building = |b: u8| if b == NONE { Value::Null } else { json!(r.building_name(b)) };
    let players: Vec<Value> = s
        .players
        .iter()
        .map(|p| json!({ "pesos": p.pesos, "vp": p.vp, "goods": goods(&p.goods), "pawn": building(p.pawn) }))
        .collect();
    let street: Vec<Value> = s.street[..r.citizens.len()].iter().map(|&c| json!(r.citizen_name(c))).collect();
    let car = match s.car_citizen() {
        Some(c) => json!(r.citizen_name(c)),
        None => json!("port"),
    };
    let inactive: Map<String, Value> =
        r.citizens.iter().enumerate().map(|(c, x)| (x.id.clone(), json!(s.is_inactive(c as u8)))).collect();
    let buildings: Map<String, Value> = r
        .buildings
        .iter()
        .enumerate()
        .map(|(b, x)| {
            let owner = if s.owner[b] == NONE { Value::Null } else { json!(s.owner[b]) };
            (x.id.clone(), json!({ "flower": r.flower_name(s.flower[b]), "owner": owner }))
        })
        .collect();
    let dice: Map<String, Value> =
        r.dice.iter().enumerate().map(|(d, x)| (x.id.clone(), json!(s.ship.dice.open(d)))).collect();
    let aside: Vec<&str> = (0..r.dice.len() as u8).filter(|&d| !s.on_ship(d)).map(|d| r.die_name(d)).collect();
    let value = r.value_track.get(usize::from(s.ship.marker)).copied().unwrap_or(0);
    let citizen = if s.turn.citizen == NONE { Value::Null } else { json!(r.citizen_name(s.turn.citizen)) };
    let phase = match s.phase {
        Phase::Demand => json!({ "step": "demand" }),
        Phase::Drive => json!({ "step": "drive" }),
        Phase::Pickpocket { victim } => json!({ "step": "pickpocket", "victim": victim }),
        Phase::ChooseGood => json!({ "step": "choose_good" }),
        Phase::Lawyer => json!({ "step": "lawyer" }),
        Phase::Pawn => json!({ "step": "pawn" }),
        Phase::Use { building: b } => json!({ "step": "use", "building": r.building_name(b) }),
        Phase::Loading { round } => {
            let passed: Vec<u8> = (0..round.players() as u8).filter(|&p| round.has_passed(p)).collect();
            json!({ "step": "loading", "current": round.current(), "passed": passed })
        }
        Phase::Over => json!({ "step": "over" }),
    };
    json!({
        "players": players,
        "street": street,
        "car": car,
        "inactive": inactive,
        "buildings": buildings,
        "ship": {
            "departed": s.ship.departed,
            "value": value,
            "dice": dice,
            "aside": aside,
            "awaiting_demand": s.ship.awaiting_demand,
        },
        "supply": goods(&s.supply),
        "turn": {
            "player": s.turn.player,
            "round": s.turn.round,
            "citizen": citizen,
            "visited": s.turn.visited,
            "roll_pending": s.turn.roll_pending,
        },
        "phase": phase,
        "rng": serde_json::to_value(&s.rng).unwrap_or(Value::Null),
    })
}

fn bad(msg: impl Into<String>) -> GameError {
    GameError::InvalidState(msg.into())
}

/// Reads a JSON object, refusing keys it does not know.
struct Obj<'a> {
    path: String,
    map: &'a Map<String, Value>,
}

impl<'a> Obj<'a> {
    fn new(v: &'a Value, path: &str, keys: &[&str]) -> Result<Self, GameError> {
        let map = v.as_object().ok_or_else(|| bad(format!("{path}: expected an object")))?;
        if let Some(k) = map.keys().find(|k| !keys.contains(&k.as_str())) {
            return Err(bad(format!("{path}/{k}: unknown key (expected one of {})", keys.join(", "))));
        }
        Ok(Obj { path: path.to_string(), map })
    }
    fn get(&self, key: &str) -> Result<&'a Value, GameError> {
        self.map.get(key).ok_or_else(|| bad(format!("{}/{key}: missing", self.path)))
    }
    fn int(&self, key: &str, max: u64) -> Result<u64, GameError> {
        match self.get(key)?.as_u64() {
            Some(v) if v <= max => Ok(v),
            _ => Err(bad(format!("{}/{key}: expected an integer from 0 to {max}", self.path))),
        }
    }
    fn bool(&self, key: &str) -> Result<bool, GameError> {
        self.get(key)?.as_bool().ok_or_else(|| bad(format!("{}/{key}: expected true or false", self.path)))
    }
    fn name(&self, key: &str) -> Result<Option<&'a str>, GameError> {
        match self.get(key)? {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s)),
            _ => Err(bad(format!("{}/{key}: expected a name or null", self.path))),
        }
    }
}

fn lookup(kind: &str, path: &str, name: &str, found: Option<u8>, known: Vec<&str>) -> Result<u8, GameError> {
    found.ok_or_else(|| bad(format!("{path}: unknown {kind} `{name}` (expected one of {})", known.join(", "))))
}

fn goods_from(r: &Rules, v: &Value, path: &str) -> Result<Goods, GameError> {
    let ids: Vec<&str> = r.goods.iter().map(|g| g.id.as_str()).collect();
    let o = Obj::new(v, path, &ids)?;
    let mut out = [0; MAX_GOODS];
    for (i, id) in ids.iter().enumerate() {
        out[i] = o.int(id, 255)? as u8;
    }
    Ok(out)
}

fn building_from(r: &Rules, path: &str, name: Option<&str>) -> Result<u8, GameError> {
    match name {
        None => Ok(NONE),
        Some(n) => {
            lookup("building", path, n, r.building_index(n), r.buildings.iter().map(|b| b.id.as_str()).collect())
        }
    }
}

fn citizen_from(r: &Rules, path: &str, name: &str) -> Result<u8, GameError> {
    lookup("citizen", path, name, r.citizen_index(name), r.citizens.iter().map(|b| b.id.as_str()).collect())
}

pub fn from_json(r: &Rules, v: &Value) -> Result<State, GameError> {
    let root = Obj::new(
        v,
        "",
        &["players", "street", "car", "inactive", "buildings", "ship", "supply", "turn", "phase", "rng"],
    )?;

    let list = root.get("players")?.as_array().ok_or_else(|| bad("/players: expected a list"))?;
    if list.is_empty() || list.len() > rulesmith_core::MAX_PLAYERS {
        return Err(bad(format!("/players: expected 1 to {} players", rulesmith_core::MAX_PLAYERS)));
    }
    let mut players: ByPlayer<Player> = ByPlayer::new(list.len());
    for (i, p) in list.iter().enumerate() {
        let path = format!("/players/{i}");
        let o = Obj::new(p, &path, &["pesos", "vp", "goods", "pawn"])?;
        players[i as u8] = Player {
            pesos: o.int("pesos", u64::from(u16::MAX))? as u16,
            vp: o.int("vp", u64::from(u16::MAX))? as u16,
            goods: goods_from(r, o.get("goods")?, &format!("{path}/goods"))?,
            pawn: building_from(r, &format!("{path}/pawn"), o.name("pawn")?)?,
        };
    }

    let names = root.get("street")?.as_array().ok_or_else(|| bad("/street: expected a list of citizens"))?;
    if names.len() != r.citizens.len() {
        return Err(bad(format!("/street: expected {} citizens, found {}", r.citizens.len(), names.len())));
    }
    let mut street = [0u8; MAX_CITIZENS];
    for (i, n) in names.iter().enumerate() {
        let path = format!("/street/{i}");
        let name = n.as_str().ok_or_else(|| bad(format!("{path}: expected a citizen")))?;
        street[i] = citizen_from(r, &path, name)?;
    }
    let car = match root.get("car")?.as_str() {
        Some("port") => 0,
        Some(name) => {
            let c = citizen_from(r, "/car", name)?;
            street[..r.citizens.len()].iter().position(|&x| x == c).map_or(0, |i| i as u8 + 1)
        }
        None => return Err(bad("/car: expected `port` or a citizen")),
    };

    let ids: Vec<&str> = r.citizens.iter().map(|c| c.id.as_str()).collect();
    let o = Obj::new(root.get("inactive")?, "/inactive", &ids)?;
    let mut inactive = 0u16;
    for (c, id) in ids.iter().enumerate() {
        if o.bool(id)? {
            inactive |= 1 << c;
        }
    }

    let ids: Vec<&str> = r.buildings.iter().map(|c| c.id.as_str()).collect();
    let o = Obj::new(root.get("buildings")?, "/buildings", &ids)?;
    let mut flower = [0u8; MAX_BUILDINGS];
    let mut owner = [NONE; MAX_BUILDINGS];
    for (b, id) in ids.iter().enumerate() {
        let path = format!("/buildings/{id}");
        let x = Obj::new(o.get(id)?, &path, &["flower", "owner"])?;
        let f = x.name("flower")?.unwrap_or("");
        flower[b] = lookup(
            "flower",
            &format!("{path}/flower"),
            f,
            r.flower_index(f),
            r.flowers.iter().map(|f| f.id.as_str()).collect(),
        )?;
        owner[b] = match x.get("owner")? {
            Value::Null => NONE,
            _ => x.int("owner", u64::from(NONE) - 1)? as u8,
        };
    }

    let o = Obj::new(root.get("ship")?, "/ship", &["departed", "value", "dice", "aside", "awaiting_demand"])?;
    let value = o.int("value", 255)? as u8;
    let marker = r
        .value_track
        .iter()
        .position(|&v| v == value)
        .ok_or_else(|| bad(format!("/ship/value: {value} is not on the value track {:?}", r.value_track)))?;
    let ids: Vec<&str> = r.dice.iter().map(|c| c.id.as_str()).collect();
    let dv = Obj::new(o.get("dice")?, "/ship/dice", &ids)?;
    let mut dice = [0u8; MAX_DICE];
    for (d, id) in ids.iter().enumerate() {
        dice[d] = dv.int(id, 255)? as u8;
    }
    let mut aside = 0u8;
    let set_aside = o.get("aside")?.as_array().ok_or_else(|| bad("/ship/aside: expected a list of dice"))?;
    for (i, n) in set_aside.iter().enumerate() {
        let path = format!("/ship/aside/{i}");
        let name = n.as_str().ok_or_else(|| bad(format!("{path}: expected a die")))?;
        let d = lookup("die", &path, name, r.die_index(name), ids.clone())?;
        aside |= 1 << d;
        // A die set aside demands nothing, whatever it showed (S002:L110).
        dice[usize::from(d)] = 0;
    }
    let ship = Ship {
        departed: o.int("departed", 255)? as u8,
        marker: marker as u8,
        dice: rulesmith_core::cargo::Demand::new(dice),
        aside,
        awaiting_demand: o.bool("awaiting_demand")?,
    };

    let supply = goods_from(r, root.get("supply")?, "/supply")?;

    let o = Obj::new(root.get("turn")?, "/turn", &["player", "round", "citizen", "visited", "roll_pending"])?;
    let turn = Turn {
        player: o.int("player", 254)? as u8,
        round: o.int("round", u64::from(u32::MAX))? as u32,
        citizen: match o.name("citizen")? {
            None => NONE,
            Some(n) => citizen_from(r, "/turn/citizen", n)?,
        },
        visited: o.bool("visited")?,
        roll_pending: o.bool("roll_pending")?,
    };

    let pv = root.get("phase")?;
    let step = pv.get("step").and_then(Value::as_str).ok_or_else(|| bad("/phase/step: expected a step name"))?;
    let phase = match step {
        "demand" | "drive" | "choose_good" | "lawyer" | "pawn" | "over" => {
            Obj::new(pv, "/phase", &["step"])?;
            match step {
                "demand" => Phase::Demand,
                "drive" => Phase::Drive,
                "choose_good" => Phase::ChooseGood,
                "lawyer" => Phase::Lawyer,
                "pawn" => Phase::Pawn,
                _ => Phase::Over,
            }
        }
        "pickpocket" => {
            let o = Obj::new(pv, "/phase", &["step", "victim"])?;
            Phase::Pickpocket { victim: o.int("victim", 254)? as u8 }
        }
        "use" => {
            let o = Obj::new(pv, "/phase", &["step", "building"])?;
            let b = building_from(r, "/phase/building", o.name("building")?)?;
            if b == NONE {
                return Err(bad("/phase/building: expected a building"));
            }
            Phase::Use { building: b }
        }
        "loading" => {
            let o = Obj::new(pv, "/phase", &["step", "current", "passed"])?;
            let mut round = PassRound::new(o.int("current", 254)? as u8, list.len());
            let passed = o.get("passed")?.as_array().ok_or_else(|| bad("/phase/passed: expected a list of seats"))?;
            for p in passed {
                match p.as_u64() {
                    Some(s) if (s as usize) < list.len() => round.pass(s as u8),
                    _ => return Err(bad("/phase/passed: expected seats")),
                }
            }
            Phase::Loading { round }
        }
        other => {
            return Err(bad(format!(
                "/phase/step: unknown step `{other}` (expected demand, drive, pickpocket, choose_good, lawyer, pawn, use, loading, over)"
            )));
        }
    };

    let rng: Rng = serde_json::from_value(root.get("rng")?.clone())
        .map_err(|e| bad(format!("/rng: not a generator state: {e}")))?;

    Ok(State { players, street, car, inactive, flower, owner, ship, supply, turn, phase, rng })
}
