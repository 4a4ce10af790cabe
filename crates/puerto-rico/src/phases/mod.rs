//! The sequencer: the order of a round, and the one place that moves the game from
//! phase to phase (S000:L116-122, L128-135, L386-402).
//!
//! A round: the players, from the governor, each choose a role (`round`); the chosen
//! role's phase runs (after a window of an extension's moves, [`crate::extension`]);
//! when it is done the next
//! player chooses; after the last role the round ends (`round::end_phase`). Each phase
//! module knows only its own phase: it answers every step with a [`Flow`] ("a decision
//! is due", "step again", "my phase is done", "interrupt, then resume me") and never
//! calls another phase. Interrupts (a colonist offered by a hospice or university, a
//! window of extension moves before the captain's storage) remember where they came from
//! in the state
//! (`/pending/resume`, `/pending/after_guests`), so resuming never guesses.
//!
//! Module graph (no cycles, `tests/it/modules.rs`): this sequencer → every phase module;
//! phase modules → `flow` (their answers), `privilege`, `supply` and `own_turn` (what
//! several phases share).

pub mod builder;
pub mod captain;
pub mod craftsman;
pub mod flow;
mod generator;
pub mod mayor;
pub mod offer;
pub mod own_turn;
pub mod privilege;
pub mod round;
pub mod settler;
pub mod supply;
pub mod trader;
pub mod window;

use crate::action::Action;
use crate::extension::Played;
use crate::rules::{RoleKind, Rules};
use crate::state::{Checkpoint, Phase, State};
pub use flow::{Flow, Interrupt};

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
        Phase::CaptainPrivilege => captain::legal_privilege(f),
        Phase::CaptainStorage => captain::legal_storage(rules, s, f),
        Phase::ColonistOffer => offer::legal(rules, s, f),
        Phase::Window => window::legal(rules, s, f),
        Phase::GameOver => {}
    }
}

/// The actions of a phase where players act in turn, then the extension's moves the
/// player may make on their turn before acting (the expansion's guests, S001:L557
/// "durante").
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
    let Some(ext) = own_turn_extension(rules, s) else { return };
    // A player with nothing to do but the extension's moves may make them (perhaps
    // moving a guest to a building that lets them act) or pass.
    let mut moves = false;
    ext.own_turn_actions(rules, s, s.current, &mut |a| {
        moves = true;
        f(a)
    });
    if moves && !any {
        f(Action::Pass);
    }
}

/// Whether the player to move has an action where [`with_own_turn_guests`] lists them,
/// answered without listing them (the sequencer asks before every turn).
fn has_own_turn_action(rules: &Rules, s: &State) -> bool {
    let any = match s.phase {
        Phase::Settler => settler::any_legal(rules, s),
        Phase::Builder => builder::any_legal(rules, s),
        Phase::Trader => trader::any_legal(rules, s),
        _ => {
            let mut any = false;
            captain::legal(rules, s, &mut |_| any = true);
            any
        }
    };
    any || own_turn_extension(rules, s).is_some_and(|ext| {
        let mut moves = false;
        ext.own_turn_actions(rules, s, s.current, &mut |_| moves = true);
        moves
    })
}

/// The extension whose moves the player to move may make now, on their own turn.
fn own_turn_extension(
    rules: &Rules,
    s: &State,
) -> Option<&'static dyn crate::extension::Extension<Rules, State, Action, crate::state::Player>> {
    let ext = rules.extension.get()?;
    // Only before the turn's first action: after a hacienda draw the settler's turn goes
    // on, and a move made then would be a second spelling of making it before.
    if s.phase == Phase::Settler && !settler::turn_unstarted(s) {
        return None;
    }
    Some(ext)
}

/// Plays a legal action, then runs the automatic steps up to the next decision.
pub fn play(rules: &Rules, s: &mut State, a: Action) {
    let own_turn = matches!(s.phase, Phase::Settler | Phase::Builder | Phase::Trader | Phase::Captain);
    if let (true, Action::Extension(code), Some(ext)) = (own_turn, a, rules.extension.get()) {
        let flow = match ext.play(rules, s, code) {
            // A move before the turn's action (a guest), or the drawn tile placed: the
            // turn goes on.
            Played::TurnGoesOn => Flow::Continue,
            // The settler's tile was the extension's (a forest): the turn's action.
            Played::TileWithoutCircle => {
                s.pending.window.mark = 0;
                settler::placed_without_circle(rules, s)
            }
        };
        run(rules, s, flow);
        return;
    }
    if own_turn {
        // The turn's action: the extension's next moves start a new listing.
        s.pending.window.mark = 0;
    }
    let flow = match s.phase {
        Phase::RoleSelection => {
            if round::choose_role(rules, s, a) {
                start_role(rules, s)
            } else {
                Flow::Continue
            }
        }
        Phase::Settler => settler::play(rules, s, a),
        Phase::MayorPrivilege => mayor::play_privilege(rules, s, a),
        Phase::Mayor => mayor::play(rules, s, a),
        Phase::Builder => builder::play(rules, s, a),
        Phase::BuildPayment => builder::play_payment(rules, s, a),
        Phase::Craftsman => craftsman::play(rules, s, a),
        Phase::Trader => trader::play(rules, s, a),
        Phase::Captain => captain::play(rules, s, a),
        Phase::MixedShip => captain::play_mixed(rules, s, a),
        Phase::CaptainPrivilege => captain::play_privilege(rules, s, a),
        Phase::CaptainStorage => captain::play_storage(rules, s, a),
        Phase::ColonistOffer => offer::play(s, a),
        Phase::Window => window::play(rules, s, a),
        Phase::GameOver => Flow::Decide,
    };
    run(rules, s, flow);
}

