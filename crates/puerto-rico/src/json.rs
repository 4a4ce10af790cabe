//! The state as users read and edit it: building indices are building ids, in the one
//! serde pass over the state with the ruleset's ids (the core's naming layer,
//! [`rulesmith_game::names`]: every error at its JSON Pointer, naming the ids it
//! expected). What is left here is what depends on the ruleset or the phase: the keys only
//! extensions use (under the extension's names), and a decision's building outside its
//! decision; and the state's flat shape ([`StateJson`]).

use crate::extension::{BASE_JSON_NAMES, JsonNames};
use crate::goods::{ByGood, GoodName};
use crate::limits::{MAX_BUILDINGS, MAX_ROLES, MAX_SHIPS};
use crate::phase::{Building, SeatSet};
use crate::rules::Rules;
use crate::state::{
    Offer, Pending, Phase, Placement, Player, Production, Settlement, Ship, Shipping, Stack, State, TradingHouse,
};
use rulesmith_game::names::{self, Kind};
use rulesmith_game::steps::{PassRound, RoleBoard, Rotation};
use rulesmith_game::{ByPlayer, Rng, Seat};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// Keys of the state that only expansion effects use: left out of the JSON of rulesets
/// without such effects, so that the base game's JSON stays as it was (`pending` only
/// while no decision is under way: the base game's craftsman privilege uses it too; the
/// extension's tiles, [`names`], likewise).
const EXTENDED_KEYS: [&str; 2] = ["out_of_game", "pending"];

/// The keys of what the state stores for the ruleset's extension: the extension's own
/// names for them (the expansion's forests), the base game's without one.
pub fn names(rules: &Rules) -> JsonNames {
    rules.extension.get().map_or(BASE_JSON_NAMES, |ext| ext.json_names())
}

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
    if rules.extended() || s.out_of_game != 0 {
        let keys = names(rules);
        let held = with_names(rules, || serde_json::to_value(s.held_tiles)).unwrap_or(Value::Null);
        if let Some(m) = v.as_object_mut() {
            m.insert(keys.held_tiles.into(), held);
        }
        if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
            for (p, seat) in players.iter_mut().zip(s.players.iter()) {
                if let Some(p) = p.as_object_mut() {
                    p.insert(keys.island_tiles.into(), Value::from(seat.extension_tiles));
                }
            }
        }
    } else {
        if let Some(m) = v.as_object_mut() {
            for k in EXTENDED_KEYS {
                // A decision under way (the craftsman's privilege picks) is kept: without
                // it a state read back would lose the decision.
                if k != "pending" || s.pending == crate::state::Pending::default() {
                    m.remove(k);
                }
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
    // The extension's tiles are under its names: read apart, each named at its pointer.
    let keys = names(rules);
    let held = v.as_object_mut().and_then(|m| m.remove(keys.held_tiles));
    let mut island = Vec::new();
    if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
        island.extend(players.iter_mut().map(|p| p.as_object_mut().and_then(|p| p.remove(keys.island_tiles))));
    }
    let mut s: State = with_names(rules, || rulesmith_game::game::from_json(&v))?;
    if let Some(held) = held {
        let at = format!("/{}", keys.held_tiles);
        s.held_tiles = with_names(rules, || rulesmith_game::game::from_json_at(&at, &held))?;
    }
    for ((i, tiles), p) in island.into_iter().enumerate().zip(s.players.iter_mut()) {
        if let Some(tiles) = tiles {
            p.extension_tiles =
                rulesmith_game::game::from_json_at(&format!("/players/{i}/{}", keys.island_tiles), &tiles)?;
        }
    }
    // What the placement keeps besides its group follows from the board.
    s.mayor.left = crate::phases::mayor::left(rules, &s);
    Ok(s)
}

/// The state's JSON shape: flat, as it has always been written (records, scenarios and
/// golden files hold it), while [`State`] keeps what each phase remembers in the phase's
/// own part. A plain derive (no `flatten`), so that a bad value is named at its JSON
/// Pointer (`/captain_round/current`) by the serde pass.
#[derive(Serialize, Deserialize)]
struct StateJson {
    round: u32,
    governor: Seat,
    phase: Phase,
    roles_chosen: u8,
    chooser: Seat,
    role: u8,
    current: Seat,
    rotation: Rotation,
    roles: RoleBoard<MAX_ROLES>,
    players: ByPlayer<Player>,
    colonist_supply: u8,
    colonist_ship: u8,
    vp_chips: u16,
    quarry_supply: u8,
    goods_supply: ByGood<u8>,
    #[serde(with = "crate::state::stack_serde")]
    stack: Stack,
    face_up: ByGood<u8>,
    discards: ByGood<u8>,
    #[serde(
        serialize_with = "names::write_given::<Building, _, _, MAX_BUILDINGS>",
        deserialize_with = "names::read_given::<Building, _, _, MAX_BUILDINGS>"
    )]
    buildings: [u8; MAX_BUILDINGS],
    ships: [Ship; MAX_SHIPS],
    ship_count: u8,
    trading_house: TradingHouse,
    /// [`Settlement`].
    hacienda_used: SeatSet,
    /// [`Shipping`].
    wharf_used: SeatSet,
    captain_round: PassRound,
    captain_bonus_given: bool,
    /// [`Placement::group`]; its `left` follows from the board ([`from_json`]).
    mayor_group: u8,
    /// [`Production`].
    craftsman_kinds: u8,
    end_triggers: u8,
    /// Read and written by [`from_json`] and [`to_json`], under the extension's name.
    #[serde(skip)]
    held_tiles: ByGood<u8>,
    #[serde(
        default,
        serialize_with = "names::write_set::<Building, _>",
        deserialize_with = "names::read_set::<Building, _>"
    )]
    out_of_game: u64,
    #[serde(default)]
    pending: Pending,
    #[serde(default)]
    colonist_offer: Option<Offer>,
    rng: Rng,
}

