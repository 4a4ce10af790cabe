//! The validated ruleset: every number, table and the map, read straight from the merged
//! TOML tree by the core's deserializer ([`rulesmith_game::ruleset::de`]). Each field
//! declares its range or its own reader, so no raw copy stands between the TOML and the
//! typed rules; names (goods, terrains, cities) are looked up while reading, and the few
//! checks that span sections run after. Every problem is reported (file:line:col), never
//! stopping at the first; every key is required unless its type says `Option`, and no
//! rule value has a default here.

use rulesmith_game::ruleset::de::{self, Entries, Int, Located, RulesetMeta};
use rulesmith_game::ruleset::{Diagnostics, Kind, Node, Origin};
use rulesmith_game::{MAX_PLAYERS, OptId};
use serde::{Deserialize, Deserializer};

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
/// The slots of [`Derived::around`] and [`Derived::around_edges`] past a tile's
/// neighbours: a table filler, never read as a tile or an edge (the slot's bit in
/// [`Derived::around_bits`] is 0, and no edge has this number), kept so that the playout
/// walks six fixed slots without a length.
const PADDING: u8 = u8::MAX;

/// Axial neighbour directions of pointy-top hexes (REF §3 "Coordinates").
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Per player count, indexed by it.
pub type PerPlayers = [u8; MAX_PLAYERS + 1];

/// The validated rules of World 163, section by section as the TOML has them.
#[derive(Clone, Debug, Deserialize)]
pub struct Rules {
    #[serde(rename = "ruleset", deserialize_with = "ruleset_name")]
    pub name: String,
    pub players: Players,
    /// `[goods] types`.
    #[serde(deserialize_with = "goods")]
    pub goods: Vec<String>,
    /// In file order: their indices are the map's.
    #[serde(deserialize_with = "terrains")]
    pub terrains: Vec<Terrain>,
    #[serde(deserialize_with = "cities")]
    pub cities: Vec<City>,
    pub map: Map,
    pub setup: Setup,
    pub purchase: Purchase,
    pub roads: Roads,
    pub trolley: Trolley,
    /// `[privileges]`: the price, the row and the deck's make-up.
    #[serde(rename = "privileges")]
    pub market: Market,
    /// `[[privilege_types]]`.
    #[serde(rename = "privilege_types", deserialize_with = "privilege_types")]
    pub privileges: Vec<PrivilegeType>,
    pub income: Income,
    pub end: GameEnd,
    pub scoring: Scoring,
    /// Per tile: (neighbour tile, edge index), neighbours in direction order (from the map).
    #[serde(skip)]
    pub adjacency: Vec<Vec<(u8, u8)>>,
    /// Edges as (lower tile, higher tile), sorted (from the map).
    #[serde(skip)]
    pub edges: Vec<(u8, u8)>,
    /// What legal-action generation reads on every decision, derived once from the map
    /// and the privileges.
    #[serde(skip)]
    pub derived: Derived,
}

/// Derived from the ruleset when it is read ([`decode`]), for the playout's hot paths.
#[derive(Clone, Debug, Default)]
pub struct Derived {
    /// Per tile: its neighbours, a bit per tile.
    pub neighbours: Vec<u64>,
    /// Per tile: its neighbours in direction order (as `adjacency`), padding after them.
    pub around: Vec<[u8; 6]>,
    /// Per tile: the bit of each neighbour of `around`, 0 after them.
    pub around_bits: Vec<[u64; 6]>,
    /// Per tile: the edge to each neighbour of `around`, padding after them.
    pub around_edges: Vec<[u8; 6]>,
    /// Per pair of tiles (`a * MAX_TILES + b`): the edge between them, if they are adjacent.
    pub edge_at: Vec<OptId>,
    /// Per tile: the edges (a bit per edge) whose lower, resp. higher, end it is.
    pub lower_end: Vec<[u64; MAX_EDGES / 64]>,
    pub higher_end: Vec<[u64; MAX_EDGES / 64]>,
    /// Water tiles (a state's terrain keeps each tile's kind: `check_state`).
    pub water: u64,
    /// The map's printed terrain per tile (0 past the map, as a state has it), and the
    /// tiles of each terrain: a state dealt as printed reads these.
    pub terrain: crate::fixed::Arr<u8, MAX_TILES>,
    pub by_terrain: [u64; MAX_TERRAINS],
    /// Per terrain, before privileges: residents a road end costs; half points the
    /// trolley pays to enter off-road (`u8::MAX` = never: water).
    pub road_ends: [u8; MAX_TERRAINS],
    pub off_road: [u8; MAX_TERRAINS],
    /// Privilege types (bit per type) with an effect of each kind.
    pub free_road: u32,
    pub extra_action: u32,
    pub road_cost: u32,
    pub trolley_enter: u32,
    pub resident_price: u32,
}

