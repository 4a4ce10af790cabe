//! The validated ruleset: every number and table of the game, read straight from the
//! merged TOML tree by the core's deserializer ([`rulesmith_game::ruleset::de`]).
//!
//! Rust knows the *kinds* of rule (effect kinds, the turn, the loading round); the
//! ruleset picks and parameterises them. Each section reads itself, every field by its
//! range or its own reader, so no raw copy stands between the TOML and the typed rules;
//! names (goods, flower colours) are looked up while reading, and the few checks that span
//! sections run after. Every problem of the file is reported (file:line:col), never
//! stopping at the first; every key is required unless its type says `Option`, and no
//! rule value has a default here.

pub use crate::choices::{EmptyDemand, OwnerVpWhen, TieBreak};
use rulesmith_game::ruleset::de::{self, Entries, Int, Located, RulesetMeta};
use rulesmith_game::ruleset::{Diagnostics, Kind, Node, Origin};
use rulesmith_game::{MAX_PLAYERS, OptId};
use serde::de::Error;
use serde::{Deserialize, Deserializer};

pub use crate::limits::{MAX_BUILDINGS, MAX_CITIZENS, MAX_DICE, MAX_FLOWERS, MAX_GOODS};

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
    /// Derived when read, for the playout path: the die of each good, if any.
    pub good_die: [OptId; MAX_GOODS],
    /// Derived when read: the first casino's pesos a VP, if the ruleset has a casino.
    pub casino_rate: Option<u8>,
    /// Derived when read: the good each die demands (the playout path reads no `Die`).
    pub die_good: [u8; MAX_DICE],
    /// Derived when read: bit `g` set when good `g` may stand in for a demanded good.
    pub substitutes: GoodsMask,
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
        self.good_die.get(usize::from(g)).and_then(|d| d.get())
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

/// The rules section by section as the TOML has them, each field read by its range or
/// its own reader; [`decode`] lays them out as [`Rules`] after the checks across sections.
#[derive(Deserialize)]
struct Sections {
    #[serde(rename = "ruleset")]
    _ruleset: RulesetMeta,
    players: Players,
    start: Start,
    #[serde(deserialize_with = "goods")]
    goods: Vec<Good>,
    #[serde(deserialize_with = "dice")]
    dice: Vec<Die>,
    ship: Ship,
    street: Street,
    visits: Visits,
    scoring: Scoring,
    #[serde(deserialize_with = "flowers")]
    flowers: Vec<FlowerColour>,
    #[serde(deserialize_with = "citizens")]
    citizens: Vec<Citizen>,
    #[serde(deserialize_with = "buildings")]
    buildings: Vec<Building>,
}

#[derive(Deserialize)]
struct Players {
    #[serde(deserialize_with = "de::byte::<1, { MAX_PLAYERS as i64 }, _>")]
    min: u8,
    #[serde(deserialize_with = "de::byte::<1, { MAX_PLAYERS as i64 }, _>")]
    max: u8,
    #[serde(deserialize_with = "de::byte::<0, 16, _>")]
    property_markers: u8,
}

#[derive(Deserialize)]
struct Start {
    #[serde(deserialize_with = "de::num::<0, 1000, _, _>")]
    pesos: u16,
    #[serde(deserialize_with = "de::num::<0, 1000, _, _>")]
    vp: u16,
    /// With where it is written, for the check against the supply.
    #[serde(deserialize_with = "start_goods")]
    goods: Option<Located<Goods>>,
}

#[derive(Deserialize)]
struct Ship {
    #[serde(deserialize_with = "de::byte::<1, { MAX_DICE as i64 }, _>")]
    dice: u8,
    #[serde(deserialize_with = "value_track")]
    value_track: Vec<u8>,
    #[serde(deserialize_with = "de::byte::<1, 50, _>")]
    ships: u8,
    empty_demand: EmptyDemand,
}

#[derive(Deserialize)]
struct Street {
    #[serde(deserialize_with = "de::byte::<0, 20, _>")]
    free_steps: u8,
    #[serde(deserialize_with = "de::byte::<0, 20, _>")]
    step_cost: u8,
    #[serde(deserialize_with = "max_steps")]
    max_steps: u8,
}

