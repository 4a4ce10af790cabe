//! The validated ruleset: every number and table of the game, decoded from TOML.
//!
//! Rust knows the *kinds* of rule (effect kinds, the turn, the loading round); the
//! ruleset picks and parameterises them. The TOML's shape is declared in [`crate::raw`];
//! [`decode`] reads it and validates it here in one step, reporting every problem of the
//! file (unknown keys, out-of-range values, unknown goods, flowers or dice) at once.

pub use crate::choices::{EmptyDemand, OwnerVpWhen, TieBreak};
use crate::raw::{self, GoodsTable, Ids, Raw};
use rulesmith_core::ruleset::de::{self, Int, Located};
use rulesmith_core::ruleset::{Diagnostics, Node};

pub use crate::limits::{MAX_BUILDINGS, MAX_CITIZENS, MAX_DICE, MAX_FLOWERS, MAX_GOODS};
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
///
/// Every kind gives only to the visitor (or, the lawyer, offers its own `skip`), and more
/// pesos, VP or goods never lower a final score or a tie-break, so a citizen's action is
/// applied without asking although the rulebook says "puedes" (S002:L146): declining
/// could never help. A kind that could cost the visitor would have to offer `skip`.
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

/// The validated rules of one Santiago de Cuba ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
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

/// Reads and validates the whole merged tree (including `[ruleset]`). Every problem goes
/// into `d`; `None` if there was any.
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Rules> {
    let before = d.len();
    let raw: Raw = de::from_tree(tree, d)?;
    let rules = validate(&raw, d);
    (d.len() == before).then_some(rules)
}

/// The typed rules; a value that was wrong (reported) stands in as 0 or empty, so the
/// checks after it still run, and the caller refuses the result.
fn validate(raw: &Raw, d: &mut Diagnostics) -> Rules {
    // Goods first: everything else refers to them by id.
    let goods = decode_goods(&raw.goods, d);
    let names = Names { goods: goods.iter().map(|g| g.id.clone()).collect() };

    let p = &raw.players.value;
    let (min, max) = (p.min.get(), p.max.get());
    if let (Some(a), Some(b)) = (min, max) {
        if a > b {
            d.error(raw.players.origin, format!("`min` ({a}) is more than `max` ({b})"));
        }
    }

    let start = &raw.start;
    let start_goods = start.goods.as_ref().and_then(|t| goods_table(t, d, &names)).unwrap_or_default();
    if let (Some(max), Some(at)) = (max, &start.goods) {
        for (good, &each) in goods.iter().zip(&start_goods) {
            if i64::from(each) * max > i64::from(good.supply) {
                d.error(
                    at.origin,
                    format!(
                        "{max} players starting with {each} {} each need more than the supply of {}",
                        good.id, good.supply
                    ),
                );
            }
        }
    }

    let dice = decode_dice(&raw.dice, d, &names, &goods);

    let ship = &raw.ship.value;
    let ship_dice = ship.dice.value as u8;
    if usize::from(ship_dice) > dice.len() && !dice.is_empty() {
        d.error(raw.ship.origin, format!("the ship takes {ship_dice} dice but only {} are defined", dice.len()));
    }
    let track = &ship.value_track;
    let value_track: Vec<u8> = track.value.iter().filter_map(Int::get).map(|v| v as u8).collect();
    if track.value.is_empty() {
        d.error(track.origin, "the value track needs at least one flag");
    }
    let mut flags = value_track.clone();
    flags.sort_unstable();
    flags.dedup();
    if flags.len() != value_track.len() {
        d.error(track.origin, "the flags of the value track must have different values");
    }

    let flowers = decode_flowers(&raw.flowers, d);
    let citizens = decode_citizens(&raw.citizens, d, &names, &flowers);
    let buildings = decode_buildings(&raw.buildings, d, &names);
    let spaces: u32 = flowers.iter().map(|f| u32::from(f.spaces)).sum();
    if !buildings.is_empty() && spaces as usize != buildings.len() {
        d.error(
            raw.flowers.origin,
            format!("the flowers have {spaces} building spaces but there are {} buildings", buildings.len()),
        );
    }

    let street = &raw.street;
    // More steps than stops minus one would let the car lap the street and pass the
    // port twice in one move, which the rulebook does not cover (data sheet C.6.2-3).
    let most = citizens.len().max(1) as i64;

    Rules {
        min_players: min.unwrap_or(0) as usize,
        max_players: max.unwrap_or(0) as usize,
        property_markers: p.property_markers.value as u8,
        start_pesos: start.pesos.value as u16,
        start_vp: start.vp.value as u16,
        start_goods,
        goods,
        dice,
        ship_dice,
        value_track,
        ships: ship.ships.value as u8,
        empty_demand: ship.empty_demand,
        free_steps: street.free_steps.value as u8,
        step_cost: street.step_cost.value as u8,
        max_steps: de::int_in(&street.max_steps, 1..=most, d).unwrap_or(0) as u8,
        flowers,
        citizens,
        buildings,
        owner_vp: raw.visits.owner_vp.value as u8,
        owner_vp_when: raw.visits.owner_vp_when,
        goods_per_vp: raw.scoring.goods_per_vp.value as u8,
        tiebreaks: raw.scoring.tiebreaks.clone(),
    }
}

