//! Mayor phase (S000:L177-196): the privilege colonist from the supply, the ship's
//! colonists dealt one at a time from the mayor, placement, and the ship's refill.
//!
//! Placement: a player takes up all their colonists and puts them back group by group
//! in a fixed order (plantations by kind, quarries, then each building in city order),
//! choosing how many go on each group. Only counts that keep a legal final placement are
//! offered (circles must be filled before colonists stay in San Juan, L195), and a group
//! whose count is forced is filled without asking. So every placement is reached by
//! exactly one sequence of decisions.

pub mod placement;

use super::flow::Flow;
use crate::action::{Action, Group};
use crate::board;
use crate::goods::{ByGood, Good, MAX_GOODS};
use crate::rules::Rules;
use crate::state::{END_COLONISTS, Phase, Placement, Player, State};
use rulesmith_game::Seat;
use rulesmith_game::steps::seat_after;

pub fn begin(rules: &Rules, s: &mut State) {
    s.current = s.chooser;
    if s.colonist_supply > 0 && super::privilege::privilege(rules, s) > 0 {
        s.phase = Phase::MayorPrivilege;
    } else {
        deal(rules, s);
    }
}

pub fn legal_privilege(_rules: &Rules, _s: &State, f: &mut impl FnMut(Action)) {
    f(Action::TakeColonist);
    f(Action::Pass);
}

pub fn play_privilege(rules: &Rules, s: &mut State, a: Action) -> Flow {
    if a == Action::TakeColonist {
        let n = super::privilege::privilege(rules, s).min(s.colonist_supply);
        s.colonist_supply -= n;
        s.players[s.chooser].san_juan += n;
    }
    deal(rules, s);
    Flow::Continue
}

/// The ship's colonists, one at a time from the mayor clockwise (S000:L180), then the
/// placement starts with the mayor.
fn deal(rules: &Rules, s: &mut State) {
    let n = s.player_count();
    let ship = s.colonist_ship;
    for k in 0..usize::from(ship) {
        let seat = seat_after(s.chooser, k, n);
        s.players[seat].san_juan += 1;
    }
    s.colonist_ship = 0;
    s.phase = Phase::Mayor;
    s.current = s.chooser;
    pick_up(rules, s, s.chooser);
}

/// The player takes every colonist off the board into hand (kept in San Juan).
fn pick_up(rules: &Rules, s: &mut State, seat: Seat) {
    let p = &mut s.players[seat];
    let mut hand = u32::from(p.san_juan);
    hand += p.plantations_occupied.total();
    p.plantations_occupied = ByGood::default();
    hand += u32::from(p.quarries_occupied);
    p.quarries_occupied = 0;
    for b in p.city.iter_mut() {
        hand += u32::from(b.colonists);
        b.colonists = 0;
    }
    p.san_juan = hand.min(u32::from(u8::MAX)) as u8;
    let left = capacity_from(rules, p, rules.good_count(), 0);
    s.mayor = Placement { group: 0, left: left.min(u32::from(u8::MAX)) as u8 };
}

/// The circles of the groups from the placement's group on, of the player to move, in the
/// mayor phase (0 outside it): what [`Placement::left`] keeps.
pub fn left(rules: &Rules, s: &State) -> u8 {
    if s.phase != Phase::Mayor {
        return 0;
    }
    // A state read from a file may name a seat that is not at the table yet (its check
    // comes after this): nothing to place then.
    let Some(p) = s.players.as_slice().get(usize::from(s.current)) else {
        return 0;
    };
    capacity_from(rules, p, rules.good_count(), usize::from(s.mayor.group)).min(u32::from(u8::MAX)) as u8
}

/// Groups of a player in placement order: the ruleset's plantation kinds, quarries,
/// buildings.
#[inline]
fn group(rules: &Rules, p: &Player, i: u8) -> Option<Group> {
    let (i, goods) = (usize::from(i), rules.good_count());
    match i {
        _ if i < goods => Some(Group::Plantation(Good::at(i))),
        _ if i == goods => Some(Group::Quarry),
        _ => p.city.as_slice().get(i - goods - 1).map(|b| Group::Building(b.building)),
    }
}

/// The capacity of group `i` (in the order of [`group`]); 0 past the last group.
#[inline]
fn capacity(rules: &Rules, p: &Player, goods: usize, i: usize) -> u8 {
    match i.checked_sub(goods + 1) {
        None if i < goods => p.plantations.0.get(i).copied().unwrap_or(0),
        None => p.quarries,
        Some(k) => p.city.as_slice().get(k).map_or(0, |b| rules.table.get(b.building).circles),
    }
}

