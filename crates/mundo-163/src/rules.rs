//! The validated ruleset: every number, table and the map. The merged TOML tree is read
//! into the raw structs of [`crate::raw`] by the core's deserializer, then validated here
//! in one step, every problem reported (file:line:col), never stopping at the first.

use crate::raw::{self, Raw};
use rulesmith_core::MAX_PLAYERS;
use rulesmith_core::ruleset::de::{self, Int, Located};
use rulesmith_core::ruleset::{Diagnostics, Node, Origin};

/// Most map tiles (one bit each in a `u64`).
pub const MAX_TILES: usize = 64;
/// Most adjacent pairs on a hex map of [`MAX_TILES`] tiles (each tile has ≤ 6 sides).
pub const MAX_EDGES: usize = 192;
pub const MAX_GOODS: usize = 8;
pub const MAX_CITIES: usize = 16;
pub const MAX_DEMANDS: usize = 8;
pub const MAX_TERRAINS: usize = 8;
pub const MAX_PRIVILEGE_TYPES: usize = 32;
pub const MAX_DECK: usize = 64;
pub const MAX_ROW: usize = 16;
/// "No tile" / "no city" in `u8` fields.
pub const NONE: u8 = u8::MAX;

/// Axial neighbour directions of pointy-top hexes (REF §3 "Coordinates").
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerrainKind {
    City,
    Land,
    Water,
}

#[derive(Clone, Debug)]
pub struct Terrain {
    pub name: String,
    pub kind: TerrainKind,
    /// Residents a road costs when this is the dearer end.
    pub road_residents: u8,
    /// Trolley cost to enter off-road, in half movement points.
    pub enter_half: u8,
    /// $ per counted tile in 3 H (land only).
    pub income: i32,
    /// Has a column on the majority board.
    pub counted: bool,
}

#[derive(Clone, Debug)]
pub struct Hex {
    pub name: String,
    pub q: i32,
    pub r: i32,
    pub terrain: u8,
    /// City index, or [`NONE`].
    pub city: u8,
}

#[derive(Clone, Debug)]
pub struct City {
    pub id: String,
    pub tile: u8,
    pub goods: u8,
    pub demands: Vec<u8>,
}

/// What a privilege does: the effect kinds of World 163 (REF §2.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Each city on which the player placed a settlement this turn pays `money` in 3 H.
    CitySettlementIncome { money: i32 },
    /// Each trolley upgrade costs `money` less.
    UpgradeDiscount { money: i32 },
    /// A road touching `terrain` costs at most `residents` for that end.
    RoadCost { terrain: u8, residents: u8 },
    /// Victory points at the final scoring.
    VictoryPoints { vp: i32 },
    /// Residents cost `money` each.
    ResidentPrice { money: i32 },
    /// The trolley gets more movement every turn (half points).
    ExtraMovement { half: u8 },
    /// The trolley enters `terrain` for this many half points (even by road).
    TrolleyEnterCost { terrain: u8, half: u8 },
    /// Once a turn, one resident takes a second action.
    ExtraResidentAction,
    /// Once a turn, one road costs no residents.
    FreeRoad,
}

#[derive(Clone, Debug)]
pub struct PrivilegeType {
    pub id: String,
    pub label: String,
    /// Card back I, II, III … (lower backs are drawn first).
    pub back: u8,
    pub effects: Vec<Effect>,
}

