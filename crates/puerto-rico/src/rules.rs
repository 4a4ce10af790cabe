//! The validated Puerto Rico ruleset: every number and table of the rules, read straight
//! from the merged TOML tree by the core's deserializer ([`rulesmith_game::ruleset::de`]).
//! Everything after decoding trusts these values.
//!
//! Each section reads itself, every field by its range or its own reader, so no raw copy
//! stands between the TOML and the typed rules; goods are looked up by name while reading
//! (effects, buildings and the setup name them), and the few checks that span sections run
//! after. Every problem of the file is reported (file:line:col), never stopping at the
//! first; every key is required unless its type says `Option`.

use crate::goods::{ByGood, Colour, Good, MAX_GOODS};
use crate::reading::Head;
use rulesmith_game::ruleset::de::{self, Entries, Int, Located, RulesetMeta};
use rulesmith_game::ruleset::{Diagnostics, Node, Origin};
use serde::{Deserialize, Deserializer};

pub use crate::effect::{EFFECT_KINDS, EXTENSION_KINDS, Effect, FIRST_EXTENDED_KIND, kind};
pub use crate::limits::{
    MAX_BUILDINGS, MAX_PLANTATIONS, MAX_PLAYERS, MAX_ROLES, MAX_SHIPS, MAX_SPACES, MAX_TRADING_HOUSE,
};
pub use crate::role_kind::RoleKind;

/// A good of the ruleset (`[goods.*]`): its name and colour; its numbers are in
/// [`Rules::price`], [`Rules::needs_building`] and the setup.
#[derive(Clone, Debug, PartialEq)]
pub struct GoodDef {
    pub name: String,
    pub colour: Colour,
}

/// Words of the action notation that no good may be called (`take quarry`, `take
/// colonist`, `take vp`, `place 1 on san-juan`, `keep nothing`).
const RESERVED: [&str; 5] = ["quarry", "colonist", "vp", "san-juan", "nothing"];

/// A value per player count, indexed by the count (entries below the minimum unused).
pub type PerPlayers<T> = [T; MAX_PLAYERS + 1];

#[derive(Clone, Debug, PartialEq)]
pub struct Role {
    pub id: String,
    pub kind: RoleKind,
    /// The chooser's extra: quarries / colonists / doubloons off / goods / doubloons / VP /
    /// doubloons, by kind.
    pub privilege: u8,
    /// Bit `p` set when the card is used with `p` players.
    pub players: u8,
    /// Bit `o` set for each earlier role of the same kind and privilege (derived).
    pub twins_before: u16,
}

/// What kind of building: production of a good, or a violet building with an effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildingKind {
    Production { good: Good, small: bool },
    Violet,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Building {
    pub id: String,
    pub kind: BuildingKind,
    pub spaces: u8,
    pub cost: u8,
    pub vp: u8,
    /// Quarry column: at most this many occupied quarries lower the cost.
    pub column: u8,
    pub circles: u8,
    pub copies: PerPlayers<u8>,
    pub effect: Effect,
}

/// Setup for one player count.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Setup {
    pub quarries: u8,
    pub colonists_supply: u8,
    pub colonists_ship: u8,
    pub vp_chips: u16,
    pub doubloons: u8,
    pub starting_plantations: Vec<Good>,
    pub ships: Vec<u8>,
    pub roles_per_round: u8,
    pub barrels: ByGood<u8>,
    pub plantations: ByGood<u8>,
}

/// The validated ruleset of Puerto Rico.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub min_players: usize,
    pub max_players: usize,
    pub island_spaces: u8,
    pub city_spaces: u8,
    /// The goods, in the ruleset's order (`[goods.*]`): a [`Good`] is an index here.
    pub goods: Vec<GoodDef>,
    pub price: ByGood<u8>,
    /// Goods whose production needs an occupied production building (`[goods.*]
    /// needs_building`; S000:L472: every good but corn).
    pub needs_building: ByGood<bool>,
    pub setup: PerPlayers<Setup>,
    pub face_up_extra: u8,
    pub coins_on_unchosen_roles: u8,
    pub trading_house_spaces: u8,
    /// Barrels of any kinds every player keeps at storage besides their warehouses
    /// (S000:L336: one; the storehouse adds more of any kinds to it, S001:L551).
    pub free_barrels: u8,
    pub ship_refill_minimum_per_player: u8,
    /// VP per barrel loaded on a cargo ship or the wharf (S000:L330, L614).
    pub vp_per_barrel: u8,
    /// The phases (bit per [`RoleKind`]) in which VP scored with no chip left end the game
    /// after the round (S000:L414, S001:L242: the captain's).
    pub vp_chips_run_out_in: u8,
    /// The captain is asked whether to take the privilege VP when declining it may change
    /// whether the game ends this round: a privilege may be declined (S000:L131).
    pub captain_may_decline_last_vp: bool,
    /// Tie-break keys after VP, in order (`[scoring] tiebreaks`).
    pub tiebreaks: Vec<crate::role_kind::TieBreak>,
    pub roles: Vec<Role>,
    pub buildings: Vec<Building>,
    /// Bit `k` set when some building has an effect of kind `EFFECT_KINDS[k]` (derived),
    /// so phases skip what no building of the ruleset can do.
    pub effects_present: u32,
    /// What a player owning every building could score beyond their barrels: harbor VP
    /// per load and building VP per build, summed over the ruleset's buildings (derived; a
    /// quick bound for the captain's privilege question).
    pub most_vp_per_load: u16,
    pub most_vp_per_build: u16,
    /// The buildings' numbers the playouts read most, by building index (derived).
    pub table: BuildingTable,
    /// The extension whose rules the game plays with (the expansion's guests); none for
    /// the base game. Not from the TOML: the game that wraps the base game sets it.
    pub extension: crate::extension::Hook<Rules, crate::state::State, crate::action::Action, crate::state::Player>,
}

