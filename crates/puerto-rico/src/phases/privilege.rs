//! The privilege of the role in play (S000:L130-135): printed on the card, multiplied for
//! the chooser by a building that doubles privileges (library, S001:L608-614).

use crate::board;
use crate::rules::{Effect, Rules, kind};
use crate::state::State;

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
