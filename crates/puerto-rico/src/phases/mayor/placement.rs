//! Where the player to move is in the mayor phase's placement. Read and written by
//! `phases::mayor` only; a leaf module, so that the state can hold it without depending on
//! the phase.

/// Mayor phase (`phases::mayor`): where the player to move is in their placement. Only
/// `group` is in the state JSON (`/mayor_group`); `left` follows from it and the board
/// (reading JSON computes it, the state check compares it with a count from scratch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The next group to fill for the current player (in the order of `phases::mayor`).
    pub group: u8,
    /// The circles of the groups from `group` on, kept as they are filled so that neither
    /// a step nor the legal list walks the city again; 0 outside the mayor phase.
    pub left: u8,
}