/// The validated rules of World 163.
#[derive(Clone, Debug)]
pub struct Rules {
    pub name: String,
    pub min_players: usize,
    pub max_players: usize,
    pub goods: Vec<String>,
    pub terrains: Vec<Terrain>,
    pub hexes: Vec<Hex>,
    /// Per tile: (neighbour tile, edge index), neighbours in direction order.
    pub adjacency: Vec<Vec<(u8, u8)>>,
    /// Edges as (lower tile, higher tile), sorted.
    pub edges: Vec<(u8, u8)>,
    pub cities: Vec<City>,
    pub deal_shuffled: bool,
    pub goods_per_city: u8,
    pub starting_money: i32,
    /// Indexed by player count.
    pub residents: [u8; MAX_PLAYERS + 1],
    pub settlements: [u8; MAX_PLAYERS + 1],
    pub trolley_start_goods: u8,
    pub resident_price: i32,
    pub capital_limit: u8,
    pub settlement_limit: u8,
    pub limits_always: bool,
    pub opposing_road_extra: u8,
    pub residents_returned: u8,
    pub movement: Vec<u8>,
    pub movement_upgrade_cost: i32,
    pub holds: Vec<u8>,
    pub holds_upgrade_cost: i32,
    pub goods_per_hold: u8,
    pub residents_per_hold: u8,
    pub own_road_half: u8,
    pub needs_own_tile: bool,
    /// Residents still aboard when 3 E ends are unloaded where the trolley stands (else
    /// they may stay aboard for later turns).
    pub unload_at_end: bool,
    pub max_moves: u8,
    pub privilege_price: i32,
    pub initial_row: [u8; MAX_PLAYERS + 1],
    pub refill_below: [u8; MAX_PLAYERS + 1],
    pub full_sets: [u8; MAX_PLAYERS + 1],
    pub random_extra: [u8; MAX_PLAYERS + 1],
    pub privileges: Vec<PrivilegeType>,
    pub income_capital: i32,
    pub income_per_city: i32,
    pub income_complete_set: i32,
    pub cap_by_cities: bool,
    pub end_delivered: [u16; MAX_PLAYERS + 1],
    pub max_rounds: u32,
    pub goods_of_a_kind: Vec<i32>,
    pub complete_set_vp: i32,
}

impl Rules {
    pub fn tiles(&self) -> usize {
        self.hexes.len()
    }

    pub fn tile_by_name(&self, name: &str) -> Option<u8> {
        self.hexes.iter().position(|h| h.name == name).map(|i| i as u8)
    }

    pub fn good_by_name(&self, name: &str) -> Option<u8> {
        self.goods.iter().position(|g| g == name).map(|i| i as u8)
    }

    pub fn privilege_by_id(&self, id: &str) -> Option<u8> {
        self.privileges.iter().position(|p| p.id == id).map(|i| i as u8)
    }

    pub fn city_by_id(&self, id: &str) -> Option<u8> {
        self.cities.iter().position(|c| c.id == id).map(|i| i as u8)
    }

    pub fn terrain_by_name(&self, name: &str) -> Option<u8> {
        self.terrains.iter().position(|t| t.name == name).map(|i| i as u8)
    }

    pub fn tile_name(&self, tile: u8) -> &str {
        self.hexes.get(tile as usize).map_or("?", |h| h.name.as_str())
    }

    pub fn good_name(&self, good: u8) -> &str {
        self.goods.get(good as usize).map_or("?", String::as_str)
    }

    /// The edge between two tiles, if they are adjacent.
    pub fn edge(&self, a: u8, b: u8) -> Option<u8> {
        self.adjacency.get(a as usize)?.iter().find(|&&(n, _)| n == b).map(|&(_, e)| e)
    }

    /// The city standing on a tile, or [`NONE`].
    pub fn city_at(&self, tile: u8) -> u8 {
        self.hexes.get(tile as usize).map_or(NONE, |h| h.city)
    }

    /// Every privilege card of the deck pool for `players`: full sets, and how many more
    /// are drawn at random from one further set.
    pub fn deck_size(&self, players: usize) -> usize {
        self.privileges.len() * usize::from(self.full_sets[players]) + usize::from(self.random_extra[players])
    }
}

/// Decodes the whole merged ruleset tree. `None` if anything was wrong (all reported).
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Rules> {
    let before = d.len();
    let raw: Raw = de::from_tree(tree, d)?;
    validate(raw, before, d)
}

