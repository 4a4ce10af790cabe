//! An object-safe view of any [`Game`], so the binary can drive whichever ruleset it
//! loaded: every `G: Game` is an [`AnyGame`], and a game in progress is an
//! [`AnySession`] that speaks the game's notation and JSON.

use crate::bots::{self, BotSpec};
use crate::game::{Game, GameError, Outcome, Progress, Seat, ToMove, play_text};
use crate::rng::Rng;
use crate::sim::{self, GameResult, SimError, SimOptions, Tally};
use std::ops::RangeInclusive;

/// Any game's validated rules.
pub trait AnyGame: Send + Sync {
    fn game_id(&self) -> &'static str;
    fn players(&self) -> RangeInclusive<usize>;
    fn simulate(&self, opts: &SimOptions, each: &mut dyn FnMut(&GameResult)) -> Result<Tally, SimError>;
    /// Plays a tournament (or its shard): [`crate::tournament::run`].
    fn tournament(
        &self,
        opts: &crate::tournament::TournamentOptions,
    ) -> Result<crate::tournament::TournamentTally, SimError>;
    /// The game's designer metrics for this ruleset ([`Game::metric_defs`]).
    fn metric_defs(&self) -> Vec<crate::metrics::MetricDef>;
    /// A new game right after setup.
    fn start(&self, players: usize, seed: u64) -> Result<Box<dyn AnySession + '_>, GameError>;
}

/// A game in progress.
pub trait AnySession {
    fn players(&self) -> usize;
    fn to_move(&self) -> ToMove;
    /// The legal actions in notation, in the game's stable order.
    fn legal(&self) -> Vec<String>;
    /// Plays one action given in notation; an error names the legal actions.
    fn play(&mut self, text: &str) -> Result<(), GameError>;
    /// The actions played so far, in notation.
    fn history(&self) -> &[String];
    fn state_json(&self) -> serde_json::Value;
    /// Replaces the state (after a scenario's `[set]`); checked for every invariant.
    fn set_state_json(&mut self, value: serde_json::Value) -> Result<(), GameError>;
    /// What `seat` sees, as JSON.
    fn view_json(&self, seat: Seat) -> serde_json::Value;
    fn outcome(&self) -> Option<Outcome>;
    fn progress(&self) -> Progress;
    /// The action a bot would choose now (not played), in notation.
    fn bot_choice(&self, spec: BotSpec, rng: &mut Rng) -> Option<String>;
    /// Checks every invariant of the current state.
    fn check(&self) -> Result<(), GameError>;

    // --- Screens (`rulesmith play`, `rulesmith show-game`) ---

    /// The position as `seat` sees it ([`Game::screen`]), in colour when `colour`.
    fn screen(&self, seat: Seat, colour: bool) -> String;
    /// The legal actions in notation, each with what it costs or gives where the game
    /// knows it ([`Game::annotate`]), in the order of [`AnySession::legal`].
    fn legal_annotated(&self) -> Vec<(String, Option<String>)>;
    /// Goes back to the position after the first `n` actions of the history, by playing
    /// them again from the start (the game is deterministic from its seed).
    fn rewind(&mut self, n: usize) -> Result<(), GameError>;

    /// The actions played so far, to edit (when copying a game through its state).
    fn history_mut(&mut self) -> &mut Vec<String>;
    /// The legal actions in notation into `out` (cleared first): [`AnySession::legal`]
    /// without allocating a new list.
    fn legal_into(&self, out: &mut Vec<String>);
    /// Plays the `index`-th legal action (in the order of [`AnySession::legal`]).
    fn play_index(&mut self, index: usize) -> Result<(), GameError>;
    /// `seat`'s view as a fixed-length vector ([`crate::encode::encode_view`]).
    fn encode_view(&self, seat: Seat, out: &mut [f32]);
}

impl<G: Game> AnyGame for G {
    fn game_id(&self) -> &'static str {
        Game::game_id(self)
    }

    fn players(&self) -> RangeInclusive<usize> {
        Game::players(self)
    }

    fn simulate(&self, opts: &SimOptions, each: &mut dyn FnMut(&GameResult)) -> Result<Tally, SimError> {
        sim::simulate(self, opts, each)
    }

    fn tournament(
        &self,
        opts: &crate::tournament::TournamentOptions,
    ) -> Result<crate::tournament::TournamentTally, SimError> {
        crate::tournament::run(self, opts)
    }

    fn metric_defs(&self) -> Vec<crate::metrics::MetricDef> {
        Game::metric_defs(self)
    }

    fn start(&self, players: usize, seed: u64) -> Result<Box<dyn AnySession + '_>, GameError> {
        let state = self.new_game(players, seed)?;
        Ok(Box::new(Session { game: self, start: state.clone(), state, history: Vec::new() }))
    }
}

