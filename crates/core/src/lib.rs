//! Game-independent core of rulesmith.
//!
//! The rules primitives the four games share (each names the games that use it):
//!
//! - [`steps`]: turn structure. Seats from a start, clockwise (`clockwise`, `seat_after`,
//!   `next_seat`; `stop_after` for a closed track: Santiago de Cuba's street); each player
//!   once from a start (`Rotation`: Puerto Rico's settler, mayor, builder, trader and
//!   storage turns); act until all pass (`PassRound`: Puerto Rico's captain, Santiago de
//!   Cuba's loading round); role cards with coins on the unchosen ones (`RoleBoard`:
//!   Puerto Rico); setup choices in reverse seat order (Mundo 163's capitals). Private
//!   fields with a `check`, so an edited state cannot make them point past the table.
//! - [`cargo`]: pickup and deliver. Components counted by kind (`Tally`) move only by
//!   `transfer`; `Hold` (Puerto Rico's ships), `Row` (its trading house), `Demand`
//!   (Santiago de Cuba's ship), `DemandSpaces` (Mundo 163's cities), `holds_needed`
//!   (Mundo 163's trolley); `conserved`, the one conservation check every game's
//!   `check_state` calls.
//! - [`ruleset::de`]: rulesets read by derivation: each game declares its TOML as strict
//!   structs and validates them in one step, every problem at its file:line:col. A typed
//!   rule may read itself with no raw copy (`byte`, `num`, `per_players_byte`, `reject`,
//!   `checked`): Mundo 163's whole rules, Puerto Rico's effects; Puerto Rico and Santiago
//!   de Cuba (`raw.rs`) and the expansion's `[draft]` still read raw structs first.
//! - [`names`]: the ruleset's names in state JSON, given to the serde pass itself
//!   (`Id`, `Every`, `Given`: Santiago de Cuba, Mundo 163; Puerto Rico's building ids).
//! - [`testing::kit`]: the test helpers every game crate's tests use.
//!
//! The harness around them:
//!
//! - [`game`]: the interface every game implements ([`Game`]): who is to move, legal
//!   actions in a stable order, applying an action, the outcome, action notation,
//!   per-player views and determinisation for hidden information.
//! - [`rng`]: the seeded generator kept in every game state, with our own range and
//!   shuffle functions (golden-tested so results never drift with dependency updates).
//! - [`ruleset`]: TOML rulesets as data: `extends` with deep merge, located diagnostics,
//!   the merged tree the games read.
//! - [`sim`], [`bots`], [`tournament`]: the simulation driver, the bots, tournaments and
//!   the reports; [`metrics`], [`paired`]: designer metrics and paired differences.
//! - [`by_player`]: a small fixed-capacity map keyed by seat.
//! - [`scenario`], [`record`]: scenario files (set up, play, expect) and game records
//!   with their replay.
//! - [`input`]: bounded reading of input files (regular files only, size and line limits).
//! - [`testing`]: a toy game, read like a real game crate's, and the conformance checks
//!   every game must pass.
//! - [`erased`]: an object-safe view of any game, used by the binary to drive the
//!   ruleset it loaded without knowing its game at compile time.
//! - [`encode`]: fixed-size numbers for learning: each game's enumerated action ids and
//!   named observation features ([`Game::action_space`], [`Game::observation`]).
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
//! let played = sim::play_game(&game, 2, 0, 7, &seats, true)?;
//! assert_eq!(played, sim::play_game(&game, 2, 0, 7, &seats, true)?);
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

pub mod bots;
pub mod by_player;
pub mod cargo;
pub mod encode;
pub mod erased;
pub mod game;
pub mod input;
pub mod metrics;
pub mod names;
pub mod outcome;
pub mod paired;
pub mod record;
pub mod rng;
pub mod ruleset;
pub mod scenario;
pub mod screen;
pub mod sim;
pub mod steps;
pub mod suggest;
pub mod sweep;
pub mod testing;
pub mod tournament;

pub use by_player::{ByPlayer, MAX_PLAYERS};
pub use game::{Game, GameError, Outcome, RolloutPolicy, Seat, ToMove};
pub use rng::Rng;
