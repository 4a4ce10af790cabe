//! The action space and the observation layout of a ruleset at a player count
//! ([`rulesmith_game::encode`]). Both are derived from the ruleset: its roles (those in
//! play at the count), buildings (in ruleset order), goods, ships and setup numbers.
//!
//! **Actions**, in id order (blocks marked † only when a building of the ruleset has the
//! effect that makes them legal):
//! 1. each role in play, by ruleset order (`settler`, `prospector-2`, …);
//! 2. `draw`, `take GOOD` (goods in the ruleset's order: corn, indigo, sugar, tobacco, coffee),
//!    `take quarry`, `take colonist`, `take vp`;
//! 3. `place N on GROUP` for each group — the goods, `quarry`, then each building — and
//!    N from 0 to the group's most circles (the island's spaces for plantations and
//!    quarries, the building's circles);
//! 4. `build BUILDING` for each building; `bonus GOOD`; `sell GOOD`;
//! 5. `ship GOOD on CAPACITY` for each good and each ship of the count's setup;
//!    `ship GOOD on wharf` for each good;
//! 6. `keep KINDS [+ GOOD]`: each set of kinds (as a number with a bit per good, 0 to 31 with five goods) without, then
//!    with a single barrel of each good not in the set;
//! 7. `pass`;
//! 8. † `plant GOOD` (a drawn tile the extension lets its owner look at);
//!    † `return colonist from GROUP` (goods, `quarry`, buildings, `san-juan`),
//!    `return GOOD`, `return vp` (payment with components);
//!    † `sell GOOD to BUILDING` for each trading-post building;
//!    † `use BUILDING` for each mixed-ship building, `load N GOOD` for N from 0 to the
//!    count's barrels of the good; † the extension's moves, in its order (the
//!    expansion's: `forest`, `forest GOOD`, `guest to GROUP`);
//!    † `keep N GOOD …` for every count of each good from 0 to the count's barrels of it
//!    (loose barrels at storage: more than one free barrel, or extra storage barrels).
//!
//! **Observation** (names in parentheses; `GOOD` in good order, `ROLE` the roles in play,
//! `BUILDING` the ruleset's buildings, `N` each seat from 0):
//! `round`; one-hots `governor.seatN`, `to_move.seatN`, `chooser.seatN`,
//! `phase.PHASE`, `role.ROLE.in_progress`; per role `role.ROLE.taken`,
//! `role.ROLE.doubloons`; `colonists.supply`, `colonists.ship`, `vp_chips`,
//! `quarries.supply`, `goods.supply.GOOD`, `stack.tiles`, `stack.unseen.GOOD` (tiles
//! nobody has seen: the stack's and, when the extension holds tiles face down, theirs),
//! `face_up.GOOD`, `discards.GOOD`, `held_tiles.GOOD` (tiles the extension holds: 0 while
//! face down; named as the state JSON names them, by the extension: the expansion's
//! `forest_tiles.GOOD`),
//! `building.BUILDING.supply`, `building.BUILDING.in_game`; per ship `shipK.capacity`,
//! `shipK.load`, `shipK.good.GOOD`; `trading_house.GOOD`; `end.colonists`, `end.city`,
//! `end.vp_chips`; `pending.drawn.GOOD`, `pending.settler_extra`, `pending.craftsman_picks`,
//! `pending.owed`, `pending.mixed_load.GOOD`, `craftsman_kinds.GOOD`; per seat
//! `seatN.hacienda_used`, `seatN.wharf_used`, `seatN.captain_done`, `seatN.doubloons`,
//! `seatN.vp` (the observer's own; 0 for the others: face-down chips, S000:L332),
//! `seatN.goods.GOOD`, `seatN.plantations.GOOD`, `seatN.occupied.GOOD`,
//! `seatN.quarries`, `seatN.quarries_occupied`, `seatN.extension_tiles` (likewise named
//! by the extension: the expansion's `seatN.forests`), `seatN.san_juan`,
//! `seatN.building.BUILDING` (1 when built), `seatN.building.BUILDING.colonists`.

use crate::action::{Action, Group};
use crate::goods::{ByGood, Good, MAX_GOODS};
use crate::limits::{MAX_BUILDINGS, MAX_PLANTATIONS, MAX_PLAYERS, MAX_ROLES, MAX_SHIPS, MAX_SPACES};
use crate::rules::{Effect, Rules, kind};
use crate::state::{City, END_CITY, END_COLONISTS, END_VP, Phase, Player, State};
use rulesmith_game::Seat;
use rulesmith_game::encode::{Features, Names, ObservationMemo};

