//! The harness of rulesmith: everything that plays, measures and checks games.
//!
//! The rules themselves — the narrow game interface, turn structure, cargo, names,
//! rulesets and the generator — are the crate `rulesmith-rules`, re-exported here under
//! the same module names ([`game`], [`steps`], [`cargo`], [`names`], [`ruleset`], [`rng`],
//! [`outcome`], [`by_player`], [`input`], [`suggest`]), so a game crate reads
//! `rulesmith_core::steps` whichever crate it names.
//!
//! What a game may offer beyond its rules, each a capability trait with defaults where
//! one exists (the [`prelude`] brings them all): state JSON and views
//! ([`json::StateJson`]), encodings for learning ([`encode::Encode`]: enumerated action ids
//! and named observation features), designer metrics ([`metrics::Metrics`]), terminal
//! screens ([`screen::Screen`]) and what the bots know of it ([`bots::Evaluate`]).
//!
//! The harness around them:
//!
//! - [`sim`], [`bots`], [`tournament`]: the simulation driver, the bots, tournaments and
//!   the reports; [`metrics`], [`paired`]: designer metrics and paired differences.
//! - [`scenario`], [`record`]: scenario files (set up, play, expect) and game records
//!   with their replay.
//! - [`staged`]: the metrics and bot settings of a game made of setup decisions, then a
//!   base game.
//! - [`erased`]: an object-safe view of any game, used by the binary to drive the
//!   ruleset it loaded without knowing its game at compile time; [`erased::Visit`]
//!   reaches the typed game.
//! - [`testing`]: a toy game, read like a real game crate's (the binary can load it, and
//!   the harness's own tests play it). The test kit every game crate's tests use, with the
//!   conformance checks every game must pass, is the crate `rulesmith-testkit`.
//!
//! # Example
//!
//! Load a ruleset and a house rule, drive a game, play seeded games between bots and run
//! a scenario, here with the toy game of [`testing`] (every game crate works the same way):
//!
//! ```
//! use std::sync::Arc;
//! use rulesmith_core::erased::AnyGame;
//! use rulesmith_core::game::{Game, ToMove, play_text};
//! use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
//! use rulesmith_core::{bots, scenario, sim, testing};
//!
//! // Rulesets are data. A house rule states only what differs from the ruleset it extends.
//! let bundled = [
//!     Bundled { name: "take-away", path: "take-away.toml", text: testing::TAKE_AWAY_TOML },
//!     Bundled {
//!         name: "short",
//!         path: "short.toml",
//!         text: "[ruleset]\nname = \"short\"\nextends = \"take-away\"\n\n[rules]\nstones = 12\n",
//!     },
//! ];
//! let load = |name: &str| -> Result<testing::TakeAway, String> {
//!     let loaded = ruleset::load(name, &bundled).map_err(|e| e.render())?;
//!     let mut d = Diagnostics::default();
//!     testing::decode(&loaded.tree, &mut d).ok_or_else(|| d.render(&loaded.sources))
//! };
//! let game = load("take-away")?;
//! assert_eq!((game.stones, load("short")?.stones), (21, 12));
//!
//! // Drive a game: 2 players, seed 7. Legal actions come in a stable order and print
//! // and parse in the game's notation.
//! let mut state = game.new_game(2, 7)?;
//! let mut legal = Vec::new();
//! game.legal_actions(&state, &mut legal);
//! let names: Vec<String> = legal.iter().map(|&a| game.format_action(&state, a)).collect();
//! assert_eq!(names, ["take 1", "take 2", "take 3", "pass"]);
//! play_text(&game, &mut state, "take 3")?;
//! assert_eq!(game.to_move(&state), ToMove::Seat(1));
//!
//! // A whole game between bots: the same seed gives the same game.
//! let seats = bots::parse_bots("greedy,random", 2)?;
//! let options = sim::PlayOptions { record: true, ..sim::PlayOptions::new(2, 7) };
//! let played = sim::play_game(&game, &seats, &options)?;
//! assert_eq!(played, sim::play_game(&game, &seats, &options)?);
//!
//! // A scenario: a position, actions, and what must hold afterwards.
//! let case = scenario::parse(
//!     "example.toml".as_ref(),
//!     r#"
//! description = "Nobody takes more than 3 stones a turn."
//! ruleset = "take-away"
//! players = 2
//!
//! [[step]]
//! play = "take 3"
//! expect.to_move = 1
//! expect.rejects = "take 4"
//! "#,
//! )?;
//! let game: Arc<dyn AnyGame> = Arc::new(game);
//! let verdict = scenario::run(&case, &mut |_| Ok(game.clone()));
//! assert_eq!(verdict, scenario::Verdict::Pass);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use rulesmith_rules::{by_player, cargo, game, input, names, outcome, rng, ruleset, steps, suggest};
// The capabilities a game implements live in `rulesmith-game`, so that a game crate needs
// nothing of the harness; they keep their paths here.
pub use rulesmith_game::{encode, json, screen, staged};

pub mod actions;
pub mod batch;
pub mod bots;
pub mod erased;
pub mod learned;
pub mod metrics;
pub mod paired;
pub mod power;
pub mod record;
pub mod scenario;
pub mod sim;
pub mod study;
pub mod sweep;
pub mod testing;
pub mod tournament;

/// The game interface and its capabilities, for `use rulesmith_core::prelude::*`.
pub mod prelude {
    pub use rulesmith_game::prelude::*;
}

pub use bots::{Evaluate, RolloutPolicy};
pub use by_player::{ByPlayer, MAX_PLAYERS};
pub use encode::Encode;
pub use game::{Game, GameError, Outcome, Seat, ToMove};
pub use json::StateJson;
pub use metrics::Metrics;
pub use rng::Rng;
pub use screen::Screen;
