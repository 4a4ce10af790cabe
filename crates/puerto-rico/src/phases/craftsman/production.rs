//! What the craftsman phase remembers for its privilege (the picks and barrels are under
//! `/pending`, `crate::phase::Privilege`). Read and written by `phases::craftsman` only; a
//! leaf module, so that the state can hold it without depending on the phase.

/// Craftsman phase (S000:L252-262).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Production {
    /// The kinds the craftsman produced (a bit per good), among which the privilege
    /// barrel is chosen; `/craftsman_kinds` in the state JSON.
    pub kinds: u8,
}
