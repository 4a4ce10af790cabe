//! The validated ruleset: every number and table of the game, decoded from TOML.
//!
//! Rust knows the *kinds* of rule (effect kinds, the turn, the loading round); the
//! ruleset picks and parameterises them. Decoding reports every problem of the file
//! (unknown keys, out-of-range values, unknown goods, flowers or dice) at once.

use rulesmith_core::ruleset::decode::{self, Table};
use rulesmith_core::ruleset::{Diagnostics, Node, Origin};

/// Most goods a ruleset may define (one byte masks).
pub const MAX_GOODS: usize = 8;
/// Most dice a ruleset may define (one byte masks).
pub const MAX_DICE: usize = 8;
/// Most citizens (street stops besides the port).
pub const MAX_CITIZENS: usize = 15;
/// Most buildings.
pub const MAX_BUILDINGS: usize = 16;
/// Most flower colours.
pub const MAX_FLOWERS: usize = 8;
/// A "none" marker for seats, buildings and dice in fixed arrays.
pub const NONE: u8 = u8::MAX;

/// A set of goods, bit `g` for good `g`.
pub type GoodsMask = u8;
/// Goods counts by good index.
pub type Goods = [u8; MAX_GOODS];

/// One kind of good.
#[derive(Clone, Debug, PartialEq)]
pub struct Good {
    pub id: String,
    /// How many exist (the supply is finite: S002:L194).
    pub supply: u8,
    /// `Some(vp)`: this good may be delivered in place of any demanded good, scoring
    /// `vp` per unit whatever the value marker (wood, S002:L265).
    pub substitute_vp: Option<u8>,
}

/// One demand die.
#[derive(Clone, Debug, PartialEq)]
pub struct Die {
    /// The die's colour, used in the notation (`keep aside white`).
    pub id: String,
    /// The good it demands.
    pub good: u8,
    pub faces: Vec<u8>,
}

/// Where a citizen's flower sends the pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flower {
    /// To a building under this flower colour.
    Colour(u8),
    /// Transparent (El Zorro, S002:L187): the pawn stays and may use its building again.
    Transparent,
}

/// What a citizen does when the car stops in front of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CitizenEffect {
    /// Take pesos, VP and goods from the supply (as much as is left).
    Gain(Bundle),
    /// Every other player gives you, at their choice, `pesos` pesos, or `vp` VP, or
    /// `goods` of one good not in `except` (S002:L176-180).
    Pickpocket { pesos: u8, vp: u8, goods: u8, except: GoodsMask },
    /// Take `count` of one good of your choice not in `except` (S002:L192).
    ChooseGood { count: u8, except: GoodsMask },
    /// Claim an unowned building, or use one of your own buildings (S002:L199-207).
    Lawyer { claim_occupied: bool },
}

/// What a building does for the pawn that uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BuildingEffect {
    /// Take pesos, VP and goods from the supply.
    Gain(Bundle),
    /// Swap any number of `from` for as many `to` from the supply.
    Convert { from: u8, to: u8 },
    /// Swap one good for one good of another kind from the supply; `except` on neither side.
    Exchange { except: GoodsMask },
    /// Return `pay` of good `good` once for the bundle `gain`.
    Trade { good: u8, pay: u8, gain: Bundle },
    /// Return at most one of each good in `goods` for `vp` each.
    Sell { goods: GoodsMask, vp: u8 },
    /// Set one ship die to 0.
    ClearDie,
    /// Pesos to VP or VP to pesos at `pesos_per_vp`, any amount.
    Casino { pesos_per_vp: u8 },
    /// Move the value marker one flag left or right.
    MoveMarker,
    /// Deliver one demanded good not in `except` for exactly `vp`, whatever the marker.
    DeliverFixed { vp: u8, except: GoodsMask },
    /// Take `pesos`, and optionally turn a citizen face down (inactive).
    Newspaper { pesos: u8, flip_car_citizen: bool },
}

