//! An object-safe view of any [`Game`], so the binary can drive whichever ruleset it
//! loaded: every `G: Game` is an [`AnyGame`], and a game in progress is an
//! [`AnySession`] that speaks the game's notation and JSON.

use crate::bots::Evaluate;
use crate::bots::{self, BotSpec};
use crate::encode::Encode;
use crate::encode::{ActionSpace, ObservationMemo};
use crate::game::{Game, GameError, Outcome, Progress, Seat, ToMove};
use crate::json::StateJson;
use crate::metrics::Metrics;
use crate::rng::Rng;
use crate::screen::Screen;
use crate::sim::{self, GameResult, SimError, SimOptions, Tally};
use std::any::Any;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// A capability the game of this ruleset does not offer (its crate does not implement
/// the trait the erased layer would drive it through).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} does not offer {capability}")]
pub struct Missing {
    pub game: &'static str,
    pub capability: &'static str,
}

impl From<Missing> for GameError {
    fn from(m: Missing) -> Self {
        GameError::InvalidState(m.to_string())
    }
}

/// Any game's validated rules.
pub trait AnyGame: Send + Sync {
    fn game_id(&self) -> &'static str;
    fn players(&self) -> RangeInclusive<usize>;
    /// Most decisions a game of this ruleset may take ([`Game::decision_limit`]): what
    /// every front end stops an endless game at.
    fn decision_limit(&self) -> u64;
    /// Every end an outcome may name ([`Game::end_names`]); empty where the game does not say.
    fn end_names(&self) -> Vec<String>;
    /// Plays seeded games between bots ([`sim::simulate`]); needs the designer metrics
    /// and the bots' knowledge ([`Metrics`], [`Evaluate`]).
    fn simulate(&self, opts: &SimOptions, each: &mut dyn FnMut(&GameResult)) -> Result<Tally, SimError>;
    /// Plays a tournament (or its shard): [`crate::tournament::run`].
    fn tournament(
        &self,
        opts: &crate::tournament::TournamentOptions,
    ) -> Result<crate::tournament::TournamentTally, SimError>;
    /// The game's designer metrics for this ruleset ([`Metrics::metric_defs`]); none
    /// where the game offers no metrics.
    fn metric_defs(&self) -> Vec<crate::metrics::MetricDef>;
    /// A new game right after setup.
    fn start(&self, players: usize, seed: u64) -> Result<Box<dyn AnySession + Send + '_>, GameError>;
}

/// A game in progress, played in the game's notation and seen as JSON (what every front
/// end needs). What only some need is asked for: [`AnySession::views`] (screens, the
/// annotated menu, state edits), [`AnySession::bots`], [`AnySession::encodings`]; each is
/// [`Missing`] where the game does not offer it.
pub trait AnySession {
    fn players(&self) -> usize;
    fn to_move(&self) -> ToMove;
    /// The legal actions in notation, in the game's stable order.
    fn legal(&self) -> Vec<String>;
    /// Plays one action given in notation; an error names the legal actions. The text is
    /// read once and checked against one list of legal actions.
    fn play(&mut self, text: &str) -> Result<(), GameError>;
    /// The actions played so far, in notation.
    fn history(&self) -> &[String];
    /// The actions played so far, to edit (when copying a game through its state).
    fn history_mut(&mut self) -> &mut Vec<String>;
    fn outcome(&self) -> Option<Outcome>;
    fn progress(&self) -> Progress;
    /// Goes back to the position after the first `n` actions of the history, by playing
    /// them again from the start (the game is deterministic from its seed).
    fn rewind(&mut self, n: usize) -> Result<(), GameError>;
    fn state_json(&self) -> serde_json::Value;
    /// Replaces the state (after a scenario's `[set]`); checked for every invariant.
    fn set_state_json(&mut self, value: serde_json::Value) -> Result<(), GameError>;
    /// What `seat` sees, as JSON.
    fn view_json(&self, seat: Seat) -> serde_json::Value;

    /// Screens, the annotated menu, what the state derives and its check ([`Screen`]).
    fn views(&self) -> Result<&dyn SessionViews, Missing>;
    /// The bots ([`Evaluate`]).
    fn bots(&mut self) -> Result<&mut dyn SessionBots, Missing>;
    /// Fixed-size encodings for learning ([`Encode`]).
    fn encodings(&mut self) -> Result<&mut dyn SessionEncodings, Missing>;
}