/// Every phase, in the order of the `phase.PHASE` one-hot.
const PHASES: [(Phase, &str); 15] = [
    (Phase::RoleSelection, "role_selection"),
    (Phase::Settler, "settler"),
    (Phase::MayorPrivilege, "mayor_privilege"),
    (Phase::Mayor, "mayor"),
    (Phase::Builder, "builder"),
    (Phase::BuildPayment, "build_payment"),
    (Phase::Craftsman, "craftsman"),
    (Phase::Trader, "trader"),
    (Phase::Captain, "captain"),
    (Phase::MixedShip, "mixed_ship"),
    (Phase::CaptainStorage, "captain_storage"),
    (Phase::ColonistOffer, "colonist_offer"),
    (Phase::Window, "guest_moves"),
    (Phase::GameOver, "game_over"),
    (Phase::CaptainPrivilege, "captain_privilege"),
];

fn roles_in_play(rules: &Rules, players: usize) -> impl Iterator<Item = (usize, &crate::rules::Role)> {
    rules.roles.iter().enumerate().filter(move |(_, r)| u32::from(r.players) & (1 << players) != 0)
}

fn ship_count(rules: &Rules, players: usize) -> usize {
    rules.setup.get(players).map_or(0, |s| s.ships.len())
}

fn barrels(rules: &Rules, players: usize) -> ByGood<u8> {
    rules.setup.get(players).map_or_else(ByGood::default, |s| s.barrels)
}

/// The groups colonists and guests go to: the goods, the quarries, each building.
fn groups(rules: &Rules) -> impl Iterator<Item = Group> + '_ {
    rules
        .goods()
        .map(Group::Plantation)
        .chain([Group::Quarry])
        .chain((0..rules.buildings.len()).map(|b| Group::Building(b as u8)))
}

fn buildings_with(rules: &Rules, f: fn(&Effect) -> bool) -> impl Iterator<Item = u8> + '_ {
    rules.buildings.iter().enumerate().filter(move |(_, b)| f(&b.effect)).map(|(i, _)| i as u8)
}

/// The action space (see the module docs for the order).
pub fn action_space(rules: &Rules, players: usize) -> Vec<Action> {
    let mut out = Vec::new();
    out.extend(roles_in_play(rules, players).map(|(i, _)| Action::Role(i as u8)));
    out.push(Action::Draw);
    out.extend(rules.goods().map(Action::Take));
    out.extend([Action::TakeQuarry, Action::TakeColonist, Action::TakeVp]);
    for group in groups(rules) {
        let most = match group {
            Group::Building(b) => rules.buildings.get(usize::from(b)).map_or(0, |b| b.circles),
            _ => rules.island_spaces,
        };
        out.extend((0..=most).map(|count| Action::Place { group, count }));
    }
    out.extend((0..rules.buildings.len()).map(|b| Action::Build(b as u8)));
    out.extend(rules.goods().map(Action::Bonus));
    out.extend(rules.goods().map(Action::Sell));
    for good in rules.goods() {
        out.extend((0..ship_count(rules, players)).map(|ship| Action::Ship { good, ship: ship as u8 }));
    }
    out.extend(rules.goods().map(Action::Wharf));
    for kinds in 0..(1u16 << rules.good_count()) {
        let kinds = kinds as u8;
        out.push(Action::Keep { kinds, barrel: None });
        for g in rules.goods() {
            if kinds & g.bit() == 0 {
                out.push(Action::Keep { kinds, barrel: Some(g) });
            }
        }
    }
    out.push(Action::Pass);
    let barrels = barrels(rules, players);
    if rules.extension.get().is_some_and(|ext| ext.drawn_tiles_looked_at(rules)) {
        out.extend(rules.goods().map(Action::Plant));
    }
    if rules.has_effect(kind::PAY_WITH_COMPONENTS) {
        out.extend(groups(rules).chain([Group::SanJuan]).map(Action::ReturnColonist));
        out.extend(rules.goods().map(Action::ReturnGood));
        out.push(Action::ReturnVp);
    }
    for building in buildings_with(rules, |e| matches!(e, Effect::OwnTradingPost { .. })) {
        out.extend(rules.goods().map(|good| Action::SellPost { good, building }));
    }
    let mixed: Vec<u8> = buildings_with(rules, |e| matches!(e, Effect::MixedShip { .. })).collect();
    if !mixed.is_empty() {
        out.extend(mixed.iter().map(|&b| Action::Use(b)));
        for good in rules.goods() {
            out.extend((0..=barrels[good]).map(|count| Action::Load { good, count }));
        }
    }
    if let Some(ext) = rules.extension.get() {
        out.extend(ext.codes(rules).into_iter().map(Action::Extension));
    }
    if rules.keeps_loose_barrels() {
        // Every holding: counts in good order, the last good changing fastest.
        let mut kept = ByGood::<u8>::default();
        loop {
            out.push(Action::KeepExact(kept));
            let mut i = rules.good_count();
            loop {
                if i == 0 {
                    return out;
                }
                i -= 1;
                let g = Good::at(i);
                if kept[g] < barrels[g] {
                    kept[g] += 1;
                    break;
                }
                kept[g] = 0;
            }
        }
    }
    out
}

