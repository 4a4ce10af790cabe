//! What the settler phase remembers between turns, beside its decisions in progress
//! (`crate::phase::Settling`, under `/pending`). Read and written by `phases::settler`
//! only; a leaf module, so that the state can hold it without depending on the phase.

use crate::phase::SeatSet;

/// Settler phase (S000:L137-149).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Settlement {
    /// Players who drew with the hacienda this phase (S000:L530-534: once a phase);
    /// `/hacienda_used` in the state JSON.
    pub hacienda_used: SeatSet,
}
