//! A player's own turn in the phases where players act in turn: the extension's moves
//! they may make before the turn's action (the expansion's guests, S001:L557 "durante").

use crate::rules::Rules;
use crate::state::State;
use rulesmith_game::Seat;

/// Whether `seat` has extension moves on its own turn (a turn to take even with nothing
/// else to do).
pub fn has_moves(rules: &Rules, s: &State, seat: Seat) -> bool {
    let mut any = false;
    if let Some(ext) = rules.extension.get() {
        ext.own_turn_actions(rules, s, seat, &mut |_| any = true);
    }
    any
}