/// The validation step: ranges, names, references and the checks that need everything.
/// `None` if `d` grew since `before` (reading problems included).
fn validate(raw: Raw, before: usize, d: &mut Diagnostics) -> Option<Rules> {
    let name = raw.ruleset.name.clone().unwrap_or_else(|| "mundo-163".to_string());

    // [players]
    let p = &raw.players.value;
    let (min, max) = (p.min.get(), p.max.get());
    let (min_players, max_players) = match (min, max) {
        (Some(a), Some(b)) if a <= b => (a as usize, b as usize),
        (Some(a), Some(b)) => {
            d.error(raw.players.origin, format!("players: min {a} is more than max {b}"));
            (2, 2)
        }
        _ => (2, 2),
    };
    let players = min_players..=max_players;

    // goods
    let types = &raw.goods.types;
    let names: Vec<&str> = types.value.iter().map(String::as_str).collect();
    check_names(types.origin, d, &names, "goods", MAX_GOODS);
    let goods: Vec<String> = types.value.clone();

    // terrains (in file order: their indices are the map's)
    let entries = &raw.terrains.value.0;
    if entries.is_empty() || entries.len() > MAX_TERRAINS {
        d.error(raw.terrains.origin, format!("expected 1 to {MAX_TERRAINS} terrains, found {}", entries.len()));
    }
    let mut terrains = Vec::new();
    for (key, t) in entries {
        if !is_word(&key.value) {
            d.error(key.origin, format!("terrain name `{}` must be a lowercase word", key.value));
        }
        let t = &t.value;
        let kind = match t.kind {
            raw::TerrainKind::City => TerrainKind::City,
            raw::TerrainKind::Land => TerrainKind::Land,
            raw::TerrainKind::Water => TerrainKind::Water,
        };
        let road = t.road_residents.get();
        let enter = half_points(&t.enter_mp, d);
        let income = match (kind, &t.income) {
            (TerrainKind::Land, Some(n)) => n.get(),
            (TerrainKind::Land, None) => {
                d.error(key.origin, format!("missing key `income` for land terrain `{}`", key.value));
                None
            }
            (_, Some(n)) => {
                d.error(n.origin, "only land terrains take `income` (cities pay per connected city)");
                None
            }
            (_, None) => Some(0),
        };
        if kind == TerrainKind::Water && t.counted {
            d.error(key.origin, "water cannot be counted on the majority board");
        }
        if let (Some(road), Some(enter), Some(income)) = (road, enter, income) {
            terrains.push(Terrain {
                name: key.value.clone(),
                kind,
                road_residents: road as u8,
                enter_half: enter,
                income: income as i32,
                counted: t.counted,
            });
        }
    }
    let city_terrains = terrains.iter().filter(|t| t.kind == TerrainKind::City).count();
    if city_terrains != 1 && d.len() == before {
        d.error(raw.terrains.origin, format!("expected exactly one terrain of kind \"city\", found {city_terrains}"));
    }
    let terrain_idx = |name: &str| terrains.iter().position(|t| t.name == name).map(|i| i as u8);

    // [[cities]] (before the map, so that the hexes can refer to them)
    let items = &raw.cities.value;
    if items.is_empty() || items.len() > MAX_CITIES {
        d.error(raw.cities.origin, format!("expected 1 to {MAX_CITIES} cities, found {}", items.len()));
    }
    let mut cities: Vec<City> = Vec::new();
    let mut city_origins: Vec<Origin> = Vec::new();
    for item in items {
        let c = &item.value;
        let good = good_ref(&c.goods, d, &goods);
        if c.demands.value.len() > MAX_DEMANDS {
            d.error(
                c.demands.origin,
                format!("a city demands at most {MAX_DEMANDS} goods, found {}", c.demands.value.len()),
            );
        }
        let demands: Option<Vec<u8>> = c.demands.value.iter().map(|g| good_ref(g, d, &goods)).collect();
        let Some(id) = de::id(&c.id, d) else { continue };
        if !is_word(id) {
            d.error(item.origin, format!("city id `{id}` must be a lowercase word or number"));
        }
        if cities.iter().any(|x| x.id == id) {
            d.error(item.origin, format!("city `{id}` is listed twice"));
        }
        // Kept even when its goods are wrong (already reported), so that the map does not
        // report the city as unknown too.
        cities.push(City {
            id: id.to_string(),
            tile: NONE,
            goods: good.unwrap_or(0),
            demands: demands.unwrap_or_default(),
        });
        city_origins.push(item.origin);
    }

    // [map]
    let map = &raw.map.value;
    let deal_shuffled = map.deal_land == raw::DealLand::Shuffled;
    let goods_per_city = map.goods_per_city.value as u8;
    let mut hexes: Vec<Hex> = Vec::new();
    if map.hexes.value.is_empty() || map.hexes.value.len() > MAX_TILES {
        d.error(raw.map.origin, format!("expected 1 to {MAX_TILES} hexes, found {}", map.hexes.value.len()));
    }
    for item in map.hexes.value.iter().take(MAX_TILES) {
        let h = &item.value;
        let (q, r) = (h.q.get(), h.r.get());
        let (Some(q), Some(r)) = (q, r) else { continue };
        let name = h.name.as_str();
        if !is_word(name) || name.contains('-') {
            d.error(item.origin, format!("tile name `{name}` must be lowercase letters and digits"));
        }
        if hexes.iter().any(|x| x.name == name) {
            d.error(item.origin, format!("tile `{name}` is listed twice"));
        }
        if hexes.iter().any(|x| x.q == q as i32 && x.r == r as i32) {
            d.error(item.origin, format!("two tiles at q = {q}, r = {r}"));
        }
        let Some(ti) = terrain_idx(&h.terrain) else {
            let known: Vec<&str> = terrains.iter().map(|t| t.name.as_str()).collect();
            d.error(item.origin, format!("unknown terrain `{}`: expected one of {}", h.terrain, known.join(", ")));
            continue;
        };
        let is_city = terrains[ti as usize].kind == TerrainKind::City;
        let mut city_idx = NONE;
        match (is_city, &h.city) {
            (true, Some(c)) => match cities.iter().position(|x| x.id == c.value) {
                Some(ci) if cities[ci].tile == NONE => {
                    cities[ci].tile = hexes.len() as u8;
                    city_idx = ci as u8;
                }
                Some(_) => d.error(c.origin, format!("city `{}` stands on two tiles", c.value)),
                None => d.error(c.origin, format!("unknown city `{}`: not in [[cities]]", c.value)),
            },
            (true, None) => d.error(item.origin, format!("city tile `{name}` needs `city = \"<id>\"`")),
            (false, Some(c)) => d.error(c.origin, format!("tile `{name}` is not a city but names one")),
            (false, None) => {}
        }
        hexes.push(Hex { name: name.to_string(), q: q as i32, r: r as i32, terrain: ti, city: city_idx });
    }
    for (c, origin) in cities.iter().zip(&city_origins) {
        if c.tile == NONE && !hexes.is_empty() {
            d.error(*origin, format!("city `{}` stands on no tile of the map", c.id));
        }
    }
    let distinct_goods = cities.iter().fold(0u32, |seen, c| seen | (1 << c.goods)).count_ones() as usize;
    if !cities.is_empty() && distinct_goods < max_players {
        d.error(
            raw.cities.origin,
            format!(
                "capitals need distinct goods: the cities offer {distinct_goods} goods types but up to {max_players} players play"
            ),
        );
    }
    for (g, name) in goods.iter().enumerate() {
        let n = cities.iter().filter(|c| usize::from(c.goods) == g).count() * usize::from(goods_per_city);
        if n > 200 {
            d.error(raw.cities.origin, format!("{n} goods of type `{name}` on the map; at most 200"));
        }
    }
    let (adjacency, edges) = adjacency_of(&hexes);

    // [setup], [purchase], [roads]
    let s = &raw.setup;
    let starting_money = s.starting_money.value as i32;
    let residents = per_players_u8(&s.residents, players.clone(), 1..=200, d);
    let settlements = per_players_u8(&s.settlements, players.clone(), 1..=200, d);
    let trolley_start_goods = s.trolley_start_goods.value as u8;
    let pu = &raw.purchase;
    let resident_price = pu.resident_price.value as i32;
    let capital_limit = pu.capital_limit.value as u8;
    let settlement_limit = pu.settlement_limit.value as u8;
    let opposing_road_extra = raw.roads.opposing_road_extra.value as u8;
    let residents_returned = raw.roads.residents_returned.value as u8;

    // [trolley]
    let t = &raw.trolley;
    let movement = levels(&t.movement, 0..=20, d).unwrap_or_default();
    let movement_upgrade_cost = t.movement_upgrade_cost.value as i32;
    let holds = levels(&t.holds, 1..=4, d).unwrap_or_default();
    let holds_upgrade_cost = t.holds_upgrade_cost.value as i32;
    let goods_per_hold = t.goods_per_hold.value as u8;
    let residents_per_hold = t.residents_per_hold.value as u8;
    let own_road_half = half_points(&t.own_road_mp, d).unwrap_or(0);
    let max_moves = t.max_moves_per_turn.value as u8;

    // [privileges] and [[privilege_types]]
    let pr = &raw.privileges.value;
    // A price of 0 would make "for 0" ambiguous in the notation.
    let privilege_price = pr.price.value as i32;
    let initial_row = per_players_u8(&pr.initial_row, players.clone(), 0..=MAX_ROW as i64, d);
    let refill_below = per_players_u8(&pr.refill_below, players.clone(), 0..=MAX_ROW as i64, d);
    let full_sets = per_players_u8(&pr.full_sets, players.clone(), 0..=4, d);
    let random_extra = per_players_u8(&pr.random_extra, players.clone(), 0..=MAX_PRIVILEGE_TYPES as i64, d);
    let types = &raw.privilege_types;
    if types.value.len() > MAX_PRIVILEGE_TYPES {
        d.error(types.origin, format!("at most {MAX_PRIVILEGE_TYPES} privilege types, found {}", types.value.len()));
    }
    let mut privileges: Vec<PrivilegeType> = Vec::new();
    for item in types.value.iter().take(MAX_PRIVILEGE_TYPES) {
        let pt = &item.value;
        let back = pt.back.get();
        let effects: Vec<Effect> = pt.effects.iter().filter_map(|e| effect(e, &terrains, d)).collect();
        let (Some(id), Some(back)) = (de::id(&pt.id, d), back) else { continue };
        if !is_word(id) || id == "resident" {
            d.error(item.origin, format!("privilege id `{id}` must be a lowercase word other than `resident`"));
        }
        if privileges.iter().any(|p| p.id == id) {
            d.error(item.origin, format!("privilege `{id}` is listed twice"));
        }
        let label = pt.label.clone().filter(|l| !l.is_empty()).unwrap_or_else(|| id.to_string());
        privileges.push(PrivilegeType { id: id.to_string(), label, back: back as u8, effects });
    }
    for p in players.clone() {
        if usize::from(random_extra[p]) > privileges.len() {
            d.error(
                raw.privileges.origin,
                format!(
                    "random_extra for {p} players is {} but there are only {} privilege types",
                    random_extra[p],
                    privileges.len()
                ),
            );
        }
        let size = privileges.len() * usize::from(full_sets[p]) + usize::from(random_extra[p]);
        if size > MAX_DECK {
            d.error(
                raw.privileges.origin,
                format!("the privilege deck for {p} players has {size} cards; at most {MAX_DECK}"),
            );
        }
    }

    // [income], [end], [scoring]
    let i = &raw.income;
    let income_capital = i.capital.value as i32;
    let income_per_city = i.per_additional_city.value as i32;
    let income_complete_set = i.complete_set.value as i32;
    let delivered = per_players_u8(&raw.end.delivered_goods, players.clone(), 1..=255, d);
    let end_delivered = delivered.map(u16::from);
    let max_rounds = raw.end.max_rounds.value as u32;
    let kinds = &raw.scoring.goods_of_a_kind;
    let goods_of_a_kind: Vec<i32> = kinds.value.iter().filter_map(Int::get).map(|v| v as i32).collect();
    if kinds.value.is_empty() {
        d.error(kinds.origin, "expected at least one value (VP for 1 good of a type)");
    }
    let complete_set_vp = raw.scoring.complete_set.value as i32;

    // Semantic cross-checks that need everything.
    if !goods.is_empty() && goods.len() < 2 && d.len() == before {
        d.error(types_origin(&raw), "expected at least 2 goods types");
    }
    if d.len() != before {
        return None;
    }
    Some(Rules {
        name,
        min_players,
        max_players,
        goods,
        terrains,
        hexes,
        adjacency,
        edges,
        cities,
        deal_shuffled,
        goods_per_city,
        starting_money,
        residents,
        settlements,
        trolley_start_goods,
        resident_price,
        capital_limit,
        settlement_limit,
        limits_always: pu.limits_always,
        opposing_road_extra,
        residents_returned,
        movement,
        movement_upgrade_cost,
        holds,
        holds_upgrade_cost,
        goods_per_hold,
        residents_per_hold,
        own_road_half,
        needs_own_tile: t.needs_own_tile_without_residents,
        unload_at_end: t.residents_aboard_at_end == raw::AboardAtEnd::Unload,
        max_moves,
        privilege_price,
        initial_row,
        refill_below,
        full_sets,
        random_extra,
        privileges,
        income_capital,
        income_per_city,
        income_complete_set,
        cap_by_cities: i.cap_by_connected_cities,
        end_delivered,
        max_rounds,
        goods_of_a_kind,
        complete_set_vp,
    })
}