/// A session's screens (`rulesmith play`, `rulesmith show-game`, the web table's menu), and
/// what a scenario's `[set]` and the test kit ask of its state.
pub trait SessionViews {
    /// The position as `seat` sees it ([`Screen::screen`]), in colour when `colour`.
    fn screen(&self, seat: Seat, colour: bool) -> String;
    /// The legal actions in notation, each with what it costs or gives where the game
    /// knows it ([`Screen::annotate`]), in the order of [`AnySession::legal`].
    fn legal_annotated(&self) -> Vec<(String, Option<String>)>;
    /// What the game derives the state's value at `pointer` from ([`StateJson::derived`]).
    fn derived(&self, pointer: &str) -> Option<String>;
    /// Checks every invariant of the current state.
    fn check(&self) -> Result<(), GameError>;
}

/// A session's bots.
pub trait SessionBots {
    /// The action a bot would choose now (not played), in notation; `None` when nobody is
    /// to move or the bot cannot play here ([`crate::learned::Learned::problem`]).
    fn bot_choice(&self, spec: BotSpec, rng: &mut Rng) -> Option<String>;
    /// Plays the action the bot `spec` chooses now, by action (never through its
    /// notation), adding its notation to the history when `record`; `false` when nobody
    /// can act or the bot cannot play here.
    fn bot_play(&mut self, spec: &BotSpec, rng: &mut Rng, record: bool) -> bool;
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
}

/// A session's fixed-size encodings for learning ([`crate::encode`]).
pub trait SessionEncodings {
    /// Every action id of this table in notation, in id order ([`Encode::action_space`]).
    fn action_names(&self) -> Result<Vec<String>, GameError>;
    /// This table's action space, to hand to other games of the same ruleset and player
    /// count ([`SessionEncodings::adopt_action_space`]): building a large one (the
    /// expansion's storage choices) costs milliseconds, and environments start a game per
    /// episode.
    fn action_space_handle(&self) -> Result<Arc<dyn Any + Send + Sync>, GameError>;
    /// Uses the action space of another game of the same ruleset and player count
    /// (from [`SessionEncodings::action_space_handle`]) instead of building one; `false` if
    /// the handle is not this game's kind of space or this game already has its space.
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
    /// caller took from [`SessionEncodings::legal_ids`] of this very state (the
    /// environments' hot path, like [`Game::apply_legal`]); anything else goes through
    /// [`SessionEncodings::play_id`].
    fn play_legal_id(&mut self, id: u32) -> Result<(), GameError>;
    /// [`SessionEncodings::play_legal_id`] without adding the action's notation to the
    /// history (formatting it is about a tenth of a batched environment's step): only for
    /// a session whose history nobody reads, records or rewinds.
    fn play_legal_id_unrecorded(&mut self, id: u32) -> Result<(), GameError>;
    /// Plays the `index`-th legal action (in the order of [`AnySession::legal`]).
    fn play_index(&mut self, index: usize) -> Result<(), GameError>;
    /// `seat`'s observation into `out` ([`Encode::observation`]).
    fn observation(&self, seat: Seat, out: &mut [f32]);
    /// `seat`'s observation into `out`, which holds what the last call with `memo` wrote
    /// ([`Encode::observation_update`]: only what changed since is rewritten).
    fn observation_update(&self, seat: Seat, out: &mut [f32], memo: &mut ObservationMemo);
}

/// Every capability the binary drives a game through: the rules ([`Game`]), state JSON
/// and views, designer metrics, the bots' settings, screens and encodings. A game that
/// implements them all is [`Complete`] (a blanket impl) and so an [`AnyGame`] of itself; a
/// game that offers less is erased with the [`Caps`] it has ([`Partial`]).
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

type ViewsOf<G> = for<'s, 'g> fn(&'s Session<'g, G>) -> &'s (dyn SessionViews + 's);
type BotsOf<G> = for<'s, 'g> fn(&'s mut Session<'g, G>) -> &'s mut (dyn SessionBots + 's);
type EncodingsOf<G> = for<'s, 'g> fn(&'s mut Session<'g, G>) -> &'s mut (dyn SessionEncodings + 's);
type Simulate<G> = fn(&G, &SimOptions, &mut dyn FnMut(&GameResult)) -> Result<Tally, SimError>;
type Tournament<G> =
    fn(&G, &crate::tournament::TournamentOptions) -> Result<crate::tournament::TournamentTally, SimError>;
type MetricDefs<G> = fn(&G) -> Vec<crate::metrics::MetricDef>;