/// A small number naming each action but the holdings of loose barrels
/// ([`rulesmith_game::encode::Encode::action_key`]: the ids' table lookup), each kind in
/// its own range: 8 bits of fields (goods by index below 8, buildings below 64, counts
/// below 32), or 14 for a placement's group and count, `None` past those.
pub fn action_key(a: &Action) -> Option<u32> {
    let good = |g: Good| g.index() as u32;
    let small = |x: u8, below: u8| (x < below).then_some(u32::from(x));
    // Plantations 0–7, the quarry 8, San Juan 9, buildings from 10.
    let group = |g: Group| match g {
        Group::Plantation(g) => Some(good(g)),
        Group::Quarry => Some(8),
        Group::SanJuan => Some(9),
        Group::Building(b) => small(b, 64).map(|b| 10 + b),
    };
    let (kind, fields) = match *a {
        Action::Role(r) => (0, small(r, 255)?),
        Action::Draw => (1, 0),
        Action::Take(g) => (2, good(g)),
        Action::TakeQuarry => (3, 0),
        Action::TakeColonist => (4, 0),
        Action::TakeVp => (5, 0),
        Action::Build(b) => (6, small(b, 255)?),
        Action::Bonus(g) => (7, good(g)),
        Action::Sell(g) => (8, good(g)),
        Action::Ship { good: g, ship } => (9, good(g) << 5 | small(ship, 32)?),
        Action::Wharf(g) => (10, good(g)),
        Action::Keep { kinds, barrel: None } => (11, u32::from(kinds)),
        Action::Keep { kinds, barrel: Some(g) } => (12 + good(g), u32::from(kinds)),
        Action::Pass => (20, 0),
        Action::Plant(g) => (21, good(g)),
        Action::ReturnColonist(g) => (22, group(g)?),
        Action::ReturnGood(g) => (23, good(g)),
        Action::ReturnVp => (24, 0),
        Action::SellPost { good: g, building } => (25 + good(g), small(building, 255)?),
        Action::Use(b) => (33, small(b, 255)?),
        Action::Load { good: g, count } => (34, good(g) << 5 | small(count, 32)?),
        Action::Extension(code) if code < 1 << 12 => (35 + u32::from(code >> 8), u32::from(code & 0xff)),
        Action::Extension(_) => return None,
        // Placements: 74 groups of 32 counts, after the 51 kinds of 256 above.
        Action::Place { group: g, count } => return Some(51 * 256 + (group(g)? << 5 | small(count, 32)?)),
        Action::KeepExact(_) => return None,
    };
    Some(kind << 8 | fields)
}

/// How many keys [`action_key`] uses: every key is below.
pub const ACTION_KEYS: u32 = 51 * 256 + 74 * 32;

/// The observation's names (see the module docs).
pub fn observation_names(rules: &Rules, players: usize) -> Vec<String> {
    let names: Vec<&str> = rules.good_names().map(String::as_str).collect();
    let goods = || names.iter().copied();
    // What the state keeps for the extension, in the extension's words (as in the JSON).
    let extension = crate::json::names(rules);
    let mut n = Names::default();
    n.push("round");
    for what in ["governor", "to_move", "chooser"] {
        for s in 0..players {
            n.push(format!("{what}.seat{s}"));
        }
    }
    n.each("phase", PHASES.map(|(_, name)| name));
    for (_, r) in roles_in_play(rules, players) {
        n.push(format!("role.{}.in_progress", r.id));
    }
    for (_, r) in roles_in_play(rules, players) {
        n.push(format!("role.{}.taken", r.id));
        n.push(format!("role.{}.doubloons", r.id));
    }
    for x in ["colonists.supply", "colonists.ship", "vp_chips", "quarries.supply"] {
        n.push(x);
    }
    n.each("goods.supply", goods());
    n.push("stack.tiles");
    n.each("stack.unseen", goods());
    n.each("face_up", goods());
    n.each("discards", goods());
    n.each(extension.held_tiles, goods());
    for b in &rules.buildings {
        n.push(format!("building.{}.supply", b.id));
        n.push(format!("building.{}.in_game", b.id));
    }
    for k in 0..ship_count(rules, players) {
        n.push(format!("ship{k}.capacity"));
        n.push(format!("ship{k}.load"));
        n.each(&format!("ship{k}.good"), goods());
    }
    n.each("trading_house", goods());
    n.each("end", ["colonists", "city", "vp_chips"]);
    n.each("pending.drawn", goods());
    n.each("pending", ["settler_extra", "craftsman_picks", "owed"]);
    n.each("pending.mixed_load", goods());
    n.each("craftsman_kinds", goods());
    for s in 0..players {
        let p = format!("seat{s}");
        n.each(&p, ["hacienda_used", "wharf_used", "captain_done", "doubloons", "vp"]);
        n.each(&format!("{p}.goods"), goods());
        n.each(&format!("{p}.plantations"), goods());
        n.each(&format!("{p}.occupied"), goods());
        n.each(&p, ["quarries", "quarries_occupied", extension.island_tiles, "san_juan"]);
        for b in &rules.buildings {
            n.push(format!("{p}.building.{}", b.id));
            n.push(format!("{p}.building.{}.colonists", b.id));
        }
    }
    n.into_vec()
}