/// The numbers of each building that every decision of a playout reads, by building
/// index, derived from [`Rules::buildings`] when decoding: a few bytes from a flat array,
/// where [`Building`] keeps them between ids and effects (a `Vec` bounds check and a
/// stride of the whole struct per lookup). One entry for every `u8`, so a building index
/// needs no bounds check; those past the ruleset's buildings read as missing.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildingTable {
    numbers: Box<[Numbers; 256]>,
    /// Bit `b` for every building `b` of the ruleset.
    all: u64,
    /// The buildings a player can afford, a bit per building, by occupied quarries
    /// (`q`, capped at the largest column) and doubloons plus discounts (`x`, capped at the
    /// dearest cost): `affordable[q * (most_cost + 1) + x]`. The builder's legal list and
    /// "may this player build?" read one word instead of pricing every building.
    affordable: Box<[u64]>,
    most_column: u8,
    most_cost: u8,
    /// The buildings taking at most `k` city spaces, by `k` (capped at the largest).
    fitting: Box<[u64]>,
}

/// One building's numbers in [`BuildingTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    pub circles: u8,
    pub vp: u8,
    pub spaces: u8,
    pub cost: u8,
    pub column: u8,
    /// The kind of its effect ([`Effect::kind_index`]).
    pub effect: u8,
    /// The good a production building makes, as its bit ([`Good::bit`]); none for other
    /// buildings.
    pub makes: u8,
}

impl Numbers {
    /// What an index that names no building reads: no circles, points or effect, and one
    /// city space (what the lookups of a missing building always answered).
    const MISSING: Numbers = Numbers { circles: 0, vp: 0, spaces: 1, cost: 0, column: 0, effect: 0, makes: 0 };
}

impl BuildingTable {
    fn of(buildings: &[Building]) -> Self {
        let mut t = Box::new([Numbers::MISSING; 256]);
        for (n, b) in t.iter_mut().zip(buildings) {
            let effect = b.effect.kind_index() as u8;
            let makes = match b.kind {
                BuildingKind::Production { good, .. } => good.bit(),
                _ => 0,
            };
            *n = Numbers {
                circles: b.circles,
                vp: b.vp,
                spaces: b.spaces,
                cost: b.cost,
                column: b.column,
                effect,
                makes,
            };
        }
        // The state's flat arrays hold `MAX_BUILDINGS` (64) kinds: one bit each.
        let buildings = &buildings[..buildings.len().min(crate::limits::MAX_BUILDINGS)];
        let all = buildings.iter().enumerate().fold(0u64, |m, (i, _)| m | (1 << i));
        let most_column = buildings.iter().map(|b| b.column).max().unwrap_or(0);
        let most_cost = buildings.iter().map(|b| b.cost).max().unwrap_or(0);
        let mut affordable = vec![0u64; (usize::from(most_column) + 1) * (usize::from(most_cost) + 1)];
        for q in 0..=most_column {
            for x in 0..=most_cost {
                affordable[usize::from(q) * (usize::from(most_cost) + 1) + usize::from(x)] =
                    buildings.iter().enumerate().fold(0u64, |m, (i, b)| {
                        // As `board::cost_after` prices it, with every discount in `x`.
                        let fits = u16::from(b.cost.saturating_sub(q.min(b.column))) <= u16::from(x);
                        if fits { m | (1 << i) } else { m }
                    });
            }
        }
        let most_spaces = buildings.iter().map(|b| b.spaces).max().unwrap_or(0);
        let fitting = (0..=most_spaces)
            .map(|k| buildings.iter().enumerate().fold(0u64, |m, (i, b)| if b.spaces <= k { m | (1 << i) } else { m }))
            .collect();
        BuildingTable { numbers: t, all, affordable: affordable.into(), most_column, most_cost, fitting }
    }