struct Names {
    goods: Vec<String>,
}

impl Names {
    fn good(&self, v: &Located<String>, d: &mut Diagnostics) -> Option<u8> {
        match self.goods.iter().position(|g| *g == v.value) {
            Some(i) => Some(i as u8),
            None => {
                let expected = self.goods.join(", ");
                let hint = rulesmith_core::suggest::hint(&v.value, self.goods.iter().map(String::as_str));
                d.error(v.origin, format!("unknown good `{}`: expected one of {expected}{hint}", v.value));
                None
            }
        }
    }

    fn mask(&self, list: &Ids, d: &mut Diagnostics) -> Option<GoodsMask> {
        let mut m = 0;
        let mut ok = true;
        for v in &list.value {
            match self.good(v, d) {
                Some(g) => m |= 1 << g,
                None => ok = false,
            }
        }
        ok.then_some(m)
    }

    /// The goods of an optional `except` list; none when absent.
    fn except(&self, list: &Option<Ids>, d: &mut Diagnostics) -> Option<GoodsMask> {
        list.as_ref().map_or(Some(0), |l| self.mask(l, d))
    }
}

/// An id: notation-safe, lowercase letters, digits and `_` starting with a letter, unique
/// in its list (`seen`), not a notation word. The id, or `""` standing in for a wrong one.
fn check_id(v: &Located<String>, seen: &mut Vec<String>, what: &str, d: &mut Diagnostics) -> String {
    let Some(id) = de::id(v, d) else { return String::new() };
    let valid = id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !id.starts_with(|c: char| c.is_ascii_digit());
    if !valid {
        d.error(
            v.origin,
            format!("{what} id `{id}` must be lowercase letters, digits and `_`, starting with a letter"),
        );
    } else if RESERVED.contains(&id) {
        d.error(v.origin, format!("{what} id `{id}` is a word of the action notation; choose another"));
    } else if seen.iter().any(|s| s == id) {
        d.error(v.origin, format!("duplicate {what} id `{id}`"));
    }
    seen.push(id.to_string());
    id.to_string()
}

/// The items of a list of 1 to `most`; the ones past `most` are reported, not read.
fn counted<'a, T>(list: &'a Located<Vec<T>>, most: usize, what: &str, d: &mut Diagnostics) -> &'a [T] {
    let n = list.value.len();
    if n == 0 || n > most {
        d.error(list.origin, format!("expected 1 to {most} {what}, found {n}"));
    }
    &list.value[..n.min(most)]
}

fn decode_goods(list: &Located<Vec<Located<raw::Good>>>, d: &mut Diagnostics) -> Vec<Good> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for g in counted(list, MAX_GOODS, "goods", d) {
        let g = &g.value;
        let id = check_id(&g.id, &mut seen, "good", d);
        let supply = g.supply.value as u8;
        let substitute_vp = g.substitute_vp.as_ref().and_then(Int::get).map(|v| v as u8);
        out.push(Good { id, supply, substitute_vp });
    }
    out
}