fn goods(rules: &Rules, f: &mut Features<'_>, v: ByGood<u8>) {
    for (x, g) in f.block(rules.good_count()).iter_mut().zip(v.0) {
        *x = f32::from(g);
    }
}

fn good_mask(rules: &Rules, f: &mut Features<'_>, mask: u8) {
    for (x, g) in f.block(rules.good_count()).iter_mut().zip(rules.goods()) {
        *x = f32::from(u8::from(mask & g.bit() != 0));
    }
}

/// The stack's tiles of each good ([`crate::state::Stack::counts`]), counted in a byte lane
/// per good of one word: an add a tile in a register, where an increment in memory waits for
/// the last one to the same good. The stack holds at most `MAX_PLANTATIONS` (96) tiles:
/// no lane carries into the next.
fn stack_counts(s: &State) -> ByGood<u8> {
    let mut lanes = 0u64;
    for g in s.stack.as_slice() {
        lanes += 1 << (8 * (g.index() % MAX_GOODS));
    }
    ByGood(lanes.to_le_bytes())
}

/// Writes `seat`'s observation of `s` (see the module docs).
pub fn observe(rules: &Rules, s: &State, seat: Seat, f: &mut Features<'_>) {
    observe_sections(rules, s, seat, f);
}

/// Where [`observe`] put each part of the observation: the starts of the header, the role
/// board, the supplies, the buildings' supply, the tail (ships to craftsman kinds) and the
/// seats' blocks, the length of a seat's block and of its head, and the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Layout {
    sections: [usize; 5],
    seats: usize,
    seat_len: usize,
    head_len: usize,
    end: usize,
}

/// [`observe`], section by section, saying where each went.
fn observe_sections(rules: &Rules, s: &State, seat: Seat, f: &mut Features<'_>) -> Layout {
    let mut sections = [0; 5];
    sections[0] = f.position();
    header(rules, s, f);
    sections[1] = f.position();
    role_board(rules, s, f);
    sections[2] = f.position();
    supplies(rules, s, f);
    sections[3] = f.position();
    building_supply(rules, s, f);
    sections[4] = f.position();
    tail(rules, s, f);
    // Each seat's features as one block: a head, then its buildings (cleared, then the
    // dozen at most it built).
    let seats = f.position();
    let (head_len, seat_len) = seat_lengths(rules);
    for (i, p) in s.players.iter().enumerate() {
        let block = f.block(seat_len);
        let Some((head, city)) = block.split_at_mut_checked(head_len) else {
            // The buffer ends within the head (shorter than the layout): nothing of this
            // seat or after it fits whole; what does is left at 0.
            continue;
        };
        seat_head(s, seat, i, p, head);
        seat_city(p, city);
    }
    Layout { sections, seats, seat_len, head_len, end: f.position() }
}

/// A seat's head (flags, doubloons, VP, goods, plantations, quarries …) and its whole
/// block (the head, then two numbers per building).
fn seat_lengths(rules: &Rules) -> (usize, usize) {
    let head_len = 5 + 3 * rules.good_count().min(MAX_GOODS) + 4;
    (head_len, head_len + 2 * rules.buildings.len())
}