    /// Building `b`'s numbers.
    #[inline]
    pub fn get(&self, b: u8) -> Numbers {
        self.numbers[usize::from(b)]
    }

    /// The buildings (a bit each) whose cost, lowered by `quarries` occupied quarries
    /// (each building by at most its column) and by `off` doubloons of other discounts, is
    /// at most `doubloons`: the same test as [`crate::board::cost_after`] `<= doubloons`.
    #[inline]
    pub fn affordable(&self, quarries: u8, off: u8, doubloons: u16) -> u64 {
        let x = (u32::from(doubloons) + u32::from(off)).min(u32::from(self.most_cost)) as usize;
        let q = usize::from(quarries.min(self.most_column));
        self.affordable.get(q * (usize::from(self.most_cost) + 1) + x).copied().unwrap_or(self.all)
    }

    /// The buildings (a bit each) that take at most `free` city spaces.
    #[inline]
    pub fn fitting(&self, free: u8) -> u64 {
        let last = self.fitting.len().saturating_sub(1);
        self.fitting.get(usize::from(free).min(last)).copied().unwrap_or(0)
    }

    /// The bit of building `b`'s effect kind (`1 << kind_index`, as [`Rules::effects_present`]).
    #[inline]
    pub fn effect_bit(&self, b: u8) -> u32 {
        1 << self.get(b).effect
    }
}

impl Rules {
    /// Every good of the ruleset, in its order.
    pub fn goods(&self) -> impl DoubleEndedIterator<Item = Good> + ExactSizeIterator + Clone + use<> {
        (0..self.goods.len()).map(Good::at)
    }

    /// How many goods the ruleset has.
    pub fn good_count(&self) -> usize {
        self.goods.len()
    }

    /// The good called `name`.
    pub fn good(&self, name: &str) -> Option<Good> {
        self.goods.iter().position(|g| g.name == name).map(Good::at)
    }

    pub fn good_name(&self, g: Good) -> &str {
        self.goods.get(g.index()).map_or("?", |x| x.name.as_str())
    }

    /// The goods' names, in order.
    pub fn good_names(&self) -> impl Iterator<Item = &String> + Clone {
        self.goods.iter().map(|g| &g.name)
    }

    pub fn building_index(&self, id: &str) -> Option<usize> {
        self.buildings.iter().position(|b| b.id == id)
    }

    pub fn role_index(&self, id: &str) -> Option<usize> {
        self.roles.iter().position(|r| r.id == id)
    }

    /// Whether storage keeps loose barrels of any kinds (more than one free barrel, or a
    /// storehouse): its choices are then the holdings kept (`keep N GOOD …`).
    pub fn keeps_loose_barrels(&self) -> bool {
        self.free_barrels > 1 || self.has_effect(kind::EXTRA_STORAGE_BARRELS)
    }

    /// Whether some building of the ruleset has an effect of this kind (index into
    /// [`EFFECT_KINDS`], see [`Effect::kind_index`]).
    pub fn has_effect(&self, kind: usize) -> bool {
        self.effects_present & (1 << kind) != 0
    }

    /// Whether the ruleset needs the state beyond the base game's (forests, guests …).
    pub fn extended(&self) -> bool {
        self.effects_present >> FIRST_EXTENDED_KIND != 0
    }
}

/// Reads the whole merged ruleset tree (including `[ruleset]`): each section reads
/// itself, every field by its range or its own reader, goods looked up by name as they
/// are read; the checks across sections run after. Every problem goes into `d`; `None`
/// if there was any.
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Rules> {
    let before = d.len();
    let head = Head::of(tree);
    let counts = head.players.0..=head.players.1;
    let read: Sections = de::with_context(head.clone(), || de::with_players(counts, || de::from_tree(tree, d)))?;
    across(read, &head, tree, before, d)
}

/// The rules section by section as the TOML has them, each field read by its range or
/// its own reader; [`across`] lays them out as [`Rules`] after the checks across sections.
#[derive(Deserialize)]
struct Sections {
    #[serde(rename = "ruleset")]
    _ruleset: RulesetMeta,
    players: Players,
    board: Board,
    /// One table per good, in the order the goods have everywhere (`[goods.corn]` …).
    #[serde(deserialize_with = "goods")]
    goods: Vec<GoodRead>,
    setup: SetupRead,
    rules: RulesTable,
    scoring: Scoring,
    #[serde(deserialize_with = "roles")]
    roles: Vec<Role>,
    #[serde(deserialize_with = "buildings")]
    buildings: Vec<Building>,
}