fn types_origin(raw: &Raw) -> Origin {
    raw.goods.types.origin
}

fn int(v: &Located<i64>, range: std::ops::RangeInclusive<i64>, d: &mut Diagnostics) -> Option<i64> {
    de::int_in(v, range, d)
}

/// Per tile: (neighbour tile, edge index), in direction order.
type Adjacency = Vec<Vec<(u8, u8)>>;

/// Tiles' neighbours in direction order, and the edges between them (sorted pairs).
fn adjacency_of(hexes: &[Hex]) -> (Adjacency, Vec<(u8, u8)>) {
    let mut adjacency: Vec<Vec<(u8, u8)>> = vec![Vec::new(); hexes.len()];
    let mut edges: Vec<(u8, u8)> = Vec::new();
    let at = |q: i32, r: i32| hexes.iter().position(|x| x.q == q && x.r == r);
    for (a, h) in hexes.iter().enumerate() {
        for (dq, dr) in DIRECTIONS {
            if let Some(b) = at(h.q + dq, h.r + dr) {
                if a < b {
                    edges.push((a as u8, b as u8));
                }
            }
        }
    }
    edges.sort_unstable();
    for (a, h) in hexes.iter().enumerate() {
        for (dq, dr) in DIRECTIONS {
            if let Some(b) = at(h.q + dq, h.r + dr) {
                let key = (a.min(b) as u8, a.max(b) as u8);
                if let Ok(e) = edges.binary_search(&key) {
                    adjacency[a].push((b as u8, e as u8));
                }
            }
        }
    }
    (adjacency, edges)
}

