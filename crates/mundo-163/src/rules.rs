//! The validated ruleset: every number, table and the map, decoded from the merged TOML
//! tree with every problem reported (file:line:col), never stopping at the first.

use rulesmith_core::MAX_PLAYERS;
use rulesmith_core::ruleset::decode::{self, Table};
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

pub const EFFECT_KINDS: &[&str] = &[
    "city_settlement_income",
    "upgrade_discount",
    "road_cost",
    "victory_points",
    "resident_price",
    "extra_movement",
    "trolley_enter_cost",
    "extra_resident_action",
    "free_road",
];

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
    let mut root = Table::new(tree, d)?;
    // The loader checks `[ruleset]`'s keys; we only read the name.
    let name =
        root.get("ruleset").and_then(|r| r.get("name")).and_then(Node::as_str).unwrap_or("mundo-163").to_string();

    // [players]
    let (min_players, max_players) = match root.table(d, "players") {
        Some(mut t) => {
            let min = t.int(d, "min", 2..=MAX_PLAYERS as i64);
            let max = t.int(d, "max", 2..=MAX_PLAYERS as i64);
            t.finish(d);
            match (min, max) {
                (Some(a), Some(b)) if a <= b => (a as usize, b as usize),
                (Some(a), Some(b)) => {
                    d.error(t_origin(tree, "players"), format!("players: min {a} is more than max {b}"));
                    (2, 4)
                }
                _ => (2, 4),
            }
        }
        None => (2, 4),
    };
    let players = min_players..=max_players;

    // goods
    let mut goods: Vec<String> = Vec::new();
    if let Some(mut t) = root.table(d, "goods") {
        if let Some(n) = t.req(d, "types", "a list of goods names") {
            let names = decode::strs_of(n, d).unwrap_or_default();
            check_names(n, d, &names, "goods", MAX_GOODS);
            goods = names.iter().map(|s| s.to_string()).collect();
        }
        t.finish(d);
    }

    // terrains
    let mut terrains = Vec::new();
    if let Some(mut t) = root.table(d, "terrains") {
        let entries = t.entries_as_map();
        if entries.is_empty() || entries.len() > MAX_TERRAINS {
            d.error(t.origin(), format!("expected 1 to {MAX_TERRAINS} terrains, found {}", entries.len()));
        }
        for e in entries {
            if !is_word(&e.key) {
                d.error(e.key_origin, format!("terrain name `{}` must be a lowercase word", e.key));
            }
            let Some(mut tt) = Table::new(&e.value, d) else { continue };
            let kind = tt.choice(d, "kind", &["city", "land", "water"]);
            let road = tt.int(d, "road_residents", 0..=20);
            let enter = half_points(&mut tt, d, "enter_mp", None);
            let income = match (kind, tt.get("income")) {
                (Some(1), Some(n)) => decode::int_in(n, d, 0..=1000),
                (Some(1), None) => {
                    d.error(tt.origin(), format!("missing key `income` for land terrain `{}`", e.key));
                    None
                }
                (_, Some(n)) => {
                    d.error(n.origin, "only land terrains take `income` (cities pay per connected city)");
                    None
                }
                (_, None) => Some(0),
            };
            let counted = tt.bool(d, "counted");
            tt.finish(d);
            if let (Some(kind), Some(road), Some(enter), Some(income), Some(counted)) =
                (kind, road, enter, income, counted)
            {
                let kind = [TerrainKind::City, TerrainKind::Land, TerrainKind::Water][kind];
                if kind == TerrainKind::Water && counted {
                    d.error(e.key_origin, "water cannot be counted on the majority board");
                }
                terrains.push(Terrain {
                    name: e.key.clone(),
                    kind,
                    road_residents: road as u8,
                    enter_half: enter,
                    income: income as i32,
                    counted,
                });
            }
        }
        let origin = t.origin();
        t.finish(d);
        let cities = terrains.iter().filter(|t| t.kind == TerrainKind::City).count();
        if cities != 1 && d.len() == before {
            d.error(origin, format!("expected exactly one terrain of kind \"city\", found {cities}"));
        }
    }
    let terrain_idx = |name: &str| terrains.iter().position(|t| t.name == name).map(|i| i as u8);

    // [[cities]] (read before the map so the hexes can refer to them)
    let mut cities: Vec<City> = Vec::new();
    let mut city_origins: Vec<Origin> = Vec::new();
    if let Some(items) = root.array(d, "cities") {
        if items.is_empty() || items.len() > MAX_CITIES {
            d.error(t_origin(tree, "cities"), format!("expected 1 to {MAX_CITIES} cities, found {}", items.len()));
        }
        for item in items {
            let Some(mut t) = Table::new(item, d) else { continue };
            let id = t.str(d, "id");
            let g = t.get("goods");
            let good = g.and_then(|n| good_ref(n, d, &goods));
            if g.is_none() {
                d.error(t.origin(), "missing key `goods`: expected a goods name");
            }
            let demands: Option<Vec<u8>> = t.req(d, "demands", "a list of goods names").and_then(|n| {
                let items = decode::array_of(n, d)?;
                if items.len() > MAX_DEMANDS {
                    d.error(n.origin, format!("a city demands at most {MAX_DEMANDS} goods, found {}", items.len()));
                }
                let v: Vec<Option<u8>> = items.iter().map(|i| good_ref(i, d, &goods)).collect();
                v.into_iter().collect()
            });
            t.finish(d);
            if let Some(id) = id {
                if !is_word(id) {
                    d.error(item.origin, format!("city id `{id}` must be a lowercase word or number"));
                }
                if cities.iter().any(|c| c.id == id) {
                    d.error(item.origin, format!("city `{id}` is listed twice"));
                }
                // Kept even when its goods are wrong (already reported), so that the map
                // does not report the city as unknown too.
                cities.push(City {
                    id: id.to_string(),
                    tile: NONE,
                    goods: good.unwrap_or(0),
                    demands: demands.unwrap_or_default(),
                });
                city_origins.push(item.origin);
            }
        }
    }

    // [map]
    let mut hexes: Vec<Hex> = Vec::new();
    let mut deal_shuffled = false;
    let mut goods_per_city = 4u8;
    if let Some(mut t) = root.table(d, "map") {
        deal_shuffled = t.choice(d, "deal_land", &["fixed", "shuffled"]) == Some(1);
        goods_per_city = t.int(d, "goods_per_city", 0..=20).unwrap_or(4) as u8;
        if let Some(items) = t.array(d, "hexes") {
            if items.is_empty() || items.len() > MAX_TILES {
                d.error(t.origin(), format!("expected 1 to {MAX_TILES} hexes, found {}", items.len()));
            }
            for item in items.iter().take(MAX_TILES) {
                let Some(mut h) = Table::new(item, d) else { continue };
                let name = h.str(d, "name");
                let q = h.int(d, "q", -20..=20);
                let r = h.int(d, "r", -20..=20);
                let terrain = h.str(d, "terrain");
                let city = h.get("city");
                h.finish(d);
                let (Some(name), Some(q), Some(r), Some(terrain)) = (name, q, r, terrain) else { continue };
                if !is_word(name) || name.contains('-') {
                    d.error(item.origin, format!("tile name `{name}` must be lowercase letters and digits"));
                }
                if hexes.iter().any(|x| x.name == name) {
                    d.error(item.origin, format!("tile `{name}` is listed twice"));
                }
                if hexes.iter().any(|x| x.q == q as i32 && x.r == r as i32) {
                    d.error(item.origin, format!("two tiles at q = {q}, r = {r}"));
                }
                let Some(ti) = terrain_idx(terrain) else {
                    let known: Vec<&str> = terrains.iter().map(|t| t.name.as_str()).collect();
                    d.error(item.origin, format!("unknown terrain `{terrain}`: expected one of {}", known.join(", ")));
                    continue;
                };
                let is_city = terrains[ti as usize].kind == TerrainKind::City;
                let mut city_idx = NONE;
                match (is_city, city) {
                    (true, Some(c)) => {
                        if let Some(cid) = decode::str_of(c, d) {
                            match cities.iter().position(|x| x.id == cid) {
                                Some(ci) if cities[ci].tile == NONE => {
                                    cities[ci].tile = hexes.len() as u8;
                                    city_idx = ci as u8;
                                }
                                Some(_) => d.error(c.origin, format!("city `{cid}` stands on two tiles")),
                                None => d.error(c.origin, format!("unknown city `{cid}`: not in [[cities]]")),
                            }
                        }
                    }
                    (true, None) => d.error(item.origin, format!("city tile `{name}` needs `city = \"<id>\"`")),
                    (false, Some(c)) => d.error(c.origin, format!("tile `{name}` is not a city but names one")),
                    (false, None) => {}
                }
                hexes.push(Hex { name: name.to_string(), q: q as i32, r: r as i32, terrain: ti, city: city_idx });
            }
        }
        t.finish(d);
    }
    for (c, origin) in cities.iter().zip(&city_origins) {
        if c.tile == NONE && !hexes.is_empty() {
            d.error(*origin, format!("city `{}` stands on no tile of the map", c.id));
        }
    }
    let distinct_goods = {
        let mut seen = 0u32;
        for c in &cities {
            seen |= 1 << c.goods;
        }
        seen.count_ones() as usize
    };
    if !cities.is_empty() && distinct_goods < max_players {
        d.error(
            t_origin(tree, "cities"),
            format!(
                "capitals need distinct goods: the cities offer {distinct_goods} goods types but up to {max_players} players play"
            ),
        );
    }

    for (g, name) in goods.iter().enumerate() {
        let n = cities.iter().filter(|c| usize::from(c.goods) == g).count() * usize::from(goods_per_city);
        if n > 200 {
            d.error(t_origin(tree, "cities"), format!("{n} goods of type `{name}` on the map; at most 200"));
        }
    }

    // adjacency
    let mut adjacency: Vec<Vec<(u8, u8)>> = vec![Vec::new(); hexes.len()];
    let mut edges: Vec<(u8, u8)> = Vec::new();
    for (a, h) in hexes.iter().enumerate() {
        for (dq, dr) in DIRECTIONS {
            if let Some(b) = hexes.iter().position(|x| x.q == h.q + dq && x.r == h.r + dr) {
                if a < b {
                    edges.push((a as u8, b as u8));
                }
            }
        }
    }
    edges.sort_unstable();
    for (a, h) in hexes.iter().enumerate() {
        for (dq, dr) in DIRECTIONS {
            if let Some(b) = hexes.iter().position(|x| x.q == h.q + dq && x.r == h.r + dr) {
                let key = (a.min(b) as u8, a.max(b) as u8);
                if let Ok(e) = edges.binary_search(&key) {
                    adjacency[a].push((b as u8, e as u8));
                }
            }
        }
    }

    // [setup]
    let mut starting_money = 80;
    let mut residents = [0u8; MAX_PLAYERS + 1];
    let mut settlements = [0u8; MAX_PLAYERS + 1];
    let mut trolley_start_goods = 1;
    if let Some(mut t) = root.table(d, "setup") {
        starting_money = t.int(d, "starting_money", 0..=100_000).unwrap_or(80) as i32;
        residents = per_players_u8(&mut t, d, "residents", players.clone(), 1..=200);
        settlements = per_players_u8(&mut t, d, "settlements", players.clone(), 1..=200);
        trolley_start_goods = t.int(d, "trolley_start_goods", 0..=8).unwrap_or(1) as u8;
        t.finish(d);
    }

    // [purchase]
    let (mut resident_price, mut capital_limit, mut settlement_limit, mut limits_always) = (10, 9, 7, true);
    if let Some(mut t) = root.table(d, "purchase") {
        resident_price = t.int(d, "resident_price", 0..=10_000).unwrap_or(10) as i32;
        capital_limit = t.int(d, "capital_limit", 1..=200).unwrap_or(9) as u8;
        settlement_limit = t.int(d, "settlement_limit", 1..=200).unwrap_or(7) as u8;
        limits_always = t.bool(d, "limits_always").unwrap_or(true);
        t.finish(d);
    }

    // [roads]
    let (mut opposing_road_extra, mut residents_returned) = (1, 1);
    if let Some(mut t) = root.table(d, "roads") {
        opposing_road_extra = t.int(d, "opposing_road_extra", 0..=10).unwrap_or(1) as u8;
        residents_returned = t.int(d, "residents_returned", 0..=1).unwrap_or(1) as u8;
        t.finish(d);
    }

    // [trolley]
    let mut movement = vec![3, 4, 5, 7];
    let mut holds = vec![1, 2];
    let (mut movement_upgrade_cost, mut holds_upgrade_cost) = (50, 80);
    let (mut goods_per_hold, mut residents_per_hold) = (1, 2);
    let (mut own_road_half, mut needs_own_tile, mut max_moves) = (1, true, 40);
    let mut unload_at_end = true;
    if let Some(mut t) = root.table(d, "trolley") {
        movement = levels(&mut t, d, "movement", 0..=20).unwrap_or(movement);
        movement_upgrade_cost = t.int(d, "movement_upgrade_cost", 0..=10_000).unwrap_or(50) as i32;
        holds = levels(&mut t, d, "holds", 1..=4).unwrap_or(holds);
        holds_upgrade_cost = t.int(d, "holds_upgrade_cost", 0..=10_000).unwrap_or(80) as i32;
        goods_per_hold = t.int(d, "goods_per_hold", 0..=4).unwrap_or(1) as u8;
        residents_per_hold = t.int(d, "residents_per_hold", 0..=8).unwrap_or(2) as u8;
        own_road_half = half_points(&mut t, d, "own_road_mp", Some(1)).unwrap_or(1);
        needs_own_tile = t.bool(d, "needs_own_tile_without_residents").unwrap_or(true);
        unload_at_end = t.choice_or(d, "residents_aboard_at_end", 0, &["unload", "stay"]) != Some(1);
        max_moves = t.int(d, "max_moves_per_turn", 1..=200).unwrap_or(40) as u8;
        t.finish(d);
    }

    // [privileges] and [[privilege_types]]
    let mut privilege_price = 20;
    let mut initial_row = [0u8; MAX_PLAYERS + 1];
    let mut refill_below = [0u8; MAX_PLAYERS + 1];
    let mut full_sets = [0u8; MAX_PLAYERS + 1];
    let mut random_extra = [0u8; MAX_PLAYERS + 1];
    let privileges_origin = t_origin(tree, "privileges");
    if let Some(mut t) = root.table(d, "privileges") {
        // A price of 0 would make "for 0" ambiguous in the notation.
        privilege_price = t.int(d, "price", 1..=10_000).unwrap_or(20) as i32;
        initial_row = per_players_u8(&mut t, d, "initial_row", players.clone(), 0..=MAX_ROW as i64);
        refill_below = per_players_u8(&mut t, d, "refill_below", players.clone(), 0..=MAX_ROW as i64);
        full_sets = per_players_u8(&mut t, d, "full_sets", players.clone(), 0..=4);
        random_extra = per_players_u8(&mut t, d, "random_extra", players.clone(), 0..=MAX_PRIVILEGE_TYPES as i64);
        t.finish(d);
    }
    let mut privileges: Vec<PrivilegeType> = Vec::new();
    if let Some(items) = root.array(d, "privilege_types") {
        if items.len() > MAX_PRIVILEGE_TYPES {
            d.error(
                t_origin(tree, "privilege_types"),
                format!("at most {MAX_PRIVILEGE_TYPES} privilege types, found {}", items.len()),
            );
        }
        for item in items.iter().take(MAX_PRIVILEGE_TYPES) {
            let Some(mut t) = Table::new(item, d) else { continue };
            let id = t.str(d, "id");
            let label = t.str_or(d, "label", "");
            let back = t.int(d, "back", 1..=9);
            let effects = t
                .array(d, "effects")
                .map(|list| list.iter().filter_map(|e| decode_effect(e, d, &terrains)).collect::<Vec<_>>());
            t.finish(d);
            let (Some(id), Some(back), Some(effects)) = (id, back, effects) else { continue };
            if !is_word(id) || id == "resident" {
                d.error(item.origin, format!("privilege id `{id}` must be a lowercase word other than `resident`"));
            }
            if privileges.iter().any(|p| p.id == id) {
                d.error(item.origin, format!("privilege `{id}` is listed twice"));
            }
            let label = label.filter(|l| !l.is_empty()).unwrap_or(id).to_string();
            privileges.push(PrivilegeType { id: id.to_string(), label, back: back as u8, effects });
        }
    }
    for p in players.clone() {
        if usize::from(random_extra[p]) > privileges.len() {
            d.error(
                privileges_origin,
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
                privileges_origin,
                format!("the privilege deck for {p} players has {size} cards; at most {MAX_DECK}"),
            );
        }
    }

    // [income]
    let (mut income_capital, mut income_per_city, mut income_complete_set, mut cap_by_cities) = (20, 10, 10, true);
    if let Some(mut t) = root.table(d, "income") {
        income_capital = t.int(d, "capital", 0..=10_000).unwrap_or(20) as i32;
        income_per_city = t.int(d, "per_additional_city", 0..=10_000).unwrap_or(10) as i32;
        income_complete_set = t.int(d, "complete_set", 0..=10_000).unwrap_or(10) as i32;
        cap_by_cities = t.bool(d, "cap_by_connected_cities").unwrap_or(true);
        t.finish(d);
    }

    // [end]
    let mut end_delivered = [0u16; MAX_PLAYERS + 1];
    let mut max_rounds = 150;
    if let Some(mut t) = root.table(d, "end") {
        let v = per_players_u8(&mut t, d, "delivered_goods", players.clone(), 1..=255);
        for p in 0..=MAX_PLAYERS {
            end_delivered[p] = u16::from(v[p]);
        }
        max_rounds = t.int(d, "max_rounds", 1..=10_000).unwrap_or(150) as u32;
        t.finish(d);
    }

    // [scoring]
    let mut goods_of_a_kind = vec![5, 9, 12, 14, 15];
    let mut complete_set_vp = 2;
    if let Some(mut t) = root.table(d, "scoring") {
        if let Some(n) = t.req(d, "goods_of_a_kind", "a list of VP for 1, 2, 3 … goods of one type") {
            if let Some(v) = decode::ints_of(n, d, 0..=1000) {
                if v.is_empty() {
                    d.error(n.origin, "expected at least one value (VP for 1 good of a type)");
                } else {
                    goods_of_a_kind = v.into_iter().map(|x| x as i32).collect();
                }
            }
        }
        complete_set_vp = t.int(d, "complete_set", 0..=1000).unwrap_or(2) as i32;
        t.finish(d);
    }

    root.finish(d);

    // Semantic cross-checks that need everything.
    if !goods.is_empty() && goods.len() < 2 && d.len() == before {
        d.error(t_origin(tree, "goods"), "expected at least 2 goods types");
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
        limits_always,
        opposing_road_extra,
        residents_returned,
        movement,
        movement_upgrade_cost,
        holds,
        holds_upgrade_cost,
        goods_per_hold,
        residents_per_hold,
        own_road_half,
        needs_own_tile,
        unload_at_end,
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
        cap_by_cities,
        end_delivered,
        max_rounds,
        goods_of_a_kind,
        complete_set_vp,
    })
}