#[derive(Deserialize)]
struct Players {
    #[serde(deserialize_with = "de::byte::<1, { MAX_PLAYERS as i64 }, _>")]
    min: u8,
    #[serde(deserialize_with = "de::byte::<1, { MAX_PLAYERS as i64 }, _>")]
    max: u8,
}

#[derive(Deserialize)]
struct Board {
    #[serde(deserialize_with = "de::byte::<1, { MAX_SPACES as i64 }, _>")]
    island_spaces: u8,
    #[serde(deserialize_with = "de::byte::<1, { MAX_SPACES as i64 }, _>")]
    city_spaces: u8,
}

/// A good as read: what the game keeps of it, and its counts by player count for the setup.
struct GoodRead {
    def: GoodDef,
    price: u8,
    needs_building: bool,
    barrels: PerPlayers<u8>,
    plantations: PerPlayers<u8>,
}

/// The `[setup]` table, each value by player count.
#[derive(Deserialize)]
struct SetupRead {
    #[serde(deserialize_with = "by_count::<0, 40, _>")]
    quarries: PerPlayers<u8>,
    #[serde(deserialize_with = "by_count::<0, 250, _>")]
    colonists_supply: PerPlayers<u8>,
    #[serde(deserialize_with = "by_count::<0, 50, _>")]
    colonists_ship: PerPlayers<u8>,
    #[serde(deserialize_with = "by_count::<0, 99, _>")]
    doubloons: PerPlayers<u8>,
    #[serde(deserialize_with = "by_count::<0, { MAX_ROLES as i64 }, _>")]
    roles_per_round: PerPlayers<u8>,
    #[serde(deserialize_with = "vp_chips")]
    vp_chips: PerPlayers<u16>,
    /// `None` for a count whose list could not be read (reported).
    #[serde(deserialize_with = "starting_plantations")]
    starting_plantations: PerPlayers<Option<Vec<Good>>>,
    #[serde(deserialize_with = "ships")]
    ships: PerPlayers<Vec<u8>>,
    #[serde(deserialize_with = "de::byte::<0, 10, _>")]
    face_up_extra: u8,
}

/// The `[rules]` table.
#[derive(Deserialize)]
struct RulesTable {
    #[serde(deserialize_with = "de::byte::<0, 10, _>")]
    coins_on_unchosen_roles: u8,
    #[serde(deserialize_with = "de::byte::<1, { MAX_TRADING_HOUSE as i64 }, _>")]
    trading_house_spaces: u8,
    #[serde(deserialize_with = "de::byte::<0, 99, _>")]
    free_barrels: u8,
    #[serde(deserialize_with = "de::byte::<0, 10, _>")]
    ship_refill_minimum_per_player: u8,
    #[serde(deserialize_with = "de::byte::<0, 10, _>")]
    vp_per_barrel: u8,
    #[serde(deserialize_with = "crate::effect::role_kinds")]
    vp_chips_run_out_in: u8,
    captain_may_decline_last_vp: bool,
}

/// The `[scoring]` table.
#[derive(Deserialize)]
struct Scoring {
    /// Tie-break keys after VP, in order (at most one of each).
    #[serde(deserialize_with = "tiebreaks")]
    tiebreaks: Vec<crate::role_kind::TieBreak>,
}

