//! What a rulesmith game implements beyond its rules: the capability traits the harness
//! (`rulesmith-core`) drives a game through, with nothing of the harness itself.
//!
//! A game crate depends on this crate, `serde` and nothing else of rulesmith: the rules
//! core (`rulesmith-rules`) is re-exported here under the same module names the harness
//! uses ([`game`], [`steps`], [`cargo`], [`names`], [`ruleset`], [`rng`], [`outcome`],
//! [`by_player`], [`input`], [`suggest`], [`staged`]), so a game reads one crate.
//!
//! The capabilities, each a trait with defaults where one exists (the [`prelude`] brings
//! them all):
//!
//! - [`json::StateJson`]: the state as JSON and each seat's view of it;
//! - [`encode::Encode`]: enumerated action ids and named observation features for learning;
//! - [`metrics::Metrics`]: designer metrics, filled into a [`metrics::MetricSheet`] per game;
//! - [`screen::Screen`]: the position drawn for a terminal;
//! - [`evaluate::Evaluate`]: what the built-in bots know of the game (its heuristic and
//!   their settings).
//!
//! A game made of setup decisions, then a base game ([`staged::SetupThenBase`]) gets the
//! base game's metrics and bot settings from blanket impls in [`staged`].

pub use rulesmith_rules::{by_player, cargo, game, input, names, opt_id, outcome, rng, ruleset, steps, suggest};

pub mod encode;
pub mod evaluate;
pub mod json;
pub mod metrics;
pub mod screen;
pub mod staged;

/// The game interface and its capabilities, for `use rulesmith_game::prelude::*`.
pub mod prelude {
    pub use crate::encode::Encode;
    pub use crate::evaluate::Evaluate;
    pub use crate::game::Game;
    pub use crate::json::StateJson;
    pub use crate::metrics::Metrics;
    pub use crate::screen::Screen;
}

pub use by_player::{ByPlayer, MAX_PLAYERS};
pub use encode::Encode;
pub use evaluate::{Evaluate, RolloutPolicy};
pub use game::{Game, GameError, Outcome, Seat, ToMove};
pub use json::StateJson;
pub use metrics::Metrics;
pub use opt_id::OptId;
pub use rng::Rng;
pub use screen::Screen;