fn t_origin(tree: &Node, key: &str) -> Origin {
    tree.get(key).map_or(tree.origin, |n| n.origin)
}

/// Lowercase letters, digits, `-` and `_`, starting with a letter or digit.
pub fn is_word(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
}

fn check_names(n: &Node, d: &mut Diagnostics, names: &[&str], what: &str, max: usize) {
    if names.is_empty() || names.len() > max {
        d.error(n.origin, format!("expected 1 to {max} {what} names, found {}", names.len()));
    }
    for (i, name) in names.iter().enumerate() {
        if !is_word(name) || *name == "resident" {
            d.error(n.origin, format!("{what} name `{name}` must be a lowercase word other than `resident`"));
        }
        if names[..i].contains(name) {
            d.error(n.origin, format!("{what} `{name}` is listed twice"));
        }
    }
}

fn good_ref(n: &Node, d: &mut Diagnostics, goods: &[String]) -> Option<u8> {
    let s = decode::str_of(n, d)?;
    match goods.iter().position(|g| g == s) {
        Some(i) => Some(i as u8),
        None => {
            d.error(n.origin, format!("unknown goods `{s}`: expected one of {}", goods.join(", ")));
            None
        }
    }
}

/// A movement cost in MP, a multiple of 0.5, as half points.
fn half_points(t: &mut Table, d: &mut Diagnostics, key: &'static str, default: Option<u8>) -> Option<u8> {
    let n = match (t.get(key), default) {
        (Some(n), _) => n,
        (None, Some(v)) => return Some(v),
        (None, None) => {
            d.error(t.origin(), format!("missing key `{key}`: expected a number of movement points"));
            return None;
        }
    };
    let v = decode::float_of(n, d)?;
    let half = v * 2.0;
    if !(0.0..=40.0).contains(&half) || half.fract() != 0.0 {
        d.error(n.origin, format!("{v} is not a movement cost: expected a multiple of 0.5 from 0 to 20"));
        return None;
    }
    Some(half as u8)
}