#[derive(Deserialize)]
struct Visits {
    #[serde(deserialize_with = "de::byte::<0, 20, _>")]
    owner_vp: u8,
    owner_vp_when: OwnerVpWhen,
}

#[derive(Deserialize)]
struct Scoring {
    #[serde(deserialize_with = "de::byte::<0, 20, _>")]
    goods_per_vp: u8,
    tiebreaks: Vec<TieBreak>,
}

/// What the reading needs before it starts: the names other sections refer to (goods,
/// flower colours) and the street's length, taken from the tree as written (their own
/// problems are reported where they are read), with the origins the checks across
/// sections report at.
#[derive(Clone, Default)]
struct Head {
    /// Goods ids in order (`""` for an id that is not one), the first [`MAX_GOODS`].
    goods: Vec<String>,
    /// Per good: delivered in place of any demanded good (`substitute_vp` given, an
    /// [`Amount`] as read).
    substitutes: Vec<bool>,
    /// Flower colour ids, the first [`MAX_FLOWERS`].
    flowers: Vec<String>,
    /// Citizens (street stops besides the port), at most [`MAX_CITIZENS`].
    citizens: usize,
    at_players: Origin,
    at_ship: Origin,
    at_flowers: Origin,
}

impl Head {
    fn of(tree: &Node) -> Head {
        let at = |path: &str| tree.path(path).map_or(Origin::REPORTED, |n| n.origin);
        let items = |key: &str| match tree.get(key).map(|n| &n.kind) {
            Some(Kind::Array(items)) => items.as_slice(),
            _ => &[],
        };
        // As the reading has them: an id that is not one stands in as "".
        let id = |n: &Node| {
            let v = n.get("id").and_then(Node::as_str).unwrap_or("");
            let ok = rulesmith_game::ruleset::decode::checked_id(v, n.origin, &mut Diagnostics::default()).is_some();
            if ok { v.to_string() } else { String::new() }
        };
        let goods = &items("goods")[..items("goods").len().min(MAX_GOODS)];
        let flowers = &items("flowers")[..items("flowers").len().min(MAX_FLOWERS)];
        Head {
            goods: goods.iter().map(id).collect(),
            substitutes: goods
                .iter()
                .map(|g| matches!(g.get("substitute_vp").map(|n| &n.kind), Some(Kind::Int(v)) if (0..=AMOUNT_MAX).contains(v)))
                .collect(),
            flowers: flowers.iter().map(id).collect(),
            citizens: items("citizens").len().min(MAX_CITIZENS),
            at_players: at("players"),
            at_ship: at("ship"),
            at_flowers: at("flowers"),
        }
    }

    /// The head of the reading under way.
    fn get() -> Head {
        de::context(Head::clone).unwrap_or_default()
    }
}

/// Reads the whole merged tree (including `[ruleset]`). Every problem goes into `d`;
/// `None` if there was any.
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Rules> {
    let before = d.len();
    let head = Head::of(tree);
    let read: Sections = de::with_context(head.clone(), || de::from_tree(tree, d))?;
    let rules = across(read, &head, d);
    (d.len() == before).then_some(rules)
}

