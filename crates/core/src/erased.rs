//! An object-safe view of any [`Game`], so the binary can drive whichever ruleset it
//! loaded: every `G: Game` is an [`AnyGame`], and a game in progress is an
//! [`AnySession`] that speaks the game's notation and JSON.

use crate::bots::Evaluate;
use crate::bots::{self, BotSpec};
use crate::encode::ActionSpace;
use crate::encode::Encode;
use crate::game::{Game, GameError, Outcome, Progress, Seat, ToMove, play_text};
use crate::json::StateJson;
use crate::metrics::Metrics;
use crate::rng::Rng;
use crate::screen::Screen;
use crate::sim::{self, GameResult, SimError, SimOptions, Tally};
use std::any::Any;
use std::ops::RangeInclusive;
use std::sync::Arc;

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
    /// The game's designer metrics for this ruleset ([`Metrics::metric_defs`]).
    fn metric_defs(&self) -> Vec<crate::metrics::MetricDef>;
    /// A new game right after setup.
    fn start(&self, players: usize, seed: u64) -> Result<Box<dyn AnySession + Send + '_>, GameError>;
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
    /// What the game derives the state's value at `pointer` from ([`StateJson::derived`]).
    fn derived(&self, pointer: &str) -> Option<String>;
    fn outcome(&self) -> Option<Outcome>;
    fn progress(&self) -> Progress;
    /// The action a bot would choose now (not played), in notation; `None` when nobody is
    /// to move or the bot cannot play here ([`crate::learned::Learned::problem`]).
    fn bot_choice(&self, spec: BotSpec, rng: &mut Rng) -> Option<String>;
    /// The tree search's view of the decision now, for the seat to move: its legal actions
    /// the search tried, in notation, with their root visit counts, most visited first.
    /// Searched as the `mcts` bot searches, from what that seat sees only (each iteration
    /// a position drawn from its view), `iterations` times; never played.
    fn hint(&self, iterations: u32, rng: &mut Rng) -> Vec<(String, u32)>;
    /// Asks the bot playing `seat` for its move, in notation. The bot is made from `spec`
    /// on first use and kept for the session (a subprocess runs once per seat and keeps
    /// its state); a bot that crashes, falls silent past its time limit or answers
    /// nonsense is an error naming it and the seat.
    fn bot_move(&mut self, seat: Seat, spec: &BotSpec, rng: &mut Rng) -> Result<String, bots::BotError>;
    /// Tells the session's bots the game is over (subprocesses hear the result and end).
    fn end_bots(&mut self);
    /// Checks every invariant of the current state.
    fn check(&self) -> Result<(), GameError>;

    // --- Screens (`rulesmith play`, `rulesmith show-game`) ---

    /// The position as `seat` sees it ([`Screen::screen`]), in colour when `colour`.
    fn screen(&self, seat: Seat, colour: bool) -> String;
    /// The legal actions in notation, each with what it costs or gives where the game
    /// knows it ([`Screen::annotate`]), in the order of [`AnySession::legal`].
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

    // --- Fixed-size encodings for learning ([`crate::encode`]) ---

    /// Every action id of this table in notation, in id order ([`Encode::action_space`]).
    fn action_names(&self) -> Result<Vec<String>, GameError>;
    /// This table's action space, to hand to other games of the same ruleset and player
    /// count ([`AnySession::adopt_action_space`]): building a large one (the expansion's
    /// storage choices) costs milliseconds, and environments start a game per episode.
    fn action_space_handle(&self) -> Result<Arc<dyn Any + Send + Sync>, GameError>;
    /// Uses the action space of another game of the same ruleset and player count
    /// (from [`AnySession::action_space_handle`]) instead of building one; `false` if the
    /// handle is not this game's kind of space or this game already has its space.
    fn adopt_action_space(&mut self, handle: Arc<dyn Any + Send + Sync>) -> bool;
    /// How many action ids this table has (the action space's size).
    fn action_count(&self) -> Result<usize, GameError>;
    /// The observation's feature names ([`Encode::observation_names`]).
    fn observation_names(&self) -> Vec<String>;
    /// The ids of the legal actions into `out` (cleared first), in the legal order.
    fn legal_ids(&self, out: &mut Vec<u32>) -> Result<(), GameError>;
    /// Plays the legal action with this id.
    fn play_id(&mut self, id: u32) -> Result<(), GameError>;
    /// Plays the action with this id without checking it is legal: only for an id the
    /// caller took from [`AnySession::legal_ids`] of this very state (the environments'
    /// hot path, like [`Game::apply_legal`]); anything else goes through
    /// [`AnySession::play_id`].
    fn play_legal_id(&mut self, id: u32) -> Result<(), GameError>;
    /// [`AnySession::play_legal_id`] without adding the action's notation to the history
    /// (formatting it is about a tenth of a batched environment's step): only for a session
    /// whose history nobody reads, records or rewinds.
    fn play_legal_id_unrecorded(&mut self, id: u32) -> Result<(), GameError>;
    /// `seat`'s observation into `out` ([`Encode::observation`]).
    fn observation(&self, seat: Seat, out: &mut [f32]);
}