/// A typed game in progress.
pub struct Session<'g, G: Game> {
    pub game: &'g G,
    pub state: G::State,
    pub history: Vec<String>,
    /// The position after setup, where a rewind plays again from.
    pub start: G::State,
}

impl<G: Game> AnySession for Session<'_, G> {
    fn players(&self) -> usize {
        self.game.player_count(&self.state)
    }

    fn to_move(&self) -> ToMove {
        self.game.to_move(&self.state)
    }

    fn legal(&self) -> Vec<String> {
        let mut buf = Vec::new();
        self.game.legal_actions(&self.state, &mut buf);
        buf.iter().map(|&a| self.game.format_action(&self.state, a)).collect()
    }

    fn play(&mut self, text: &str) -> Result<(), GameError> {
        if self.game.to_move(&self.state) == ToMove::Terminal {
            return Err(GameError::Over);
        }
        // Record the canonical spelling (printed before the state changes), so records
        // always round-trip whatever spelling was typed.
        let canonical = self.game.parse_action(&self.state, text).map(|a| self.game.format_action(&self.state, a));
        play_text(self.game, &mut self.state, text)?;
        self.history.push(canonical.unwrap_or_else(|_| text.trim().to_string()));
        Ok(())
    }

    fn history(&self) -> &[String] {
        &self.history
    }

    fn state_json(&self) -> serde_json::Value {
        self.game.state_to_json(&self.state)
    }

    fn set_state_json(&mut self, value: serde_json::Value) -> Result<(), GameError> {
        self.state = self.game.state_from_json(value)?;
        Ok(())
    }

    fn view_json(&self, seat: Seat) -> serde_json::Value {
        self.game.view_to_json(&self.state, seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome(&self.state)
    }

    fn progress(&self) -> Progress {
        self.game.progress(&self.state)
    }

    fn bot_choice(&self, spec: BotSpec, rng: &mut Rng) -> Option<String> {
        let mut buf = Vec::new();
        self.game.legal_actions(&self.state, &mut buf);
        if buf.is_empty() {
            return None;
        }
        let a = bots::choose(self.game, &spec, &self.state, &buf, rng);
        Some(self.game.format_action(&self.state, a))
    }

    fn check(&self) -> Result<(), GameError> {
        self.game.check_state(&self.state)
    }

    fn screen(&self, seat: Seat, colour: bool) -> String {
        self.game.screen(&self.state, seat, &crate::screen::Style { colour })
    }

    fn legal_annotated(&self) -> Vec<(String, Option<String>)> {
        let mut buf = Vec::new();
        self.game.legal_actions(&self.state, &mut buf);
        buf.iter().map(|&a| (self.game.format_action(&self.state, a), self.game.annotate(&self.state, a))).collect()
    }

    fn rewind(&mut self, n: usize) -> Result<(), GameError> {
        let keep: Vec<String> = self.history.iter().take(n).cloned().collect();
        self.state = self.start.clone();
        self.history.clear();
        for a in &keep {
            self.play(a)?;
        }
        Ok(())
    }

    fn history_mut(&mut self) -> &mut Vec<String> {
        &mut self.history
    }

    fn legal_into(&self, out: &mut Vec<String>) {
        let mut buf = Vec::new();
        self.game.legal_actions(&self.state, &mut buf);
        out.clear();
        out.extend(buf.iter().map(|&a| self.game.format_action(&self.state, a)));
    }

    fn play_index(&mut self, index: usize) -> Result<(), GameError> {
        let mut buf = Vec::new();
        self.game.legal_actions(&self.state, &mut buf);
        let Some(&action) = buf.get(index) else {
            return Err(GameError::Illegal {
                action: format!("#{index}"),
                reason: format!("there are {} legal actions", buf.len()),
            });
        };
        self.history.push(self.game.format_action(&self.state, action));
        self.game.apply_legal(&mut self.state, action);
        Ok(())
    }

    fn encode_view(&self, seat: Seat, out: &mut [f32]) {
        // The view JSON, not the observed state: hidden values are marked hidden there.
        crate::encode::encode_view(&self.game.view_to_json(&self.state, seat), out);
    }
}
