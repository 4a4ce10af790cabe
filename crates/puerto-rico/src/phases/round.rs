//! Role selection, the end of a role's phase, and the end of a round
//! (S000:L116-122, L128-135, L386-402; 2 players S000:L697-699).

use crate::action::Action;
use crate::board;
use crate::rules::{Effect, RoleKind, Rules, kind};
use crate::state::{AfterGuests, END_CITY, END_COLONISTS, END_VP, Phase, State};
use rulesmith_core::steps::{Rotation, next_seat, seat_after};

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    // Two cards of the same kind and privilege holding the same coins are the same
    // choice: list the first only (no duplicate outcomes for bots).
    let available = s.roles.in_play & !s.roles.taken;
    for r in 0..rules.roles.len().min(16) {
        if available & (1 << r) == 0 {
            continue;
        }
        let twins = rules.roles[r].twins_before & available;
        let duplicate = (0..r).any(|o| twins & (1 << o) != 0 && s.roles.coins[o] == s.roles.coins[r]);
        if !duplicate {
            f(Action::Role(r as u8));
        }
    }
}

pub fn has_decision(_rules: &Rules, _s: &State) -> bool {
    true
}

/// The chooser takes the role and its coins (S000:L130), then its phase begins (after
/// the owners of guests had their chance to move them, outside the mayor phase).
pub fn choose_role(rules: &Rules, s: &mut State, a: Action) {
    let Action::Role(r) = a else { return };
    let Some(role) = rules.roles.get(r as usize) else { return };
    let chooser = s.current;
    let coins = s.roles.take(r as usize);
    s.players[chooser].doubloons += u16::from(coins);
    s.role = r;
    s.chooser = chooser;
    s.rotation = Rotation::new(chooser, s.player_count());
    // With guests moving on their owners' turns, the phases where players act in turn
    // open no window (a move there and on the owner's turn would be one outcome twice).
    let turns = matches!(role.kind, RoleKind::Settler | RoleKind::Builder | RoleKind::Trader | RoleKind::Captain);
    let window = role.kind != RoleKind::Mayor && !(turns && super::guests::on_own_turn(rules));
    if window && super::guests::open(rules, s, AfterGuests::PhaseStart) {
        return;
    }
    begin_phase(rules, s);
}

/// The chosen role's phase begins.
pub fn begin_phase(rules: &Rules, s: &mut State) {
    let Some(role) = rules.roles.get(s.role as usize) else { return };
    let chooser = s.chooser;
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
            s.players[chooser].doubloons += u16::from(privilege(rules, s));
            end_phase(rules, s);
        }
    }
}

/// The privilege amount of the role being played, as printed on the card.
pub fn card_privilege(rules: &Rules, s: &State) -> u8 {
    rules.roles.get(s.role as usize).map_or(0, |r| r.privilege)
}

/// How many times the chooser gets the privilege: the factor of an occupied building that
/// multiplies privileges of this role's kind (library), else 1.
pub fn privilege_factor(rules: &Rules, s: &State) -> u8 {
    if !rules.has_effect(kind::DOUBLE_PRIVILEGE) {
        return 1;
    }
    let Some(kind) = rules.roles.get(s.role as usize).map(|r| r.kind) else { return 1 };
    board::find(rules, &s.players[s.chooser], |e| match *e {
        Effect::DoublePrivilege { factor, roles } if roles & kind.bit() != 0 => Some(factor),
        _ => None,
    })
    .unwrap_or(1)
}

/// The privilege amount of the role being played, multiplied for the chooser (library).
pub fn privilege(rules: &Rules, s: &State) -> u8 {
    card_privilege(rules, s).saturating_mul(privilege_factor(rules, s))
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

/// VP to a player: chips while they last, then paper (S000:L416). Taking the last chip
/// triggers the end of the game, whichever phase it happens in.
pub fn award_vp(s: &mut State, seat: u8, vp: u16) {
    s.players[seat].vp += vp;
    let chips = vp.min(s.vp_chips);
    s.vp_chips -= chips;
    if s.vp_chips == 0 && vp > 0 {
        s.end_triggers |= END_VP;
    }
}

/// A VP returned to the supply: a paper VP if any were written, else a chip back.
pub fn return_vp(rules: &Rules, s: &mut State, seat: u8) {
    let n = s.player_count();
    let taken = rules.setup[n].vp_chips.saturating_sub(s.vp_chips);
    let held: u16 = s.players.iter().map(|p| p.vp).sum();
    s.players[seat].vp = s.players[seat].vp.saturating_sub(1);
    if held <= taken {
        s.vp_chips += 1;
    }
}
