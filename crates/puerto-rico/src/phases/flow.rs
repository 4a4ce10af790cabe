//! What a phase answers the sequencer (`super`) after each of its steps.

use crate::state::Offer;

/// What a phase tells the sequencer after each of its steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// The player to move (`s.current`) has a decision to make.
    Decide,
    /// The game moved on without a decision: step the (perhaps new) phase again.
    Continue,
    /// The chosen role's phase is over.
    Done,
    /// Something else happens first; afterwards the phase resumes where it stopped.
    Interrupt(Interrupt),
    /// An interrupt is over: back to the phase it interrupted.
    Resume,
}

/// The interruptions of a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// A hospice or university offers the player who just acted a colonist; their phase
    /// goes on with the next player afterwards.
    ColonistOffer(Offer),
    /// The captain phase's loading is over: a window of extension moves may open before
    /// storage (the expansion's guests).
    BeforeStorage,
}