/// Pesos, VP and goods, gained together.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bundle {
    pub pesos: u8,
    pub vp: u8,
    pub goods: Goods,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Citizen {
    pub id: String,
    pub flower: Flower,
    pub effect: CitizenEffect,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Building {
    pub id: String,
    pub effect: BuildingEffect,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FlowerColour {
    pub id: String,
    /// Building spaces under this flower on the board.
    pub spaces: u8,
}

/// When the owner of a building gains VP from another player's pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnerVpWhen {
    /// Only when the pawn moved onto the building this turn.
    Visit,
    /// At the end of every turn the pawn stands on the building.
    EveryTurn,
}

/// What happens when a freshly placed demand is all zeros.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyDemand {
    /// Roll again (the ship does not count).
    Reroll,
    /// The demand is complete: the ship leaves at once and the roller rolls again.
    Departs,
}

/// Tie-break keys after VP, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    LeftoverGoods,
    Pesos,
}

/// The validated rules of one Santiago de Cuba ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub name: String,
    pub min_players: usize,
    pub max_players: usize,
    pub property_markers: u8,
    pub start_pesos: u16,
    pub start_vp: u16,
    pub start_goods: Goods,
    pub goods: Vec<Good>,
    pub dice: Vec<Die>,
    /// How many dice go on the ship (the rest are set aside).
    pub ship_dice: u8,
    /// VP per good at each flag; moving past the last flag (the chequered flag) makes the ship leave.
    pub value_track: Vec<u8>,
    pub ships: u8,
    pub empty_demand: EmptyDemand,
    pub free_steps: u8,
    pub step_cost: u8,
    pub max_steps: u8,
    pub flowers: Vec<FlowerColour>,
    pub citizens: Vec<Citizen>,
    pub buildings: Vec<Building>,
    pub owner_vp: u8,
    pub owner_vp_when: OwnerVpWhen,
    pub goods_per_vp: u8,
    pub tiebreaks: Vec<TieBreak>,
}

impl Rules {
    /// Street stops: the port (stop 0) and one per citizen.
    pub fn stops(&self) -> u8 {
        self.citizens.len() as u8 + 1
    }

    pub fn good_index(&self, id: &str) -> Option<u8> {
        self.goods.iter().position(|g| g.id == id).map(|i| i as u8)
    }
    pub fn die_index(&self, id: &str) -> Option<u8> {
        self.dice.iter().position(|g| g.id == id).map(|i| i as u8)
    }
    pub fn citizen_index(&self, id: &str) -> Option<u8> {
        self.citizens.iter().position(|g| g.id == id).map(|i| i as u8)
    }
    pub fn building_index(&self, id: &str) -> Option<u8> {
        self.buildings.iter().position(|g| g.id == id).map(|i| i as u8)
    }
    pub fn flower_index(&self, id: &str) -> Option<u8> {
        self.flowers.iter().position(|g| g.id == id).map(|i| i as u8)
    }
    /// The die demanding good `g`, if any.
    pub fn die_of_good(&self, g: u8) -> Option<u8> {
        self.dice.iter().position(|d| d.good == g).map(|i| i as u8)
    }
    pub fn good_name(&self, g: u8) -> &str {
        self.goods.get(g as usize).map_or("?", |x| x.id.as_str())
    }
    pub fn die_name(&self, d: u8) -> &str {
        self.dice.get(d as usize).map_or("?", |x| x.id.as_str())
    }
    pub fn citizen_name(&self, c: u8) -> &str {
        self.citizens.get(c as usize).map_or("?", |x| x.id.as_str())
    }
    pub fn building_name(&self, b: u8) -> &str {
        self.buildings.get(b as usize).map_or("?", |x| x.id.as_str())
    }
    pub fn flower_name(&self, f: u8) -> &str {
        self.flowers.get(f as usize).map_or("?", |x| x.id.as_str())
    }
    /// The highest face of die `d` (the most it can demand).
    pub fn die_max(&self, d: u8) -> u8 {
        self.dice.get(d as usize).and_then(|x| x.faces.iter().copied().max()).unwrap_or(0)
    }
}

/// Words the notation uses in the places where ids appear; an id may not be one of them.
const RESERVED: &[&str] = &["peso", "vp", "for", "flip", "buy", "sell", "left", "right", "nothing", "port", "skip"];