/// The checks that span sections, then the rules laid out as the game uses them. A value
/// that was wrong (reported) stands in as 0 or empty, so these checks still run, and the
/// result is refused.
fn across(s: Sections, head: &Head, tree: &Node, before: usize, d: &mut Diagnostics) -> Option<Rules> {
    let p = &s.players;
    // 0 stands in for a bound that could not be read.
    let (min_players, max_players) = match (p.min, p.max) {
        (a @ 1.., b @ 1..) if a <= b => (usize::from(a), usize::from(b)),
        (a @ 1.., b @ 1..) => {
            d.error(head.at_players, format!("`min` ({a}) is above `max` ({b})"));
            (2, 5)
        }
        _ => (2, 5),
    };
    let counts = head.counts();
    let mut setup: PerPlayers<Setup> = Default::default();
    let mut price = ByGood::<u8>::default();
    let mut needs_building = ByGood::<bool>::default();
    for (i, g) in s.goods.iter().enumerate() {
        let good = Good::at(i);
        price[good] = g.price;
        needs_building[good] = g.needs_building;
        for p in counts.clone() {
            setup[p].barrels[good] = g.barrels[p];
            setup[p].plantations[good] = g.plantations[p];
        }
    }
    let goods: Vec<GoodDef> = s.goods.into_iter().map(|g| g.def).collect();
    let mut sr = s.setup;
    for p in counts.clone() {
        let x = &mut setup[p];
        (x.quarries, x.colonists_supply, x.colonists_ship) =
            (sr.quarries[p], sr.colonists_supply[p], sr.colonists_ship[p]);
        (x.doubloons, x.roles_per_round, x.vp_chips) = (sr.doubloons[p], sr.roles_per_round[p], sr.vp_chips[p]);
        if let Some(v) = sr.starting_plantations[p].take() {
            if v.len() != p {
                d.error(
                    head.at_setup,
                    format!(
                        "`starting_plantations` for {p} players lists {} plantations: expected one per player",
                        v.len()
                    ),
                );
            }
            x.starting_plantations = v;
        }
        x.ships = std::mem::take(&mut sr.ships[p]);
    }
    cross_check(tree, &goods, &s.roles, &setup, counts, before, d);
    let effects_present = s.buildings.iter().fold(0u32, |m, b| m | (1 << b.effect.kind_index()));
    let table = BuildingTable::of(&s.buildings);
    let (mut most_vp_per_load, mut most_vp_per_build) = (0u16, 0u16);
    for b in &s.buildings {
        match b.effect {
            Effect::ShippingBonus { vp } => most_vp_per_load = most_vp_per_load.saturating_add(u16::from(vp)),
            Effect::BuildVpByColumn { vp_by_column } => {
                let most = vp_by_column.iter().copied().max().unwrap_or(0);
                most_vp_per_build = most_vp_per_build.saturating_add(u16::from(most));
            }
            _ => {}
        }
    }
    (d.len() == before).then_some(Rules {
        min_players,
        max_players,
        island_spaces: s.board.island_spaces,
        city_spaces: s.board.city_spaces,
        goods,
        price,
        needs_building,
        setup,
        face_up_extra: sr.face_up_extra,
        coins_on_unchosen_roles: s.rules.coins_on_unchosen_roles,
        trading_house_spaces: s.rules.trading_house_spaces,
        free_barrels: s.rules.free_barrels,
        ship_refill_minimum_per_player: s.rules.ship_refill_minimum_per_player,
        vp_per_barrel: s.rules.vp_per_barrel,
        vp_chips_run_out_in: s.rules.vp_chips_run_out_in,
        captain_may_decline_last_vp: s.rules.captain_may_decline_last_vp,
        tiebreaks: s.scoring.tiebreaks,
        roles: s.roles,
        buildings: s.buildings,
        effects_present,
        most_vp_per_load,
        most_vp_per_build,
        table,
        extension: crate::extension::Hook::none(),
    })
}

// The fields' own readers. Each reads the shape the TOML has and reports what it finds
// wrong with `de::reject` (or `de::checked` around a helper that writes to
// `Diagnostics`), going on with a neutral value.

type Ints = Located<Vec<Located<i64>>>;
type Names = Located<Vec<Located<String>>>;
/// A table by player count (`{ 2 = 3, 3 = 4 }`).
type PerCount<T> = Located<Entries<T>>;

/// A table by player count of the reading's counts, each value from `MIN` to `MAX`
/// (0 where one is wrong or missing, reported).
fn by_count<'de, const MIN: i64, const MAX: i64, D: Deserializer<'de>>(d: D) -> Result<PerPlayers<u8>, D::Error> {
    const { assert!(0 <= MIN && MIN <= MAX && MAX <= u8::MAX as i64) };
    let table = PerCount::<Located<i64>>::deserialize(d)?;
    let values = de::checked(|d| de::per_players(&table, Head::get().counts(), MIN..=MAX, d))?;
    let mut out = PerPlayers::<u8>::default();
    for (slot, v) in out.iter_mut().zip(values.unwrap_or_default()) {
        *slot = v.map_or(0, |v| v as u8);
    }
    Ok(out)
}

fn vp_chips<'de, D: Deserializer<'de>>(d: D) -> Result<PerPlayers<u16>, D::Error> {
    let table = PerCount::<Located<i64>>::deserialize(d)?;
    let values = de::checked(|d| de::per_players(&table, Head::get().counts(), 0..=9999, d))?;
    let mut out = PerPlayers::<u16>::default();
    for (slot, v) in out.iter_mut().zip(values.unwrap_or_default()) {
        *slot = v.map_or(0, |v| v as u16);
    }
    Ok(out)
}