/// Runs automatic steps until someone has a decision (or the game is over): players
/// with nothing to choose are skipped, forced choices are made for them.
pub fn advance(rules: &Rules, s: &mut State) {
    run(rules, s, Flow::Continue);
}

/// Follows the phases' answers until a decision is due.
fn run(rules: &Rules, s: &mut State, mut flow: Flow) {
    // Each answer but `Decide` moves the game strictly forward; the bound only guards
    // against an edited state that would not.
    for _ in 0..10_000 {
        flow = match flow {
            Flow::Decide => return,
            Flow::Continue => step(rules, s),
            Flow::Done => {
                round::end_phase(rules, s);
                Flow::Continue
            }
            Flow::Interrupt(i) => interrupt(rules, s, i),
            Flow::Resume => resume(rules, s),
        };
    }
}

/// One automatic step of the phase in play.
#[inline]
fn step(rules: &Rules, s: &mut State) -> Flow {
    match s.phase {
        Phase::RoleSelection
        | Phase::MayorPrivilege
        | Phase::CaptainPrivilege
        | Phase::ColonistOffer
        | Phase::GameOver => Flow::Decide,
        Phase::Settler => decide_or(rules, s, settler::next),
        Phase::Mayor => mayor::step(rules, s),
        Phase::Builder => decide_or(rules, s, builder::next),
        Phase::BuildPayment => builder::step_payment(rules, s),
        Phase::Craftsman => craftsman::step(rules, s),
        Phase::Trader => decide_or(rules, s, trader::next),
        Phase::Captain => captain::step(rules, s),
        Phase::MixedShip => captain::step_mixed(rules, s),
        Phase::CaptainStorage => captain::step_storage(rules, s),
        Phase::Window => window::step(rules, s),
    }
}

/// The step of a phase where players act in turn: a decision when the player to move
/// has a legal action (guest moves included); otherwise the turn passes without asking.
fn decide_or(rules: &Rules, s: &mut State, next: impl FnOnce(&Rules, &mut State) -> Flow) -> Flow {
    if has_own_turn_action(rules, s) { Flow::Decide } else { next(rules, s) }
}

/// A role was chosen: its phase begins, after a window of the extension's moves
/// (outside the mayor phase). The extension decides who may move what there: where moves
/// are also made on own turns, only moves that something settled as the phase begins
/// would see ([`settled_at_start`]), so no outcome is spelled twice.
fn start_role(rules: &Rules, s: &mut State) -> Flow {
    let Some(kind) = rules.roles.get(s.role as usize).map(|r| r.kind) else { return Flow::Continue };
    if kind != RoleKind::Mayor && window::open(rules, s, Checkpoint::PhaseStart) {
        return Flow::Continue;
    }
    begin_phase(rules, s)
}

/// Whether `effect`, on a building of `seat`, is settled as the phase of the role in
/// play begins (so a colonist moved onto it later in the phase comes too late): the
/// captain phase's union hall and lighthouse (S001:L593, L620). Every other effect is
/// settled when its owner acts.
pub fn settled_at_start(rules: &Rules, s: &State, seat: rulesmith_game::Seat, effect: &crate::rules::Effect) -> bool {
    match rules.roles.get(s.role as usize).map(|r| r.kind) {
        Some(RoleKind::Captain) => captain::settled_at_begin(effect, seat == s.chooser),
        _ => false,
    }
}

/// The chosen role's phase begins.
fn begin_phase(rules: &Rules, s: &mut State) -> Flow {
    let Some(kind) = rules.roles.get(s.role as usize).map(|r| r.kind) else { return Flow::Done };
    match kind {
        RoleKind::Settler => settler::begin(s),
        RoleKind::Mayor => mayor::begin(rules, s),
        RoleKind::Builder => builder::begin(s),
        RoleKind::Craftsman => craftsman::begin(rules, s),
        RoleKind::Trader => trader::begin(s),
        RoleKind::Captain => captain::begin(rules, s),
        RoleKind::Prospector => {
            // No action for anyone; the privilege only (S000:L382-384).
            let chooser = s.chooser;
            s.players[chooser].doubloons += u16::from(privilege::privilege(rules, s));
            return Flow::Done;
        }
    }
    Flow::Continue
}

/// Starts an interrupt, or goes straight on when there is nothing to interrupt for.
fn interrupt(rules: &Rules, s: &mut State, i: Interrupt) -> Flow {
    match i {
        Interrupt::ColonistOffer(to) if offer::open(s, to) => Flow::Continue,
        Interrupt::ColonistOffer(_) => after_turn(rules, s),
        Interrupt::BeforeStorage if window::open(rules, s, Checkpoint::Storage) => Flow::Continue,
        Interrupt::BeforeStorage => {
            captain::begin_storage(s);
            Flow::Continue
        }
    }
}

/// An interrupt is over: the interrupted phase goes on where it stopped.
fn resume(rules: &Rules, s: &mut State) -> Flow {
    match s.phase {
        Phase::ColonistOffer => {
            s.phase = s.pending.resume.take().unwrap_or(Phase::Settler);
            after_turn(rules, s)
        }
        Phase::Window => match s.pending.window.at {
            Checkpoint::PhaseStart => begin_phase(rules, s),
            Checkpoint::Storage => {
                captain::begin_storage(s);
                Flow::Continue
            }
        },
        _ => Flow::Continue,
    }
}

/// The phase whose turn was interrupted by a colonist offer goes on with the next player.
fn after_turn(rules: &Rules, s: &mut State) -> Flow {
    match s.phase {
        Phase::Builder => builder::next(rules, s),
        Phase::Settler => settler::next(rules, s),
        _ => Flow::Continue,
    }
}