/// The capabilities a game offers the erased layer beyond playing in notation and JSON,
/// each reached through a function made where the game's type is known to have it (so the
/// erased layer asks for a capability instead of requiring it of every game).
pub struct Caps<G: StateJson> {
    views: Option<ViewsOf<G>>,
    bots: Option<BotsOf<G>>,
    encodings: Option<EncodingsOf<G>>,
    runs: Option<(Simulate<G>, Tournament<G>, MetricDefs<G>)>,
}

impl<G: StateJson> Clone for Caps<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: StateJson> Copy for Caps<G> {}

fn views_of<'s, G: Screen>(s: &'s Session<'_, G>) -> &'s (dyn SessionViews + 's) {
    s
}

fn bots_of<'s, G: Evaluate + Encode + StateJson>(s: &'s mut Session<'_, G>) -> &'s mut (dyn SessionBots + 's) {
    s
}

fn encodings_of<'s, G: Encode + StateJson>(s: &'s mut Session<'_, G>) -> &'s mut (dyn SessionEncodings + 's) {
    s
}

fn simulate_of<G: Metrics + StateJson + Encode>(
    game: &G,
    opts: &SimOptions,
    each: &mut dyn FnMut(&GameResult),
) -> Result<Tally, SimError> {
    sim::simulate(game, opts, each)
}

impl<G: StateJson> Caps<G> {
    /// Play in notation and JSON only.
    pub fn none() -> Self {
        Caps { views: None, bots: None, encodings: None, runs: None }
    }
    /// Every capability.
    pub fn complete() -> Self
    where
        G: Complete,
    {
        Caps::none().with_views().with_bots().with_encodings().with_runs()
    }
    /// Screens, the annotated menu and state edits ([`Screen`]).
    pub fn with_views(mut self) -> Self
    where
        G: Screen,
    {
        self.views = Some(views_of::<G>);
        self
    }
    /// The bots ([`Evaluate`]; [`Encode`] for the `learned` bot's observation).
    pub fn with_bots(mut self) -> Self
    where
        G: Evaluate + Encode,
    {
        self.bots = Some(bots_of::<G>);
        self
    }
    /// Encodings for learning ([`Encode`]).
    pub fn with_encodings(mut self) -> Self
    where
        G: Encode,
    {
        self.encodings = Some(encodings_of::<G>);
        self
    }
    /// Seeded runs between bots with their designer metrics: simulations and tournaments
    /// ([`Metrics`]; [`Encode`] for the `learned` bot).
    pub fn with_runs(mut self) -> Self
    where
        G: Metrics + Encode,
    {
        self.runs = Some((simulate_of::<G>, crate::tournament::run::<G>, <G as Metrics>::metric_defs));
        self
    }
}

/// A game erased with the capabilities it offers (a game that is [`Complete`] is an
/// [`AnyGame`] of itself).
pub struct Partial<G: StateJson> {
    pub game: G,
    pub caps: Caps<G>,
}

impl<G: StateJson + Send + Sync> AnyGame for Partial<G> {
    fn game_id(&self) -> &'static str {
        self.game.game_id()
    }

    fn players(&self) -> RangeInclusive<usize> {
        self.game.players()
    }

    fn decision_limit(&self) -> u64 {
        self.game.decision_limit()
    }

    fn end_names(&self) -> Vec<String> {
        self.game.end_names()
    }

    fn simulate(&self, opts: &SimOptions, each: &mut dyn FnMut(&GameResult)) -> Result<Tally, SimError> {
        match self.caps.runs {
            Some((simulate, _, _)) => simulate(&self.game, opts, each),
            None => Err(no_runs(self.game.game_id(), opts.seed)),
        }
    }

    fn tournament(
        &self,
        opts: &crate::tournament::TournamentOptions,
    ) -> Result<crate::tournament::TournamentTally, SimError> {
        match self.caps.runs {
            Some((_, tournament, _)) => tournament(&self.game, opts),
            None => Err(no_runs(self.game.game_id(), opts.seed)),
        }
    }

    fn metric_defs(&self) -> Vec<crate::metrics::MetricDef> {
        self.caps.runs.map(|(_, _, defs)| defs(&self.game)).unwrap_or_default()
    }

    fn start(&self, players: usize, seed: u64) -> Result<Box<dyn AnySession + Send + '_>, GameError> {
        Session::start(&self.game, self.caps, players, seed)
    }
}

fn no_runs(game: &'static str, seed: u64) -> SimError {
    let missing = Missing { game, capability: "runs between bots (designer metrics and bot settings)" };
    SimError::Game { index: 0, seed, source: missing.into() }
}