/// Decodes the whole merged tree (including `[ruleset]`). Every problem goes into `d`;
/// `None` if there was any.
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Rules> {
    let before = d.len();
    let mut root = Table::new(tree, d)?;
    let name = root
        .get("ruleset")
        .and_then(|r| r.get("name"))
        .and_then(Node::as_str)
        .unwrap_or("santiago-de-cuba")
        .to_string();

    // Goods first: everything else refers to them by id.
    let goods = decode_goods(root.array(d, "goods"), d);
    let names = Names { goods: goods.iter().map(|g| g.id.clone()).collect() };

    let (min_players, max_players, property_markers) = match root.table(d, "players") {
        Some(mut t) => {
            let min = t.int(d, "min", 1..=rulesmith_core::MAX_PLAYERS as i64);
            let max = t.int(d, "max", 1..=rulesmith_core::MAX_PLAYERS as i64);
            let markers = t.int(d, "property_markers", 0..=16);
            if let (Some(a), Some(b)) = (min, max) {
                if a > b {
                    d.error(t.origin(), format!("`min` ({a}) is more than `max` ({b})"));
                }
            }
            t.finish(d);
            (min.unwrap_or(2) as usize, max.unwrap_or(4) as usize, markers.unwrap_or(0) as u8)
        }
        None => (2, 4, 0),
    };

    let (start_pesos, start_vp, start_goods) = match root.table(d, "start") {
        Some(mut t) => {
            let pesos = t.int(d, "pesos", 0..=1000).unwrap_or(0) as u16;
            let vp = t.int(d, "vp", 0..=1000).unwrap_or(0) as u16;
            let g = t.get("goods").and_then(|n| goods_table(n, d, &names)).unwrap_or_default();
            t.finish(d);
            (pesos, vp, g)
        }
        None => (0, 0, [0; MAX_GOODS]),
    };
    for (i, good) in goods.iter().enumerate() {
        if u32::from(start_goods[i]) * max_players as u32 > u32::from(good.supply) {
            let origin = tree.path("start.goods").map_or(Origin::default(), |n| n.origin);
            d.error(
                origin,
                format!(
                    "{} players starting with {} {} each need more than the supply of {}",
                    max_players, start_goods[i], good.id, good.supply
                ),
            );
        }
    }

    let dice = decode_dice(root.array(d, "dice"), d, &names, &goods);

    let mut ship_dice = 0;
    let mut value_track = Vec::new();
    let mut ships = 0;
    let mut empty_demand = EmptyDemand::Reroll;
    if let Some(mut t) = root.table(d, "ship") {
        ship_dice = t.int(d, "dice", 1..=MAX_DICE as i64).unwrap_or(0) as u8;
        if ship_dice as usize > dice.len() && !dice.is_empty() {
            d.error(t.origin(), format!("the ship takes {ship_dice} dice but only {} are defined", dice.len()));
        }
        if let Some(n) = t.req(d, "value_track", "an array of VP per good, one per flag") {
            if let Some(v) = decode::ints_of(n, d, 0..=50) {
                if v.is_empty() {
                    d.error(n.origin, "the value track needs at least one flag");
                }
                let mut sorted = v.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != v.len() {
                    d.error(n.origin, "the flags of the value track must have different values");
                }
                value_track = v.into_iter().map(|x| x as u8).collect();
            }
        }
        ships = t.int(d, "ships", 1..=50).unwrap_or(0) as u8;
        empty_demand = match t.choice(d, "empty_demand", &["reroll", "departs"]) {
            Some(1) => EmptyDemand::Departs,
            _ => EmptyDemand::Reroll,
        };
        t.finish(d);
    }

    let flowers = decode_flowers(root.array(d, "flowers"), d);
    let citizens = decode_citizens(root.array(d, "citizens"), d, &names, &flowers);
    let buildings = decode_buildings(root.array(d, "buildings"), d, &names);
    let spaces: u32 = flowers.iter().map(|f| u32::from(f.spaces)).sum();
    if !buildings.is_empty() && spaces as usize != buildings.len() {
        let origin = tree.get("flowers").map_or(Origin::default(), |n| n.origin);
        d.error(
            origin,
            format!("the flowers have {spaces} building spaces but there are {} buildings", buildings.len()),
        );
    }

    let (mut free_steps, mut step_cost, mut max_steps) = (1, 1, 1);
    if let Some(mut t) = root.table(d, "street") {
        free_steps = t.int(d, "free_steps", 0..=20).unwrap_or(1) as u8;
        step_cost = t.int(d, "step_cost", 0..=20).unwrap_or(1) as u8;
        // More steps than stops minus one would let the car lap the street and pass the
        // port twice in one move, which the rulebook does not cover (data sheet C.6.2-3).
        let most = citizens.len().max(1) as i64;
        max_steps = t.int(d, "max_steps", 1..=most).unwrap_or(1) as u8;
        t.finish(d);
    }

    let (mut owner_vp, mut owner_vp_when) = (0, OwnerVpWhen::Visit);
    if let Some(mut t) = root.table(d, "visits") {
        owner_vp = t.int(d, "owner_vp", 0..=20).unwrap_or(0) as u8;
        owner_vp_when = match t.choice(d, "owner_vp_when", &["visit", "every_turn"]) {
            Some(1) => OwnerVpWhen::EveryTurn,
            _ => OwnerVpWhen::Visit,
        };
        t.finish(d);
    }

    let (mut goods_per_vp, mut tiebreaks) = (0, Vec::new());
    if let Some(mut t) = root.table(d, "scoring") {
        goods_per_vp = t.int(d, "goods_per_vp", 0..=20).unwrap_or(0) as u8;
        if let Some(n) = t.req(d, "tiebreaks", "a list of `leftover_goods`, `pesos`") {
            if let Some(items) = decode::array_of(n, d) {
                for i in items {
                    match decode::choice_of(i, d, &["leftover_goods", "pesos"]) {
                        Some(0) => tiebreaks.push(TieBreak::LeftoverGoods),
                        Some(_) => tiebreaks.push(TieBreak::Pesos),
                        None => {}
                    }
                }
            }
        }
        t.finish(d);
    }

    root.get("ruleset");
    root.finish(d);
    if d.len() > before {
        return None;
    }
    Some(Rules {
        name,
        min_players,
        max_players,
        property_markers,
        start_pesos,
        start_vp,
        start_goods,
        goods,
        dice,
        ship_dice,
        value_track,
        ships,
        empty_demand,
        free_steps,
        step_cost,
        max_steps,
        flowers,
        citizens,
        buildings,
        owner_vp,
        owner_vp_when,
        goods_per_vp,
        tiebreaks,
    })
}

