//! Settler phase (S000:L137-149; hacienda L530-534, construction hut L538-542, hospice
//! L556-560). Expansion effects: forests ([`Effect::ForestTiles`], S001:L517-533) and the
//! chooser's extra tile when the privilege is doubled (library, S001:L610-612).

use super::flow::{Flow, Interrupt};
use crate::action::Action;
use crate::board;
use crate::goods::Good;
use crate::rules::{Effect, Rules};
use crate::state::{Offer, Phase, State};
use rulesmith_core::Seat;

pub fn begin(rules: &Rules, s: &mut State) {
    s.phase = Phase::Settler;
    s.current = s.chooser;
    s.hacienda_used = 0;
    // A doubled privilege: after everyone, the chooser takes one more tile per extra
    // privilege (S001:L612).
    let card = super::privilege::card_privilege(rules, s);
    s.pending.settler.settler_extra = super::privilege::privilege(rules, s).saturating_sub(card);
    s.pending.settler.extra_turn = false;
    s.pending.settler.drawn = None;
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let seat = s.current;
    let p = &s.players[seat];
    // The hacienda's tile, seen: planted, or a forest instead (S001:L527).
    if let Some(g) = s.pending.settler.drawn {
        f(Action::Plant(g));
        f(Action::Forest(None));
        return;
    }
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
    match board::forest_from_face_up(rules, p) {
        Some(false) if s.stack.len > 0 || s.discards.total() > 0 => {
            f(Action::Forest(None));
            any = true;
        }
        Some(true) => {
            for g in Good::ALL {
                if s.face_up[g] > 0 {
                    f(Action::Forest(Some(g)));
                    any = true;
                }
            }
        }
        _ => {}
    }
    if any {
        f(Action::Pass);
    }
}

/// Hacienda: before taking a face-up tile, once (S000:L532); not on an extra turn.
fn can_draw(rules: &Rules, s: &State, seat: Seat) -> bool {
    s.hacienda_used & (1 << seat) == 0
        && !s.pending.settler.extra_turn
        && s.stack.len > 0
        && board::has(rules, &s.players[seat], |e| matches!(e, Effect::ExtraPlantation))
}

/// The settler's privilege, or an occupied construction hut (S000:L169, L540). The
/// chooser's extra tile is a plantation unless they have a construction hut (S001:L612).
fn can_take_quarry(rules: &Rules, s: &State, seat: Seat) -> bool {
    s.quarry_supply > 0
        && ((seat == s.chooser && !s.pending.settler.extra_turn && super::privilege::card_privilege(rules, s) > 0)
            || board::has(rules, &s.players[seat], |e| matches!(e, Effect::QuarryInstead)))
}

/// Whether the player to move has not acted yet this turn (no hacienda draw, no drawn
/// tile waiting): guests move only then.
pub fn turn_unstarted(s: &State) -> bool {
    s.hacienda_used & (1 << s.current) == 0 && s.pending.settler.drawn.is_none()
}

pub fn play(rules: &Rules, s: &mut State, a: Action) -> Flow {
    let seat = s.current;
    let offer = match a {
        Action::Draw => {
            // The drawn tile must be placed at once, and gets no hospice colonist (L534,
            // L560). With a forest house the owner looks at it first: it may become a
            // forest instead (S001:L527).
            if let Some(g) = s.stack.pop() {
                if board::forest_from_face_up(rules, &s.players[seat]).is_some() {
                    s.pending.settler.drawn = Some(g);
                } else {
                    s.players[seat].plantations[g] += 1;
                }
            }
            s.hacienda_used |= 1 << seat;
            // The turn goes on: the drawn tile is placed, or another tile taken.
            return Flow::Continue;
        }
        Action::Plant(g) => {
            s.pending.settler.drawn = None;
            s.players[seat].plantations[g] += 1;
            return Flow::Continue;
        }
        Action::Forest(None) if s.pending.settler.drawn.is_some() => {
            if let Some(g) = s.pending.settler.drawn.take() {
                s.forest_tiles[g] += 1;
                s.players[seat].forests += 1;
            }
            return Flow::Continue;
        }
        Action::Forest(from) => {
            let tile = match from {
                Some(g) => {
                    s.face_up[g] -= 1;
                    Some(g)
                }
                None => draw_face_down(s),
            };
            // Hospice: its colonist goes to San Juan, as a forest has no circle (S001:L531).
            tile.and_then(|g| {
                s.forest_tiles[g] += 1;
                s.players[seat].forests += 1;
                hospice(rules, s, seat, Offer::SanJuan)
            })
        }
        Action::Take(g) => {
            s.face_up[g] -= 1;
            s.players[seat].plantations[g] += 1;
            hospice(rules, s, seat, Offer::Plantation(g))
        }
        Action::TakeQuarry => {
            s.quarry_supply -= 1;
            s.players[seat].quarries += 1;
            hospice(rules, s, seat, Offer::Quarry)
        }
        _ => None,
    };
    match offer {
        Some(to) => Flow::Interrupt(Interrupt::ColonistOffer(to)),
        None => next(rules, s),
    }
}

/// The top face-down tile; an empty stack is first refilled from the discards (as when
/// revealing, S000:L146).
fn draw_face_down(s: &mut State) -> Option<Good> {
    if s.stack.len == 0 {
        for g in Good::ALL {
            for _ in 0..s.discards[g] {
                s.stack.push(g);
            }
            s.discards[g] = 0;
        }
        s.stack.shuffle(&mut s.rng);
    }
    s.stack.pop()
}

/// Hospice: the owner *may* take a colonist from the supply, else from the ship, onto
/// the new tile (S000:L558-560; no violet building is ever compulsory, L513): offered as
/// a decision when a colonist is there to take. Only with the chooser's first tile when
/// the privilege is doubled (S001:L612).
fn hospice(rules: &Rules, s: &State, seat: Seat, to: Offer) -> Option<Offer> {
    let occupied = board::has(rules, &s.players[seat], |e| matches!(e, Effect::ColonistOnNewTile));
    (occupied && !s.pending.settler.extra_turn).then_some(to)
}

/// The turn is over: the next player, the chooser's extra tiles, or the end of the phase.
pub fn next(rules: &Rules, s: &mut State) -> Flow {
    if !s.pending.settler.extra_turn && s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
    } else if s.pending.settler.settler_extra > 0 {
        // After everyone, the chooser's extra tile from those left (S001:L612).
        s.pending.settler.settler_extra -= 1;
        s.pending.settler.extra_turn = true;
        s.current = s.chooser;
    } else {
        s.pending.settler.extra_turn = false;
        // Untaken tiles go to the discards and players + 1 new ones are revealed (S000:L141).
        for g in Good::ALL {
            s.discards[g] += s.face_up[g];
            s.face_up[g] = 0;
        }
        reveal_plantations(rules, s);
        return Flow::Done;
    }
    Flow::Continue
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