fn decode_dice(list: &Located<Vec<Located<raw::Die>>>, d: &mut Diagnostics, names: &Names, goods: &[Good]) -> Vec<Die> {
    let mut seen = Vec::new();
    let mut out: Vec<Die> = Vec::new();
    for die in counted(list, MAX_DICE, "dice", d) {
        let (at, die) = (die.origin, &die.value);
        let id = check_id(&die.id, &mut seen, "die", d);
        let good = names.good(&die.good, d);
        if let Some(g) = good {
            let name = &names.goods[usize::from(g)];
            if goods.get(usize::from(g)).is_some_and(|x| x.substitute_vp.is_some()) {
                d.error(at, format!("die `{id}` demands `{name}`, which is a substitute good"));
            }
            if out.iter().any(|x| x.good == g) {
                d.error(at, format!("two dice demand `{name}`: each good may have one die"));
            }
        }
        let faces: Vec<u8> = die.faces.value.iter().filter_map(Int::get).map(|v| v as u8).collect();
        if faces.iter().all(|&f| f == 0) && faces.len() == die.faces.value.len() {
            d.error(die.faces.origin, "a die needs at least one face above 0");
        }
        out.push(Die { id, good: good.unwrap_or(0), faces });
    }
    out
}

fn decode_flowers(list: &Located<Vec<Located<raw::Flower>>>, d: &mut Diagnostics) -> Vec<FlowerColour> {
    let mut seen = vec!["transparent".to_string()];
    let mut out = Vec::new();
    for f in counted(list, MAX_FLOWERS, "flower colours", d) {
        let f = &f.value;
        if f.id.value == "transparent" {
            d.error(f.id.origin, "`transparent` is the reserved flower of citizens that send the pawn nowhere");
        }
        let id = check_id(&f.id, &mut seen, "flower", d);
        let spaces = f.spaces.get().unwrap_or(1) as u8;
        out.push(FlowerColour { id, spaces });
    }
    out
}

fn decode_citizens(
    list: &Located<Vec<Located<raw::Citizen>>>,
    d: &mut Diagnostics,
    names: &Names,
    flowers: &[FlowerColour],
) -> Vec<Citizen> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for c in counted(list, MAX_CITIZENS, "citizens", d) {
        let c = &c.value;
        let id = check_id(&c.id, &mut seen, "citizen", d);
        let flower = match flowers.iter().position(|f| f.id == c.flower.value) {
            _ if c.flower.value == "transparent" => Flower::Transparent,
            Some(i) => Flower::Colour(i as u8),
            None => {
                let known: Vec<&str> = flowers.iter().map(|f| f.id.as_str()).collect();
                let hint = rulesmith_core::suggest::hint(&c.flower.value, known.iter().copied().chain(["transparent"]));
                let (v, known) = (&c.flower.value, known.join(", "));
                d.error(
                    c.flower.origin,
                    format!("unknown flower `{v}`: expected `transparent` or one of {known}{hint}"),
                );
                // Stands in (the error is reported), so counts stay right for other checks.
                Flower::Transparent
            }
        };
        let effect = citizen_effect(&c.effect, d, names).unwrap_or(CitizenEffect::Gain(Bundle::default()));
        out.push(Citizen { id, flower, effect });
    }
    out
}

fn citizen_effect(e: &Located<raw::CitizenEffect>, d: &mut Diagnostics, names: &Names) -> Option<CitizenEffect> {
    use raw::CitizenEffect as R;
    Some(match &e.value {
        R::Gain { pesos, vp, goods } => CitizenEffect::Gain(bundle(pesos, vp, goods, d, names)?),
        R::Pickpocket { pesos, vp, goods, except } => {
            let (pesos, vp, goods) = (byte(pesos), byte(vp), byte(goods));
            CitizenEffect::Pickpocket { pesos, vp, goods, except: names.except(except, d)? }
        }
        R::ChooseGood { count, except } => {
            CitizenEffect::ChooseGood { count: byte(count), except: names.except(except, d)? }
        }
        R::Lawyer { claim_occupied } => CitizenEffect::Lawyer { claim_occupied: *claim_occupied },
    })
}