struct Names {
    goods: Vec<String>,
}

impl Names {
    fn good(&self, n: &Node, d: &mut Diagnostics) -> Option<u8> {
        let s = decode::str_of(n, d)?;
        match self.goods.iter().position(|g| g == s) {
            Some(i) => Some(i as u8),
            None => {
                d.error(n.origin, format!("unknown good `{s}`: expected one of {}", self.goods.join(", ")));
                None
            }
        }
    }

    fn mask(&self, n: &Node, d: &mut Diagnostics) -> Option<GoodsMask> {
        let items = decode::array_of(n, d)?;
        let mut m = 0;
        let mut ok = true;
        for i in items {
            match self.good(i, d) {
                Some(g) => m |= 1 << g,
                None => ok = false,
            }
        }
        ok.then_some(m)
    }
}

/// An id: lowercase letters, digits and `_`, unique in its list, not a notation word.
fn check_id(id: &str, origin: Origin, seen: &mut Vec<String>, what: &str, d: &mut Diagnostics) {
    let valid = !id.is_empty()
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !id.starts_with(|c: char| c.is_ascii_digit());
    if !valid {
        d.error(origin, format!("{what} id `{id}` must be lowercase letters, digits and `_`, starting with a letter"));
    } else if RESERVED.contains(&id) {
        d.error(origin, format!("{what} id `{id}` is a word of the action notation; choose another"));
    } else if seen.iter().any(|s| s == id) {
        d.error(origin, format!("duplicate {what} id `{id}`"));
    }
    seen.push(id.to_string());
}

