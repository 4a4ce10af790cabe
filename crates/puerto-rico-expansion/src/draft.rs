//! The building draft at setup (S001:L493-499): from the first player clockwise, each
//! player picks a violet building for an empty slot of the same cost (a small building
//! comes with its second copy) until every slot is filled; the buildings not picked
//! leave the game. Buildings of an exclusive group exclude each other.

use crate::rules::{MAX_SLOTS, Rules, Selection};
use crate::state::{Draft, State};
use rulesmith_game::Seat;

/// Sets up the draft on a fresh base game: every violet building leaves the board until
/// picked. With `random` the slots are filled at once; with `all` there is no draft.
pub fn setup(rules: &Rules, s: &mut State) {
    s.draft = Draft { slots: [None; MAX_SLOTS], over: false };
    if rules.draft.selection == Selection::All {
        s.draft.over = true;
        return;
    }
    for i in 0..rules.base.buildings.len() {
        if rules.draft.candidates & (1 << i) != 0 {
            s.base.out_of_game |= 1 << i;
            s.base.buildings[i] = 0;
        }
    }
    if rules.draft.selection == Selection::Random {
        let mut options = Vec::with_capacity(64);
        loop {
            options.clear();
            legal(rules, s, &mut |b| options.push(b));
            if options.is_empty() {
                break;
            }
            let b = options[s.base.rng.index(options.len())];
            pick(rules, s, b);
        }
    }
    finish_if_done(rules, s);
}

/// The seat to pick now: the first player (the governor), then clockwise.
pub fn seat(s: &State) -> Seat {
    rulesmith_game::steps::seat_after(s.base.governor, s.draft.picks(), s.base.player_count())
}

/// The slot a building of this cost would go to.
fn free_slot(rules: &Rules, s: &State, cost: u8) -> Option<usize> {
    rules.draft.slots.iter().enumerate().position(|(i, &c)| c == cost && s.draft.slots.get(i) == Some(&None))
}

/// The buildings that may be picked now, by building index, in ruleset order.
pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(u8)) {
    if s.draft.over {
        return;
    }
    let picked = s.draft.picked();
    let excluded = rules.draft.exclusive.iter().filter(|&&g| g & picked != 0).fold(0u64, |m, &g| m | g);
    for (i, b) in rules.base.buildings.iter().enumerate() {
        let bit = 1u64 << i;
        if rules.draft.candidates & bit == 0 || picked & bit != 0 || excluded & bit != 0 {
            continue;
        }
        if free_slot(rules, s, b.cost).is_some() {
            f(i as u8);
        }
    }
}

/// Puts the building in the first free slot of its cost, with its copies on the board.
pub fn pick(rules: &Rules, s: &mut State, b: u8) {
    let Some(x) = rules.base.buildings.get(usize::from(b)) else { return };
    let Some(slot) = free_slot(rules, s, x.cost) else { return };
    s.draft.slots[slot] = Some(b);
    s.base.out_of_game &= !(1 << b);
    s.base.buildings[usize::from(b)] = x.copies[s.base.player_count()];
}

/// The draft ends when no building can be picked (every slot filled, or the rest
/// excluded); the buildings not picked stay out of the game.
pub fn finish_if_done(rules: &Rules, s: &mut State) {
    let mut any = false;
    legal(rules, s, &mut |_| any = true);
    if !any {
        s.draft.over = true;
    }
}

/// The draft's invariants (with the base game's, checked by the caller).
pub fn check(rules: &Rules, s: &State) -> Result<(), String> {
    let n_slots = rules.draft.slots.len();
    if s.draft.slots.iter().skip(n_slots).any(Option::is_some) {
        return Err(format!("/draft/slots: only {n_slots} slots"));
    }
    let mut seen = 0u64;
    for (i, slot) in s.draft.slots.iter().take(n_slots).enumerate() {
        let Some(b) = *slot else { continue };
        let Some(x) = rules.base.buildings.get(usize::from(b)) else {
            return Err(format!("/draft/slots/{i}: unknown building"));
        };
        if rules.draft.candidates & (1 << b) == 0 {
            return Err(format!("/draft/slots/{i}: `{}` is not a violet building", x.id));
        }
        if x.cost != rules.draft.slots[i] {
            return Err(format!("/draft/slots/{i}: `{}` costs {}, the slot {}", x.id, x.cost, rules.draft.slots[i]));
        }
        if seen & (1 << b) != 0 {
            return Err(format!("/draft/slots/{i}: `{}` in two slots", x.id));
        }
        seen |= 1 << b;
    }
    for g in &rules.draft.exclusive {
        if (g & seen).count_ones() > 1 {
            return Err("/draft/slots: two buildings that exclude each other".into());
        }
    }
    // Violet buildings are in the game exactly when drafted (or all, without a draft).
    for (i, x) in rules.base.buildings.iter().enumerate() {
        if rules.draft.candidates & (1 << i) == 0 {
            continue;
        }
        let drafted = rules.draft.selection == Selection::All || seen & (1 << i) != 0;
        if drafted != s.base.in_game(i) {
            let what = if drafted { "drafted but out of the game" } else { "in the game but not drafted" };
            return Err(format!("/out_of_game: `{}` is {what}", x.id));
        }
    }
    if !s.draft.over {
        let b = &s.base;
        if b.round != 1 || b.roles_chosen != 0 || b.phase != rulesmith_puerto_rico::state::Phase::RoleSelection {
            return Err("/draft/over: the game has begun but the draft is not over".into());
        }
        let mut any = false;
        legal(rules, s, &mut |_| any = true);
        if !any {
            return Err("/draft/over: no building can be picked but the draft is not over".into());
        }
    }
    Ok(())
}