/// `round`, the seat and phase one-hots, `role.ROLE.in_progress`.
fn header(rules: &Rules, s: &State, f: &mut Features<'_>) {
    let players = s.player_count();
    f.push(s.round);
    // The seat and phase one-hots, cleared at once.
    f.clear_ahead(3 * players + PHASES.len());
    f.one_hot(players, Some(usize::from(s.governor)));
    f.one_hot(players, to_move(s));
    f.one_hot(players, Some(usize::from(s.chooser)));
    f.one_hot(PHASES.len(), PHASES.iter().position(|(p, _)| *p == s.phase));
    let in_progress = in_progress(s);
    for (i, _) in roles_in_play(rules, players) {
        f.flag(in_progress == Some(i));
    }
}

fn to_move(s: &State) -> Option<usize> {
    (s.phase != Phase::GameOver).then_some(usize::from(s.current))
}

/// The role being played (none while roles are chosen and once the game is over).
fn in_progress(s: &State) -> Option<usize> {
    (!matches!(s.phase, Phase::RoleSelection | Phase::GameOver)).then_some(usize::from(s.role))
}

/// `role.ROLE.taken`, `role.ROLE.doubloons`.
fn role_board(rules: &Rules, s: &State, f: &mut Features<'_>) {
    for (i, _) in roles_in_play(rules, s.player_count()) {
        f.flag(s.roles.taken() & (1 << i) != 0);
        f.push(s.roles.coins().get(i).copied().unwrap_or(0));
    }
}

/// The stack's and, when the extension's tiles lie face down (forests), their goods are
/// hidden: only how many tiles of each good nobody has seen (as the seat's view shows),
/// and the held tiles shown (none while face down).
fn unseen_and_held(rules: &Rules, s: &State) -> (ByGood<u8>, ByGood<u8>) {
    let hidden = crate::board::hidden_held_tiles(rules, s);
    let mut unseen = stack_counts(s);
    if hidden {
        for g in rules.goods() {
            unseen[g] += s.held_tiles[g];
        }
    }
    (unseen, if hidden { ByGood::default() } else { s.held_tiles })
}

/// The colonists, VP chips, quarries, goods, the stack, face-up tiles, discards and held
/// tiles.
fn supplies(rules: &Rules, s: &State, f: &mut Features<'_>) {
    let (unseen, held) = unseen_and_held(rules, s);
    supplies_of(rules, s, unseen, held, f);
}

fn supplies_of(rules: &Rules, s: &State, unseen: ByGood<u8>, held: ByGood<u8>, f: &mut Features<'_>) {
    f.push(s.colonist_supply);
    f.push(s.colonist_ship);
    f.push(s.vp_chips);
    f.push(s.quarry_supply);
    goods(rules, f, s.goods_supply);
    f.push(s.stack.len);
    goods(rules, f, unseen);
    goods(rules, f, s.face_up);
    goods(rules, f, s.discards);
    goods(rules, f, held);
}

/// `building.BUILDING.supply`, `building.BUILDING.in_game`.
fn building_supply(rules: &Rules, s: &State, f: &mut Features<'_>) {
    for (i, pair) in f.block(2 * rules.buildings.len()).chunks_exact_mut(2).enumerate() {
        pair[0] = f32::from(s.buildings.get(i).copied().unwrap_or(0));
        pair[1] = f32::from(u8::from(s.in_game(i)));
    }
}

/// The ships, the trading house, the end triggers, what is pending and the craftsman's
/// kinds.
fn tail(rules: &Rules, s: &State, f: &mut Features<'_>) {
    let players = s.player_count();
    f.clear_ahead(ship_count(rules, players) * (2 + rules.good_count()));
    for k in 0..ship_count(rules, players) {
        let ship = s.ships().get(k).copied().unwrap_or_default();
        f.push(ship.capacity());
        f.push(ship.load());
        f.one_hot(rules.good_count(), ship.good().map(Good::index));
    }
    let mut house = ByGood::<u8>::default();
    for g in s.trading_house.spaces().iter().flatten() {
        house[*g] += 1;
    }
    goods(rules, f, house);
    for bit in [END_COLONISTS, END_CITY, END_VP] {
        f.flag(s.end_triggers & bit != 0);
    }
    f.one_hot(rules.good_count(), s.pending.settler.drawn.map(Good::index));
    f.push(s.pending.settler.settler_extra);
    f.push(s.pending.craftsman.craftsman_picks);
    f.push(s.pending.payment.owed);
    goods(rules, f, s.pending.mixed.mixed_load);
    good_mask(rules, f, s.craftsman.kinds);
}

/// Whether seat `i`'s captain flag shows (its own: it read the observer's for every seat
/// before).
fn captain_done(s: &State, i: usize) -> bool {
    matches!(s.phase, Phase::Captain | Phase::MixedShip | Phase::CaptainPrivilege)
        && s.captain.round.has_passed(i as Seat)
}

