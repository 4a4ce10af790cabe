//! Settler phase (S000:L137-149; hacienda L530-534, construction hut L538-542, hospice
//! L556-560).

use crate::action::Action;
use crate::board;
use crate::goods::Good;
use crate::rules::{Effect, Rules};
use crate::state::{Phase, State};
use rulesmith_core::Seat;

pub fn begin(_rules: &Rules, s: &mut State) {
    s.phase = Phase::Settler;
    s.current = s.chooser;
    s.hacienda_used = 0;
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let seat = s.current;
    let p = &s.players[seat];
    if board::island_used(p) >= rules.island_spaces {
        return;
    }
    let mut any = false;
    if can_draw(rules, s, seat) {
        f(Action::Draw);
        any = true;
    }
    for g in Good::ALL {
        if s.face_up[g] > 0 {
            f(Action::Take(g));
            any = true;
        }
    }
    if can_take_quarry(rules, s, seat) {
        f(Action::TakeQuarry);
        any = true;
    }
    if any {
        f(Action::Pass);
    }
}

/// Hacienda: before taking a face-up tile, once (S000:L532).
fn can_draw(rules: &Rules, s: &State, seat: Seat) -> bool {
    s.hacienda_used & (1 << seat) == 0
        && s.stack.len > 0
        && board::has(rules, &s.players[seat], |e| matches!(e, Effect::ExtraPlantation))
}

/// The settler's privilege, or an occupied construction hut (S000:L169, L540).
fn can_take_quarry(rules: &Rules, s: &State, seat: Seat) -> bool {
    s.quarry_supply > 0
        && ((seat == s.chooser && super::round::privilege(rules, s) > 0)
            || board::has(rules, &s.players[seat], |e| matches!(e, Effect::QuarryInstead)))
}

pub fn play(rules: &Rules, s: &mut State, a: Action) {
    let seat = s.current;
    match a {
        Action::Draw => {
            // The drawn tile must be placed at once, and gets no hospice colonist (L534, L560).
            if let Some(g) = s.stack.pop() {
                s.players[seat].plantations[g] += 1;
            }
            s.hacienda_used |= 1 << seat;
            return;
        }
        Action::Take(g) => {
            s.face_up[g] -= 1;
            s.players[seat].plantations[g] += 1;
            if hospice_colonist(rules, s, seat) {
                s.players[seat].plantations_occupied[g] += 1;
            }
        }
        Action::TakeQuarry => {
            s.quarry_supply -= 1;
            s.players[seat].quarries += 1;
            if hospice_colonist(rules, s, seat) {
                s.players[seat].quarries_occupied += 1;
            }
        }
        _ => {}
    }
    next(rules, s);
}

/// Hospice: a colonist from the supply, else from the ship, else none (S000:L558-560).
/// Taken whenever available: a colonist can always be moved later, so it never hurts.
fn hospice_colonist(rules: &Rules, s: &mut State, seat: Seat) -> bool {
    if !board::has(rules, &s.players[seat], |e| matches!(e, Effect::ColonistOnNewTile)) {
        return false;
    }
    take_colonist(s)
}

/// One colonist from the supply, else the colonist ship (hospice, university).
pub fn take_colonist(s: &mut State) -> bool {
    if s.colonist_supply > 0 {
        s.colonist_supply -= 1;
        true
    } else if s.colonist_ship > 0 {
        s.colonist_ship -= 1;
        true
    } else {
        false
    }
}

/// Returns true when the current player has a decision; otherwise moves on.
pub fn step(rules: &Rules, s: &mut State) -> bool {
    let mut any = false;
    legal(rules, s, &mut |_| any = true);
    if any {
        return true;
    }
    next(rules, s);
    false
}

fn next(rules: &Rules, s: &mut State) {
    if s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
    } else {
        // Untaken tiles go to the discards and players + 1 new ones are revealed (S000:L141).
        for g in Good::ALL {
            s.discards[g] += s.face_up[g];
            s.face_up[g] = 0;
        }
        reveal_plantations(rules, s);
        super::round::end_phase(rules, s);
    }
}

/// Reveals players + `face_up_extra` plantations; when the stacks run out, the discards
/// are shuffled into a new stack; if still short, the row stays short (S000:L146).
pub fn reveal_plantations(rules: &Rules, s: &mut State) {
    let want = s.player_count() as u32 + u32::from(rules.face_up_extra);
    let mut shown = s.face_up.total();
    while shown < want {
        if s.stack.len == 0 {
            if s.discards.total() == 0 {
                break;
            }
            for g in Good::ALL {
                for _ in 0..s.discards[g] {
                    s.stack.push(g);
                }
                s.discards[g] = 0;
            }
            s.stack.shuffle(&mut s.rng);
        }
        if let Some(g) = s.stack.pop() {
            s.face_up[g] += 1;
            shown += 1;
        }
    }
}