/// The capacity of the groups from `i` on (the order of [`group`]), without visiting them
/// one by one: each mayor step and listing of every playout asks for it.
#[inline]
fn capacity_from(rules: &Rules, p: &Player, goods: usize, i: usize) -> u32 {
    // Plantations by good are the bytes of one word (the places past the ruleset's goods
    // are empty): drop those before `i`, then add the bytes up with one multiplication
    // (a player holds at most 16 island tiles, so no byte sum carries).
    let plantations = if i < MAX_GOODS {
        let rest = u64::from_le_bytes(p.plantations.0) >> (8 * i);
        (rest.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    } else {
        0
    };
    let quarries = if i <= goods { u32::from(p.quarries) } else { 0 };
    let city = p.city.as_slice().get(i.saturating_sub(goods + 1)..).unwrap_or(&[]);
    let circles: u32 = city.iter().map(|b| u32::from(rules.table.get(b.building).circles)).sum();
    plantations + quarries + circles
}

/// Groups from `from` on (in the order of [`group`]) take all they hold (`full`) or none.
fn fill(rules: &Rules, p: &mut Player, goods: usize, from: usize, full: bool) {
    for j in from..goods.min(MAX_GOODS) {
        p.plantations_occupied.0[j] = if full { p.plantations.0[j] } else { 0 };
    }
    if from <= goods {
        p.quarries_occupied = if full { p.quarries } else { 0 };
    }
    let len = usize::from(p.city.len).min(p.city.slots.len());
    for b in &mut p.city.slots[from.saturating_sub(goods + 1).min(len)..len] {
        b.colonists = if full { rules.table.get(b.building).circles } else { 0 };
    }
}

/// Group `i` (in the order of [`group`]) takes `count` colonists: the state `place` gives.
#[inline]
fn put(p: &mut Player, goods: usize, i: usize, count: u8) {
    match i.checked_sub(goods + 1) {
        None if i < goods => p.plantations_occupied.0[i] = count,
        None => p.quarries_occupied = count,
        Some(k) => {
            if let Some(b) = p.city.slots.get_mut(k) {
                b.colonists = count;
            }
        }
    }
}

/// The counts a group may take with `hand` colonists left and `later` capacity after it:
/// (lowest, highest).
#[inline]
fn bounds(cap: u8, hand: u8, later: u32) -> (u8, u8) {
    let lo = u32::from(hand).saturating_sub(later).min(u32::from(cap)) as u8;
    (lo, hand.min(cap))
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let p = &s.players[s.current];
    let Some(g) = group(rules, p, s.mayor.group) else { return };
    let (goods, i) = (rules.good_count(), usize::from(s.mayor.group));
    let cap = capacity(rules, p, goods, i);
    let later = u32::from(s.mayor.left.saturating_sub(cap));
    let (lo, hi) = bounds(cap, p.san_juan, later);
    if lo < hi {
        for count in lo..=hi {
            f(Action::Place { group: g, count });
        }
    }
}

/// The group the placement is at takes `count` colonists: written by the group's index
/// (the placement's own), no search of the city.
pub fn play(rules: &Rules, s: &mut State, a: Action) -> Flow {
    if let Action::Place { count, .. } = a {
        let (goods, i) = (rules.good_count(), usize::from(s.mayor.group));
        let p = &mut s.players[s.current];
        let cap = capacity(rules, p, goods, i);
        p.san_juan -= count;
        put(p, goods, i, count);
        s.mayor = Placement { group: s.mayor.group + 1, left: s.mayor.left.saturating_sub(cap) };
    }
    Flow::Continue
}

/// Fills forced groups up to a real choice; after the last player the ship is refilled.
pub fn step(rules: &Rules, s: &mut State) -> Flow {
    let goods = rules.good_count();
    let p = &mut s.players[s.current];
    let n = goods + 1 + usize::from(p.city.len);
    let mut i = usize::from(s.mayor.group);
    let mut later = u32::from(s.mayor.left);
    if p.san_juan == 0 || u32::from(p.san_juan) >= later {
        // No choice is left: with an empty hand every group takes none, with enough
        // colonists every group is filled. Most steps end here (players with nothing to
        // place, or more colonists than circles), so this skips the group-by-group walk.
        let full = p.san_juan > 0;
        fill(rules, p, goods, i, full);
        if full {
            p.san_juan -= later as u8;
        }
        i = i.max(n);
        later = 0;
    }
    while i < n {
        let cap = capacity(rules, p, goods, i);
        later -= u32::from(cap);
        let (lo, hi) = bounds(cap, p.san_juan, later);
        if lo < hi {
            s.mayor = Placement { group: i as u8, left: (later + u32::from(cap)) as u8 };
            return Flow::Decide;
        }
        p.san_juan -= lo;
        put(p, goods, i, lo);
        i += 1;
    }
    s.mayor = Placement { group: i as u8, left: 0 };
    // This player is done; what is left in hand stays in San Juan.
    if s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
        pick_up(rules, s, s.current);
        return Flow::Continue;
    }
    refill_ship(rules, s);
    Flow::Done
}

/// One colonist per empty building circle of all players, at least the minimum; when
/// the supply cannot refill the ship the game ends after this round (S000:L188, L412).
/// What is left goes on the ship (chosen default: the rulebook is silent).
fn refill_ship(rules: &Rules, s: &mut State) {
    let n = s.player_count() as u32;
    let empty: u32 = s.players.iter().map(|p| board::empty_building_circles(rules, p)).sum();
    let need = empty.max(n * u32::from(rules.ship_refill_minimum_per_player));
    let supply = u32::from(s.colonist_supply);
    if supply < need {
        s.end_triggers |= END_COLONISTS;
    }
    let moved = need.min(supply) as u8;
    s.colonist_supply -= moved;
    s.colonist_ship += moved;
}
