//! Settler phase (S000:L137-149; hacienda L530-534, construction hut L538-542, hospice
//! L556-560). Expansion effects: the chooser's extra tile when the privilege is doubled
//! (library, S001:L610-612); an extension's island tiles instead of a plantation or
//! quarry (the expansion's forests, [`crate::extension`]).

pub mod settlement;

use super::flow::{Flow, Interrupt};
use crate::action::Action;
use crate::board;
use crate::effect::EffectKind;
use crate::goods::Good;
use crate::rules::Rules;
use crate::state::{Offer, Phase, State};
use rulesmith_game::Seat;
use std::ops::ControlFlow;

pub fn begin(s: &mut State) {
    s.phase = Phase::Settler;
    s.current = s.chooser;
    s.settler = settlement::Settlement::default();
    // The chooser's extra tiles are counted when everyone has had a turn (`next`): a guest
    // moved onto a library on the chooser's turn doubles the privilege too (S001:L557).
    s.pending.settler.settler_extra = 0;
    s.pending.settler.extra_turn = false;
    s.pending.settler.drawn = None;
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let _ = actions(rules, s, &mut super::generator::every(f));
}

/// Whether the player to move has an action (without listing them: the sequencer asks
/// this before every settler's turn).
pub fn any_legal(rules: &Rules, s: &State) -> bool {
    actions(rules, s, &mut super::generator::first).is_break()
}

/// Gives `f` the actions of the player to move in a stable order, until `f` breaks.
fn actions(rules: &Rules, s: &State, f: &mut impl FnMut(Action) -> ControlFlow<()>) -> ControlFlow<()> {
    let seat = s.current;
    let p = &s.players[seat];
    // The extension's tiles, for `f` while it goes on.
    let extension = |f: &mut dyn FnMut(Action) -> ControlFlow<()>| {
        let mut flow = ControlFlow::Continue(());
        if let Some(ext) = rules.extension.get() {
            ext.settler_actions(rules, s, seat, &mut |a| {
                if flow.is_continue() {
                    flow = f(a);
                }
            });
        }
        flow
    };
    // The hacienda's tile, seen: planted, or the extension's tile instead (a forest,
    // S001:L527).
    if let Some(g) = s.pending.settler.drawn {
        f(Action::Plant(g))?;
        return extension(f);
    }
    if board::island_used(p) >= rules.island_spaces {
        return ControlFlow::Continue(());
    }
    let mut any = false;
    // The player's occupied effects, one walk of the city for both questions below.
    let kinds = board::occupied_kinds(rules, p);
    if can_draw_with(s, seat, kinds) {
        f(Action::Draw)?;
        any = true;
    }
    for g in s.face_up.present() {
        f(Action::Take(g))?;
        any = true;
    }
    if can_take_quarry_with(rules, s, seat, kinds) {
        f(Action::TakeQuarry)?;
        any = true;
    }
    extension(&mut |a| {
        any = true;
        f(a)
    })?;
    if any {
        f(Action::Pass)?;
    }
    ControlFlow::Continue(())
}

/// Hacienda: before taking a face-up tile, once (S000:L532); not on an extra turn.
/// `kinds`: the seat's occupied effect kinds ([`board::occupied_kinds`]).
fn can_draw_with(s: &State, seat: Seat, kinds: u32) -> bool {
    s.settler.hacienda_used & (1 << seat) == 0
        && !s.pending.settler.extra_turn
        && s.stack.len > 0
        && board::holds(kinds, EffectKind::ExtraPlantation)
}

/// The settler's privilege, or an occupied construction hut (S000:L169, L540). The
/// chooser's extra tile is a plantation unless they have a construction hut (S001:L612).
fn can_take_quarry_with(rules: &Rules, s: &State, seat: Seat, kinds: u32) -> bool {
    s.quarry_supply > 0
        && ((seat == s.chooser && !s.pending.settler.extra_turn && super::privilege::card_privilege(rules, s) > 0)
            || board::holds(kinds, EffectKind::QuarryInstead))
}

/// Whether the player to move has not acted yet this turn (no hacienda draw, no drawn
/// tile waiting): guests move only then.
pub fn turn_unstarted(s: &State) -> bool {
    s.settler.hacienda_used & (1 << s.current) == 0 && s.pending.settler.drawn.is_none()
}

pub fn play(rules: &Rules, s: &mut State, a: Action) -> Flow {
    let seat = s.current;
    let offer = match a {
        Action::Draw => {
            // The drawn tile must be placed at once, and gets no hospice colonist (L534,
            // L560). With the extension's leave (a forest house) the owner looks at it
            // first: it may become a forest instead (S001:L527).
            if let Some(g) = s.stack.pop() {
                if rules.extension.get().is_some_and(|ext| ext.looks_at_drawn_tile(rules, s, seat)) {
                    s.pending.settler.drawn = Some(g);
                } else {
                    s.players[seat].plantations[g] += 1;
                }
            }
            s.settler.hacienda_used |= 1 << seat;
            // The turn goes on: the drawn tile is placed, or another tile taken.
            return Flow::Continue;
        }
        Action::Plant(g) => {
            s.pending.settler.drawn = None;
            s.players[seat].plantations[g] += 1;
            return Flow::Continue;
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

/// The extension placed the turn's tile, one without a circle (a forest): the turn ends as
/// after taking a tile; a hospice's colonist goes to San Juan (S001:L531).
pub fn placed_without_circle(rules: &Rules, s: &mut State) -> Flow {
    match hospice(rules, s, s.current, Offer::SanJuan) {
        Some(to) => Flow::Interrupt(Interrupt::ColonistOffer(to)),
        None => next(rules, s),
    }
}

/// Hospice: the owner *may* take a colonist from the supply, else from the ship, onto
/// the new tile (S000:L558-560; no violet building is ever compulsory, L513): offered as
/// a decision when a colonist is there to take. Only with the chooser's first tile when
/// the privilege is doubled (S001:L612).
fn hospice(rules: &Rules, s: &State, seat: Seat, to: Offer) -> Option<Offer> {
    let occupied = board::has(rules, &s.players[seat], EffectKind::ColonistOnNewTile);
    (occupied && !s.pending.settler.extra_turn).then_some(to)
}

/// The turn is over: the next player, the chooser's extra tiles, or the end of the phase.
pub fn next(rules: &Rules, s: &mut State) -> Flow {
    if !s.pending.settler.extra_turn && s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
        return Flow::Continue;
    }
    if !s.pending.settler.extra_turn {
        // Everyone has taken a tile: a doubled privilege gives the chooser one more tile
        // per extra privilege (S001:L612), by the library occupied now.
        let card = super::privilege::card_privilege(rules, s);
        s.pending.settler.settler_extra = super::privilege::privilege(rules, s).saturating_sub(card);
    }
    if s.pending.settler.settler_extra > 0 {
        // After everyone, the chooser's extra tile from those left (S001:L612).
        s.pending.settler.settler_extra -= 1;
        s.pending.settler.extra_turn = true;
        s.current = s.chooser;
    } else {
        s.pending.settler.extra_turn = false;
        // Untaken tiles go to the discards and players + 1 new ones are revealed (S000:L141).
        for g in Good::every() {
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
            for g in Good::every() {
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