/// Every capability the binary drives a game through: the rules ([`Game`]), state JSON
/// and views, designer metrics, the bots' settings, screens and encodings. A game that
/// implements them all is [`Complete`] (a blanket impl) and so an [`AnyGame`].
pub trait Complete: Game + StateJson + Metrics + Evaluate + Screen + Encode {}

impl<G: Game + StateJson + Metrics + Evaluate + Screen + Encode> Complete for G {}

/// Something done with a game whose type is known only once its ruleset is read (the
/// binary's loader decodes the ruleset, then hands the typed game here): how a caller
/// reaches the typed game, e.g. the conformance suite calling the test kit's generic checks.
pub trait Visit {
    type Out;
    fn visit<G: Complete>(self, game: G) -> Self::Out;
}

/// The visitor that makes the typed game an [`AnyGame`].
pub struct Erase;

impl Visit for Erase {
    type Out = Box<dyn AnyGame>;
    fn visit<G: Complete>(self, game: G) -> Box<dyn AnyGame> {
        Box::new(game)
    }
}

impl<G: Complete> AnyGame for G {
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
        Metrics::metric_defs(self)
    }

    fn start(&self, players: usize, seed: u64) -> Result<Box<dyn AnySession + Send + '_>, GameError> {
        let state = self.new_game(players, seed)?;
        Ok(Box::new(Session {
            game: self,
            start: state.clone(),
            state,
            history: Vec::new(),
            space: std::cell::OnceCell::new(),
            bots: Vec::new(),
            legal: std::cell::RefCell::default(),
        }))
    }
}

/// A typed game in progress.
pub struct Session<'g, G: Complete> {
    pub game: &'g G,
    pub state: G::State,
    pub history: Vec<String>,
    /// The position after setup, where a rewind plays again from.
    pub start: G::State,
    /// The table's action space, built on first use (or adopted from another game).
    space: std::cell::OnceCell<Result<Arc<ActionSpace<G::Action>>, String>>,
    /// The bots asked through [`AnySession::bot_move`], by seat.
    bots: Vec<Option<Box<dyn bots::Bot<G> + Send>>>,
    /// The legal actions' list [`AnySession::legal_ids`] fills (kept: one allocation per
    /// session, not per decision).
    legal: std::cell::RefCell<Vec<G::Action>>,
}

impl<G: Complete> Session<'_, G> {
    fn space(&self) -> Result<&ActionSpace<G::Action>, GameError> {
        let players = self.game.player_count(&self.state);
        self.space
            .get_or_init(|| ActionSpace::new(self.game, players).map(Arc::new))
            .as_ref()
            .map(|a| &**a)
            .map_err(|e| GameError::InvalidState(e.clone()))
    }
}