impl Derived {
    fn of(rules: &Rules) -> Derived {
        let tiles = rules.map.hexes.len().min(MAX_TILES);
        let mut d = Derived { edge_at: vec![OptId::NONE; MAX_TILES * MAX_TILES], ..Derived::default() };
        for a in 0..tiles {
            let adjacent = rules.adjacency.get(a).map_or(&[][..], Vec::as_slice);
            d.neighbours.push(adjacent.iter().fold(0u64, |m, &(n, _)| m | 1 << n));
            let (mut around, mut around_edges) = ([PADDING; 6], [PADDING; 6]);
            for ((slot, edge), &(n, e)) in around.iter_mut().zip(&mut around_edges).zip(adjacent) {
                *slot = n;
                *edge = e;
            }
            d.around_edges.push(around_edges);
            d.around_bits.push(around.map(|n| if n < 64 { 1u64 << n } else { 0 }));
            d.around.push(around);
            let (mut lower, mut higher) = ([0u64; MAX_EDGES / 64], [0u64; MAX_EDGES / 64]);
            for &(n, e) in adjacent {
                let ends = if usize::from(n) > a { &mut lower } else { &mut higher };
                if let Some(w) = ends.get_mut(usize::from(e) / 64) {
                    *w |= 1 << (e % 64);
                }
            }
            d.lower_end.push(lower);
            d.higher_end.push(higher);
            for &(n, e) in adjacent {
                d.edge_at[a * MAX_TILES + usize::from(n)] = OptId::some(e);
            }
            let printed = rules.map.hexes[a].terrain;
            d.terrain[a] = printed;
            if let Some(m) = d.by_terrain.get_mut(usize::from(printed)) {
                *m |= 1 << a;
            }
            let kind = rules.terrains.get(usize::from(printed)).map(|t| t.kind);
            if kind.is_none_or(|k| k == TerrainKind::Water) {
                d.water |= 1 << a;
            }
        }
        d.off_road = [u8::MAX; MAX_TERRAINS];
        for (ti, t) in rules.terrains.iter().enumerate().take(MAX_TERRAINS) {
            d.road_ends[ti] = t.road_residents;
            if t.kind != TerrainKind::Water {
                d.off_road[ti] = t.enter_half;
            }
        }
        for (k, t) in rules.privileges.iter().enumerate().take(MAX_PRIVILEGE_TYPES) {
            for e in &t.effects {
                let mask = match e {
                    Effect::FreeRoad => &mut d.free_road,
                    Effect::ExtraResidentAction => &mut d.extra_action,
                    Effect::RoadCost { .. } => &mut d.road_cost,
                    Effect::TrolleyEnterCost { .. } => &mut d.trolley_enter,
                    Effect::ResidentPrice { .. } => &mut d.resident_price,
                    _ => continue,
                };
                *mask |= 1 << k;
            }
        }
        d
    }
}

#[derive(Clone, Debug, Deserialize)]
pub struct Players {
    #[serde(deserialize_with = "de::byte::<2, { MAX_PLAYERS as i64 }, _>")]
    pub min: u8,
    #[serde(deserialize_with = "de::byte::<2, { MAX_PLAYERS as i64 }, _>")]
    pub max: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// The city standing on the tile (an index into `cities`), if any.
    pub city: Option<u8>,
}