/// The checks that span sections, then the rules laid out as the game uses them. A value
/// that was wrong (reported) stands in as 0 or empty, so these checks still run, and the
/// caller refuses the result.
fn across(s: Sections, head: &Head, d: &mut Diagnostics) -> Rules {
    let p = &s.players;
    // 0 stands in for a bound that could not be read.
    if p.min >= 1 && p.max >= 1 && p.min > p.max {
        d.error(head.at_players, format!("`min` ({}) is more than `max` ({})", p.min, p.max));
    }
    if let (max @ 1.., Some(at)) = (p.max, &s.start.goods) {
        for (good, &each) in s.goods.iter().zip(&at.value) {
            if u32::from(each) * u32::from(max) > u32::from(good.supply) {
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
    let ship = &s.ship;
    if usize::from(ship.dice) > s.dice.len() && !s.dice.is_empty() {
        d.error(head.at_ship, format!("the ship takes {} dice but only {} are defined", ship.dice, s.dice.len()));
    }
    let spaces: u32 = s.flowers.iter().map(|f| u32::from(f.spaces)).sum();
    if !s.buildings.is_empty() && spaces as usize != s.buildings.len() {
        d.error(
            head.at_flowers,
            format!("the flowers have {spaces} building spaces but there are {} buildings", s.buildings.len()),
        );
    }
    let mut good_die = [OptId::NONE; MAX_GOODS];
    for (g, slot) in good_die.iter_mut().enumerate() {
        *slot = s.dice.iter().position(|d| usize::from(d.good) == g).map(|i| i as u8).into();
    }
    let mut die_good = [0; MAX_DICE];
    for (slot, die) in die_good.iter_mut().zip(&s.dice) {
        *slot = die.good;
    }
    let substitutes = (s.goods.iter().enumerate().take(MAX_GOODS))
        .filter(|(_, g)| g.substitute_vp.is_some())
        .fold(0, |m, (i, _)| m | 1 << i);
    let casino_rate = s.buildings.iter().find_map(|b| match b.effect {
        BuildingEffect::Casino { pesos_per_vp } => Some(pesos_per_vp),
        _ => None,
    });
    Rules {
        min_players: usize::from(p.min),
        max_players: usize::from(p.max),
        property_markers: p.property_markers,
        start_pesos: s.start.pesos,
        start_vp: s.start.vp,
        start_goods: s.start.goods.map(|g| g.value).unwrap_or_default(),
        goods: s.goods,
        dice: s.dice,
        ship_dice: ship.dice,
        value_track: s.ship.value_track,
        ships: s.ship.ships,
        empty_demand: s.ship.empty_demand,
        free_steps: s.street.free_steps,
        step_cost: s.street.step_cost,
        max_steps: s.street.max_steps,
        flowers: s.flowers,
        citizens: s.citizens,
        buildings: s.buildings,
        owner_vp: s.visits.owner_vp,
        owner_vp_when: s.visits.owner_vp_when,
        goods_per_vp: s.scoring.goods_per_vp,
        tiebreaks: s.scoring.tiebreaks,
        good_die,
        casino_rate,
        die_good,
        substitutes,
    }
}

// The fields' own readers. Each reads the shape the TOML has and reports what it finds
// wrong with `de::reject` (or `de::checked`), going on with a neutral value.

/// The most of a small amount.
const AMOUNT_MAX: i64 = 20;
/// A small amount: pesos, VP or goods of an effect.
type Amount = Int<0, AMOUNT_MAX>;
/// A list of goods ids (`["rum", "cigars"]`).
type Ids = Located<Vec<Located<String>>>;
/// Goods and their counts as written (`{ sugar = 1, tobacco = 2 }`).
type GoodsTable = Located<Entries<Int<0, 50>>>;

/// A number whose range the shape checked (every range here fits a byte); a stand-in
/// reads 0 (its problem is reported).
fn byte<const MIN: i64, const MAX: i64>(v: &Int<MIN, MAX>) -> u8 {
    v.value as u8
}

/// A good by id (its index), or `None` and the problem reported at `name`.
fn good<E: Error>(name: &Located<String>, head: &Head) -> Result<Option<u8>, E> {
    Ok(de::lookup(head.goods.iter().map(String::as_str), "good", name)?.map(|g| g as u8))
}

/// The goods of a list, as a mask; `None` if one is unknown (reported).
fn mask<E: Error>(list: &Ids, head: &Head) -> Result<Option<GoodsMask>, E> {
    let mut m = 0;
    let mut ok = true;
    for v in &list.value {
        match good(v, head)? {
            Some(g) => m |= 1 << g,
            None => ok = false,
        }
    }
    Ok(ok.then_some(m))
}

/// The goods of an optional `except` list; none when absent.
fn except<E: Error>(list: &Option<Ids>, head: &Head) -> Result<Option<GoodsMask>, E> {
    list.as_ref().map_or(Ok(Some(0)), |l| mask(l, head))
}

/// `{ sugar = 1, tobacco = 2 }`; `None` if a good is unknown (reported).
fn goods_table<E: Error>(t: &GoodsTable, head: &Head) -> Result<Option<Goods>, E> {
    let mut out = [0; MAX_GOODS];
    let mut ok = true;
    for (key, v) in &t.value.0 {
        match good(key, head)? {
            Some(g) => out[usize::from(g)] = byte(v),
            None => ok = false,
        }
    }
    Ok(ok.then_some(out))
}

/// A gain's pesos, VP and goods, each none when absent.
fn bundle<E: Error>(
    pesos: &Option<Int<0, 50>>,
    vp: &Option<Int<0, 50>>,
    goods: &Option<GoodsTable>,
    head: &Head,
) -> Result<Option<Bundle>, E> {
    let goods = match goods {
        Some(t) => goods_table(t, head)?,
        None => Some([0; MAX_GOODS]),
    };
    Ok(goods.map(|goods| Bundle { pesos: pesos.as_ref().map_or(0, byte), vp: vp.as_ref().map_or(0, byte), goods }))
}

/// An id: notation-safe, lowercase letters, digits and `_` starting with a letter, unique
/// in its list (`seen`), not a notation word. The id, or `""` standing in for a wrong one.
fn check_id<E: Error>(v: &Located<String>, seen: &mut Vec<String>, what: &str) -> Result<String, E> {
    let Some(id) = de::checked(|d| de::id(v, d).map(str::to_string))? else { return Ok(String::new()) };
    let valid = id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !id.starts_with(|c: char| c.is_ascii_digit());
    if !valid {
        let message = format!("{what} id `{id}` must be lowercase letters, digits and `_`, starting with a letter");
        de::reject(v.origin, message)?;
    } else if RESERVED.contains(&id.as_str()) {
        de::reject(v.origin, format!("{what} id `{id}` is a word of the action notation; choose another"))?;
    } else if seen.contains(&id) {
        de::reject(v.origin, format!("duplicate {what} id `{id}`"))?;
    }
    seen.push(id.clone());
    Ok(id)
}

/// The items of a list of 1 to `most`; the ones past `most` are reported, not read.
fn counted<'a, T, E: Error>(list: &'a Located<Vec<T>>, most: usize, what: &str) -> Result<&'a [T], E> {
    let n = list.value.len();
    if n == 0 || n > most {
        de::reject(list.origin, format!("expected 1 to {most} {what}, found {n}"))?;
    }
    Ok(&list.value[..n.min(most)])
}

fn start_goods<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Located<Goods>>, D::Error> {
    let Some(table) = Option::<GoodsTable>::deserialize(d)? else { return Ok(None) };
    let goods = goods_table(&table, &Head::get())?;
    // Unknown goods (reported) start as none.
    Ok(Some(Located { value: goods.unwrap_or_default(), origin: table.origin }))
}

fn goods<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Good>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        id: Located<String>,
        supply: Int<0, 200>,
        /// Only a good delivered in place of any demanded good (wood).
        substitute_vp: Option<Amount>,
    }
    let list = Located::<Vec<Located<Entry>>>::deserialize(d)?;
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for g in counted(&list, MAX_GOODS, "goods")? {
        let g = &g.value;
        let id = check_id(&g.id, &mut seen, "good")?;
        let substitute_vp = g.substitute_vp.as_ref().and_then(Int::get).map(|v| v as u8);
        out.push(Good { id, supply: byte(&g.supply), substitute_vp });
    }
    Ok(out)
}

