//! The rules core of rulesmith: what a game's rules are made of, with nothing of the
//! harness (simulation, bots, metrics, scenarios, records) that plays them, which is
//! `rulesmith-core` and builds on this crate.
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
//! - [`ruleset::de`]: rulesets read by derivation, every problem at its file:line:col: a
//!   game's typed rules read themselves with no raw copy, each field by its range or its
//!   own reader (`byte`, `num`, `per_players_byte`, `reject`, `checked`), names looked up
//!   as they are read (`with_context`, `lookup`), the checks across sections after:
//!   every game's rules (Puerto Rico's, Santiago de Cuba's, Mundo 163's, the expansion's
//!   `[draft]`, the toy game's).
//! - [`names`]: the ruleset's names in state JSON, given to the serde pass itself
//!   (`Id`, `Every`, `Given`: Santiago de Cuba, Mundo 163; Puerto Rico's building ids).
//! - [`game`]: the narrow interface every game implements ([`Game`]): setup, who is to
//!   move, legal actions in a stable order, `apply_legal` (and `apply`, provided), the
//!   outcome, the state check, action notation, a seat's view and determinisation.
//! - [`opt_id`]: an id that may be absent, in one byte ([`OptId`]: Santiago de Cuba's
//!   pawns, owners and the turn's citizen), in place of a "none" sentinel value.
//! - [`staged`]: a game made of setup decisions, then a base game (the expansion's draft).
//! - [`outcome`]: final scores, tie-breaks and ranks; [`by_player`]: a small map by seat.
//! - [`ruleset`]: TOML rulesets as data: `extends` with deep merge, located diagnostics,
//!   the merged tree the games read; [`input`]: bounded reading of input files;
//!   [`suggest`]: "did you mean" for misspelt names.
//! - [`rng`]: the seeded generator kept in every game state, with our own range and
//!   shuffle functions (golden-tested so results never drift with dependency updates),
//!   and the one-way derivations of seeds.

pub mod by_player;
pub mod cargo;
pub mod game;
pub mod input;
pub mod names;
pub mod opt_id;
pub mod outcome;
pub mod rng;
pub mod ruleset;
pub mod staged;
pub mod steps;
pub mod suggest;

pub use by_player::{ByPlayer, MAX_PLAYERS};
pub use game::{Game, GameError, Outcome, Seat, ToMove};
pub use opt_id::OptId;
pub use rng::Rng;
