//! Mayor phase (S000:L177-196): the privilege colonist from the supply, the ship's
//! colonists dealt one at a time from the mayor, placement, and the ship's refill.
//!
//! Placement: a player takes up all their colonists and puts them back group by group
//! in a fixed order (plantations by kind, quarries, then each building in city order),
//! choosing how many go on each group. Only counts that keep a legal final placement are
//! offered (circles must be filled before colonists stay in San Juan, L195), and a group
//! whose count is forced is filled without asking. So every placement is reached by
//! exactly one sequence of decisions.

use super::flow::Flow;
use crate::action::{Action, Group};
use crate::board;
use crate::goods::{ByGood, Good};
use crate::rules::Rules;
use crate::state::{END_COLONISTS, Phase, Player, State};
use rulesmith_core::Seat;
use rulesmith_core::steps::seat_after;

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
fn deal(_rules: &Rules, s: &mut State) {
    let n = s.player_count();
    let ship = s.colonist_ship;
    for k in 0..usize::from(ship) {
        let seat = seat_after(s.chooser, k, n);
        s.players[seat].san_juan += 1;
    }
    s.colonist_ship = 0;
    s.phase = Phase::Mayor;
    s.current = s.chooser;
    pick_up(s, s.chooser);
}

/// The player takes every colonist off the board into hand (kept in San Juan).
fn pick_up(s: &mut State, seat: Seat) {
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
    s.mayor_group = 0;
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

#[inline]
fn capacity(rules: &Rules, p: &Player, g: Group) -> u8 {
    match g {
        Group::Plantation(good) => p.plantations[good],
        Group::Quarry => p.quarries,
        Group::Building(b) => rules.buildings.get(b as usize).map_or(0, |x| x.circles),
        Group::SanJuan => 0,
    }
}

/// Capacity of the groups from `i` on (the order of [`group`], summed without building
/// each group: this runs at every mayor step of every playout).
#[inline]
fn capacity_from(rules: &Rules, p: &Player, i: u8) -> u32 {
    let i = usize::from(i);
    // Every place from `i` on: those past the ruleset's goods are empty.
    let plantations: u32 = p.plantations.0.get(i..).map_or(0, |x| x.iter().map(|&c| u32::from(c)).sum());
    let goods = rules.good_count();
    let quarries = if i <= goods { u32::from(p.quarries) } else { 0 };
    let circles =
        |b: &crate::state::CityBuilding| rules.buildings.get(usize::from(b.building)).map_or(0, |x| x.circles);
    let buildings: u32 =
        p.city.as_slice().iter().skip(i.saturating_sub(goods + 1)).map(|b| u32::from(circles(b))).sum();
    plantations + quarries + buildings
}

/// The counts a group may take with `hand` colonists left and `later` capacity after it:
/// (lowest, highest).
#[inline]
fn bounds(cap: u8, hand: u8, later: u32) -> (u8, u8) {
    let lo = u32::from(hand).saturating_sub(later).min(u32::from(cap)) as u8;
    (lo, hand.min(cap))
}

/// The counts the current group may take: (lowest, highest).
#[inline]
fn range(rules: &Rules, p: &Player, i: u8) -> Option<(u8, u8)> {
    let g = group(rules, p, i)?;
    Some(bounds(capacity(rules, p, g), p.san_juan, capacity_from(rules, p, i + 1)))
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let p = &s.players[s.current];
    let Some(g) = group(rules, p, s.mayor_group) else { return };
    if let Some((lo, hi)) = range(rules, p, s.mayor_group) {
        if lo < hi {
            for count in lo..=hi {
                f(Action::Place { group: g, count });
            }
        }
    }
}

pub fn play(_rules: &Rules, s: &mut State, a: Action) -> Flow {
    if let Action::Place { group, count } = a {
        place(s, group, count);
        s.mayor_group += 1;
    }
    Flow::Continue
}

fn place(s: &mut State, g: Group, count: u8) {
    let p = &mut s.players[s.current];
    p.san_juan -= count;
    match g {
        Group::Plantation(good) => p.plantations_occupied[good] = count,
        Group::Quarry => p.quarries_occupied = count,
        Group::Building(b) => {
            if let Some(x) = p.city.iter_mut().find(|x| x.building == b) {
                x.colonists = count;
            }
        }
        Group::SanJuan => p.san_juan += count,
    }
}

/// Fills forced groups up to a real choice; after the last player the ship is refilled.
pub fn step(rules: &Rules, s: &mut State) -> Flow {
    let mut later = capacity_from(rules, &s.players[s.current], s.mayor_group);
    loop {
        let p = &s.players[s.current];
        let Some(g) = group(rules, p, s.mayor_group) else { break };
        let cap = capacity(rules, p, g);
        later -= u32::from(cap).min(later);
        let (lo, hi) = bounds(cap, p.san_juan, later);
        if lo < hi {
            return Flow::Decide;
        }
        place(s, g, lo);
        s.mayor_group += 1;
    }
    // This player is done; what is left in hand stays in San Juan.
    if s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
        pick_up(s, s.current);
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