/// Lowercase letters, digits, `-` and `_`, starting with a letter or digit.
pub fn is_word(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
}

fn check_names(origin: Origin, d: &mut Diagnostics, names: &[&str], what: &str, max: usize) {
    if names.is_empty() || names.len() > max {
        d.error(origin, format!("expected 1 to {max} {what} names, found {}", names.len()));
    }
    for (i, name) in names.iter().enumerate() {
        if !is_word(name) || *name == "resident" {
            d.error(origin, format!("{what} name `{name}` must be a lowercase word other than `resident`"));
        }
        if names[..i].contains(name) {
            d.error(origin, format!("{what} `{name}` is listed twice"));
        }
    }
}

fn good_ref(n: &Located<String>, d: &mut Diagnostics, goods: &[String]) -> Option<u8> {
    match goods.iter().position(|g| *g == n.value) {
        Some(i) => Some(i as u8),
        None => {
            d.error(n.origin, format!("unknown goods `{}`: expected one of {}", n.value, goods.join(", ")));
            None
        }
    }
}

/// A movement cost in MP, a multiple of 0.5, as half points.
fn half_points(n: &Located<f64>, d: &mut Diagnostics) -> Option<u8> {
    let v = n.value;
    let half = v * 2.0;
    if !(0.0..=40.0).contains(&half) || half.fract() != 0.0 {
        d.error(n.origin, format!("{v} is not a movement cost: expected a multiple of 0.5 from 0 to 20"));
        return None;
    }
    Some(half as u8)
}