impl<G: Complete> AnyGame for G {
    fn game_id(&self) -> &'static str {
        Game::game_id(self)
    }

    fn players(&self) -> RangeInclusive<usize> {
        Game::players(self)
    }

    fn decision_limit(&self) -> u64 {
        Game::decision_limit(self)
    }

    fn end_names(&self) -> Vec<String> {
        Game::end_names(self)
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
        Session::start(self, Caps::complete(), players, seed)
    }
}

/// A typed game in progress.
pub struct Session<'g, G: StateJson> {
    pub game: &'g G,
    pub state: G::State,
    pub history: Vec<String>,
    /// The position after setup, where a rewind plays again from.
    pub start: G::State,
    caps: Caps<G>,
    /// The table's action space, built on first use (or adopted from another game).
    space: std::cell::OnceCell<Result<Arc<ActionSpace<G::Action>>, String>>,
    /// The bots asked through [`SessionBots::bot_move`], by seat.
    bots: Vec<Option<Box<dyn bots::Bot<G> + Send>>>,
    /// The legal actions' list [`AnySession::play`] and [`SessionEncodings::legal_ids`]
    /// fill (kept: one allocation per session, not per decision).
    legal: std::cell::RefCell<Vec<G::Action>>,
}

impl<'g, G: StateJson> Session<'g, G> {
    /// A new game of `game` right after setup, offering `caps`.
    pub fn start(
        game: &'g G,
        caps: Caps<G>,
        players: usize,
        seed: u64,
    ) -> Result<Box<dyn AnySession + Send + 'g>, GameError>
    where
        G: Sync,
    {
        let state = game.new_game(players, seed)?;
        Ok(Box::new(Session {
            game,
            start: state.clone(),
            state,
            history: Vec::new(),
            caps,
            space: std::cell::OnceCell::new(),
            bots: Vec::new(),
            legal: std::cell::RefCell::default(),
        }))
    }

    fn missing(&self, capability: &'static str) -> Missing {
        Missing { game: self.game.game_id(), capability }
    }
}

impl<G: Encode + StateJson> Session<'_, G> {
    fn space(&self) -> Result<&ActionSpace<G::Action>, GameError> {
        let players = self.game.player_count(&self.state);
        self.space
            .get_or_init(|| ActionSpace::new(self.game, players).map(Arc::new))
            .as_ref()
            .map(|a| &**a)
            .map_err(|e| GameError::InvalidState(e.clone()))
    }
}

impl<G: StateJson> AnySession for Session<'_, G> {
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
        let (mut kept, mut fresh) = (self.legal.try_borrow_mut().ok(), Vec::new());
        let legal = kept.as_deref_mut().unwrap_or(&mut fresh);
        let action = legal_action(self.game, &self.state, text, legal)?;
        // Record the canonical spelling (printed before the state changes), so records
        // always round-trip whatever spelling was typed.
        self.history.push(self.game.format_action(&self.state, action));
        self.game.apply_legal(&mut self.state, action);
        Ok(())
    }

    fn history(&self) -> &[String] {
        &self.history
    }

    fn history_mut(&mut self) -> &mut Vec<String> {
        &mut self.history
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome(&self.state)
    }

    fn progress(&self) -> Progress {
        self.game.progress(&self.state)
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

    fn views(&self) -> Result<&dyn SessionViews, Missing> {
        match self.caps.views {
            Some(views) => Ok(views(self)),
            None => Err(self.missing("screens")),
        }
    }

    fn bots(&mut self) -> Result<&mut dyn SessionBots, Missing> {
        match self.caps.bots {
            Some(bots) => Ok(bots(self)),
            None => Err(self.missing("bots")),
        }
    }

    fn encodings(&mut self) -> Result<&mut dyn SessionEncodings, Missing> {
        match self.caps.encodings {
            Some(encodings) => Ok(encodings(self)),
            None => Err(self.missing("encodings for learning")),
        }
    }
}

/// The legal action `text` names, read once and checked against one list of the legal
/// actions (filled into `legal`); an error names the legal actions.
fn legal_action<G: Game>(
    game: &G,
    state: &G::State,
    text: &str,
    legal: &mut Vec<G::Action>,
) -> Result<G::Action, GameError> {
    legal.clear();
    game.legal_actions(state, legal);
    let listing = |legal: &[G::Action]| {
        let names: Vec<String> = legal.iter().map(|&a| game.format_action(state, a)).collect();
        if names.is_empty() { "none".to_string() } else { names.join(", ") }
    };
    let action = match game.parse_action(state, text) {
        Ok(a) => a,
        Err(GameError::Unparsable { text, reason }) => {
            return Err(GameError::Unparsable { text, reason: format!("{reason}; legal now: {}", listing(legal)) });
        }
        Err(e) => return Err(e),
    };
    if !legal.contains(&action) {
        return Err(GameError::Illegal { action: text.to_string(), reason: format!("legal now: {}", listing(legal)) });
    }
    Ok(action)
}