#[derive(Clone, Debug)]
pub struct City {
    pub id: String,
    /// The city's tile (from the map; none only while the ruleset is read, or when the
    /// map leaves the city out, which is reported).
    pub tile: Option<u8>,
    pub goods: u8,
    pub demands: Vec<u8>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Map {
    #[serde(rename = "deal_land", deserialize_with = "shuffled")]
    pub deal_shuffled: bool,
    #[serde(deserialize_with = "de::byte::<0, 20, _>")]
    pub goods_per_city: u8,
    #[serde(deserialize_with = "hexes")]
    pub hexes: Vec<Hex>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Setup {
    #[serde(deserialize_with = "de::num::<0, 100_000, _, _>")]
    pub starting_money: i32,
    #[serde(deserialize_with = "de::per_players_byte::<1, 200, _>")]
    pub residents: PerPlayers,
    #[serde(deserialize_with = "de::per_players_byte::<1, 200, _>")]
    pub settlements: PerPlayers,
    #[serde(deserialize_with = "de::byte::<0, 8, _>")]
    pub trolley_start_goods: u8,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Purchase {
    #[serde(deserialize_with = "de::num::<0, 10_000, _, _>")]
    pub resident_price: i32,
    #[serde(deserialize_with = "de::byte::<1, 200, _>")]
    pub capital_limit: u8,
    #[serde(deserialize_with = "de::byte::<1, 200, _>")]
    pub settlement_limit: u8,
    pub limits_always: bool,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Roads {
    #[serde(deserialize_with = "de::byte::<0, 10, _>")]
    pub opposing_road_extra: u8,
    #[serde(deserialize_with = "de::byte::<0, 1, _>")]
    pub residents_returned: u8,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Trolley {
    /// Movement points by level.
    #[serde(deserialize_with = "movement_levels")]
    pub movement: Vec<u8>,
    #[serde(deserialize_with = "de::num::<0, 10_000, _, _>")]
    pub movement_upgrade_cost: i32,
    /// Cargo holds by level.
    #[serde(deserialize_with = "hold_levels")]
    pub holds: Vec<u8>,
    #[serde(deserialize_with = "de::num::<0, 10_000, _, _>")]
    pub holds_upgrade_cost: i32,
    #[serde(deserialize_with = "de::byte::<0, 4, _>")]
    pub goods_per_hold: u8,
    #[serde(deserialize_with = "de::byte::<0, 8, _>")]
    pub residents_per_hold: u8,
    /// Moving along an own road, in half movement points.
    #[serde(rename = "own_road_mp", deserialize_with = "half_points")]
    pub own_road_half: u8,
    #[serde(rename = "needs_own_tile_without_residents")]
    pub needs_own_tile: bool,
    /// Residents still aboard when 3 E ends are unloaded where the trolley stands (else
    /// they may stay aboard for later turns).
    #[serde(rename = "residents_aboard_at_end", deserialize_with = "unload")]
    pub unload_at_end: bool,
    #[serde(rename = "max_moves_per_turn", deserialize_with = "de::byte::<1, 200, _>")]
    pub max_moves: u8,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Market {
    /// A price of 0 would make "for 0" ambiguous in the notation.
    #[serde(deserialize_with = "de::num::<1, 10_000, _, _>")]
    pub price: i32,
    #[serde(deserialize_with = "de::per_players_byte::<0, { MAX_ROW as i64 }, _>")]
    pub initial_row: PerPlayers,
    #[serde(deserialize_with = "de::per_players_byte::<0, { MAX_ROW as i64 }, _>")]
    pub refill_below: PerPlayers,
    #[serde(deserialize_with = "de::per_players_byte::<0, 4, _>")]
    pub full_sets: PerPlayers,
    #[serde(deserialize_with = "de::per_players_byte::<0, { MAX_PRIVILEGE_TYPES as i64 }, _>")]
    pub random_extra: PerPlayers,
}

/// What a privilege does: the effect kinds of World 163 (REF §2.8), read straight from
/// the ruleset (`{ kind = "road_cost", terrain = "mountain", residents = 1 }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Each city on which the player placed a settlement this turn pays `money` in 3 H.
    CitySettlementIncome {
        #[serde(deserialize_with = "de::num::<0, 10_000, _, _>")]
        money: i32,
    },
    /// Each trolley upgrade costs `money` less.
    UpgradeDiscount {
        #[serde(deserialize_with = "de::num::<0, 10_000, _, _>")]
        money: i32,
    },
    /// A road touching `terrain` costs at most `residents` for that end.
    RoadCost {
        #[serde(deserialize_with = "terrain")]
        terrain: u8,
        #[serde(deserialize_with = "de::byte::<0, 20, _>")]
        residents: u8,
    },
    /// Victory points at the final scoring.
    VictoryPoints {
        #[serde(deserialize_with = "de::num::<0, 1000, _, _>")]
        vp: i32,
    },
    /// Residents cost `money` each.
    ResidentPrice {
        #[serde(deserialize_with = "de::num::<0, 10_000, _, _>")]
        money: i32,
    },
    /// The trolley gets more movement every turn (half points).
    ExtraMovement {
        #[serde(rename = "mp", deserialize_with = "half_points")]
        half: u8,
    },
    /// The trolley enters `terrain` for this many half points (even by road).
    TrolleyEnterCost {
        #[serde(deserialize_with = "terrain")]
        terrain: u8,
        #[serde(rename = "mp", deserialize_with = "half_points")]
        half: u8,
    },
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

#[derive(Clone, Debug, Deserialize)]
pub struct Income {
    #[serde(deserialize_with = "de::num::<0, 10_000, _, _>")]
    pub capital: i32,
    #[serde(rename = "per_additional_city", deserialize_with = "de::num::<0, 10_000, _, _>")]
    pub per_city: i32,
    #[serde(deserialize_with = "de::num::<0, 10_000, _, _>")]
    pub complete_set: i32,
    #[serde(rename = "cap_by_connected_cities")]
    pub cap_by_cities: bool,
}

#[derive(Clone, Debug, Deserialize)]
pub struct GameEnd {
    /// Goods delivered in all that end the game, by player count.
    #[serde(rename = "delivered_goods", deserialize_with = "de::per_players_byte::<1, 255, _>")]
    pub delivered: PerPlayers,
    #[serde(deserialize_with = "de::num::<1, 10_000, _, _>")]
    pub max_rounds: u32,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Scoring {
    /// VP for 1, 2, 3 … goods of one type.
    #[serde(deserialize_with = "goods_of_a_kind")]
    pub goods_of_a_kind: Vec<i32>,
    #[serde(deserialize_with = "de::num::<0, 1000, _, _>")]
    pub complete_set: i32,
    /// Tie-break keys after VP, in order (REF §2.10: goods in the trolley, then the last
    /// round's income); still tied players share the win (REF §6 Q15).
    #[serde(deserialize_with = "tiebreaks")]
    pub tiebreaks: Vec<TieBreak>,
}

/// What breaks a tie in VP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Goods in the trolley at the end.
    TrolleyGoods,
    /// The income of the last round.
    LastIncome,
    /// Goods delivered over the game.
    DeliveredGoods,
}

/// A list of tie-break keys, each at most once.
fn tiebreaks<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<TieBreak>, D::Error> {
    let list = Vec::<TieBreak>::deserialize(d)?;
    if list.iter().enumerate().any(|(i, t)| list[..i].contains(t)) {
        return Err(serde::de::Error::custom("a tie-break is listed twice"));
    }
    Ok(list)
}

impl Rules {
    pub fn min_players(&self) -> usize {
        usize::from(self.players.min)
    }

    pub fn max_players(&self) -> usize {
        usize::from(self.players.max)
    }

    pub fn tiles(&self) -> usize {
        self.map.hexes.len()
    }

    pub fn tile_by_name(&self, name: &str) -> Option<u8> {
        self.map.hexes.iter().position(|h| h.name == name).map(|i| i as u8)
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
        self.map.hexes.get(tile as usize).map_or("?", |h| h.name.as_str())
    }

    pub fn good_name(&self, good: u8) -> &str {
        self.goods.get(good as usize).map_or("?", String::as_str)
    }

    /// The edge between two tiles, if they are adjacent.
    #[inline]
    pub fn edge(&self, a: u8, b: u8) -> Option<u8> {
        if usize::from(a) >= MAX_TILES || usize::from(b) >= MAX_TILES {
            return None;
        }
        self.derived.edge_at.get(usize::from(a) * MAX_TILES + usize::from(b))?.get()
    }

    /// The city standing on a tile, if any.
    pub fn city_at(&self, tile: u8) -> Option<u8> {
        self.map.hexes.get(usize::from(tile)).and_then(|h| h.city)
    }

    /// Every privilege card of the deck pool for `players`: full sets, and how many more
    /// are drawn at random from one further set.
    pub fn deck_size(&self, players: usize) -> usize {
        self.privileges.len() * usize::from(self.market.full_sets[players])
            + usize::from(self.market.random_extra[players])
    }
}

/// What the reading needs before it starts: the player counts the per-player tables must
/// cover, and the names other sections refer to (goods, terrains, cities), taken from the
/// tree as written (their own problems are reported where they are read), with the
/// origins the checks across sections report at.
#[derive(Clone, Default)]
struct Head {
    players: (usize, usize),
    goods: Vec<String>,
    terrains: Vec<(String, TerrainKind)>,
    cities: Vec<(String, Origin)>,
    at_players: Origin,
    at_goods: Origin,
    at_terrains: Origin,
    at_cities: Origin,
    at_map: Origin,
    at_privileges: Origin,
}

impl Head {
    fn of(tree: &Node) -> Head {
        let at = |path: &str| tree.path(path).map_or(Origin::REPORTED, |n| n.origin);
        let int = |path: &str| match tree.path(path).map(|n| &n.kind) {
            Some(Kind::Int(i)) if (2..=MAX_PLAYERS as i64).contains(i) => Some(*i as usize),
            _ => None,
        };
        let players = match (int("players.min"), int("players.max")) {
            (Some(a), Some(b)) if a <= b => (a, b),
            _ => (2, 2),
        };
        let strs = |n: Option<&Node>| match n.map(|n| &n.kind) {
            Some(Kind::Array(items)) => items.iter().map(|i| i.as_str().unwrap_or("").to_string()).collect(),
            _ => Vec::new(),
        };
        let terrains = tree.get("terrains").and_then(Node::entries).unwrap_or_default();
        // As in the reading, a kind that cannot be read stands in as the first (city).
        let kind = |n: &Node| match n.get("kind").and_then(Node::as_str) {
            Some("land") => TerrainKind::Land,
            Some("water") => TerrainKind::Water,
            _ => TerrainKind::City,
        };
        let cities = match tree.get("cities").map(|n| &n.kind) {
            Some(Kind::Array(items)) => {
                items.iter().map(|c| (c.get("id").and_then(Node::as_str).unwrap_or("").to_string(), c.origin)).collect()
            }
            _ => Vec::new(),
        };
        Head {
            players,
            goods: strs(tree.path("goods.types")),
            terrains: terrains.iter().map(|e| (e.key.clone(), kind(&e.value))).collect(),
            cities,
            at_players: at("players"),
            at_goods: at("goods.types"),
            at_terrains: at("terrains"),
            at_cities: at("cities"),
            at_map: at("map"),
            at_privileges: at("privileges"),
        }
    }
}

/// Decodes the whole merged ruleset tree. `None` if anything was wrong (all reported).
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Rules> {
    let before = d.len();
    let head = Head::of(tree);
    let players = head.players.0..=head.players.1;
    let read: Option<Rules> = de::with_context(head.clone(), || de::with_players(players, || de::from_tree(tree, d)));
    let mut rules = read?;
    across(&mut rules, &head, before, d);
    (d.len() == before).then_some(rules)
}

/// The checks that span sections, and what the map gives the cities.
fn across(rules: &mut Rules, head: &Head, before: usize, d: &mut Diagnostics) {
    let p = &rules.players;
    if p.min >= 2 && p.max >= 2 && p.min > p.max {
        d.error(head.at_players, format!("players: min {} is more than max {}", p.min, p.max));
    }
    let city_terrains = rules.terrains.iter().filter(|t| t.kind == TerrainKind::City).count();
    if city_terrains != 1 && d.len() == before {
        d.error(head.at_terrains, format!("expected exactly one terrain of kind \"city\", found {city_terrains}"));
    }
    for (t, h) in rules.map.hexes.iter().enumerate() {
        if let Some(c) = h.city.and_then(|c| rules.cities.get_mut(usize::from(c))) {
            c.tile = Some(t as u8);
        }
    }
    for (c, (_, origin)) in rules.cities.iter().zip(&head.cities) {
        // A city whose id was wrong (reported) is kept only to hold the map's places.
        if c.tile.is_none() && !c.id.is_empty() && !rules.map.hexes.is_empty() {
            d.error(*origin, format!("city `{}` stands on no tile of the map", c.id));
        }
    }
    let max_players = head.players.1;
    // By sorting, not by bits: a list of too many goods (reported) gives indices past 31.
    let mut offered: Vec<u8> = rules.cities.iter().map(|c| c.goods).collect();
    offered.sort_unstable();
    offered.dedup();
    let distinct_goods = offered.len();
    if !rules.cities.is_empty() && distinct_goods < max_players {
        d.error(
            head.at_cities,
            format!(
                "capitals need distinct goods: the cities offer {distinct_goods} goods types but up to {max_players} players play"
            ),
        );
    }
    for (g, name) in rules.goods.iter().enumerate() {
        let cities = rules.cities.iter().filter(|c| usize::from(c.goods) == g).count();
        let n = cities * usize::from(rules.map.goods_per_city);
        if n > 200 {
            d.error(head.at_cities, format!("{n} goods of type `{name}` on the map; at most 200"));
        }
    }
    (rules.adjacency, rules.edges) = adjacency_of(&rules.map.hexes);
    rules.derived = Derived::of(rules);
    let types = rules.privileges.len();
    for p in head.players.0..=head.players.1 {
        let extra = rules.market.random_extra[p];
        if usize::from(extra) > types {
            d.error(
                head.at_privileges,
                format!("random_extra for {p} players is {extra} but there are only {types} privilege types"),
            );
        }
        let size = types * usize::from(rules.market.full_sets[p]) + usize::from(extra);
        if size > MAX_DECK {
            d.error(
                head.at_privileges,
                format!("the privilege deck for {p} players has {size} cards; at most {MAX_DECK}"),
            );
        }
    }
    if !rules.goods.is_empty() && rules.goods.len() < 2 && d.len() == before {
        d.error(head.at_goods, "expected at least 2 goods types");
    }
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

// The fields' own readers. Each reads the shape the TOML has and reports what it finds
// wrong with `de::reject` (or `de::checked`), going on with a neutral value.

fn ruleset_name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let meta = RulesetMeta::deserialize(d)?;
    Ok(meta.name.unwrap_or_else(|| "mundo-163".to_string()))
}

fn goods<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    struct Goods {
        types: Located<Vec<String>>,
    }
    let Goods { types } = Goods::deserialize(d)?;
    let names = &types.value;
    if names.is_empty() || names.len() > MAX_GOODS {
        de::reject(types.origin, format!("expected 1 to {MAX_GOODS} goods names, found {}", names.len()))?;
    }
    for (i, name) in names.iter().enumerate() {
        if !is_word(name) || name == "resident" {
            de::reject(types.origin, format!("goods name `{name}` must be a lowercase word other than `resident`"))?;
        }
        if names[..i].contains(name) {
            de::reject(types.origin, format!("goods `{name}` is listed twice"))?;
        }
    }
    Ok(types.value)
}

fn terrains<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Terrain>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        kind: TerrainKind,
        road_residents: Int<0, 20>,
        enter_mp: Located<f64>,
        /// Land only.
        income: Option<Int<0, 1000>>,
        counted: bool,
    }
    let table = Located::<Entries<Located<Entry>>>::deserialize(d)?;
    let entries = &table.value.0;
    if entries.is_empty() || entries.len() > MAX_TERRAINS {
        let found = entries.len();
        de::reject(table.origin, format!("expected 1 to {MAX_TERRAINS} terrains, found {found}"))?;
    }
    let mut terrains = Vec::new();
    for (key, t) in entries {
        if !is_word(&key.value) {
            de::reject(key.origin, format!("terrain name `{}` must be a lowercase word", key.value))?;
        }
        let t = &t.value;
        let enter_half = half(&t.enter_mp)?;
        let income = match (t.kind, &t.income) {
            (TerrainKind::Land, Some(n)) => n.get().unwrap_or(0),
            (TerrainKind::Land, None) => {
                let message = format!("missing key `income` for land terrain `{}`", key.value);
                de::reject(key.origin, message)?;
                0
            }
            (_, Some(n)) => {
                de::reject(n.origin, "only land terrains take `income` (cities pay per connected city)")?;
                0
            }
            (_, None) => 0,
        };
        if t.kind == TerrainKind::Water && t.counted {
            de::reject(key.origin, "water cannot be counted on the majority board")?;
        }
        terrains.push(Terrain {
            name: key.value.clone(),
            kind: t.kind,
            road_residents: t.road_residents.get().unwrap_or(0) as u8,
            enter_half,
            income: income as i32,
            counted: t.counted,
        });
    }
    Ok(terrains)
}

/// The index of `name` among `names`, or `None` and the problem reported at `at`.
fn index_of<'a, E: serde::de::Error>(
    names: impl Iterator<Item = &'a str> + Clone,
    what: &str,
    name: &str,
    at: Origin,
) -> Result<Option<usize>, E> {
    if let Some(i) = names.clone().position(|n| n == name) {
        return Ok(Some(i));
    }
    let known: Vec<&str> = names.collect();
    let hint = rulesmith_game::suggest::hint(name, known.iter().copied());
    de::reject(at, format!("unknown {what} `{name}`: expected one of {}{hint}", known.join(", "))).map(|()| None)
}

/// A good by name (its index), or `None` and the problem reported at `name`.
fn good<E: serde::de::Error>(name: &Located<String>) -> Result<Option<u8>, E> {
    let goods = de::context(|h: &Head| h.goods.clone()).unwrap_or_default();
    Ok(de::lookup(goods.iter().map(String::as_str), "goods", name)?.map(|i| i as u8))
}

fn cities<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<City>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        id: Located<String>,
        goods: Located<String>,
        demands: Located<Vec<Located<String>>>,
    }
    let items = Located::<Vec<Located<Entry>>>::deserialize(d)?;
    if items.value.is_empty() || items.value.len() > MAX_CITIES {
        let found = items.value.len();
        de::reject(items.origin, format!("expected 1 to {MAX_CITIES} cities, found {found}"))?;
    }
    let mut cities: Vec<City> = Vec::new();
    for item in &items.value {
        let c = &item.value;
        let goods = good(&c.goods)?.unwrap_or(0);
        if c.demands.value.len() > MAX_DEMANDS {
            let found = c.demands.value.len();
            de::reject(c.demands.origin, format!("a city demands at most {MAX_DEMANDS} goods, found {found}"))?;
        }
        // Every unknown demand is reported; the known ones are kept so later checks still run.
        let mut demands = Vec::new();
        for g in &c.demands.value {
            if let Some(g) = good(g)? {
                demands.push(g);
            }
        }
        let id = de::checked(|d| de::id(&c.id, d).map(str::to_string))?.unwrap_or_default();
        if !id.is_empty() && !is_word(&id) {
            de::reject(item.origin, format!("city id `{id}` must be a lowercase word or number"))?;
        }
        if !id.is_empty() && cities.iter().any(|x| x.id == id) {
            de::reject(item.origin, format!("city `{id}` is listed twice"))?;
        }
        // Kept whatever was wrong (already reported): the map refers to cities by place.
        cities.push(City { id, tile: None, goods, demands });
    }
    Ok(cities)
}

