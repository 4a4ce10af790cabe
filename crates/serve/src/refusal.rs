//! Why a table or a replay refuses what a request asks, in the game's words; the routes
//! (`api`) give each kind its HTTP status, so the tables and replays know nothing of HTTP.

/// A refused request: what kind of wrong, and a message naming it.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The request itself is malformed (a step past the end, a seat that is not there).
    #[error("{0}")]
    Malformed(String),
    /// The request may not do this (another seat's move, undo at a table by links).
    #[error("{0}")]
    Forbidden(String),
    /// The game is not where the request thinks (stale, over, busy, nothing to undo).
    #[error("{0}")]
    Conflict(String),
    /// A move or record the rules do not allow.
    #[error("{0}")]
    Unplayable(String),
    /// More than the server keeps (a record over the replay budget, a table's games).
    #[error("{0}")]
    TooLarge(String),
    /// The server cannot do it now (its random source failed).
    #[error("{0}")]
    Unavailable(String),
}