fn decode_goods(items: Option<&[Node]>, d: &mut Diagnostics) -> Vec<Good> {
    let Some(items) = items else { return Vec::new() };
    if items.is_empty() || items.len() > MAX_GOODS {
        let origin = items.first().map_or(Origin::default(), |n| n.origin);
        d.error(origin, format!("expected 1 to {MAX_GOODS} goods, found {}", items.len()));
    }
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for n in items.iter().take(MAX_GOODS) {
        let Some(mut t) = Table::new(n, d) else { continue };
        let id = t.str(d, "id").unwrap_or("").to_string();
        check_id(&id, t.origin(), &mut seen, "good", d);
        let supply = t.int(d, "supply", 0..=200).unwrap_or(0) as u8;
        let substitute_vp = t.get("substitute_vp").and_then(|n| decode::int_in(n, d, 0..=20)).map(|v| v as u8);
        t.finish(d);
        out.push(Good { id, supply, substitute_vp });
    }
    out
}

fn decode_dice(items: Option<&[Node]>, d: &mut Diagnostics, names: &Names, goods: &[Good]) -> Vec<Die> {
    let Some(items) = items else { return Vec::new() };
    if items.is_empty() || items.len() > MAX_DICE {
        let origin = items.first().map_or(Origin::default(), |n| n.origin);
        d.error(origin, format!("expected 1 to {MAX_DICE} dice, found {}", items.len()));
    }
    let mut seen = Vec::new();
    let mut out: Vec<Die> = Vec::new();
    for n in items.iter().take(MAX_DICE) {
        let Some(mut t) = Table::new(n, d) else { continue };
        let id = t.str(d, "id").unwrap_or("").to_string();
        check_id(&id, t.origin(), &mut seen, "die", d);
        let good = t.req(d, "good", "a good id").and_then(|n| names.good(n, d));
        if let Some(g) = good {
            if goods.get(g as usize).is_some_and(|x| x.substitute_vp.is_some()) {
                d.error(
                    t.origin(),
                    format!("die `{id}` demands `{}`, which is a substitute good", names.goods[g as usize]),
                );
            }
            if out.iter().any(|x| x.good == g) {
                d.error(
                    t.origin(),
                    format!("two dice demand `{}`: each good may have one die", names.goods[g as usize]),
                );
            }
        }
        let faces = t.req(d, "faces", "a list of die faces").and_then(|n| {
            let v = decode::ints_of(n, d, 0..=20)?;
            if v.iter().all(|&f| f == 0) {
                d.error(n.origin, "a die needs at least one face above 0");
            }
            Some(v.into_iter().map(|x| x as u8).collect::<Vec<u8>>())
        });
        t.finish(d);
        out.push(Die { id, good: good.unwrap_or(0), faces: faces.unwrap_or_default() });
    }
    out
}

fn decode_flowers(items: Option<&[Node]>, d: &mut Diagnostics) -> Vec<FlowerColour> {
    let Some(items) = items else { return Vec::new() };
    if items.is_empty() || items.len() > MAX_FLOWERS {
        let origin = items.first().map_or(Origin::default(), |n| n.origin);
        d.error(origin, format!("expected 1 to {MAX_FLOWERS} flower colours, found {}", items.len()));
    }
    let mut seen = vec!["transparent".to_string()];
    let mut out = Vec::new();
    for n in items.iter().take(MAX_FLOWERS) {
        let Some(mut t) = Table::new(n, d) else { continue };
        let id = t.str(d, "id").unwrap_or("").to_string();
        if id == "transparent" {
            d.error(t.origin(), "`transparent` is the reserved flower of citizens that send the pawn nowhere");
        }
        check_id(&id, t.origin(), &mut seen, "flower", d);
        let spaces = t.int(d, "spaces", 1..=MAX_BUILDINGS as i64).unwrap_or(1) as u8;
        t.finish(d);
        out.push(FlowerColour { id, spaces });
    }
    out
}