fn shuffled<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum DealLand {
        Fixed,
        Shuffled,
    }
    Ok(DealLand::deserialize(d)? == DealLand::Shuffled)
}

fn hexes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Hex>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        name: String,
        q: Int<-20, 20>,
        r: Int<-20, 20>,
        terrain: String,
        /// City tiles only.
        city: Option<Located<String>>,
    }
    let items = Located::<Vec<Located<Entry>>>::deserialize(d)?;
    let (terrains, city_ids, at_map) = de::context(|h: &Head| {
        (h.terrains.clone(), h.cities.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(), h.at_map)
    })
    .unwrap_or_default();
    if items.value.is_empty() || items.value.len() > MAX_TILES {
        let found = items.value.len();
        de::reject(at_map, format!("expected 1 to {MAX_TILES} hexes, found {found}"))?;
    }
    let mut placed = vec![false; city_ids.len()];
    let mut hexes: Vec<Hex> = Vec::new();
    for item in items.value.iter().take(MAX_TILES) {
        let h = &item.value;
        let (Some(q), Some(r)) = (h.q.get(), h.r.get()) else { continue };
        let (q, r, name) = (q as i32, r as i32, h.name.as_str());
        if !is_word(name) || name.contains('-') {
            de::reject(item.origin, format!("tile name `{name}` must be lowercase letters and digits"))?;
        }
        if hexes.iter().any(|x| x.name == name) {
            de::reject(item.origin, format!("tile `{name}` is listed twice"))?;
        }
        if hexes.iter().any(|x| x.q == q && x.r == r) {
            de::reject(item.origin, format!("two tiles at q = {q}, r = {r}"))?;
        }
        let names = terrains.iter().map(|(t, _)| t.as_str());
        let Some(terrain) = index_of(names, "terrain", &h.terrain, item.origin)? else { continue };
        let is_city = terrains[terrain].1 == TerrainKind::City;
        let mut city = None;
        match (is_city, &h.city) {
            (true, Some(c)) => match city_ids.iter().position(|id| *id == c.value) {
                Some(i) if !placed[i] => {
                    placed[i] = true;
                    city = Some(i as u8);
                }
                Some(_) => de::reject(c.origin, format!("city `{}` stands on two tiles", c.value))?,
                None => {
                    let hint = rulesmith_game::suggest::hint(&c.value, city_ids.iter().map(|id| id.as_str()));
                    de::reject(c.origin, format!("unknown city `{}`: not in [[cities]]{hint}", c.value))?
                }
            },
            (true, None) => de::reject(item.origin, format!("city tile `{name}` needs `city = \"<id>\"`"))?,
            (false, Some(c)) => de::reject(c.origin, format!("tile `{name}` is not a city but names one"))?,
            (false, None) => {}
        }
        hexes.push(Hex { name: name.to_string(), q, r, terrain: terrain as u8, city });
    }
    Ok(hexes)
}

