//! What the captain phase remembers between turns (its mixed ships' decisions are under
//! `/pending`, `crate::phase::MixedLoad`). Read and written by `phases::captain` only; a
//! leaf module, so that the state can hold it without depending on the phase.

use crate::phase::SeatSet;
use rulesmith_game::steps::PassRound;

/// Captain phase (S000:L308-378).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shipping {
    /// Players load in turn until none can (`has_passed`: declined, when only the wharf
    /// was left to them, or with nothing left to load); `/captain_round` in the state JSON.
    pub round: PassRound,
    /// Players who used their wharf this phase (S000:L612-620: once a phase);
    /// `/wharf_used`.
    pub wharf_used: SeatSet,
    /// Whether the captain's privilege VP has been given (once a phase, S000:L330, L377);
    /// `/captain_bonus_given`.
    pub privilege_given: bool,
}

impl Shipping {
    /// A phase's start: the captain loads first, nobody has used a wharf or the privilege.
    pub fn new(captain: rulesmith_game::Seat, players: usize) -> Self {
        Shipping { round: PassRound::new(captain, players), wharf_used: 0, privilege_given: false }
    }
}