fn levels(
    t: &mut Table,
    d: &mut Diagnostics,
    key: &'static str,
    range: std::ops::RangeInclusive<i64>,
) -> Option<Vec<u8>> {
    let n = t.req(d, key, "a list of levels")?;
    let v = decode::ints_of(n, d, range)?;
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
    t: &mut Table,
    d: &mut Diagnostics,
    key: &'static str,
    players: std::ops::RangeInclusive<usize>,
    range: std::ops::RangeInclusive<i64>,
) -> [u8; MAX_PLAYERS + 1] {
    let mut out = [0u8; MAX_PLAYERS + 1];
    let Some(n) = t.req(d, key, "a table by player count, e.g. { 2 = 1, 3 = 2 }") else {
        return out;
    };
    if let Some(v) = decode::per_players(n, d, players, |n, d| decode::int_in(n, d, range.clone())) {
        for (p, x) in v.into_iter().enumerate() {
            if let (Some(x), Some(slot)) = (x, out.get_mut(p)) {
                *slot = x as u8;
            }
        }
    }
    out
}

fn decode_effect(n: &Node, d: &mut Diagnostics, terrains: &[Terrain]) -> Option<Effect> {
    let mut t = Table::new(n, d)?;
    let kind = t.choice(d, "kind", EFFECT_KINDS);
    let terrain = |t: &mut Table, d: &mut Diagnostics| -> Option<u8> {
        let n = t.req(d, "terrain", "a terrain name")?;
        let s = decode::str_of(n, d)?;
        match terrains.iter().position(|x| x.name == s) {
            Some(i) => Some(i as u8),
            None => {
                let known: Vec<&str> = terrains.iter().map(|x| x.name.as_str()).collect();
                d.error(n.origin, format!("unknown terrain `{s}`: expected one of {}", known.join(", ")));
                None
            }
        }
    };
    let effect = match kind? {
        0 => t.int(d, "money", 0..=10_000).map(|m| Effect::CitySettlementIncome { money: m as i32 }),
        1 => t.int(d, "money", 0..=10_000).map(|m| Effect::UpgradeDiscount { money: m as i32 }),
        2 => {
            let ter = terrain(&mut t, d);
            let r = t.int(d, "residents", 0..=20);
            match (ter, r) {
                (Some(terrain), Some(r)) => Some(Effect::RoadCost { terrain, residents: r as u8 }),
                _ => None,
            }
        }
        3 => t.int(d, "vp", 0..=1000).map(|v| Effect::VictoryPoints { vp: v as i32 }),
        4 => t.int(d, "money", 0..=10_000).map(|m| Effect::ResidentPrice { money: m as i32 }),
        5 => half_points(&mut t, d, "mp", None).map(|half| Effect::ExtraMovement { half }),
        6 => {
            let ter = terrain(&mut t, d);
            let h = half_points(&mut t, d, "mp", None);
            match (ter, h) {
                (Some(terrain), Some(half)) => Some(Effect::TrolleyEnterCost { terrain, half }),
                _ => None,
            }
        }
        7 => Some(Effect::ExtraResidentAction),
        _ => Some(Effect::FreeRoad),
    };
    t.finish(d);
    effect
}