/// A movement cost in MP, a multiple of 0.5, as half points.
fn half<E: serde::de::Error>(n: &Located<f64>) -> Result<u8, E> {
    let v = n.value;
    let half = v * 2.0;
    if !(0.0..=40.0).contains(&half) || half.fract() != 0.0 {
        let message = format!("{v} is not a movement cost: expected a multiple of 0.5 from 0 to 20");
        return de::reject(n.origin, message).map(|()| 0);
    }
    Ok(half as u8)
}

fn half_points<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    half(&Located::<f64>::deserialize(d)?)
}

fn unload<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum AboardAtEnd {
        Unload,
        Stay,
    }
    Ok(AboardAtEnd::deserialize(d)? == AboardAtEnd::Unload)
}

/// Levels (movement points, cargo holds): 1 to 8, each in `range`, rising.
fn levels<'de, D: Deserializer<'de>>(d: D, range: std::ops::RangeInclusive<i64>) -> Result<Vec<u8>, D::Error> {
    let list = Located::<Vec<Located<i64>>>::deserialize(d)?;
    let values: Vec<Option<i64>> =
        de::checked(|d| list.value.iter().map(|x| de::int_in(x, range.clone(), d)).collect())?;
    let Some(values) = values.into_iter().collect::<Option<Vec<i64>>>() else { return Ok(Vec::new()) };
    if values.is_empty() || values.len() > 8 {
        de::reject(list.origin, format!("expected 1 to 8 levels, found {}", values.len()))?;
    } else if values.windows(2).any(|w| w[1] <= w[0]) {
        de::reject(list.origin, "levels must increase")?;
    }
    Ok(values.into_iter().map(|x| x as u8).collect())
}

