//! The expansion's state: the base game's state and the draft.

use crate::rules::MAX_SLOTS;
use serde::{Deserialize, Serialize};

/// A game of Puerto Rico with the expansion. Plain data, cheap to clone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub base: rulesmith_puerto_rico::State,
    pub draft: Draft,
}

/// The draft's progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    /// The building in each slot (building index), `None` while empty.
    pub slots: [Option<u8>; MAX_SLOTS],
    /// Whether the draft is over and the game proper has begun.
    pub over: bool,
}

impl Draft {
    pub fn picks(&self) -> usize {
        self.slots.iter().filter(|x| x.is_some()).count()
    }

    /// Buildings picked so far (bit per building).
    pub fn picked(&self) -> u64 {
        self.slots.iter().flatten().fold(0u64, |m, &b| m | (1 << b))
    }
}
