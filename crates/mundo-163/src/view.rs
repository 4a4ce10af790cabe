//! The state as JSON with stable English keys, maps keyed by names (tiles, goods,
//! privileges, cities), so scenarios can point into it: `/players/0/money`,
//! `/players/0/residents/e4/exhausted`, `/cities/4/stock`, `/players/1/trolley/goods/fish`.
//!
//! Per player, `residents` has an entry for every own tile (the capital and every
//! settlement); `lying_goods` lists only tiles where goods lie. When a state is read,
//! goods maps may leave goods out (0) and `residents` may leave own tiles out (none).
//! Derived values (`delivered_total`, and per player `residents_in_storage`,
//! `settlements_in_storage`, `majority`, `income`, `score`) are printed for reading and
//! recomputed, not read, when a state is loaded.

use crate::check::check;
use crate::fixed::Arr;
use crate::rules::Rules;
use crate::scoring::{income, majority, score};
use crate::state::own_tiles;
use crate::state::{End, Phase, Player, RESIDENT_BIT, State, Trolley, Turn};
use rulesmith_game::names::{self, Every, Given, Id};
use rulesmith_game::{ByPlayer, GameError, OptId, Rng, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a derived value of the state JSON is computed from (printed for reading, never
/// read): a `[set]` on it is refused with this.
pub fn derived(pointer: &str) -> Option<&'static str> {
    let key = pointer.rsplit('/').next()?;
    let player = pointer.starts_with("/players/");
    Some(match key {
        "delivered_total" if !player => {
            "`delivered_total` is derived: the sum of every player's `delivered` goods; set those"
        }
        "residents_in_storage" if player => {
            "`residents_in_storage` is derived: the ruleset's residents less those on the player's tiles and trolley; set `residents` or `trolley/residents`"
        }
        "settlements_in_storage" if player => {
            "`settlements_in_storage` is derived: the ruleset's settlements less those on the map; set `settlements`"
        }
        "majority" if player => "`majority` is derived from the goods every player delivered; set `delivered`",
        "income" if player => {
            "`income` is derived from the player's tiles, settlements, roads and cities (REF §2.7); set those"
        }
        "score" if player => "`score` is derived from `delivered` and the player's privileges; set those",
        _ => return None,
    })
}

type GoodsMap = BTreeMap<String, u8>;
/// Goods by name; read, goods left out count 0.
type Goods = Given<Good, u8>;

names::kinds!(Good = "goods", Tile = "tile", Privilege = "privilege", City = "city", Terrain = "terrain");

/// Runs a serde pass over the state JSON with the ruleset's names.
fn with_names<R>(rules: &Rules, pass: impl FnOnce() -> R) -> R {
    let goods: Vec<&String> = rules.goods.iter().collect();
    let tiles = rules.map.hexes.iter().map(|h| &h.name).collect();
    let privileges = rules.privileges.iter().map(|p| &p.id).collect();
    let cities = rules.cities.iter().map(|c| &c.id).collect();
    let terrains = rules.terrains.iter().map(|t| &t.name).collect();
    let vocabulary =
        [("goods", goods), ("tile", tiles), ("privilege", privileges), ("city", cities), ("terrain", terrains)];
    names::with(vocabulary, pass)
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateView {
    phase: Phase,
    end: Option<Ended>,
    current_player: u8,
    round: u32,
    #[serde(default)]
    delivered_total: Derived<u32>,
    turn: TurnView,
    /// Top card first.
    privilege_deck: Vec<Id<Privilege>>,
    privilege_row: Vec<RowCard>,
    cities: Every<City, CityView>,
    /// Terrain of every tile.
    terrain: Every<Tile, Id<Terrain>>,
    /// Goods lying on tiles (only tiles where some lie).
    lying_goods: BTreeMap<String, Goods>,
    players: Vec<PlayerView>,
    rng: Rng,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnView {
    purchase_from: Option<Id<Tile>>,
    free_road_used: bool,
    extra_action_used: bool,
    cities_settled: u8,
    trolley_moves: u8,
    loaded_here: Vec<String>,
    unloaded_here: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RowCard {
    privilege: Id<Privilege>,
    price: i32,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CityView {
    tile: String,
    goods: String,
    stock: u8,
    demands: Vec<Demand>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Demand {
    goods: String,
    covered: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerView {
    money: i32,
    capital: Option<Id<City>>,
    movement_points: u8,
    cargo_holds: u8,
    privileges: Every<Privilege, bool>,
    settlements: Vec<Id<Tile>>,
    residents: BTreeMap<String, Pieces>,
    roads: Vec<String>,
    trolley: TrolleyView,
    delivered: Goods,
    last_income: i32,
    #[serde(default)]
    residents_in_storage: Derived<u8>,
    #[serde(default)]
    settlements_in_storage: Derived<u8>,
    #[serde(default)]
    majority: Derived<GoodsMap>,
    #[serde(default)]
    income: Derived<i32>,
    #[serde(default)]
    score: Derived<i32>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pieces {
    #[serde(default)]
    active: u8,
    #[serde(default)]
    moved: u8,
    #[serde(default)]
    exhausted: u8,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TrolleyView {
    tile: Option<Id<Tile>>,
    movement_left: serde_json::Value,
    goods: Goods,
    residents: u8,
}

/// Why the game ended; `null` while it goes on ([`End::None`]).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Ended {
    DeliveredGoods,
    RoundLimit,
}

/// A derived value: printed, ignored when read (it is recomputed).
#[derive(Default)]
struct Derived<T>(T);

impl<T: Serialize> Serialize for Derived<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Default> Deserialize<'de> for Derived<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d)?;
        Ok(Derived(T::default()))
    }
}

fn marks(rules: &Rules, bits: u16) -> Vec<String> {
    let mut v: Vec<String> =
        (0..rules.goods.len()).filter(|&g| bits & (1 << g) != 0).map(|g| rules.goods[g].clone()).collect();
    if bits & RESIDENT_BIT != 0 {
        v.push("resident".into());
    }
    v
}

fn half_to_json(half: u8) -> serde_json::Value {
    if half % 2 == 0 { serde_json::Value::from(half / 2) } else { serde_json::Value::from(f64::from(half) / 2.0) }
}

fn tiles_of(rules: &Rules, bits: u64) -> impl Iterator<Item = usize> + '_ {
    (0..rules.tiles()).filter(move |&t| bits & (1 << t) != 0)
}

/// The city on the capital's tile, or none before it is chosen.
fn some_city(rules: &Rules, capital: OptId) -> Option<Id<City>> {
    let city = rules.city_at(capital.get()?)?;
    (usize::from(city) < rules.cities.len()).then(|| Id::new(city))
}

/// A tile, if there is one.
fn some_tile(t: OptId) -> Option<Id<Tile>> {
    t.get().map(Id::new)
}

pub fn to_json(rules: &Rules, s: &State) -> serde_json::Value {
    let end = match s.end {
        End::None => None,
        End::DeliveredGoods => Some(Ended::DeliveredGoods),
        End::RoundLimit => Some(Ended::RoundLimit),
    };
    let tname = |t: usize| rules.tile_name(t as u8).to_string();
    let cities = rules.cities.iter().enumerate().map(|(i, c)| {
        let demands = c.demands.iter().enumerate();
        CityView {
            tile: c.tile.map_or("?", |t| rules.tile_name(t)).to_string(),
            goods: rules.good_name(c.goods).to_string(),
            stock: s.city_stock[i],
            demands: demands
                .map(|(k, &g)| Demand { goods: rules.good_name(g).to_string(), covered: s.covered[i].is_covered(k) })
                .collect(),
        }
    });
    let lying_goods = (0..rules.tiles())
        .filter(|&t| s.loose[t].iter().any(|&g| g > 0))
        .map(|t| (tname(t), Goods::new(s.loose[t])))
        .collect();
    let players =
        s.p.iter()
            .enumerate()
            .map(|(seat, p)| {
                let counts = majority(rules, s, seat as Seat);
                let majority = rules
                    .terrains
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.counted)
                    .map(|(i, t)| (t.name.clone(), counts[i]))
                    .collect();
                let residents = tiles_of(rules, own_tiles(p))
                    .map(|t| (tname(t), Pieces { active: p.active[t], moved: p.moved[t], exhausted: p.exhausted[t] }))
                    .collect();
                let roads = rules
                    .edges
                    .iter()
                    .enumerate()
                    .filter(|&(e, _)| p.has_road(e as u8))
                    .map(|(_, &(a, b))| format!("{}-{}", tname(usize::from(a)), tname(usize::from(b))))
                    .collect();
                PlayerView {
                    money: p.money,
                    capital: some_city(rules, p.capital),
                    movement_points: rules.trolley.movement.get(usize::from(p.movement_level)).copied().unwrap_or(0),
                    cargo_holds: rules.trolley.holds.get(usize::from(p.holds_level)).copied().unwrap_or(0),
                    privileges: Every::new((0..rules.privileges.len()).map(|k| p.has_privilege(k as u8))),
                    settlements: tiles_of(rules, p.settlements).map(|t| Id::new(t as u8)).collect(),
                    residents,
                    roads,
                    trolley: TrolleyView {
                        tile: some_tile(p.trolley.tile),
                        movement_left: half_to_json(p.trolley.half_mp),
                        goods: Goods::new(p.trolley.goods),
                        residents: p.trolley.residents,
                    },
                    delivered: Goods::new(p.delivered),
                    last_income: p.last_income,
                    residents_in_storage: Derived(p.residents_in_storage),
                    settlements_in_storage: Derived(p.settlements_in_storage),
                    majority: Derived(majority),
                    income: Derived(income(rules, s, seat as Seat, true)),
                    score: Derived(score(rules, s, seat as Seat)),
                }
            })
            .collect();
    let free = usize::from(s.free);
    let view = StateView {
        phase: s.phase,
        end,
        current_player: s.current,
        round: s.round,
        delivered_total: Derived(s.delivered_total()),
        turn: TurnView {
            purchase_from: some_tile(s.turn.purchase_from),
            free_road_used: s.turn.free_road_used,
            extra_action_used: s.turn.extra_action_used,
            cities_settled: s.turn.cities_settled,
            trolley_moves: s.turn.trolley_moves,
            loaded_here: marks(rules, s.turn.loaded_here),
            unloaded_here: marks(rules, s.turn.unloaded_here),
        },
        privilege_deck: s.deck().iter().rev().map(|&k| Id::new(k)).collect(),
        privilege_row: s
            .row()
            .iter()
            .enumerate()
            .map(|(i, &k)| RowCard { privilege: Id::new(k), price: if i < free { 0 } else { rules.market.price } })
            .collect(),
        cities: Every::new(cities),
        terrain: Every::new((0..rules.tiles()).map(|t| Id::new(s.terrain[t]))),
        lying_goods,
        players,
        rng: s.rng.clone(),
    };
    with_names(rules, || serde_json::to_value(view)).unwrap_or(serde_json::Value::Null)
}

/// What a seat receives as JSON, from the observed state: no generator, and the
/// privilege deck as the backs of its cards (top first), their faces `"hidden"`.
pub fn view_json(rules: &Rules, s: &State) -> serde_json::Value {
    let mut v = to_json(rules, s);
    if let Some(m) = v.as_object_mut() {
        m.remove("rng");
        let deck: Vec<serde_json::Value> = s
            .deck()
            .iter()
            .rev()
            .map(|&k| {
                let back = rules.privileges.get(usize::from(k)).map_or(0, |p| p.back);
                serde_json::json!({ "back": back, "privilege": "hidden" })
            })
            .collect();
        m.insert("privilege_deck".into(), serde_json::Value::Array(deck));
    }
    v
}

fn bad(msg: impl Into<String>) -> GameError {
    GameError::InvalidState(msg.into())
}

fn tile_of(rules: &Rules, path: &str, name: &str) -> Result<u8, GameError> {
    let tiles = rules.map.hexes.iter().map(|h| h.name.as_str());
    names::index(path, "tile", name, tiles).map(|t| t as u8).map_err(bad)
}

/// Goods (and `resident`) marked this turn (at `path`).
fn marks_from(rules: &Rules, path: &str, marked: &[String]) -> Result<u16, GameError> {
    let mut bits = 0u16;
    for (i, n) in marked.iter().enumerate() {
        let goods = rules.goods.iter().map(String::as_str);
        bits |= match n.as_str() {
            "resident" => RESIDENT_BIT,
            n => 1 << names::index(&format!("{path}/{i}"), "goods", n, goods).map_err(bad)?,
        };
    }
    Ok(bits)
}

pub fn from_json(rules: &Rules, value: serde_json::Value) -> Result<State, GameError> {
    let v: StateView = with_names(rules, || rulesmith_game::game::from_json(&value)).map_err(bad)?;
    let players = v.players.len();
    if !(rules.min_players()..=rules.max_players()).contains(&players) {
        return Err(bad(format!(
            "{players} players; this ruleset allows {} to {}",
            rules.min_players(),
            rules.max_players()
        )));
    }
    let end = match v.end {
        None => End::None,
        Some(Ended::DeliveredGoods) => End::DeliveredGoods,
        Some(Ended::RoundLimit) => End::RoundLimit,
    };

    let mut s = State {
        players: players as u8,
        rng: v.rng,
        phase: v.phase,
        end,
        current: v.current_player,
        round: v.round,
        terrain: Arr::default(),
        city_stock: Default::default(),
        covered: Default::default(),
        loose: Arr::default(),
        deck: Arr::default(),
        deck_len: 0,
        row: Default::default(),
        row_len: 0,
        free: 0,
        p: ByPlayer::new(players),
        turn: Turn {
            purchase_from: OptId::from(v.turn.purchase_from.map(|t| t.index())),
            free_road_used: v.turn.free_road_used,
            extra_action_used: v.turn.extra_action_used,
            cities_settled: v.turn.cities_settled,
            trolley_moves: v.turn.trolley_moves,
            loaded_here: marks_from(rules, "/turn/loaded_here", &v.turn.loaded_here)?,
            unloaded_here: marks_from(rules, "/turn/unloaded_here", &v.turn.unloaded_here)?,
        },
    };

    // Privileges.
    if v.privilege_deck.len() > s.deck.len() {
        return Err(bad("privilege deck too large"));
    }
    for (slot, k) in s.deck.iter_mut().zip(v.privilege_deck.iter().rev()) {
        *slot = k.index();
    }
    s.deck_len = v.privilege_deck.len() as u8;
    if v.privilege_row.len() > s.row.len() {
        return Err(bad("privilege row too long"));
    }
    let mut free = 0;
    for (i, c) in v.privilege_row.iter().enumerate() {
        s.row[i] = c.privilege.index();
        if c.price == 0 {
            if free != i {
                return Err(bad("the $0 privileges must be on the left of the row (left of the price token)"));
            }
            free += 1;
        } else if c.price != rules.market.price {
            return Err(bad(format!("a privilege costs 0 or {}, not {}", rules.market.price, c.price)));
        }
    }
    s.row_len = v.privilege_row.len() as u8;
    s.free = free as u8;

    // Map.
    for (t, terrain) in v.terrain.0.iter().enumerate() {
        s.terrain[t] = terrain.index();
    }
    for (name, goods) in &v.lying_goods {
        let t =
            usize::from(tile_of(rules, &format!("/lying_goods/{}", rulesmith_game::game::pointer_token(name)), name)?);
        s.loose[t] = goods.array();
    }
    for (i, (c, cv)) in rules.cities.iter().zip(&v.cities.0).enumerate() {
        if cv.tile != c.tile.map_or("?", |t| rules.tile_name(t)) || cv.goods != rules.good_name(c.goods) {
            return Err(bad(format!("city {}: `tile` and `goods` are fixed by the ruleset", c.id)));
        }
        if cv.demands.len() != c.demands.len()
            || cv.demands.iter().zip(&c.demands).any(|(d, &g)| d.goods != rules.good_name(g))
        {
            return Err(bad(format!(
                "city {}: the demand list is fixed by the ruleset; only `covered` may change",
                c.id
            )));
        }
        s.city_stock[i] = cv.stock;
        for (k, d) in cv.demands.iter().enumerate() {
            if d.covered {
                s.covered[i].set_covered(k);
            }
        }
    }

    // Players.
    for (seat, pv) in v.players.iter().enumerate() {
        let mut p = Player { money: pv.money, last_income: pv.last_income, ..Player::default() };
        p.capital = OptId::from(pv.capital.as_ref().and_then(|c| rules.cities.get(usize::from(c.index()))?.tile));
        p.movement_level =
            rules.trolley.movement.iter().position(|&m| m == pv.movement_points).ok_or_else(|| {
                bad(format!("player {seat}: movement_points must be one of {:?}", rules.trolley.movement))
            })? as u8;
        p.holds_level = rules
            .trolley
            .holds
            .iter()
            .position(|&m| m == pv.cargo_holds)
            .ok_or_else(|| bad(format!("player {seat}: cargo_holds must be one of {:?}", rules.trolley.holds)))?
            as u8;
        let at = |key: &str| format!("/players/{seat}/{key}");
        for (k, _) in pv.privileges.0.iter().enumerate().filter(|(_, owned)| **owned) {
            p.privileges |= 1 << k;
        }
        for t in &pv.settlements {
            if p.settlements & (1 << t.index()) != 0 {
                return Err(bad(format!("player {seat}: settlement {} listed twice", rules.tile_name(t.index()))));
            }
            p.settlements |= 1 << t.index();
        }
        let mut on_board = 0u32;
        for (name, pieces) in &pv.residents {
            let t = tile_of(rules, &at(&format!("residents/{name}")), name)?;
            if !p.owns(t) {
                return Err(bad(format!(
                    "player {seat}: residents on {name}, which is neither the capital nor a settlement"
                )));
            }
            let t = usize::from(t);
            p.active[t] = pieces.active;
            p.moved[t] = pieces.moved;
            p.exhausted[t] = pieces.exhausted;
            on_board += u32::from(pieces.active) + u32::from(pieces.moved) + u32::from(pieces.exhausted);
        }
        for (i, r) in pv.roads.iter().enumerate() {
            let path = at(&format!("roads/{i}"));
            let (a, b) = r.split_once('-').ok_or_else(|| bad(format!("{path}: road `{r}`: expected `a1-b1`")))?;
            let (a, b) = (tile_of(rules, &path, a)?, tile_of(rules, &path, b)?);
            let e = rules.edge(a, b).ok_or_else(|| bad(format!("road `{r}`: the tiles are not adjacent")))?;
            if p.has_road(e) {
                return Err(bad(format!("player {seat}: road {r} listed twice")));
            }
            p.set_road(e);
            p.network |= 1 << a | 1 << b;
        }
        p.open_roads = crate::residents::open_roads(rules, &p);
        p.tiles = crate::purchase::resident_tiles(rules, &p);
        let half = pv
            .trolley
            .movement_left
            .as_f64()
            .map(|x| x * 2.0)
            .filter(|h| h.fract() == 0.0 && (0.0..=255.0).contains(h))
            .ok_or_else(|| bad(format!("player {seat}: movement_left must be a multiple of 0.5")))?;
        p.trolley = Trolley {
            tile: OptId::from(pv.trolley.tile.as_ref().map(Id::index)),
            half_mp: half as u8,
            goods: pv.trolley.goods.array(),
            residents: pv.trolley.residents,
        };
        p.delivered = pv.delivered.array();
        // Storage is what is not on the map.
        let total_r = u32::from(rules.setup.residents[players]);
        let used_r = on_board + u32::from(p.trolley.residents);
        let total_s = u32::from(rules.setup.settlements[players]);
        let used_s = p.settlements.count_ones();
        if used_r > total_r || used_s > total_s {
            return Err(bad(format!(
                "player {seat} uses {used_r} residents and {used_s} settlements; the game gives {total_r} and {total_s}"
            )));
        }
        p.residents_in_storage = (total_r - used_r) as u8;
        p.settlements_in_storage = (total_s - used_s) as u8;
        s.p[seat as Seat] = p;
    }
    check(rules, &s)?;
    Ok(s)
}
