//! The validated Puerto Rico ruleset: every number and table of the rules, decoded once
//! from TOML. Everything after decoding trusts these values.

use crate::goods::{ByGood, Colour, Good, MAX_GOODS};
use rulesmith_core::ruleset::de::{self, Int, Located};
use rulesmith_core::ruleset::{Diagnostics, Node};

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
    pub free_barrels: u8,
    pub ship_refill_minimum_per_player: u8,
    /// The captain is asked whether to take the privilege VP when they would take the
    /// last VP chips (and so end the game): a privilege may be declined (S000:L131).
    pub captain_may_decline_last_vp: bool,
    /// Tie-break keys after VP, in order (`[scoring] tiebreaks`).
    pub tiebreaks: Vec<crate::role_kind::TieBreak>,
    pub roles: Vec<Role>,
    pub buildings: Vec<Building>,
    /// Bit `k` set when some building has an effect of kind `EFFECT_KINDS[k]` (derived),
    /// so phases skip what no building of the ruleset can do.
    pub effects_present: u32,
    /// The extension whose rules the game plays with (the expansion's guests); none for
    /// the base game. Not from the TOML: the game that wraps the base game sets it.
    pub extension: crate::extension::Hook<Rules, crate::state::State, crate::action::Action, crate::state::Player>,
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

/// Decodes the whole merged ruleset tree: read into the strict raw structs
/// (`raw.rs`), then validated in one step. Every problem goes into `d`.
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Rules> {
    let before = d.len();
    // Effects name goods: the names are known before the buildings are read.
    let goods = tree.get("goods").and_then(Node::entries).unwrap_or_default();
    let names = goods.iter().take(MAX_GOODS).map(|e| e.key.clone()).collect();
    let raw: crate::raw::Raw = crate::goods::reading(names, || de::from_tree(tree, d))?;
    validate(&raw, tree, before, d)
}

