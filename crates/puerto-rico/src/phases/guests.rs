//! Guest moves ([`Effect::Guests`], the expansion's guest house, S001:L557-561).
//!
//! Guests are the colonists the mayor phase put on a guests building. Outside the mayor
//! phase their owner may move them to any empty circle, plantation or quarry, where they
//! work at once and stay until the next mayor phase (which takes up every colonist
//! anyway). The rulebook allows moves "at the start, during or at the end" of any other
//! phase; to keep the game playable by bots, moves happen in windows: at the start of
//! each phase but the mayor's (`at_phase_start`) and before the captain-phase storage
//! (`before_storage`, the rulebook's own example). In a window each owner, from the
//! chooser clockwise, moves guests one at a time or passes.

use crate::action::{Action, Group};
use crate::goods::Good;
use crate::rules::{Effect, Rules, kind};
use crate::state::{AfterGuests, Phase, Player, State};
use rulesmith_core::Seat;

/// Opens a window of guest moves if anybody can move a guest now; returns whether it did.
pub fn open(rules: &Rules, s: &mut State, after: AfterGuests) -> bool {
    if !rules.has_effect(kind::GUESTS) {
        return false;
    }
    if !s.players.seats().any(|seat| can_move(rules, &s.players[seat], after)) {
        return false;
    }
    s.pending.after_guests = after;
    s.pending.guests_done = 0;
    s.phase = Phase::GuestMoves;
    s.current = s.chooser;
    true
}

fn window_allows(e: &Effect, after: AfterGuests) -> bool {
    match (*e, after) {
        (Effect::Guests { at_phase_start, .. }, AfterGuests::PhaseStart) => at_phase_start,
        (Effect::Guests { before_storage, .. }, AfterGuests::Storage) => before_storage,
        _ => false,
    }
}

fn is_guests(rules: &Rules, building: u8) -> bool {
    matches!(rules.buildings.get(building as usize).map(|x| x.effect), Some(Effect::Guests { .. }))
}

/// The city slot holding guests that may move in this window.
fn guest_slot(rules: &Rules, p: &Player, after: AfterGuests) -> Option<usize> {
    p.city.iter().position(|b| {
        b.colonists > 0 && rules.buildings.get(b.building as usize).is_some_and(|x| window_allows(&x.effect, after))
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

fn can_move(rules: &Rules, p: &Player, after: AfterGuests) -> bool {
    if guest_slot(rules, p, after).is_none() {
        return false;
    }
    let mut any = false;
    targets(rules, p, &mut |_| any = true);
    any
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let p = &s.players[s.current];
    if guest_slot(rules, p, s.pending.after_guests).is_none() {
        return;
    }
    let mut any = false;
    targets(rules, p, &mut |g| {
        f(Action::Guest(g));
        any = true;
    });
    if any {
        f(Action::Pass);
    }
}

pub fn play(rules: &Rules, s: &mut State, a: Action) {
    let seat = s.current;
    match a {
        Action::Guest(target) => {
            let Some(slot) = guest_slot(rules, &s.players[seat], s.pending.after_guests) else { return };
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
        }
        _ => next_seat(s),
    }
}

fn next_seat(s: &mut State) {
    s.pending.guests_done += 1;
    let n = s.player_count() as u8;
    s.current = ((u32::from(s.chooser) + u32::from(s.pending.guests_done)) % u32::from(n)) as Seat;
}

/// Skips seats with nothing to move; when every seat is done, the game goes on.
pub fn step(rules: &Rules, s: &mut State) -> bool {
    let n = s.player_count() as u8;
    while s.pending.guests_done < n {
        if can_move(rules, &s.players[s.current], s.pending.after_guests) {
            return true;
        }
        next_seat(s);
    }
    s.current = s.chooser;
    match s.pending.after_guests {
        AfterGuests::PhaseStart => super::round::begin_phase(rules, s),
        AfterGuests::Storage => super::captain::begin_storage(s),
    }
    false
}