fn levels(
    n: &Located<Vec<Located<i64>>>,
    range: std::ops::RangeInclusive<i64>,
    d: &mut Diagnostics,
) -> Option<Vec<u8>> {
    let v: Vec<Option<i64>> = n.value.iter().map(|x| int(x, range.clone(), d)).collect();
    let v: Vec<i64> = v.into_iter().collect::<Option<_>>()?;
    if v.is_empty() || v.len() > 8 {
        d.error(n.origin, format!("expected 1 to 8 levels, found {}", v.len()));
        return None;
    }
    if v.windows(2).any(|w| w[1] <= w[0]) {
        d.error(n.origin, "levels must increase");
        return None;
    }
    Some(v.into_iter().map(|x| x as u8).collect())
}

fn per_players_u8(
    table: &raw::PerPlayers,
    players: std::ops::RangeInclusive<usize>,
    range: std::ops::RangeInclusive<i64>,
    d: &mut Diagnostics,
) -> [u8; MAX_PLAYERS + 1] {
    let mut out = [0u8; MAX_PLAYERS + 1];
    if let Some(v) = de::per_players(table, players, range, d) {
        for (p, x) in v.into_iter().enumerate() {
            if let (Some(x), Some(slot)) = (x, out.get_mut(p)) {
                *slot = x as u8;
            }
        }
    }
    out
}