fn dice<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Die>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        id: Located<String>,
        good: Located<String>,
        faces: Located<Vec<Int<0, 20>>>,
    }
    let list = Located::<Vec<Located<Entry>>>::deserialize(d)?;
    let head = Head::get();
    let mut seen = Vec::new();
    let mut out: Vec<Die> = Vec::new();
    for die in counted(&list, MAX_DICE, "dice")? {
        let (at, die) = (die.origin, &die.value);
        let id = check_id(&die.id, &mut seen, "die")?;
        let good = good(&die.good, &head)?;
        if let Some(g) = good {
            let name = &head.goods[usize::from(g)];
            if head.substitutes.get(usize::from(g)) == Some(&true) {
                de::reject(at, format!("die `{id}` demands `{name}`, which is a substitute good"))?;
            }
            if out.iter().any(|x| x.good == g) {
                de::reject(at, format!("two dice demand `{name}`: each good may have one die"))?;
            }
        }
        let faces: Vec<u8> = die.faces.value.iter().filter_map(Int::get).map(|v| v as u8).collect();
        if faces.iter().all(|&f| f == 0) && faces.len() == die.faces.value.len() {
            de::reject(die.faces.origin, "a die needs at least one face above 0")?;
        }
        out.push(Die { id, good: good.unwrap_or(0), faces });
    }
    Ok(out)
}