fn movement_levels<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    levels(d, 0..=20)
}

fn hold_levels<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    levels(d, 1..=4)
}

/// A terrain by name (its index), for effects.
fn terrain<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let name = Located::<String>::deserialize(d)?;
    let names = de::context(|h: &Head| h.terrains.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>());
    let found = de::lookup(names.iter().flatten().map(String::as_str), "terrain", &name)?;
    Ok(found.map_or(0, |i| i as u8))
}

fn privilege_types<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PrivilegeType>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        id: Located<String>,
        /// How the card is named on screens; its id when absent.
        label: Option<String>,
        back: Int<1, 9>,
        effects: Vec<Effect>,
    }
    let items = Located::<Vec<Located<Entry>>>::deserialize(d)?;
    if items.value.len() > MAX_PRIVILEGE_TYPES {
        let found = items.value.len();
        de::reject(items.origin, format!("at most {MAX_PRIVILEGE_TYPES} privilege types, found {found}"))?;
    }
    let mut privileges: Vec<PrivilegeType> = Vec::new();
    for item in items.value.into_iter().take(MAX_PRIVILEGE_TYPES) {
        let pt = item.value;
        let id = de::checked(|d| de::id(&pt.id, d).map(str::to_string))?;
        let (Some(id), Some(back)) = (id, pt.back.get()) else { continue };
        if !is_word(&id) || id == "resident" {
            de::reject(item.origin, format!("privilege id `{id}` must be a lowercase word other than `resident`"))?;
        }
        if privileges.iter().any(|p| p.id == id) {
            de::reject(item.origin, format!("privilege `{id}` is listed twice"))?;
        }
        let label = pt.label.filter(|l| !l.is_empty()).unwrap_or_else(|| id.clone());
        privileges.push(PrivilegeType { id, label, back: back as u8, effects: pt.effects });
    }
    Ok(privileges)
}

fn goods_of_a_kind<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i32>, D::Error> {
    let kinds = Located::<Vec<Int<0, 1000>>>::deserialize(d)?;
    if kinds.value.is_empty() {
        de::reject(kinds.origin, "expected at least one value (VP for 1 good of a type)")?;
    }
    Ok(kinds.value.iter().filter_map(Int::get).map(|v| v as i32).collect())
}
