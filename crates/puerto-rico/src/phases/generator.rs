//! The two uses of a phase's action generator (one that stops when told), shared by the
//! builder, settler and trader.

use crate::action::Action;
use std::ops::ControlFlow;

/// Every action to `f` (the phase's legal list).
pub fn every(f: &mut impl FnMut(Action)) -> impl FnMut(Action) -> ControlFlow<()> + '_ {
    move |a| {
        f(a);
        ControlFlow::Continue(())
    }
}

/// Stop at the first (whether the player has one: the sequencer's question).
pub fn first(_: Action) -> ControlFlow<()> {
    ControlFlow::Break(())
}