impl<G: Complete> AnySession for Session<'_, G> {
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

    fn derived(&self, pointer: &str) -> Option<String> {
        self.game.derived(pointer)
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
        // A `learned` bot that cannot play this table chooses nothing (its spec says why).
        let a = bots::try_choose(self.game, &spec, &self.state, &buf, rng).ok()?;
        Some(self.game.format_action(&self.state, a))
    }

    fn hint(&self, iterations: u32, rng: &mut Rng) -> Vec<(String, u32)> {
        let mut legal = Vec::new();
        self.game.legal_actions(&self.state, &mut legal);
        let budget = bots::mcts::Budget::Iterations(iterations.max(1));
        let mut out: Vec<(String, u32)> = bots::mcts::root_visits(self.game, &self.state, budget, rng)
            .into_iter()
            .filter(|(a, _)| legal.contains(a))
            .map(|(a, v)| (self.game.format_action(&self.state, a), v))
            .collect();
        // Stable: equal counts keep the order the search tried them in.
        out.sort_by_key(|x| std::cmp::Reverse(x.1));
        out
    }

    fn bot_move(&mut self, seat: Seat, spec: &BotSpec, rng: &mut Rng) -> Result<String, bots::BotError> {
        let i = usize::from(seat);
        if self.bots.len() <= i {
            self.bots.resize_with(i + 1, || None);
        }
        let bot = self.bots[i].get_or_insert_with(|| spec.instantiate::<G>(seat));
        let mut legal = Vec::new();
        self.game.legal_actions(&self.state, &mut legal);
        let a = bot.choose(self.game, &self.state, &legal, rng)?;
        Ok(self.game.format_action(&self.state, a))
    }

    fn end_bots(&mut self) {
        for bot in self.bots.iter_mut().flatten() {
            bot.game_over(self.game, &self.state);
        }
        self.bots.clear();
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

    fn action_names(&self) -> Result<Vec<String>, GameError> {
        // Named in the position after setup: the notation of an action does not change
        // during a game (a ship is named by its capacity, fixed at setup).
        Ok(self.space()?.actions().iter().map(|&a| self.game.format_action(&self.start, a)).collect())
    }

    fn action_space_handle(&self) -> Result<Arc<dyn Any + Send + Sync>, GameError> {
        self.space()?;
        match self.space.get() {
            Some(Ok(space)) => Ok(space.clone()),
            _ => Err(GameError::InvalidState("no action space".into())),
        }
    }

    fn adopt_action_space(&mut self, handle: Arc<dyn Any + Send + Sync>) -> bool {
        match handle.downcast::<ActionSpace<G::Action>>() {
            Ok(space) => self.space.set(Ok(space)).is_ok(),
            Err(_) => false,
        }
    }

    fn action_count(&self) -> Result<usize, GameError> {
        Ok(self.space()?.len())
    }

    fn observation_names(&self) -> Vec<String> {
        self.game.observation_names(self.game.player_count(&self.state))
    }

    fn legal_ids(&self, out: &mut Vec<u32>) -> Result<(), GameError> {
        let space = self.space()?;
        let (mut kept, mut fresh) = (self.legal.try_borrow_mut().ok(), Vec::new());
        let buf = kept.as_deref_mut().unwrap_or(&mut fresh);
        self.game.legal_actions(&self.state, buf);
        out.clear();
        for a in buf.iter() {
            let Some(id) = space.id(a) else {
                return Err(GameError::InvalidState(format!(
                    "the legal action `{}` has no id in the action space of {}",
                    self.game.format_action(&self.state, *a),
                    self.game.game_id()
                )));
            };
            out.push(id);
        }
        Ok(())
    }

    fn play_id(&mut self, id: u32) -> Result<(), GameError> {
        let space = self.space()?;
        let Some(action) = space.action(id) else {
            return Err(GameError::Unparsable {
                text: format!("#{id}"),
                reason: format!("action ids run from 0 to {}", space.len().saturating_sub(1)),
            });
        };
        let mut buf = Vec::new();
        self.game.legal_actions(&self.state, &mut buf);
        if !buf.contains(&action) {
            return Err(GameError::Illegal {
                action: format!("#{id} ({})", self.game.format_action(&self.state, action)),
                reason: "not legal now".to_string(),
            });
        }
        self.history.push(self.game.format_action(&self.state, action));
        self.game.apply_legal(&mut self.state, action);
        Ok(())
    }

    fn play_legal_id(&mut self, id: u32) -> Result<(), GameError> {
        let Some(action) = self.space()?.action(id) else {
            return Err(GameError::Illegal { action: format!("#{id}"), reason: "no action has this id".into() });
        };
        self.history.push(self.game.format_action(&self.state, action));
        self.game.apply_legal(&mut self.state, action);
        Ok(())
    }

    fn play_legal_id_unrecorded(&mut self, id: u32) -> Result<(), GameError> {
        let Some(action) = self.space()?.action(id) else {
            return Err(GameError::Illegal { action: format!("#{id}"), reason: "no action has this id".into() });
        };
        self.game.apply_legal(&mut self.state, action);
        Ok(())
    }

    fn observation(&self, seat: Seat, out: &mut [f32]) {
        self.game.observation(&self.state, seat, out);
    }
}