fn goods<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<GoodRead>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        #[serde(deserialize_with = "de::byte::<0, 99, _>")]
        price: u8,
        /// Whether producing it needs an occupied production building (S000:L472: corn not).
        needs_building: bool,
        /// Its colour on the play screen.
        colour: Colour,
        #[serde(deserialize_with = "by_count::<0, 200, _>")]
        barrels: PerPlayers<u8>,
        #[serde(deserialize_with = "by_count::<0, 40, _>")]
        plantations: PerPlayers<u8>,
    }
    let table = Located::<Entries<Entry>>::deserialize(d)?;
    let n = table.value.0.len();
    if n == 0 || n > MAX_GOODS {
        de::reject(table.origin, format!("expected 1 to {MAX_GOODS} goods, found {n}"))?;
    }
    let mut out = Vec::new();
    for (name, g) in table.value.0.into_iter().take(MAX_GOODS) {
        let word = name.value.starts_with(|c: char| c.is_ascii_lowercase())
            && name.value.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !word || RESERVED.contains(&name.value.as_str()) {
            let message = format!(
                "good name `{}` must be a lowercase word (letters, digits, `-`, `_`, starting with a letter) other than {}: actions name goods",
                name.value,
                RESERVED.join(", ")
            );
            de::reject(name.origin, message)?;
        }
        out.push(GoodRead {
            def: GoodDef { name: name.value, colour: g.colour },
            price: g.price,
            needs_building: g.needs_building,
            barrels: g.barrels,
            plantations: g.plantations,
        });
    }
    Ok(out)
}

fn starting_plantations<'de, D: Deserializer<'de>>(d: D) -> Result<PerPlayers<Option<Vec<Good>>>, D::Error> {
    let table = PerCount::<Names>::deserialize(d)?;
    let head = Head::get();
    let good_of = |name: &str| head.goods.iter().position(|g| g == name).map(Good::at);
    let lists = de::checked(|d| {
        de::per_players_with(&table, head.counts(), d, |names, d| {
            let found: Vec<Option<Good>> = names.value.iter().map(|n| good_of(&n.value)).collect();
            if found.iter().any(Option::is_none) {
                let listed: Vec<&str> = names.value.iter().map(|n| n.value.as_str()).collect();
                d.error(names.origin, format!("unknown good in {listed:?}: expected {}", head.goods.join(", ")));
                return None;
            }
            Some(found.into_iter().flatten().collect::<Vec<Good>>())
        })
    })?;
    let mut out = PerPlayers::<Option<Vec<Good>>>::default();
    for (slot, v) in out.iter_mut().zip(lists.unwrap_or_default()) {
        *slot = v;
    }
    Ok(out)
}

fn ships<'de, D: Deserializer<'de>>(d: D) -> Result<PerPlayers<Vec<u8>>, D::Error> {
    let table = PerCount::<Ints>::deserialize(d)?;
    let lists = de::checked(|d| {
        de::per_players_with(&table, Head::get().counts(), d, |caps, d| {
            let caps: Option<Vec<u8>> = caps.value.iter().map(|c| int(c, 1..=30, d)).collect();
            let caps = caps?;
            let mut sorted = caps.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() != caps.len() || caps.is_empty() || caps.len() > MAX_SHIPS {
                d.error(
                    table.origin,
                    format!("expected 1 to {MAX_SHIPS} ships of different capacities (actions name ships by capacity)"),
                );
                return None;
            }
            Some(caps)
        })
    })?;
    let mut out = PerPlayers::<Vec<u8>>::default();
    for (slot, v) in out.iter_mut().zip(lists.unwrap_or_default()) {
        *slot = v.unwrap_or_default();
    }
    Ok(out)
}

fn tiebreaks<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<crate::role_kind::TieBreak>, D::Error> {
    let list = Located::<Vec<crate::role_kind::TieBreak>>::deserialize(d)?;
    let t = &list.value;
    if let Some((i, _)) = t.iter().enumerate().find(|(i, x)| t[..*i].contains(x)) {
        de::reject(list.origin, format!("a tie-break is listed twice ({})", i + 1))?;
    }
    Ok(list.value)
}

