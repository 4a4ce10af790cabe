//! The expansion's state: the base game's state and the draft.

use crate::draft::Draft;
use serde::{Deserialize, Serialize};

/// A game of Puerto Rico with the expansion. Plain data, cheap to clone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub base: rulesmith_puerto_rico::State,
    pub draft: Draft,
}
