//! The most of each list a ruleset may define (fixed arrays and one-byte masks).

/// Most goods a ruleset may define (one byte masks).
pub const MAX_GOODS: usize = 8;
/// Most dice a ruleset may define (one byte masks).
pub const MAX_DICE: usize = 8;
/// Most citizens (street stops besides the port).
pub const MAX_CITIZENS: usize = 15;
/// Most buildings.
pub const MAX_BUILDINGS: usize = 16;
/// Most flower colours.
pub const MAX_FLOWERS: usize = 8;