impl From<&State> for StateJson {
    fn from(s: &State) -> Self {
        // Every field named: a field added to the state cannot be left out of its JSON.
        let State {
            round,
            governor,
            phase,
            roles_chosen,
            chooser,
            role,
            current,
            rotation,
            roles,
            players,
            colonist_supply,
            colonist_ship,
            vp_chips,
            quarry_supply,
            goods_supply,
            stack,
            face_up,
            discards,
            buildings,
            ships,
            ship_count,
            trading_house,
            settler: Settlement { hacienda_used },
            captain: Shipping { round: captain_round, wharf_used, privilege_given: captain_bonus_given },
            mayor: Placement { group: mayor_group, left: _ },
            craftsman: Production { kinds: craftsman_kinds },
            end_triggers,
            held_tiles,
            out_of_game,
            pending,
            colonist_offer,
            rng,
        } = s.clone();
        StateJson {
            round,
            governor,
            phase,
            roles_chosen,
            chooser,
            role,
            current,
            rotation,
            roles,
            players,
            colonist_supply,
            colonist_ship,
            vp_chips,
            quarry_supply,
            goods_supply,
            stack,
            face_up,
            discards,
            buildings,
            ships,
            ship_count,
            trading_house,
            hacienda_used,
            wharf_used,
            captain_round,
            captain_bonus_given,
            mayor_group,
            craftsman_kinds,
            end_triggers,
            held_tiles,
            out_of_game,
            pending,
            colonist_offer,
            rng,
        }
    }
}

impl From<StateJson> for State {
    fn from(j: StateJson) -> Self {
        State {
            round: j.round,
            governor: j.governor,
            phase: j.phase,
            roles_chosen: j.roles_chosen,
            chooser: j.chooser,
            role: j.role,
            current: j.current,
            rotation: j.rotation,
            roles: j.roles,
            players: j.players,
            colonist_supply: j.colonist_supply,
            colonist_ship: j.colonist_ship,
            vp_chips: j.vp_chips,
            quarry_supply: j.quarry_supply,
            goods_supply: j.goods_supply,
            stack: j.stack,
            face_up: j.face_up,
            discards: j.discards,
            buildings: j.buildings,
            ships: j.ships,
            ship_count: j.ship_count,
            trading_house: j.trading_house,
            settler: Settlement { hacienda_used: j.hacienda_used },
            captain: Shipping {
                round: j.captain_round,
                wharf_used: j.wharf_used,
                privilege_given: j.captain_bonus_given,
            },
            // `left` is computed from the board once the whole state is read (`from_json`).
            mayor: Placement { group: j.mayor_group, left: 0 },
            craftsman: Production { kinds: j.craftsman_kinds },
            end_triggers: j.end_triggers,
            held_tiles: j.held_tiles,
            out_of_game: j.out_of_game,
            pending: j.pending,
            colonist_offer: j.colonist_offer,
            rng: j.rng,
        }
    }
}

impl Serialize for State {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StateJson::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        StateJson::deserialize(d).map(State::from)
    }
}
