//! What several phases take from the supply or give back: VP chips (S000:L416) and
//! colonists (hospice, university).

use crate::role_kind::RoleKind;
use crate::rules::Rules;
use crate::state::{END_VP, State};

/// VP to a player in a phase of kind `phase`: chips while they last, then paper
/// (S000:L416). The game ends after the round when VP scored in one of the ruleset's
/// `vp_chips_run_out_in` phases leave no chip (S000:L414 "durante la fase del capitán"):
/// bundled, the captain's, so a church taking the last chip in the builder phase ends
/// nothing by itself, and the next VP scored in a captain phase do.
pub fn award_vp(rules: &Rules, s: &mut State, seat: u8, vp: u16, phase: RoleKind) {
    s.players[seat].vp += vp;
    let chips = vp.min(s.vp_chips);
    s.vp_chips -= chips;
    if s.vp_chips == 0 && vp > 0 && rules.vp_chips_run_out_in & phase.bit() != 0 {
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

/// One colonist from the supply, else the colonist ship (hospice, university).
pub fn take_colonist(s: &mut State) -> bool {
    if s.colonist_supply > 0 {
        s.colonist_supply -= 1;
        true
    } else if s.colonist_ship > 0 {
        s.colonist_ship -= 1;
        true
    } else {
        false
    }
}