impl<G: Screen> SessionViews for Session<'_, G> {
    fn screen(&self, seat: Seat, colour: bool) -> String {
        self.game.screen(&self.state, seat, &crate::screen::Style { colour })
    }

    fn legal_annotated(&self) -> Vec<(String, Option<String>)> {
        let mut buf = Vec::new();
        self.game.legal_actions(&self.state, &mut buf);
        buf.iter().map(|&a| (self.game.format_action(&self.state, a), self.game.annotate(&self.state, a))).collect()
    }

    fn derived(&self, pointer: &str) -> Option<String> {
        self.game.derived(pointer)
    }

    fn check(&self) -> Result<(), GameError> {
        self.game.check_state(&self.state)
    }
}

impl<G: Evaluate + Encode + StateJson> SessionBots for Session<'_, G> {
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

    fn bot_play(&mut self, spec: &BotSpec, rng: &mut Rng, record: bool) -> bool {
        let (mut kept, mut fresh) = (self.legal.try_borrow_mut().ok(), Vec::new());
        let legal = kept.as_deref_mut().unwrap_or(&mut fresh);
        legal.clear();
        self.game.legal_actions(&self.state, legal);
        if legal.is_empty() {
            return false;
        }
        // A `learned` bot that cannot play this table plays nothing (its spec says why).
        let Ok(a) = bots::try_choose(self.game, spec, &self.state, legal, rng) else {
            return false;
        };
        if record {
            self.history.push(self.game.format_action(&self.state, a));
        }
        self.game.apply_legal(&mut self.state, a);
        true
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
}

impl<G: Encode + StateJson> SessionEncodings for Session<'_, G> {
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

    fn observation(&self, seat: Seat, out: &mut [f32]) {
        self.game.observation(&self.state, seat, out);
    }

    fn observation_update(&self, seat: Seat, out: &mut [f32], memo: &mut ObservationMemo) {
        self.game.observation_update(&self.state, seat, out, memo);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{GAME_ID, take_away};

    /// A game erased with fewer capabilities plays in notation and JSON and names what it
    /// lacks, where the loader once required all six traits of every game.
    #[test]
    fn a_game_offering_less_says_what_it_lacks() -> Result<(), Box<dyn std::error::Error>> {
        let partial = Partial { game: take_away()?, caps: Caps::none().with_bots() };
        let mut s = AnyGame::start(&partial, 2, 7)?;
        s.play("take 3")?;
        assert_eq!(s.history(), ["take 3"]);
        assert_eq!(s.views().err(), Some(Missing { game: GAME_ID, capability: "screens" }));
        let lacks = s.encodings().err().map(|e| e.to_string());
        assert_eq!(lacks.as_deref(), Some("take-away does not offer encodings for learning"));
        assert!(s.bots()?.bot_play(&BotSpec::Random, &mut Rng::from_seed(1), true));
        assert_eq!(s.history().len(), 2);
        assert!(partial.metric_defs().is_empty());

        let full = take_away()?;
        let mut s = AnyGame::start(&full, 2, 7)?;
        assert!(s.views().is_ok() && s.bots().is_ok() && s.encodings().is_ok());
        Ok(())
    }

    /// A bot's move played by action (the batched environments) is the move its notation
    /// names, read back (what they did before).
    #[test]
    fn bots_play_by_action_as_by_their_notation() -> Result<(), Box<dyn std::error::Error>> {
        let game = take_away()?;
        let (mut by_text, mut by_action) = (AnyGame::start(&game, 3, 11)?, AnyGame::start(&game, 3, 11)?);
        let spec = BotSpec::Greedy;
        for decision in 0.. {
            let seed = crate::rng::game_seed(5, decision);
            let Some(text) = by_text.bots()?.bot_choice(spec.clone(), &mut Rng::from_seed(seed)) else { break };
            by_text.play(&text)?;
            assert!(by_action.bots()?.bot_play(&spec, &mut Rng::from_seed(seed), true));
            assert_eq!(by_text.history(), by_action.history());
        }
        assert!(by_action.outcome().is_some() && by_action.history().len() > 3);
        assert!(!by_action.bots()?.bot_play(&spec, &mut Rng::from_seed(1), true));
        assert_eq!(by_text.state_json(), by_action.state_json());
        Ok(())
    }
}