/// VP per good at each flag: at least one flag, no two alike.
fn value_track<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    let track = Located::<Vec<Int<0, 50>>>::deserialize(d)?;
    let values: Vec<u8> = track.value.iter().filter_map(Int::get).map(|v| v as u8).collect();
    if track.value.is_empty() {
        de::reject(track.origin, "the value track needs at least one flag")?;
    }
    let mut flags = values.clone();
    flags.sort_unstable();
    flags.dedup();
    if flags.len() != values.len() {
        de::reject(track.origin, "the flags of the value track must have different values")?;
    }
    Ok(values)
}

/// At most the citizens' count: more steps than stops minus one would let the car lap the
/// street and pass the port twice in one move, which the rulebook does not cover (data
/// sheet C.6.2-3).
fn max_steps<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let v = Located::<i64>::deserialize(d)?;
    let most = Head::get().citizens.max(1) as i64;
    Ok(de::checked(|d| de::int_in(&v, 1..=most, d))?.unwrap_or(0) as u8)
}

fn flowers<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<FlowerColour>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        id: Located<String>,
        spaces: Int<1, { MAX_BUILDINGS as i64 }>,
    }
    let list = Located::<Vec<Located<Entry>>>::deserialize(d)?;
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for f in counted(&list, MAX_FLOWERS, "flower colours")? {
        let f = &f.value;
        // Reported once here, not again as a duplicate.
        let id = if f.id.value == "transparent" {
            de::reject(f.id.origin, "`transparent` is the reserved flower of citizens that send the pawn nowhere")?;
            f.id.value.clone()
        } else {
            check_id(&f.id, &mut seen, "flower")?
        };
        let spaces = f.spaces.get().unwrap_or(1) as u8;
        out.push(FlowerColour { id, spaces });
    }
    Ok(out)
}

/// A citizen effect as written: one variant per kind; absent pesos, VP and goods of a
/// gain are none.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum CitizenEffectEntry {
    Gain { pesos: Option<Int<0, 50>>, vp: Option<Int<0, 50>>, goods: Option<GoodsTable> },
    Pickpocket { pesos: Amount, vp: Amount, goods: Amount, except: Option<Ids> },
    ChooseGood { count: Int<1, 20>, except: Option<Ids> },
    Lawyer { claim_occupied: bool },
}

fn citizens<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Citizen>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        id: Located<String>,
        /// A flower colour's id, or `transparent`.
        flower: Located<String>,
        effect: CitizenEffectEntry,
    }
    let list = Located::<Vec<Located<Entry>>>::deserialize(d)?;
    let head = Head::get();
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for c in counted(&list, MAX_CITIZENS, "citizens")? {
        let c = &c.value;
        let id = check_id(&c.id, &mut seen, "citizen")?;
        let flower = match head.flowers.iter().position(|f| *f == c.flower.value) {
            _ if c.flower.value == "transparent" => Flower::Transparent,
            Some(i) => Flower::Colour(i as u8),
            None => {
                // `transparent` as a colour id is reported where the colours are read.
                let known = head.flowers.iter().map(String::as_str).filter(|f| *f != "transparent");
                let hint = rulesmith_game::suggest::hint(&c.flower.value, known.clone().chain(["transparent"]));
                let (v, known) = (&c.flower.value, known.collect::<Vec<_>>().join(", "));
                let message = format!("unknown flower `{v}`: expected `transparent` or one of {known}{hint}");
                de::reject(c.flower.origin, message)?;
                // Stands in (the error is reported), so counts stay right for other checks.
                Flower::Transparent
            }
        };
        let effect = citizen_effect(&c.effect, &head)?.unwrap_or(CitizenEffect::Gain(Bundle::default()));
        out.push(Citizen { id, flower, effect });
    }
    Ok(out)
}