fn decode_citizens(
    items: Option<&[Node]>,
    d: &mut Diagnostics,
    names: &Names,
    flowers: &[FlowerColour],
) -> Vec<Citizen> {
    let Some(items) = items else { return Vec::new() };
    if items.is_empty() || items.len() > MAX_CITIZENS {
        let origin = items.first().map_or(Origin::default(), |n| n.origin);
        d.error(origin, format!("expected 1 to {MAX_CITIZENS} citizens, found {}", items.len()));
    }
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for n in items.iter().take(MAX_CITIZENS) {
        let Some(mut t) = Table::new(n, d) else { continue };
        let id = t.str(d, "id").unwrap_or("").to_string();
        check_id(&id, t.origin(), &mut seen, "citizen", d);
        let flower = t.req(d, "flower", "a flower colour or `transparent`").and_then(|n| {
            let s = decode::str_of(n, d)?;
            if s == "transparent" {
                return Some(Flower::Transparent);
            }
            match flowers.iter().position(|f| f.id == s) {
                Some(i) => Some(Flower::Colour(i as u8)),
                None => {
                    let known: Vec<&str> = flowers.iter().map(|f| f.id.as_str()).collect();
                    d.error(
                        n.origin,
                        format!("unknown flower `{s}`: expected `transparent` or one of {}", known.join(", ")),
                    );
                    None
                }
            }
        });
        let effect = t.req(d, "effect", "an effect table with a `kind`").and_then(|n| citizen_effect(n, d, names));
        t.finish(d);
        // Kept even when broken (the error is reported), so counts stay right for other checks.
        let flower = flower.unwrap_or(Flower::Transparent);
        out.push(Citizen { id, flower, effect: effect.unwrap_or(CitizenEffect::Gain(Bundle::default())) });
    }
    out
}

const CITIZEN_KINDS: &[&str] = &["gain", "pickpocket", "choose_good", "lawyer"];
const BUILDING_KINDS: &[&str] = &[
    "gain",
    "convert",
    "exchange",
    "trade",
    "sell",
    "clear_die",
    "casino",
    "move_marker",
    "deliver_fixed",
    "newspaper",
];

fn citizen_effect(n: &Node, d: &mut Diagnostics, names: &Names) -> Option<CitizenEffect> {
    let mut t = Table::new(n, d)?;
    let kind = t.choice(d, "kind", CITIZEN_KINDS)?;
    let e = match CITIZEN_KINDS[kind] {
        "gain" => CitizenEffect::Gain(bundle(&mut t, d, names)?),
        "pickpocket" => {
            let pesos = t.int(d, "pesos", 0..=20)? as u8;
            let vp = t.int(d, "vp", 0..=20)? as u8;
            let goods = t.int(d, "goods", 0..=20)? as u8;
            let except = match t.get("except") {
                Some(n) => names.mask(n, d)?,
                None => 0,
            };
            CitizenEffect::Pickpocket { pesos, vp, goods, except }
        }
        "choose_good" => {
            let count = t.int(d, "count", 1..=20)? as u8;
            let except = match t.get("except") {
                Some(n) => names.mask(n, d)?,
                None => 0,
            };
            CitizenEffect::ChooseGood { count, except }
        }
        _ => CitizenEffect::Lawyer { claim_occupied: t.bool(d, "claim_occupied")? },
    };
    t.finish(d);
    Some(e)
}

fn bundle(t: &mut Table<'_>, d: &mut Diagnostics, names: &Names) -> Option<Bundle> {
    let pesos = t.int_or(d, "pesos", 0, 0..=50)? as u8;
    let vp = t.int_or(d, "vp", 0, 0..=50)? as u8;
    let goods = match t.get("goods") {
        Some(n) => goods_table(n, d, names)?,
        None => [0; MAX_GOODS],
    };
    Some(Bundle { pesos, vp, goods })
}