/// An effect: its kind and exactly the parameters that kind takes.
fn effect(e: &Located<raw::Effect>, terrains: &[Terrain], d: &mut Diagnostics) -> Option<Effect> {
    use raw::Effect as R;
    let money = |m: &raw::Money| m.get().map(|m| m as i32);
    let terrain = |t: &Located<String>, d: &mut Diagnostics| {
        let found = terrains.iter().position(|x| x.name == t.value).map(|i| i as u8);
        if found.is_none() {
            let known: Vec<&str> = terrains.iter().map(|x| x.name.as_str()).collect();
            d.error(t.origin, format!("unknown terrain `{}`: expected one of {}", t.value, known.join(", ")));
        }
        found
    };
    match &e.value {
        R::CitySettlementIncome { money: m } => money(m).map(|money| Effect::CitySettlementIncome { money }),
        R::UpgradeDiscount { money: m } => money(m).map(|money| Effect::UpgradeDiscount { money }),
        R::ResidentPrice { money: m } => money(m).map(|money| Effect::ResidentPrice { money }),
        R::RoadCost { terrain: t, residents } => {
            Some(Effect::RoadCost { terrain: terrain(t, d)?, residents: residents.get()? as u8 })
        }
        R::VictoryPoints { vp } => vp.get().map(|vp| Effect::VictoryPoints { vp: vp as i32 }),
        R::ExtraMovement { mp } => half_points(mp, d).map(|half| Effect::ExtraMovement { half }),
        R::TrolleyEnterCost { terrain: t, mp } => {
            let (terrain, half) = (terrain(t, d), half_points(mp, d));
            Some(Effect::TrolleyEnterCost { terrain: terrain?, half: half? })
        }
        R::ExtraResidentAction => Some(Effect::ExtraResidentAction),
        R::FreeRoad => Some(Effect::FreeRoad),
    }
}