/// A small number whose range the shape checked (every range here fits a byte); a
/// stand-in reads 0 (its problem is reported).
fn byte<const MIN: i64, const MAX: i64>(v: &Int<MIN, MAX>) -> u8 {
    v.value as u8
}

/// A gain's pesos, VP and goods, each none when absent.
fn bundle(
    pesos: &Option<Int<0, 50>>,
    vp: &Option<Int<0, 50>>,
    goods: &Option<GoodsTable>,
    d: &mut Diagnostics,
    names: &Names,
) -> Option<Bundle> {
    let goods = goods.as_ref().map_or(Some([0; MAX_GOODS]), |t| goods_table(t, d, names));
    Some(Bundle { pesos: pesos.as_ref().map_or(0, byte), vp: vp.as_ref().map_or(0, byte), goods: goods? })
}

/// `{ sugar = 1, tobacco = 2 }`.
fn goods_table(t: &GoodsTable, d: &mut Diagnostics, names: &Names) -> Option<Goods> {
    let mut out = [0; MAX_GOODS];
    let mut ok = true;
    for (key, v) in &t.value.0 {
        match names.good(key, d) {
            Some(g) => out[usize::from(g)] = byte(v),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

fn building_effect(e: &Located<raw::BuildingEffect>, d: &mut Diagnostics, names: &Names) -> Option<BuildingEffect> {
    use raw::BuildingEffect as R;
    Some(match &e.value {
        R::Gain { pesos, vp, goods } => BuildingEffect::Gain(bundle(pesos, vp, goods, d, names)?),
        R::Convert { from, to } => {
            let (from, to) = (names.good(from, d), names.good(to, d));
            let (from, to) = (from?, to?);
            if from == to {
                d.error(e.origin, "`from` and `to` must be different goods");
            }
            BuildingEffect::Convert { from, to }
        }
        R::Exchange { except } => BuildingEffect::Exchange { except: names.except(except, d)? },
        R::Trade { pay, pesos, vp, goods } => {
            let pay = goods_table(pay, d, names)?;
            let paid: Vec<usize> = (0..MAX_GOODS).filter(|&g| pay[g] > 0).collect();
            let [good] = paid[..] else {
                d.error(e.origin, "`pay` must name exactly one good with a count above 0");
                return None;
            };
            let gain = bundle(pesos, vp, goods, d, names)?;
            BuildingEffect::Trade { good: good as u8, pay: pay[good], gain }
        }
        R::Sell { goods, vp } => BuildingEffect::Sell { goods: names.mask(goods, d)?, vp: byte(vp) },
        R::ClearDie => BuildingEffect::ClearDie,
        R::Casino { pesos_per_vp } => BuildingEffect::Casino { pesos_per_vp: byte(pesos_per_vp) },
        R::MoveMarker => BuildingEffect::MoveMarker,
        R::DeliverFixed { vp, except } => {
            BuildingEffect::DeliverFixed { vp: byte(vp), except: names.except(except, d)? }
        }
        R::Newspaper { pesos, flip_car_citizen } => {
            BuildingEffect::Newspaper { pesos: byte(pesos), flip_car_citizen: *flip_car_citizen }
        }
    })
}

fn decode_buildings(list: &Located<Vec<Located<raw::Building>>>, d: &mut Diagnostics, names: &Names) -> Vec<Building> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for b in counted(list, MAX_BUILDINGS, "buildings", d) {
        let b = &b.value;
        let id = check_id(&b.id, &mut seen, "building", d);
        // Kept even when broken (the error is reported), so counts stay right for other checks.
        let effect = building_effect(&b.effect, d, names).unwrap_or(BuildingEffect::Gain(Bundle::default()));
        out.push(Building { id, effect });
    }
    out
}
