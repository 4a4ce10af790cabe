//! Role selection, the end of a role's phase, and the end of a round
//! (S000:L116-122, L128-135, L386-402; 2 players S000:L697-699).

use crate::action::Action;
use crate::rules::{RoleKind, Rules};
use crate::state::{END_CITY, END_COLONISTS, END_VP, Phase, State};
use rulesmith_core::steps::Rotation;

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    // Two cards of the same kind holding the same coins are the same choice: list the
    // first only (no duplicate outcomes for bots).
    for r in s.roles.available() {
        let duplicate = s.roles.available().take_while(|&o| o < r).any(|o| {
            rules.roles[o].kind == rules.roles[r].kind
                && rules.roles[o].privilege == rules.roles[r].privilege
                && s.roles.coins[o] == s.roles.coins[r]
        });
        if !duplicate {
            f(Action::Role(r as u8));
        }
    }
}

pub fn has_decision(_rules: &Rules, _s: &State) -> bool {
    true
}

/// The chooser takes the role and its coins (S000:L130), then its phase begins.
pub fn choose_role(rules: &Rules, s: &mut State, a: Action) {
    let Action::Role(r) = a else { return };
    let Some(role) = rules.roles.get(r as usize) else { return };
    let chooser = s.current;
    let coins = s.roles.take(r as usize);
    s.players[chooser].doubloons += u16::from(coins);
    s.role = r;
    s.chooser = chooser;
    s.rotation = Rotation::new(chooser, s.player_count());
    match role.kind {
        RoleKind::Settler => super::settler::begin(rules, s),
        RoleKind::Mayor => super::mayor::begin(rules, s),
        RoleKind::Builder => {
            s.phase = Phase::Builder;
            s.current = chooser;
        }
        RoleKind::Craftsman => super::craftsman::begin(rules, s),
        RoleKind::Trader => {
            s.phase = Phase::Trader;
            s.current = chooser;
        }
        RoleKind::Captain => super::captain::begin(rules, s),
        RoleKind::Prospector => {
            // No action for anyone; the privilege only (S000:L382-384).
            s.players[chooser].doubloons += u16::from(role.privilege);
            end_phase(rules, s);
        }
    }
}

/// The privilege amount of the role being played.
pub fn privilege(rules: &Rules, s: &State) -> u8 {
    rules.roles.get(s.role as usize).map_or(0, |r| r.privilege)
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
        s.current = (s.governor + s.roles_chosen) % n;
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
    let n = s.player_count() as u8;
    s.governor = (s.governor + 1) % n;
    s.round += 1;
    s.roles_chosen = 0;
    s.phase = Phase::RoleSelection;
    s.current = s.governor;
    s.chooser = s.governor;
}

/// The names of the end conditions met, for reports.
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