/// The VP of seat `i` that `seat` sees: its own; 0 for the others (face-down chips, S000:L332).
fn shown_vp(seat: Seat, i: usize, p: &Player) -> u16 {
    if i == usize::from(seat) { p.vp } else { 0 }
}

/// Seat `i`'s head: its flags, doubloons, VP shown, goods, plantations, quarries,
/// extension tiles and San Juan.
fn seat_head(s: &State, seat: Seat, i: usize, p: &Player, head: &mut [f32]) {
    let bit = 1 << i;
    let n = (head.len().saturating_sub(9) / 3).min(MAX_GOODS);
    head[0] = f32::from(u8::from(s.settler.hacienda_used & bit != 0));
    head[1] = f32::from(u8::from(s.captain.wharf_used & bit != 0));
    head[2] = f32::from(u8::from(captain_done(s, i)));
    head[3] = f32::from(p.doubloons);
    head[4] = f32::from(shown_vp(seat, i, p));
    let (goods, rest) = head[5..].split_at_mut(n);
    let (plantations, rest) = rest.split_at_mut(n);
    let (occupied, tail) = rest.split_at_mut(n);
    for (k, ((x, y), z)) in goods.iter_mut().zip(plantations.iter_mut()).zip(occupied.iter_mut()).enumerate() {
        let g = Good::at(k);
        *x = f32::from(p.goods[g]);
        *y = f32::from(p.plantations[g]);
        *z = f32::from(p.plantations_occupied[g]);
    }
    tail.copy_from_slice(&[
        f32::from(p.quarries),
        f32::from(p.quarries_occupied),
        f32::from(p.extension_tiles),
        f32::from(p.san_juan),
    ]);
}

/// Seat `i`'s city: 1 and the colonists for each building it built, 0 for the others.
fn seat_city(p: &Player, city: &mut [f32]) {
    city.fill(0.0);
    for c in p.city.iter() {
        let b = 2 * usize::from(c.building);
        if let Some([built, colonists]) = city.get_mut(b..b + 2) {
            *built = 1.0;
            *colonists = f32::from(c.colonists);
        }
    }
}

/// What [`observe_update`] last wrote into a buffer: where each part went and the inputs
/// each part was written from, packed in words compared whole (no branch per input). A
/// part whose inputs are the same again is left as it is; the header's one-hots are
/// moved (the old position cleared, the new one set).
#[derive(Clone, Debug)]
pub struct Memo {
    /// The buffer's length and the table's player count it was written for.
    len: usize,
    players: usize,
    layout: Layout,
    /// Each role's place among the roles in play (`u8::MAX`: not in play).
    role_place: [u8; MAX_ROLES],
    header: Header,
    /// The roles' coins and the taken roles.
    coins: [u8; MAX_ROLES],
    taken: u16,
    supplies: [u64; 5],
    stack: [Good; MAX_PLANTATIONS],
    buildings: [u8; MAX_BUILDINGS],
    out_of_game: u64,
    tail: [u64; 5],
    heads: [[u64; 5]; MAX_PLAYERS],
    cities: [[u16; MAX_SPACES + 1]; MAX_PLAYERS],
}

/// The header's numbers as written: the round and the place set in each one-hot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Header {
    round: u32,
    governor: Option<usize>,
    to_move: Option<usize>,
    chooser: Option<usize>,
    phase: Option<usize>,
    in_progress: Option<usize>,
}

impl Header {
    /// The header of `s`; `role_place` places the role in progress among its flags.
    fn of(s: &State, players: usize, role_place: &[u8; MAX_ROLES]) -> Self {
        let seat = |x: Option<usize>| x.filter(|&x| x < players);
        Header {
            round: s.round,
            governor: seat(Some(usize::from(s.governor))),
            to_move: seat(to_move(s)),
            chooser: seat(Some(usize::from(s.chooser))),
            phase: PHASES.iter().position(|(p, _)| *p == s.phase),
            in_progress: in_progress(s)
                .and_then(|r| role_place.get(r))
                .filter(|&&place| place != u8::MAX)
                .map(|&place| usize::from(place)),
        }
    }
}

/// A good count per good in one word.
fn word(g: ByGood<u8>) -> u64 {
    u64::from_le_bytes(g.0)
}

/// The inputs of [`supplies`] but the stack's tiles: the colonists, VP chips, quarries,
/// the stack's length, whether held tiles are hidden, and the goods' counts.
fn supplies_key(rules: &Rules, s: &State) -> [u64; 5] {
    let hidden = crate::board::hidden_held_tiles(rules, s);
    [
        u64::from(s.colonist_supply)
            | u64::from(s.colonist_ship) << 8
            | u64::from(s.quarry_supply) << 16
            | u64::from(s.vp_chips) << 24
            | u64::from(s.stack.len) << 40
            | u64::from(hidden) << 48,
        word(s.goods_supply),
        word(s.face_up),
        word(s.discards),
        word(s.held_tiles),
    ]
}