/// `{ sugar = 1, tobacco = 2 }`.
fn goods_table(n: &Node, d: &mut Diagnostics, names: &Names) -> Option<Goods> {
    let mut t = Table::new(n, d)?;
    let mut out = [0; MAX_GOODS];
    let mut ok = true;
    for e in t.entries_as_map() {
        match names.goods.iter().position(|g| *g == e.key) {
            Some(i) => match decode::int_in(&e.value, d, 0..=50) {
                Some(v) => out[i] = v as u8,
                None => ok = false,
            },
            None => {
                d.error(e.key_origin, format!("unknown good `{}`: expected one of {}", e.key, names.goods.join(", ")));
                ok = false;
            }
        }
    }
    t.finish(d);
    ok.then_some(out)
}

fn building_effect(n: &Node, d: &mut Diagnostics, names: &Names) -> Option<BuildingEffect> {
    let mut t = Table::new(n, d)?;
    let kind = t.choice(d, "kind", BUILDING_KINDS)?;
    let except = |t: &mut Table<'_>, d: &mut Diagnostics| match t.get("except") {
        Some(n) => names.mask(n, d),
        None => Some(0),
    };
    let e = match BUILDING_KINDS[kind] {
        "gain" => BuildingEffect::Gain(bundle(&mut t, d, names)?),
        "convert" => {
            let from = t.req(d, "from", "a good id").and_then(|n| names.good(n, d));
            let to = t.req(d, "to", "a good id").and_then(|n| names.good(n, d));
            let (from, to) = (from?, to?);
            if from == to {
                d.error(t.origin(), "`from` and `to` must be different goods");
            }
            BuildingEffect::Convert { from, to }
        }
        "exchange" => BuildingEffect::Exchange { except: except(&mut t, d)? },
        "trade" => {
            let pay = t.req(d, "pay", "a table of one good and its count, e.g. { wood = 1 }");
            let pay = pay.and_then(|n| goods_table(n, d, names))?;
            let paid: Vec<usize> = (0..MAX_GOODS).filter(|&g| pay[g] > 0).collect();
            let [good] = paid[..] else {
                d.error(t.origin(), "`pay` must name exactly one good with a count above 0");
                return None;
            };
            let gain = bundle(&mut t, d, names)?;
            BuildingEffect::Trade { good: good as u8, pay: pay[good], gain }
        }
        "sell" => {
            let goods = t.req(d, "goods", "a list of goods").and_then(|n| names.mask(n, d))?;
            let vp = t.int(d, "vp", 0..=20)? as u8;
            BuildingEffect::Sell { goods, vp }
        }
        "clear_die" => BuildingEffect::ClearDie,
        "casino" => BuildingEffect::Casino { pesos_per_vp: t.int(d, "pesos_per_vp", 1..=20)? as u8 },
        "move_marker" => BuildingEffect::MoveMarker,
        "deliver_fixed" => {
            let vp = t.int(d, "vp", 0..=20)? as u8;
            BuildingEffect::DeliverFixed { vp, except: except(&mut t, d)? }
        }
        _ => {
            let pesos = t.int(d, "pesos", 0..=20)? as u8;
            let flip_car_citizen = t.bool(d, "flip_car_citizen")?;
            BuildingEffect::Newspaper { pesos, flip_car_citizen }
        }
    };
    t.finish(d);
    Some(e)
}

fn decode_buildings(items: Option<&[Node]>, d: &mut Diagnostics, names: &Names) -> Vec<Building> {
    let Some(items) = items else { return Vec::new() };
    if items.is_empty() || items.len() > MAX_BUILDINGS {
        let origin = items.first().map_or(Origin::default(), |n| n.origin);
        d.error(origin, format!("expected 1 to {MAX_BUILDINGS} buildings, found {}", items.len()));
    }
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for n in items.iter().take(MAX_BUILDINGS) {
        let Some(mut t) = Table::new(n, d) else { continue };
        let id = t.str(d, "id").unwrap_or("").to_string();
        check_id(&id, t.origin(), &mut seen, "building", d);
        let effect = t.req(d, "effect", "an effect table with a `kind`").and_then(|n| building_effect(n, d, names));
        t.finish(d);
        // Kept even when broken (the error is reported), so counts stay right for other checks.
        out.push(Building { id, effect: effect.unwrap_or(BuildingEffect::Gain(Bundle::default())) });
    }
    out
}