fn roles<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Role>, D::Error> {
    #[derive(Deserialize)]
    struct Entry {
        id: Located<String>,
        kind: RoleKind,
        privilege: Int<0, 10>,
        players: Ints,
    }
    let list = Located::<Vec<Located<Entry>>>::deserialize(d)?;
    if list.value.len() > MAX_ROLES {
        de::reject(list.origin, format!("at most {MAX_ROLES} roles"))?;
    }
    let counts = Head::get().counts();
    let mut roles: Vec<Role> = Vec::new();
    for item in list.value.iter().take(MAX_ROLES) {
        let r = &item.value;
        let id = de::checked(|d| de::id(&r.id, d).map(str::to_string))?;
        let players = de::checked(|d| de::player_counts(&r.players, counts.clone(), d))?
            .map(|l| l.iter().fold(0u8, |m, &p| m | 1 << p));
        let (Some(id), Some(privilege), Some(players)) = (id, get(&r.privilege), players) else { continue };
        if roles.iter().any(|o| o.id == id) {
            de::reject(item.origin, format!("duplicate role id `{id}`"))?;
        }
        roles.push(Role { id, kind: r.kind, privilege, players, twins_before: 0 });
    }
    for r in 0..roles.len() {
        roles[r].twins_before = (0..r)
            .filter(|&o| roles[o].kind == roles[r].kind && roles[o].privilege == roles[r].privilege)
            .fold(0u16, |m, o| m | (1 << o));
    }
    Ok(roles)
}