fn citizen_effect<E: Error>(e: &CitizenEffectEntry, head: &Head) -> Result<Option<CitizenEffect>, E> {
    use CitizenEffectEntry as R;
    Ok(match e {
        R::Gain { pesos, vp, goods } => bundle(pesos, vp, goods, head)?.map(CitizenEffect::Gain),
        R::Pickpocket { pesos, vp, goods, except: ex } => {
            let (pesos, vp, goods) = (byte(pesos), byte(vp), byte(goods));
            except(ex, head)?.map(|except| CitizenEffect::Pickpocket { pesos, vp, goods, except })
        }
        R::ChooseGood { count, except: ex } => {
            except(ex, head)?.map(|except| CitizenEffect::ChooseGood { count: byte(count), except })
        }
        R::Lawyer { claim_occupied } => Some(CitizenEffect::Lawyer { claim_occupied: *claim_occupied }),
    })
}

/// A building effect as written: one variant per kind.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum BuildingEffectEntry {
    Gain { pesos: Option<Int<0, 50>>, vp: Option<Int<0, 50>>, goods: Option<GoodsTable> },
    Convert { from: Located<String>, to: Located<String> },
    Exchange { except: Option<Ids> },
    Trade { pay: GoodsTable, pesos: Option<Int<0, 50>>, vp: Option<Int<0, 50>>, goods: Option<GoodsTable> },
    Sell { goods: Ids, vp: Amount },
    ClearDie,
    Casino { pesos_per_vp: Int<1, 20> },
    MoveMarker,
    DeliverFixed { vp: Amount, except: Option<Ids> },
    Newspaper { pesos: Amount, flip_car_citizen: bool },
}

fn buildings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Building>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        id: Located<String>,
        effect: Located<BuildingEffectEntry>,
    }
    let list = Located::<Vec<Located<Entry>>>::deserialize(d)?;
    let head = Head::get();
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for b in counted(&list, MAX_BUILDINGS, "buildings")? {
        let b = &b.value;
        let id = check_id(&b.id, &mut seen, "building")?;
        // Kept even when broken (the error is reported), so counts stay right for other checks.
        let effect = building_effect(&b.effect, &head)?.unwrap_or(BuildingEffect::Gain(Bundle::default()));
        out.push(Building { id, effect });
    }
    Ok(out)
}

fn building_effect<E: Error>(e: &Located<BuildingEffectEntry>, head: &Head) -> Result<Option<BuildingEffect>, E> {
    use BuildingEffectEntry as R;
    Ok(match &e.value {
        R::Gain { pesos, vp, goods } => bundle(pesos, vp, goods, head)?.map(BuildingEffect::Gain),
        R::Convert { from, to } => {
            let (from, to) = (good(from, head)?, good(to, head)?);
            let (Some(from), Some(to)) = (from, to) else { return Ok(None) };
            if from == to {
                de::reject(e.origin, "`from` and `to` must be different goods")?;
            }
            Some(BuildingEffect::Convert { from, to })
        }
        R::Exchange { except: ex } => except(ex, head)?.map(|except| BuildingEffect::Exchange { except }),
        R::Trade { pay, pesos, vp, goods } => {
            let Some(pay) = goods_table(pay, head)? else { return Ok(None) };
            let paid: Vec<usize> = (0..MAX_GOODS).filter(|&g| pay[g] > 0).collect();
            let [good] = paid[..] else {
                de::reject(e.origin, "`pay` must name exactly one good with a count above 0")?;
                return Ok(None);
            };
            bundle(pesos, vp, goods, head)?.map(|gain| BuildingEffect::Trade { good: good as u8, pay: pay[good], gain })
        }
        R::Sell { goods, vp } => mask(goods, head)?.map(|goods| BuildingEffect::Sell { goods, vp: byte(vp) }),
        R::ClearDie => Some(BuildingEffect::ClearDie),
        R::Casino { pesos_per_vp } => Some(BuildingEffect::Casino { pesos_per_vp: byte(pesos_per_vp) }),
        R::MoveMarker => Some(BuildingEffect::MoveMarker),
        R::DeliverFixed { vp, except: ex } => {
            except(ex, head)?.map(|except| BuildingEffect::DeliverFixed { vp: byte(vp), except })
        }
        R::Newspaper { pesos, flip_car_citizen } => {
            Some(BuildingEffect::Newspaper { pesos: byte(pesos), flip_car_citizen: *flip_car_citizen })
        }
    })
}
