//! Guest moves ([`Effect::Guests`], the expansion's guest house, S001:L557-561).
//!
//! Guests are the colonists the mayor phase put on a guests building. Outside the mayor
//! phase their owner may move them to any empty circle, plantation or quarry, where they
//! work at once and stay until the next mayor phase (which takes up every colonist
//! anyway). The rulebook allows moves "at the start, during or at the end" of any other
//! phase: in windows at the start of each phase but the mayor's (`at_phase_start`) and
//! before the captain-phase storage (`before_storage`, the rulebook's own example), where
//! each owner, from the chooser clockwise, moves guests one at a time or passes; and on
//! the owner's own turn in the settler, builder, trader and captain phases, before the
//! turn's action (`on_own_turn`). Each move uses up a guest, so phases stay finite; the
//! guests of one window or turn go to targets in listing order (`guest_floor`), so each
//! outcome has one spelling.

use super::flow::Flow;
use crate::action::{Action, Group};
use crate::goods::Good;
use crate::rules::{Effect, Rules, kind};
use crate::state::{AfterGuests, Phase, Player, State};
use rulesmith_core::Seat;
use rulesmith_core::steps::seat_after;

/// Opens a window of guest moves if anybody can move a guest now; returns whether it did.
pub fn open(rules: &Rules, s: &mut State, after: AfterGuests) -> bool {
    if !rules.has_effect(kind::GUESTS) {
        return false;
    }
    if !s.players.seats().any(|seat| can_move(rules, &s.players[seat], after, 0)) {
        return false;
    }
    s.pending.guests.guest_floor = 0;
    s.pending.guests.after_guests = after;
    s.pending.guests.guests_done = 0;
    s.phase = Phase::GuestMoves;
    s.current = s.chooser;
    true
}

/// When guests may move: in a window, or on the owner's own turn.
#[derive(Clone, Copy)]
enum When {
    Window(AfterGuests),
    OwnTurn,
}

fn window_allows(e: &Effect, when: When) -> bool {
    match (*e, when) {
        (Effect::Guests { at_phase_start, .. }, When::Window(AfterGuests::PhaseStart)) => at_phase_start,
        (Effect::Guests { before_storage, .. }, When::Window(AfterGuests::Storage)) => before_storage,
        (Effect::Guests { on_own_turn, .. }, When::OwnTurn) => on_own_turn,
        _ => false,
    }
}

/// A target's place in the listing order of [`targets`] (plantations, quarry, buildings
/// by index).
fn rank(g: Group) -> u8 {
    match g {
        Group::Plantation(x) => x as u8,
        Group::Quarry => 5,
        Group::Building(b) => 6u8.saturating_add(b),
        Group::SanJuan => u8::MAX,
    }
}

fn is_guests(rules: &Rules, building: u8) -> bool {
    matches!(rules.buildings.get(building as usize).map(|x| x.effect), Some(Effect::Guests { .. }))
}

/// The city slot holding guests that may move in this window.
fn guest_slot(rules: &Rules, p: &Player, when: When) -> Option<usize> {
    p.city.iter().position(|b| {
        b.colonists > 0 && rules.buildings.get(b.building as usize).is_some_and(|x| window_allows(&x.effect, when))
    })
}

/// Where a guest may go: an unoccupied plantation or quarry, or an empty circle of a
/// building other than a guests building.
fn targets(rules: &Rules, p: &Player, f: &mut impl FnMut(Group)) {
    for g in Good::ALL {
        if p.plantations[g] > p.plantations_occupied[g] {
            f(Group::Plantation(g));
        }
    }
    if p.quarries > p.quarries_occupied {
        f(Group::Quarry);
    }
    for b in p.city.iter() {
        let circles = rules.buildings.get(b.building as usize).map_or(0, |x| x.circles);
        if circles > b.colonists && !is_guests(rules, b.building) {
            f(Group::Building(b.building));
        }
    }
}

/// Whether `p` has a guest to move in this window, to a target of rank `floor` or later.
fn can_move(rules: &Rules, p: &Player, after: AfterGuests, floor: u8) -> bool {
    if guest_slot(rules, p, When::Window(after)).is_none() {
        return false;
    }
    let mut any = false;
    targets(rules, p, &mut |g| any |= rank(g) >= floor);
    any
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let p = &s.players[s.current];
    if guest_slot(rules, p, When::Window(s.pending.guests.after_guests)).is_none() {
        return;
    }
    let mut any = false;
    targets(rules, p, &mut |g| {
        if rank(g) >= s.pending.guests.guest_floor {
            f(Action::Guest(g));
            any = true;
        }
    });
    if any {
        f(Action::Pass);
    }
}

/// Whether guests move on their owners' turns (then the phases where players act in turn
/// open no window at their start: the owners move guests on their turns instead).
pub fn on_own_turn(rules: &Rules) -> bool {
    rules.buildings.iter().any(|b| matches!(b.effect, Effect::Guests { on_own_turn: true, .. }))
}

/// The guest moves open to `seat` on their own turn (`on_own_turn`).
pub fn own_turn(rules: &Rules, s: &State, seat: Seat, f: &mut impl FnMut(Action)) {
    if !rules.has_effect(kind::GUESTS) {
        return;
    }
    let p = &s.players[seat];
    if guest_slot(rules, p, When::OwnTurn).is_none() {
        return;
    }
    targets(rules, p, &mut |g| {
        if rank(g) >= s.pending.guests.guest_floor {
            f(Action::Guest(g));
        }
    });
}

/// Moves a guest of the player to move to `target`.
fn move_guest(rules: &Rules, s: &mut State, when: When, target: Group) {
    let seat = s.current;
    let Some(slot) = guest_slot(rules, &s.players[seat], when) else { return };
    let p = &mut s.players[seat];
    p.city.slots[slot].colonists -= 1;
    match target {
        Group::Plantation(g) => p.plantations_occupied[g] += 1,
        Group::Quarry => p.quarries_occupied += 1,
        Group::Building(b) => {
            if let Some(x) = p.city.iter_mut().find(|x| x.building == b) {
                x.colonists += 1;
            }
        }
        Group::SanJuan => p.san_juan += 1,
    }
    s.pending.guests.guest_floor = rank(target);
}

/// A guest move on the player's own turn; the turn goes on.
pub fn play_own_turn(rules: &Rules, s: &mut State, target: Group) {
    move_guest(rules, s, When::OwnTurn, target);
}

pub fn play(rules: &Rules, s: &mut State, a: Action) -> Flow {
    match a {
        Action::Guest(target) => move_guest(rules, s, When::Window(s.pending.guests.after_guests), target),
        _ => next_seat(s),
    }
    Flow::Continue
}

fn next_seat(s: &mut State) {
    s.pending.guests.guest_floor = 0;
    s.pending.guests.guests_done += 1;
    s.current = seat_after(s.chooser, usize::from(s.pending.guests.guests_done), s.player_count());
}

/// Skips seats with nothing to move; when every seat is done, the interrupted phase
/// goes on (the sequencer reads `after_guests`).
pub fn step(rules: &Rules, s: &mut State) -> Flow {
    let n = s.player_count() as u8;
    while s.pending.guests.guests_done < n {
        if can_move(rules, &s.players[s.current], s.pending.guests.after_guests, s.pending.guests.guest_floor) {
            return Flow::Decide;
        }
        next_seat(s);
    }
    s.current = s.chooser;
    Flow::Resume
}