/// Whether two keys are the same: every pair compared without stopping at the first
/// difference, which the compiler does a vector at a time (a call to `memcmp` each cost
/// more than the comparison).
fn same<T: Copy + std::ops::BitXor<Output = T> + std::ops::BitOr<Output = T> + Default + Eq, const N: usize>(
    a: &[T; N],
    b: &[T; N],
) -> bool {
    a.iter().zip(b).fold(T::default(), |d, (&x, &y)| d | (x ^ y)) == T::default()
}

/// Whether two stacks' tiles (all of them, used or not) are the same, as [`same`] (a
/// good's index is its byte).
fn same_tiles(a: &[Good; MAX_PLANTATIONS], b: &[Good; MAX_PLANTATIONS]) -> bool {
    a.iter().zip(b).fold(0, |d, (x, y)| d | (x.index() ^ y.index()) as u8) == 0
}

/// A city as numbers to compare with [`same`]: each slot (used or not) as its building and
/// colonists, then the count.
fn city_key(c: &City) -> [u16; MAX_SPACES + 1] {
    let mut key = [0; MAX_SPACES + 1];
    for (k, b) in key.iter_mut().zip(&c.slots) {
        *k = u16::from(b.building) | u16::from(b.colonists) << 8;
    }
    key[MAX_SPACES] = u16::from(c.len);
    key
}

/// The inputs of [`tail`]: each ship's capacity, load and good, the trading house's goods,
/// the end triggers, what is pending and the craftsman's kinds (every input in its own
/// bits: equal keys, equal features).
fn tail_key(s: &State) -> [u64; 5] {
    // Three bytes a ship, in the first 15 bytes of the first two words.
    let mut ships = [0u64; 2];
    for (k, ship) in s.ships().iter().enumerate().take(MAX_SHIPS) {
        let good = ship.good().map_or(0, |g| g.index() as u64 + 1);
        let bits = u64::from(ship.capacity()) | u64::from(ship.load()) << 8 | good << 16;
        let at = 24 * k;
        ships[at / 64] |= bits << (at % 64);
        if at % 64 > 40 {
            // The part of a ship past the first word.
            ships[1] |= bits >> (64 - at % 64);
        }
    }
    let mut house = ByGood::<u8>::default();
    for g in s.trading_house.spaces().iter().flatten() {
        house[*g] += 1;
    }
    let p = &s.pending;
    [
        ships[0],
        ships[1] | u64::from(s.ship_count) << 56,
        u64::from(s.end_triggers)
            | p.settler.drawn.map_or(0, |g| g.index() as u64 + 1) << 8
            | u64::from(p.settler.settler_extra) << 16
            | u64::from(p.craftsman.craftsman_picks) << 24
            | u64::from(p.payment.owed) << 32
            | u64::from(s.craftsman.kinds) << 40,
        word(house),
        word(p.mixed.mixed_load),
    ]
}

/// The inputs of [`seat_head`] for seat `i` as `seat` sees it.
fn head_key(s: &State, seat: Seat, i: usize, p: &Player) -> [u64; 5] {
    let bit = 1 << i;
    let flags = u64::from(s.settler.hacienda_used & bit != 0)
        | u64::from(s.captain.wharf_used & bit != 0) << 1
        | u64::from(captain_done(s, i)) << 2;
    [
        word(p.goods),
        word(p.plantations),
        word(p.plantations_occupied),
        u64::from(p.doubloons) | u64::from(shown_vp(seat, i, p)) << 16 | flags << 32,
        u64::from(p.quarries)
            | u64::from(p.quarries_occupied) << 8
            | u64::from(p.extension_tiles) << 16
            | u64::from(p.san_juan) << 24,
    ]
}