/// A building as the TOML writes it; [`building`] checks its parts together.
#[derive(Deserialize)]
struct BuildingEntry {
    id: Located<String>,
    #[serde(rename = "type")]
    ty: Located<BuildingType>,
    /// City spaces; a building without it takes one.
    spaces: Option<Located<i64>>,
    cost: Int<0, 99>,
    vp: Int<0, 99>,
    column: Int<0, { MAX_SPACES as i64 }>,
    circles: Int<0, 3>,
    copies: PerCount<Located<i64>>,
    /// Production buildings only.
    #[serde(deserialize_with = "good_named")]
    produces: Option<Located<Good>>,
    scale: Option<Located<Scale>>,
    /// Violet buildings only.
    effect: Option<Located<Effect>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum BuildingType {
    Production,
    Violet,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Scale {
    Small,
    Normal,
}

fn buildings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Building>, D::Error> {
    let list = Located::<Vec<Located<BuildingEntry>>>::deserialize(d)?;
    if list.value.len() > MAX_BUILDINGS {
        de::reject(list.origin, format!("at most {MAX_BUILDINGS} buildings"))?;
    }
    let head = Head::get();
    let mut buildings: Vec<Building> = Vec::new();
    for item in list.value.iter().take(MAX_BUILDINGS) {
        let read = de::checked(|d| building(&item.value, item.origin, head.counts(), head.city_spaces, d))?;
        let Some(b) = read else { continue };
        if buildings.iter().any(|o| o.id == b.id) {
            de::reject(item.origin, format!("duplicate building id `{}`", b.id))?;
        }
        // A group of the mayor's notation is a good or a building: never both.
        if head.goods.contains(&b.id) {
            let message = format!("building id `{}` is the name of a good: actions could not tell them apart", b.id);
            de::reject(item.origin, message)?;
        }
        buildings.push(b);
    }
    Ok(buildings)
}

/// A good by its name among the ruleset's `[goods.*]`; an unknown name is reported and
/// stands in as the first good, at [`Origin::REPORTED`].
fn good_named<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Located<Good>>, D::Error> {
    let Some(name) = Option::<Located<String>>::deserialize(d)? else { return Ok(None) };
    let goods = Head::get().goods;
    if let Some(i) = goods.iter().position(|g| *g == name.value) {
        return Ok(Some(Located { value: Good::at(i), origin: name.origin }));
    }
    let quoted: Vec<String> = goods.iter().map(|g| format!("`{g}`")).collect();
    let hint = rulesmith_game::suggest::hint(&name.value, goods.iter().map(String::as_str));
    de::reject(name.origin, format!("unknown value `{}`: expected one of {}{hint}", name.value, quoted.join(", ")))?;
    Ok(Some(Located { value: Good::at(0), origin: Origin::REPORTED }))
}

fn building(
    b: &BuildingEntry,
    at: Origin,
    counts: std::ops::RangeInclusive<usize>,
    city: u8,
    d: &mut Diagnostics,
) -> Option<Building> {
    let id = de::id(&b.id, d).map(str::to_string);
    let spaces = match &b.spaces {
        Some(s) => int(s, 1..=i64::from(city.max(1)), d),
        None => Some(1),
    };
    let (cost, vp, column, circles) = (get(&b.cost), get(&b.vp), get(&b.column), get(&b.circles));
    let copies = de::per_players(&b.copies, counts, 0..=20, d).map(|v| {
        let mut out = [0u8; MAX_PLAYERS + 1];
        for (p, c) in v.iter().enumerate() {
            out[p] = c.unwrap_or(0) as u8;
        }
        out
    });
    let (kind, effect) = match b.ty.value {
        // A wrong type (reported) stands in: nothing depends on it.
        _ if b.ty.origin == Origin::REPORTED => (None, None),
        BuildingType::Production => {
            if let Some(e) = &b.effect {
                d.error(e.origin, "a production building has no `effect`: it produces its good");
            }
            let kind = match (&b.produces, &b.scale) {
                // An unknown good (reported while reading) stands in: nothing depends on it.
                (Some(good), _) if good.origin == Origin::REPORTED => None,
                (Some(good), Some(scale)) => {
                    Some(BuildingKind::Production { good: good.value, small: scale.value == Scale::Small })
                }
                (good, _) => {
                    let key = if good.is_none() { "produces" } else { "scale" };
                    d.error(at, format!("missing key `{key}`: a production building names its good and scale"));
                    None
                }
            };
            (kind, Some(Effect::None))
        }
        BuildingType::Violet => {
            for (key, given) in
                [("produces", b.produces.as_ref().map(|x| x.origin)), ("scale", b.scale.as_ref().map(|x| x.origin))]
            {
                if let Some(at) = given {
                    d.error(at, format!("a violet building has no `{key}`: only production buildings produce"));
                }
            }
            (Some(BuildingKind::Violet), Some(b.effect.as_ref().map_or(Effect::None, |e| e.value)))
        }
    };
    // Effects that say something about the building's circles.
    match (effect, circles, &b.effect) {
        (Some(Effect::NoColonist), Some(c), Some(e)) if c != 0 => {
            d.error(e.origin, format!("a `no_colonist` building takes no colonist: expected `circles = 0`, found {c}"));
        }
        (Some(Effect::Guests { .. }), Some(0), Some(e)) => {
            d.error(e.origin, "a `guests` building needs circles for its guests: expected `circles` of 1 or more");
        }
        _ => {}
    }
    Some(Building {
        id: id?,
        kind: kind?,
        spaces: spaces?,
        cost: cost?,
        vp: vp?,
        column: column?,
        circles: circles?,
        copies: copies?,
        effect: effect?,
    })
}

/// Cross-checks: things each table is right about alone but not together.
fn cross_check(
    tree: &Node,
    goods: &[GoodDef],
    roles: &[Role],
    setup: &PerPlayers<Setup>,
    counts: std::ops::RangeInclusive<usize>,
    before: usize,
    d: &mut Diagnostics,
) {
    for p in counts.clone() {
        let rpr = setup[p].roles_per_round as usize;
        let in_play = roles.iter().filter(|r| r.players & (1 << p) != 0).count();
        if d.len() == before && rpr > in_play {
            d.error(
                tree.origin,
                format!(
                    "{p} players choose {rpr} roles a round but only {in_play} role cards are used with {p} players"
                ),
            );
        }
        // The game ends only when the colonists run out (mayor), a city fills (builder) or
        // the VP chips run out (captain: but goods need colonists on plantations, which
        // only the mayor or a building bought in the builder phase bring) (S000:L410-414).
        // Without both a mayor and a builder card no game can end: refused here rather
        // than found by a run that never stops.
        let can_end =
            roles.iter().any(|r| r.players & (1 << p) != 0 && matches!(r.kind, RoleKind::Mayor | RoleKind::Builder));
        if d.len() == before && in_play > 0 && !can_end {
            d.error(
                tree.origin,
                format!(
                    "with {p} players no game can end: the game ends when the colonists run out (mayor), a city fills (builder) or the VP chips run out (goods need colonists), but no mayor or builder card is used with {p} players"
                ),
            );
        }
        if d.len() == before && rpr > 0 && in_play > 0 && rpr < p {
            d.error(
                tree.origin,
                format!("{p} players choose only {rpr} roles a round: every player must choose at least one"),
            );
        }
        let s = &setup[p];
        for (i, def) in goods.iter().enumerate() {
            let g = Good::at(i);
            let starting = s.starting_plantations.iter().filter(|&&x| x == g).count() as u8;
            if starting > s.plantations[g] {
                d.error(
                    tree.origin,
                    format!(
                        "{p} players start with {starting} {} plantations but the game has only {}",
                        def.name, s.plantations[g]
                    ),
                );
            }
        }
        if s.plantations.total() as usize > MAX_PLANTATIONS {
            d.error(tree.origin, format!("at most {MAX_PLANTATIONS} plantation tiles"));
        }
    }
}

/// An integer in `range`, as a `u8` (the ranges are small).
fn int(v: &Located<i64>, range: std::ops::RangeInclusive<i64>, d: &mut Diagnostics) -> Option<u8> {
    de::int_in(v, range, d).map(|v| v as u8)
}

/// An integer whose range the shape checked, as a `u8` (the ranges are small); `None`
/// for a stand-in.
fn get<const MIN: i64, const MAX: i64>(v: &Int<MIN, MAX>) -> Option<u8> {
    v.get().map(|v| v as u8)
}
