//! Game-independent core of rulesmith.
//!
//! - [`game`]: the interface every game implements ([`Game`]): who is to move, legal
//!   actions in a stable order, applying an action, the outcome, action notation,
//!   per-player views and determinisation for hidden information.
//! - [`rng`]: the seeded generator kept in every game state, with our own range and
//!   shuffle functions (golden-tested so results never drift with dependency updates).
//! - [`ruleset`]: TOML rulesets as data: `extends` with deep merge, located diagnostics,
//!   and the decoding helpers games use to turn a merged tree into validated rules.
//! - [`sim`], [`bots`]: the simulation driver, the bots and the report.
//! - [`steps`]: turn-structure primitives shared by the games (role selection with
//!   coins on unchosen roles, "each player once from the chooser", pass rounds).
//! - [`by_player`]: a small fixed-capacity map keyed by seat.
//! - [`scenario`], [`record`]: scenario files (set up, play, expect) and game records
//!   with their replay.
//! - [`testing`]: a toy game and the conformance checks every game must pass.
//! - [`erased`]: an object-safe view of any game, used by the binary to drive the
//!   ruleset it loaded without knowing its game at compile time.

pub mod bots;
pub mod by_player;
pub mod erased;
pub mod game;
pub mod paired;
pub mod record;
pub mod rng;
pub mod ruleset;
pub mod scenario;
pub mod screen;
pub mod sim;
pub mod steps;
pub mod testing;

pub use by_player::{ByPlayer, MAX_PLAYERS};
pub use game::{Game, GameError, Outcome, Seat, ToMove};
pub use rng::Rng;