/// [`observe`] into `out`, which holds what the last call with `memo` wrote (the contract
/// of [`rulesmith_game::encode::Encode::observation_update`]): the parts whose inputs are
/// the same are left as they are, the others rewritten by the code [`observe`] runs, so
/// the numbers are its own. Returns where the base game's features end (the expansion's
/// follow).
pub fn observe_update(rules: &Rules, s: &State, seat: Seat, out: &mut [f32], memo: &mut ObservationMemo) -> usize {
    let players = s.player_count();
    if let Some(m) = memo.as_mut().and_then(|m| m.downcast_mut::<Memo>())
        && m.len == out.len()
        && m.players == players
    {
        m.update(rules, s, seat, out);
        return m.layout.end;
    }
    let layout = observe_sections(rules, s, seat, &mut Features::new(out));
    // A buffer shorter than the layout got only what fits: written whole each time.
    *memo = (layout.end <= out.len() && players <= MAX_PLAYERS).then(|| {
        let mut role_place = [u8::MAX; MAX_ROLES];
        for (place, (r, _)) in roles_in_play(rules, players).enumerate() {
            if let Some(x) = role_place.get_mut(r) {
                *x = place as u8;
            }
        }
        let mut heads = [[0; 5]; MAX_PLAYERS];
        let mut cities = [[0; MAX_SPACES + 1]; MAX_PLAYERS];
        for (i, p) in s.players.iter().enumerate() {
            heads[i] = head_key(s, seat, i, p);
            cities[i] = city_key(&p.city);
        }
        Box::new(Memo {
            len: out.len(),
            players,
            layout,
            header: Header::of(s, players, &role_place),
            role_place,
            coins: *s.roles.coins(),
            taken: s.roles.taken(),
            supplies: supplies_key(rules, s),
            stack: s.stack.tiles,
            buildings: s.buildings,
            out_of_game: s.out_of_game,
            tail: tail_key(s),
            heads,
            cities,
        }) as Box<dyn std::any::Any + Send>
    });
    layout.end
}

/// The features from `from` to `end`, to rewrite a part of the layout.
fn part(out: &mut [f32], from: usize, end: usize) -> Features<'_> {
    Features::new(out.get_mut(from..end).unwrap_or_default())
}

/// Moves a one-hot's 1 from `old` to `new` (each a place in the block at `at`, or none).
fn move_hot(out: &mut [f32], at: usize, old: Option<usize>, new: Option<usize>) {
    if old != new {
        if let Some(x) = old.and_then(|i| out.get_mut(at + i)) {
            *x = 0.0;
        }
        if let Some(x) = new.and_then(|i| out.get_mut(at + i)) {
            *x = 1.0;
        }
    }
}

impl Memo {
    /// Rewrites the parts of `out` whose inputs changed (`out` holds every part whole: the
    /// layout fits it).
    fn update(&mut self, rules: &Rules, s: &State, seat: Seat, out: &mut [f32]) {
        let Layout { sections: at, seats, seat_len, head_len, end } = self.layout;
        let players = self.players;
        // The header: the round, then the one-hots' blocks in order (see `header`).
        let header = Header::of(s, players, &self.role_place);
        let old = std::mem::replace(&mut self.header, header);
        if header != old {
            if let Some(x) = out.get_mut(at[0]) {
                // As `Features::push` converts it.
                *x = f64::from(header.round) as f32;
            }
            let mut block = at[0] + 1;
            for (old, new, n) in [
                (old.governor, header.governor, players),
                (old.to_move, header.to_move, players),
                (old.chooser, header.chooser, players),
                (old.phase, header.phase, PHASES.len()),
                // The roles' flags end the header.
                (old.in_progress, header.in_progress, 0),
            ] {
                move_hot(out, block, old, new);
                block += n;
            }
        }
        if !same(s.roles.coins(), &self.coins) || s.roles.taken() != self.taken {
            self.coins = *s.roles.coins();
            self.taken = s.roles.taken();
            role_board(rules, s, &mut part(out, at[1], end));
        }
        let key = supplies_key(rules, s);
        if !same(&key, &self.supplies) || !same_tiles(&s.stack.tiles, &self.stack) {
            self.supplies = key;
            self.stack = s.stack.tiles;
            supplies(rules, s, &mut part(out, at[2], end));
        }
        if !same(&s.buildings, &self.buildings) || s.out_of_game != self.out_of_game {
            self.buildings = s.buildings;
            self.out_of_game = s.out_of_game;
            building_supply(rules, s, &mut part(out, at[3], end));
        }
        let tail = tail_key(s);
        if !same(&tail, &self.tail) {
            self.tail = tail;
            self::tail(rules, s, &mut part(out, at[4], end));
        }
        let blocks = out.get_mut(seats..end).unwrap_or_default().chunks_exact_mut(seat_len);
        for (((i, p), block), (key, city)) in
            s.players.iter().enumerate().zip(blocks).zip(self.heads.iter_mut().zip(&mut self.cities))
        {
            let (head, city_features) = block.split_at_mut(head_len);
            let head_key = head_key(s, seat, i, p);
            if !same(&head_key, key) {
                *key = head_key;
                seat_head(s, seat, i, p, head);
            }
            let key = city_key(&p.city);
            if !same(&key, city) {
                *city = key;
                seat_city(p, city_features);
            }
        }
    }
}
