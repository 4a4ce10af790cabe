//! The largest sizes a ruleset may give: the state keeps flat fixed-size arrays of them.

/// The most building kinds a ruleset may define (kept small so states stay flat arrays).
pub const MAX_BUILDINGS: usize = 64;
/// The most role cards a ruleset may define.
pub const MAX_ROLES: usize = 12;
/// The most cargo ships in play.
pub const MAX_SHIPS: usize = 5;
/// The most island or city spaces of a player board.
pub const MAX_SPACES: usize = 16;
/// The most trading-house spaces.
pub const MAX_TRADING_HOUSE: usize = 8;
/// The most plantation tiles in the game.
pub const MAX_PLANTATIONS: usize = 96;
/// Largest player count any Puerto Rico ruleset may allow.
pub const MAX_PLAYERS: usize = 5;
