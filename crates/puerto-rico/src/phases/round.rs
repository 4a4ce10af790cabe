//! Role selection, the end of a role's phase, and the end of a round
//! (S000:L116-122, L128-135, L386-402; 2 players S000:L697-699).

use crate::action::Action;
use crate::rules::Rules;
use crate::state::{END_CITY, END_COLONISTS, END_VP, Phase, State};
use rulesmith_game::steps::{Rotation, next_seat, seat_after};

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    // Two cards of the same kind and privilege holding the same coins are the same
    // choice: list the first only (no duplicate outcomes for bots).
    let cards = ((1u32 << rules.roles.len().min(16)) - 1) as u16;
    let available = s.roles.available_mask() & cards;
    let coins = s.roles.coins();
    // The roles still on the board, a bit each: only a card with an earlier twin still
    // there (the second prospector) looks further.
    let mut open = available;
    while open != 0 {
        let r = open.trailing_zeros() as usize;
        open &= open - 1;
        let twins = rules.roles.get(r).map_or(0, |role| role.twins_before) & available;
        let duplicate = twins != 0 && (0..r).any(|o| twins & (1 << o) != 0 && coins[o] == coins[r]);
        if !duplicate {
            f(Action::Role(r as u8));
        }
    }
}

/// The chooser takes the role and its coins (S000:L130); the sequencer starts its phase.
/// Returns whether a role was chosen.
pub fn choose_role(rules: &Rules, s: &mut State, a: Action) -> bool {
    let Action::Role(r) = a else { return false };
    if rules.roles.get(r as usize).is_none() {
        return false;
    }
    let chooser = s.current;
    let coins = s.roles.take(r as usize);
    s.players[chooser].doubloons += u16::from(coins);
    s.role = r;
    s.chooser = chooser;
    s.rotation = Rotation::new(chooser, s.player_count());
    true
}

/// A role's phase is over: the next player chooses, or the round ends.
pub fn end_phase(rules: &Rules, s: &mut State) {
    s.roles_chosen += 1;
    let n = s.player_count() as u8;
    let per_round = rules.setup[n as usize].roles_per_round;
    if s.roles_chosen >= per_round {
        end_round(rules, s);
    } else {
        s.phase = Phase::RoleSelection;
        s.current = seat_after(s.governor, usize::from(s.roles_chosen), usize::from(n));
        s.chooser = s.current;
    }
}

/// A doubloon on each unchosen role, the roles return, the governor card moves on; the
/// game ends here if an end condition was met during the round (S000:L408-416).
fn end_round(rules: &Rules, s: &mut State) {
    s.roles.end_round(rules.coins_on_unchosen_roles);
    if s.end_triggers != 0 {
        s.phase = Phase::GameOver;
        return;
    }
    s.governor = next_seat(s.governor, s.player_count());
    s.round += 1;
    s.roles_chosen = 0;
    s.phase = Phase::RoleSelection;
    s.current = s.governor;
    s.chooser = s.governor;
}

/// The names of the end conditions met, for reports.
/// Every name [`end_name`] gives: each combination of the end conditions.
pub fn end_names() -> Vec<String> {
    (1..=END_COLONISTS | END_CITY | END_VP).map(end_name).collect()
}

pub fn end_name(triggers: u8) -> String {
    let mut names = Vec::new();
    if triggers & END_COLONISTS != 0 {
        names.push("colonists");
    }
    if triggers & END_CITY != 0 {
        names.push("city_full");
    }
    if triggers & END_VP != 0 {
        names.push("vp_chips");
    }
    names.join("+")
}
