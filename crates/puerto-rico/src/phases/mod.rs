//! The phases: legal actions, effects of actions, and the automatic steps between
//! decisions. Each role's phase lives in its own module.

pub mod builder;
pub mod captain;
pub mod craftsman;
pub mod guests;
pub mod mayor;
pub mod offer;
pub mod round;
pub mod settler;
pub mod trader;

use crate::action::Action;
use crate::rules::Rules;
use crate::state::{Phase, State};

/// Calls `f` with every legal action, in a stable order.
pub fn for_each_legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    match s.phase {
        Phase::RoleSelection => round::legal(rules, s, f),
        Phase::Settler | Phase::Builder | Phase::Trader | Phase::Captain => with_own_turn_guests(rules, s, f),
        Phase::MayorPrivilege => mayor::legal_privilege(rules, s, f),
        Phase::Mayor => mayor::legal(rules, s, f),
        Phase::BuildPayment => builder::legal_payment(rules, s, f),
        Phase::Craftsman => craftsman::legal(rules, s, f),
        Phase::MixedShip => captain::legal_mixed(rules, s, f),
        Phase::CaptainStorage => captain::legal_storage(rules, s, f),
        Phase::ColonistOffer => offer::legal(rules, s, f),
        Phase::GuestMoves => guests::legal(rules, s, f),
        Phase::GameOver => {}
    }
}

/// The actions of a phase where players act in turn, then, when the player has a turn
/// there, the guest moves they may make before acting (S001:L557 "durante").
fn with_own_turn_guests(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let mut any = false;
    let mut each = |a: Action| {
        any = true;
        f(a)
    };
    match s.phase {
        Phase::Settler => settler::legal(rules, s, &mut each),
        Phase::Builder => builder::legal(rules, s, &mut each),
        Phase::Trader => trader::legal(rules, s, &mut each),
        _ => captain::legal(rules, s, &mut each),
    }
    // Only before the turn's first action: after a hacienda draw the settler's turn goes
    // on, and a guest moved then would be a second spelling of moving it before.
    let first = s.phase != Phase::Settler || (s.hacienda_used & (1 << s.current) == 0 && s.pending.drawn.is_none());
    if !first {
        return;
    }
    // A player with nothing to do but guests to move may move them (perhaps to a
    // building that lets them act) or pass.
    let mut guests = false;
    guests::own_turn(rules, s, s.current, &mut |a| {
        guests = true;
        f(a)
    });
    if guests && !any {
        f(Action::Pass);
    }
}

/// Plays a legal action, then runs the automatic steps up to the next decision.
pub fn play(rules: &Rules, s: &mut State, a: Action) {
    let own_turn = matches!(s.phase, Phase::Settler | Phase::Builder | Phase::Trader | Phase::Captain);
    if let (true, Action::Guest(target)) = (own_turn, a) {
        guests::play_own_turn(rules, s, target);
        advance(rules, s);
        return;
    }
    if own_turn {
        // The turn's action: the next guest moves start a new listing.
        s.pending.guest_floor = 0;
    }
    match s.phase {
        Phase::RoleSelection => round::choose_role(rules, s, a),
        Phase::Settler => settler::play(rules, s, a),
        Phase::MayorPrivilege => mayor::play_privilege(rules, s, a),
        Phase::Mayor => mayor::play(rules, s, a),
        Phase::Builder => builder::play(rules, s, a),
        Phase::BuildPayment => builder::play_payment(rules, s, a),
        Phase::Craftsman => craftsman::play(rules, s, a),
        Phase::Trader => trader::play(rules, s, a),
        Phase::Captain => captain::play(rules, s, a),
        Phase::MixedShip => captain::play_mixed(rules, s, a),
        Phase::CaptainStorage => captain::play_storage(rules, s, a),
        Phase::ColonistOffer => offer::play(rules, s, a),
        Phase::GuestMoves => guests::play(rules, s, a),
        Phase::GameOver => {}
    }
    advance(rules, s);
}

/// Runs automatic steps until someone has a decision (or the game is over): players
/// with nothing to choose are skipped, forced choices are made for them.
pub fn advance(rules: &Rules, s: &mut State) {
    // Each iteration either returns at a decision or moves the game strictly forward.
    for _ in 0..10_000 {
        let decided = match s.phase {
            Phase::RoleSelection => round::has_decision(rules, s),
            Phase::Settler => decide_or(rules, s, |r, s, mut f| with_own_turn_guests(r, s, &mut f), settler::next),
            Phase::MayorPrivilege => true,
            Phase::Mayor => mayor::step(rules, s),
            Phase::Builder => decide_or(rules, s, |r, s, mut f| with_own_turn_guests(r, s, &mut f), builder::next),
            Phase::BuildPayment => builder::step_payment(rules, s),
            Phase::Craftsman => decide_or(rules, s, |r, s, mut f| craftsman::legal(r, s, &mut f), craftsman::finish),
            Phase::Trader => decide_or(rules, s, |r, s, mut f| with_own_turn_guests(r, s, &mut f), trader::next),
            Phase::Captain => captain::step(rules, s),
            Phase::MixedShip => captain::step_mixed(rules, s),
            Phase::CaptainStorage => captain::step_storage(rules, s),
            Phase::ColonistOffer => true,
            Phase::GuestMoves => guests::step(rules, s),
            Phase::GameOver => true,
        };
        if decided {
            return;
        }
    }
}

/// The step of a phase where players act in turn: a decision when the player to move
/// has a legal action; otherwise the phase moves on without asking.
fn decide_or(
    rules: &Rules,
    s: &mut State,
    legal: impl Fn(&Rules, &State, &mut dyn FnMut(Action)),
    next: impl FnOnce(&Rules, &mut State),
) -> bool {
    let mut any = false;
    legal(rules, s, &mut |_| any = true);
    if !any {
        next(rules, s);
    }
    any
}