fn validate(raw: &crate::raw::Raw, tree: &Node, before: usize, d: &mut Diagnostics) -> Option<Rules> {
    let p = &raw.players.value;
    let (min, max) = (get(&p.min), get(&p.max));
    let (min_players, max_players) = match (min, max) {
        (Some(a), Some(b)) if a <= b => (usize::from(a), usize::from(b)),
        (Some(a), Some(b)) => {
            d.error(raw.players.origin, format!("`min` ({a}) is above `max` ({b})"));
            (2, 5)
        }
        _ => (2, 5),
    };
    let counts = min_players..=max_players;
    let per_count = |table: &crate::raw::PerCount<Located<i64>>, max: i64, d: &mut Diagnostics| {
        de::per_players(table, counts.clone(), 0..=max, d).map(|v| v.iter().map(|x| x.unwrap_or(0) as u8).collect())
    };

    let (island_spaces, city_spaces) = (raw.board.island_spaces.value as u8, raw.board.city_spaces.value as u8);

    let mut setup: PerPlayers<Setup> = Default::default();
    let mut price = ByGood::<u8>::default();
    let mut needs_building = ByGood::<bool>::default();
    let table = &raw.goods.value.0;
    if table.is_empty() || table.len() > MAX_GOODS {
        d.error(raw.goods.origin, format!("expected 1 to {MAX_GOODS} goods, found {}", table.len()));
    }
    let mut goods: Vec<GoodDef> = Vec::new();
    for (i, (name, r)) in table.iter().take(MAX_GOODS).enumerate() {
        let (good, r) = (Good::at(i), &r.value);
        let word = name.value.starts_with(|c: char| c.is_ascii_lowercase())
            && name.value.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !word || RESERVED.contains(&name.value.as_str()) {
            d.error(
                name.origin,
                format!(
                    "good name `{}` must be a lowercase word (letters, digits, `-`, `_`, starting with a letter) other than {}: actions name goods",
                    name.value,
                    RESERVED.join(", ")
                ),
            );
        }
        goods.push(GoodDef { name: name.value.clone(), colour: r.colour });
        price[good] = r.price.value as u8;
        needs_building[good] = r.needs_building;
        let barrels: Option<Vec<u8>> = per_count(&r.barrels, 200, d);
        let plantations: Option<Vec<u8>> = per_count(&r.plantations, 40, d);
        for p in counts.clone() {
            setup[p].barrels[good] = barrels.as_ref().map_or(0, |v| v[p]);
            setup[p].plantations[good] = plantations.as_ref().map_or(0, |v| v[p]);
        }
    }

    let s = &raw.setup.value;
    let quarries = per_count(&s.quarries, 40, d);
    let supply = per_count(&s.colonists_supply, 250, d);
    let ship = per_count(&s.colonists_ship, 50, d);
    let doubloons = per_count(&s.doubloons, 99, d);
    let rpr = per_count(&s.roles_per_round, MAX_ROLES as i64, d);
    let vp = de::per_players(&s.vp_chips, counts.clone(), 0..=9999, d);
    let good_of = |name: &str| goods.iter().position(|g| g.name == name).map(Good::at);
    let good_names = || goods.iter().map(|g| g.name.as_str()).collect::<Vec<_>>().join(", ");
    let starting = de::per_players_with(&s.starting_plantations, counts.clone(), d, |names, d| {
        let found: Vec<Option<Good>> = names.value.iter().map(|n| good_of(&n.value)).collect();
        if found.iter().any(Option::is_none) {
            let listed: Vec<&str> = names.value.iter().map(|n| n.value.as_str()).collect();
            d.error(names.origin, format!("unknown good in {listed:?}: expected {}", good_names()));
            return None;
        }
        Some(found.into_iter().flatten().collect::<Vec<Good>>())
    });
    let ships = de::per_players_with(&s.ships, counts.clone(), d, |caps, d| {
        let caps: Option<Vec<u8>> = caps.value.iter().map(|c| int(c, 1..=30, d)).collect();
        let caps = caps?;
        let mut sorted = caps.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != caps.len() || caps.is_empty() || caps.len() > MAX_SHIPS {
            d.error(
                s.ships.origin,
                format!("expected 1 to {MAX_SHIPS} ships of different capacities (actions name ships by capacity)"),
            );
            return None;
        }
        Some(caps)
    });
    let face_up_extra = s.face_up_extra.value as u8;
    for p in counts.clone() {
        let x = &mut setup[p];
        let at = |v: &Option<Vec<u8>>| v.as_ref().map_or(0, |v| v[p]);
        (x.quarries, x.colonists_supply, x.colonists_ship) = (at(&quarries), at(&supply), at(&ship));
        (x.doubloons, x.roles_per_round) = (at(&doubloons), at(&rpr));
        if let Some(Some(v)) = vp.as_ref().map(|v| v[p]) {
            x.vp_chips = v as u16;
        }
        if let Some(Some(v)) = starting.as_ref().map(|v| v[p].clone()) {
            if v.len() != p {
                d.error(
                    raw.setup.origin,
                    format!(
                        "`starting_plantations` for {p} players lists {} plantations: expected one per player",
                        v.len()
                    ),
                );
            }
            x.starting_plantations = v;
        }
        if let Some(Some(v)) = ships.as_ref().map(|v| v[p].clone()) {
            x.ships = v;
        }
    }

    let r = &raw.rules;
    let coins_on_unchosen_roles = r.coins_on_unchosen_roles.value as u8;
    let trading_house_spaces = r.trading_house_spaces.value as u8;
    let free_barrels = r.free_barrels.value as u8;
    let ship_refill_minimum_per_player = r.ship_refill_minimum_per_player.value as u8;
    let captain_may_decline_last_vp = r.captain_may_decline_last_vp;
    let tiebreaks = raw.scoring.tiebreaks.value.clone();
    if let Some(t) = tiebreaks.iter().enumerate().find(|(i, t)| tiebreaks[..*i].contains(t)) {
        d.error(raw.scoring.tiebreaks.origin, format!("a tie-break is listed twice ({})", t.0 + 1));
    }

    if raw.roles.value.len() > MAX_ROLES {
        d.error(raw.roles.origin, format!("at most {MAX_ROLES} roles"));
    }
    let mut roles: Vec<Role> = Vec::new();
    for item in raw.roles.value.iter().take(MAX_ROLES) {
        let r = &item.value;
        let (id, privilege) = (de::id(&r.id, d), get(&r.privilege));
        let players = de::player_counts(&r.players, counts.clone(), d).map(|l| l.iter().fold(0u8, |m, &p| m | 1 << p));
        let (Some(id), Some(privilege), Some(players)) = (id, privilege, players) else { continue };
        if roles.iter().any(|o| o.id == id) {
            d.error(item.origin, format!("duplicate role id `{id}`"));
        }
        let kind = r.kind;
        roles.push(Role { id: id.to_string(), kind, privilege, players, twins_before: 0 });
    }
    for r in 0..roles.len() {
        roles[r].twins_before = (0..r)
            .filter(|&o| roles[o].kind == roles[r].kind && roles[o].privilege == roles[r].privilege)
            .fold(0u16, |m, o| m | (1 << o));
    }

    if raw.buildings.value.len() > MAX_BUILDINGS {
        d.error(raw.buildings.origin, format!("at most {MAX_BUILDINGS} buildings"));
    }
    let mut buildings: Vec<Building> = Vec::new();
    for item in raw.buildings.value.iter().take(MAX_BUILDINGS) {
        if let Some(b) = building(&item.value, item.origin, counts.clone(), city_spaces, d) {
            if buildings.iter().any(|o| o.id == b.id) {
                d.error(item.origin, format!("duplicate building id `{}`", b.id));
            }
            // A group of the mayor's notation is a good or a building: never both.
            if good_of(&b.id).is_some() {
                d.error(
                    item.origin,
                    format!("building id `{}` is the name of a good: actions could not tell them apart", b.id),
                );
            }
            buildings.push(b);
        }
    }
    cross_check(tree, &goods, &roles, &setup, counts.clone(), before, d);
    let effects_present = buildings.iter().fold(0u32, |m, b| m | (1 << b.effect.kind_index()));
    (d.len() == before).then_some(Rules {
        min_players,
        max_players,
        island_spaces,
        city_spaces,
        goods,
        price,
        needs_building,
        setup,
        face_up_extra,
        coins_on_unchosen_roles,
        trading_house_spaces,
        free_barrels,
        ship_refill_minimum_per_player,
        captain_may_decline_last_vp,
        tiebreaks,
        roles,
        buildings,
        effects_present,
        extension: crate::extension::Hook::none(),
    })
}

fn building(
    b: &crate::raw::Building,
    at: rulesmith_core::ruleset::Origin,
    counts: std::ops::RangeInclusive<usize>,
    city: u8,
    d: &mut Diagnostics,
) -> Option<Building> {
    use crate::raw::{BuildingType, Scale};
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
        _ if b.ty.origin == rulesmith_core::ruleset::Origin::REPORTED => (None, None),
        BuildingType::Production => {
            if let Some(e) = &b.effect {
                d.error(e.origin, "a production building has no `effect`: it produces its good");
            }
            let kind = match (&b.produces, &b.scale) {
                // An unknown good (reported while reading) stands in: nothing depends on it.
                (Some(good), _) if good.origin == rulesmith_core::ruleset::Origin::REPORTED => None,
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
