//! The ruleset's closed choices: words the TOML picks among, read as they are.

use serde::Deserialize;

/// When the owner of a building gains VP from another player's pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OwnerVpWhen {
    /// Only when the pawn moved onto the building this turn.
    Visit,
    /// At the end of every turn the pawn stands on the building.
    EveryTurn,
}

/// What happens when a freshly placed demand is all zeros.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmptyDemand {
    /// Roll again (the ship does not count).
    Reroll,
    /// The demand is complete: the ship leaves at once and the roller rolls again.
    Departs,
}

/// Tie-break keys after VP, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    LeftoverGoods,
    Pesos,
}
