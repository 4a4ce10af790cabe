//! A window of extension moves ([`crate::extension`]): each seat, from the chooser
//! clockwise, makes the extension's moves or passes; then the interrupted phase goes on
//! (the sequencer reads `/pending/after_guests`).

use super::flow::Flow;
use crate::action::Action;
use crate::extension::Checkpoint;
use crate::phase::Window;
use crate::rules::Rules;
use crate::state::{Phase, State};
use rulesmith_game::steps::seat_after;

/// Opens a window at `at` if the ruleset's extension has moves for somebody; returns
/// whether it did.
pub fn open(rules: &Rules, s: &mut State, at: Checkpoint) -> bool {
    let Some(ext) = rules.extension.get() else { return false };
    if !ext.window_opens(rules, s, at) {
        return false;
    }
    s.pending.window = Window { done: 0, at, mark: 0 };
    s.phase = Phase::Window;
    s.current = s.chooser;
    true
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    if let Some(ext) = rules.extension.get() {
        ext.window_actions(rules, s, f);
    }
}

pub fn play(rules: &Rules, s: &mut State, a: Action) -> Flow {
    match (a, rules.extension.get()) {
        (Action::Extension(code), Some(ext)) => {
            // A window's moves never end a turn (the extension lists no tiles there).
            ext.play(rules, s, code);
        }
        _ => next_seat(s),
    }
    Flow::Continue
}

fn next_seat(s: &mut State) {
    s.pending.window.mark = 0;
    s.pending.window.done += 1;
    s.current = seat_after(s.chooser, usize::from(s.pending.window.done), s.player_count());
}

/// Skips seats with nothing to do; when every seat is done, the interrupted phase goes on.
pub fn step(rules: &Rules, s: &mut State) -> Flow {
    let n = s.player_count() as u8;
    while s.pending.window.done < n {
        if rules.extension.get().is_some_and(|ext| ext.can_act_in_window(rules, s)) {
            return Flow::Decide;
        }
        next_seat(s);
    }
    s.current = s.chooser;
    Flow::Resume
}
