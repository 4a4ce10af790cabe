//! The interface every bot implements, built-in or brought (apart from the bots
//! themselves so that each of them depends on it alone).

use crate::game::{Game, Seat};
use crate::rng::Rng;

/// A player that is not at the keyboard. One value plays one seat of one game: it may
/// keep state between its decisions (a subprocess, a search tree).
pub trait Bot<G: Game> {
    /// The bot's name in reports and error messages (`random`, `exec:./my-bot`).
    fn name(&self) -> String;
    /// Chooses one of `legal` (non-empty, in the game's stable order) for the player to
    /// move in `state`. `rng` is the game's bot generator: draw from it, and only from
    /// it, to stay reproducible. A bot that cannot answer says why.
    fn choose(&mut self, game: &G, state: &G::State, legal: &[G::Action], rng: &mut Rng)
    -> Result<G::Action, BotError>;
    /// Told once when the game is over (a subprocess hears the result and is ended).
    fn game_over(&mut self, _game: &G, _state: &G::State) {}
}

/// A bot that could not choose: it crashed, fell silent or answered nonsense.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bot `{bot}` at seat {seat}: {reason}")]
pub struct BotError {
    pub bot: String,
    pub seat: Seat,
    pub reason: String,
}
