//! The interface every game implements.
//!
//! A value implementing [`Game`] is the *validated ruleset* of one game: every number
//! and table the rules need, decoded once from TOML. Game states are plain data
//! (`Clone + Serialize`), cheap to clone, and carry their own seeded [`Rng`], so the
//! same ruleset, players, seed and actions always give the same game.
//!
//! Conventions (as in OpenSpiel):
//! - [`Game::to_move`] is a seat or [`ToMove::Terminal`]; chance is resolved inside
//!   [`Game::apply`] from the state's generator, so there are no chance nodes.
//! - [`Game::legal_actions`] clears the buffer and fills it in a stable order; it must
//!   not allocate beyond the buffer's growth.
//! - [`Game::apply`] refuses an illegal action with [`GameError::Illegal`] and leaves the
//!   state unchanged.
//! - Actions print and parse in the game's notation: `parse_action(print(a)) == a`.

use crate::rng::Rng;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fmt::Debug;
use std::hash::Hash;

pub use crate::by_player::Seat;

/// How the `mcts` bot picks a rollout's moves ([`Game::search_rollout_policy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RolloutPolicy {
    /// A uniformly random legal move.
    Random,
    /// The legal move whose result [`Game::heuristic`] rates best for the player to move
    /// (one ply, on the rollout's already determinised state), or a random one
    /// `explore_percent` times in a hundred so rollouts do not all follow one line.
    Greedy { explore_percent: u8 },
}

/// Who must act next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToMove {
    Seat(Seat),
    Terminal,
}

/// Errors a game reports for bad input. Never a panic.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The action is not legal in this state.
    #[error("illegal action `{action}`: {reason}")]
    Illegal { action: String, reason: String },
    /// The action text does not parse in the game's notation.
    #[error("cannot read action `{text}`: {reason}")]
    Unparsable { text: String, reason: String },
    /// The game is over; nobody may act.
    #[error("the game is over")]
    Over,
    /// The player count is outside the ruleset's range.
    #[error("{players} players is not supported by this ruleset (it allows {min}–{max})")]
    PlayerCount { players: usize, min: usize, max: usize },
    /// A state (e.g. edited by a scenario) breaks a rule of the game.
    #[error("invalid state: {0}")]
    InvalidState(String),
}

pub use crate::outcome::Outcome;

/// A game that has not ended after this many decisions is reported as endless, unless its
/// ruleset allows more ([`crate::Game::decision_limit`]).
pub const MAX_DECISIONS: u64 = 200_000;

/// Moves a rollout plays before the game's evaluation scores where it stands (the
/// default of [`Game::search_rollout_depth`]).
/// Full random rollouts of a long game (Mundo 163 runs to ~700 decisions and random
/// play rarely ends it) carry no signal; a short one scored by the heuristic does.
pub const ROLLOUT_DEPTH: usize = 8;

/// Game-independent measures of how far a game has gone, for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Completed or current round number (1-based once play begins).
    pub rounds: u32,
}

/// One game's rules, validated, and everything needed to play it.
pub trait Game: Send + Sync + Sized + 'static {
    /// The full game state: plain data, cheap to clone, serialisable.
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// One decision of one player: small and `Copy`.
    type Action: Copy + Debug + Eq + Hash + Send + Sync;

    /// The game's id, e.g. `puerto-rico` (the `[ruleset] game` key).
    fn game_id(&self) -> &'static str;
    /// Player counts this ruleset supports.
    fn players(&self) -> std::ops::RangeInclusive<usize>;

    /// The position right after setup. Setup decisions (drafts, choices) are actions.
    fn new_game(&self, players: usize, seed: u64) -> Result<Self::State, GameError>;
    fn player_count(&self, state: &Self::State) -> usize;
    fn to_move(&self, state: &Self::State) -> ToMove;
    /// Clears `out` and fills it with every legal action, in a stable order.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);
    /// Plays `action` for the player to move; illegal → error and the state unchanged.
    fn apply(&self, state: &mut Self::State, action: Self::Action) -> Result<(), GameError>;
    /// Plays an action taken from [`Game::legal_actions`] of this very state, skipping
    /// the legality check (the playout hot path: simulation and search). Anything else
    /// must go through [`Game::apply`].
    fn apply_legal(&self, state: &mut Self::State, action: Self::Action) {
        let _ = self.apply(state, action);
    }
    /// `Some` once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;
    fn progress(&self, state: &Self::State) -> Progress;
    /// Most decisions a game of this ruleset may take before it is reported as endless (a
    /// house rule can make a game that never ends). A ruleset with a round limit derives
    /// it from that limit, so a legal long game is never cut short by a lower hidden cap.
    fn decision_limit(&self) -> u64 {
        MAX_DECISIONS
    }

    // --- Designer metrics ([`crate::metrics`]) ---

    /// The game's metrics for this ruleset, in a stable order (names in the game's own
    /// words). Default: none (the game-independent figures still come with every report).
    fn metric_defs(&self) -> Vec<crate::metrics::MetricDef> {
        Vec::new()
    }
    /// How many metrics [`Game::metric_defs`] lists, without building the list.
    fn metric_len(&self) -> usize {
        0
    }
    /// Called on the playout path before each decision is applied: records into `sheet`
    /// what no final-state read can give (when something happened). Must not allocate.
    fn metric_before(&self, _state: &Self::State, _action: Self::Action, _sheet: &mut crate::metrics::MetricSheet) {}
    /// Called right after each decision is applied (to see what it changed, with what
    /// [`Game::metric_before`] kept in the sheet's scratch). Must not allocate.
    fn metric_after(&self, _state: &Self::State, _sheet: &mut crate::metrics::MetricSheet) {}
    /// A seat's standing at a round end, which the `lead changes` metric follows. Default:
    /// the heuristic; a game that can count its score so far gives that instead.
    fn standing(&self, state: &Self::State, seat: Seat) -> f64 {
        self.heuristic(state, seat)
    }
    /// Called once on the final state: records what it tells.
    fn metric_final(&self, _state: &Self::State, _sheet: &mut crate::metrics::MetricSheet) {}

    /// The action in the game's notation: lowercase words, stable.
    fn format_action(&self, state: &Self::State, action: Self::Action) -> String;
    /// Reads the game's notation. The state gives context (e.g. who is to move).
    fn parse_action(&self, state: &Self::State, text: &str) -> Result<Self::Action, GameError>;

    /// What `seat` may see: the state with other players' hidden information and
    /// unseen order (stacks, dice to come) replaced by a neutral value.
    fn observe(&self, state: &Self::State, seat: Seat) -> Self::State;
    /// A full state consistent with what `seat` sees, with the hidden parts drawn from
    /// `rng` (used by the bots: determinisation). Bots pass what [`Game::observe`] gave
    /// `seat`, so the result must depend on nothing `observe` hides: every hidden part
    /// (face-down order, other players' hidden values, the generator) is drawn anew from
    /// what is public, never copied from the state.
    fn determinize(&self, state: &Self::State, seat: Seat, rng: &mut Rng) -> Self::State;

    /// Checks every invariant of a state (components conserved, counts in range).
    /// Used after scenario edits and by the conformance suite.
    fn check_state(&self, state: &Self::State) -> Result<(), GameError>;

    /// A heuristic value of the position for `seat` (higher is better), used by the
    /// `greedy` bot and to cut off search. Game-specific knowledge lives here.
    fn heuristic(&self, state: &Self::State, seat: Seat) -> f64;

    /// How many moves the `mcts` bot plays from a new leaf (as
    /// [`Game::search_rollout_policy`] picks them) before [`Game::heuristic`] scores it: a
    /// setting of the bot, not a rule. Random moves carry signal in some games and only
    /// noise in others; each game sets what measured best.
    fn search_rollout_depth(&self) -> usize {
        ROLLOUT_DEPTH
    }

    /// How the `mcts` bot picks the moves of a rollout: a setting of the bot, not a rule.
    /// Uniformly random moves are cheapest; where they are mostly noise (a dice game whose
    /// turn is a chain of choices), the game's own one-ply choice carries more signal per
    /// iteration than the extra iterations random moves would buy.
    fn search_rollout_policy(&self) -> RolloutPolicy {
        RolloutPolicy::Random
    }

    /// How many more of its own decisions in a row the `greedy` bot looks through after
    /// each candidate (taking the best), before scoring with [`Game::heuristic`]: a setting
    /// of the bot, not a rule. 0 is plain one-ply greedy. A game whose turn is a short
    /// chain of choices (move, then place, then use) whose worth shows only at its end
    /// sets the chain's length; it stops where another player or chance is to move.
    fn greedy_turn_depth(&self) -> usize {
        0
    }

    /// The state as JSON with stable snake_case keys (what `rulesmith state` prints
    /// and scenario pointers address).
    fn state_to_json(&self, state: &Self::State) -> serde_json::Value {
        serde_json::to_value(state).unwrap_or(serde_json::Value::Null)
    }
    /// The inverse of [`Game::state_to_json`], followed by [`Game::check_state`].
    fn state_from_json(&self, value: serde_json::Value) -> Result<Self::State, GameError> {
        let state: Self::State = from_json(&value).map_err(GameError::InvalidState)?;
        self.check_state(&state)?;
        Ok(state)
    }
    /// What `seat` receives as JSON (`rulesmith state --seat`, `play`, bot interfaces):
    /// the JSON of [`Game::observe`]'s state without the generator (`rng`). Games whose
    /// rules hide values override this to mark them `"hidden"` or leave them out, never
    /// showing a plausible stand-in.
    fn view_to_json(&self, state: &Self::State, seat: Seat) -> serde_json::Value {
        let mut v = self.state_to_json(&self.observe(state, seat));
        if let Some(m) = v.as_object_mut() {
            m.remove("rng");
        }
        v
    }

    // --- Fixed-size encodings for learning (`crate::encode`) ---

    /// Every action the rules of this ruleset can ever make legal at a table of
    /// `players`, each once, in a stable order the game documents: an action's id is its
    /// index here. Built from the ruleset (its roles, buildings, goods, tiles …), so a
    /// house rule's new parts get ids without code.
    fn action_space(&self, players: usize) -> Vec<Self::Action>;
    /// The names of the observation's features at a table of `players`, in order: the
    /// observation has exactly this many numbers.
    fn observation_names(&self, players: usize) -> Vec<String>;
    /// Writes what `seat` may see of `state` into `out` (as long as
    /// [`Game::observation_names`] for the state's table; entries are overwritten), feature
    /// by feature in that order. Reads nothing `seat` may not see.
    fn observation(&self, state: &Self::State, seat: Seat, out: &mut [f32]);

    // --- Screens (`rulesmith play`, `rulesmith show-game`) ---

    /// The position as `seat` sees it, drawn for an 80×40 terminal in the game's own
    /// words; what `seat` may not see is drawn as hidden. Games override this; the
    /// default is a compact summary.
    fn screen(&self, state: &Self::State, seat: Seat, style: &crate::screen::Style) -> String {
        let who = match self.to_move(state) {
            ToMove::Seat(s) => format!("seat {s} to move"),
            ToMove::Terminal => "the game is over".to_string(),
        };
        let mut out = format!(
            "{} · round {} · {who} · you are {}\n",
            self.game_id(),
            self.progress(state).rounds,
            style.seat(seat, &format!("seat {seat}"))
        );
        // Every part of the seat's view (hidden values marked as such), one line each.
        if let serde_json::Value::Object(m) = self.view_to_json(state, seat) {
            for (k, v) in &m {
                let items = [v.to_string()];
                crate::screen::wrap(&format!("{k}: "), &items, "", &mut out);
            }
        }
        out
    }

    /// A short note of what a legal action costs or gives (`3 doubloons`), where the game
    /// knows it, for the numbered menu of `play`. Default: none.
    fn annotate(&self, _state: &Self::State, _action: Self::Action) -> Option<String> {
        None
    }
}

/// Plays an action given in notation, with an error that lists the legal actions.
pub fn play_text<G: Game>(game: &G, state: &mut G::State, text: &str) -> Result<G::Action, GameError> {
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    let listing = || {
        let names: Vec<String> = legal.iter().map(|&a| game.format_action(state, a)).collect();
        if names.is_empty() { "none".to_string() } else { names.join(", ") }
    };
    let action = match game.parse_action(state, text) {
        Ok(a) => a,
        Err(GameError::Unparsable { text, reason }) => {
            return Err(GameError::Unparsable { text, reason: format!("{reason}; legal now: {}", listing()) });
        }
        Err(e) => return Err(e),
    };
    if !legal.contains(&action) {
        return Err(GameError::Illegal { action: text.to_string(), reason: format!("legal now: {}", listing()) });
    }
    game.apply(state, action)?;
    Ok(action)
}

/// Reads a JSON value into `T`; a problem is named at its JSON Pointer, as scenario edits
/// address it (`/players/0/goods/sugar: invalid type: string "a", expected u8`).
pub fn from_json<T: serde::de::DeserializeOwned>(value: &serde_json::Value) -> Result<T, String> {
    use serde_path_to_error::Segment;
    serde_path_to_error::deserialize(value).map_err(|e| {
        let at: String = e
            .path()
            .iter()
            .map(|seg| match seg {
                Segment::Seq { index } => format!("/{index}"),
                Segment::Map { key } => format!("/{}", pointer_token(key)),
                Segment::Enum { variant } => format!("/{}", pointer_token(variant)),
                Segment::Unknown => "/?".to_string(),
            })
            .collect();
        let message = plain(e.inner().to_string());
        if at.is_empty() { message } else { format!("{at}: {message}") }
    })
}

/// A key as one reference token of a JSON Pointer (RFC 6901): `~` is written `~0` and `/`
/// `~1`, so that a key holding them is named unambiguously (`/goods/a~1b` for `a/b`).
pub fn pointer_token(key: &str) -> std::borrow::Cow<'_, str> {
    if key.contains(['~', '/']) { key.replace('~', "~0").replace('/', "~1").into() } else { key.into() }
}

/// Reads a JSON object (a report read from a file) into `T`: text that is not JSON is
/// named at its line and column, a value of the wrong shape at its JSON Pointer
/// (`/seats/0: invalid type: integer `5`, expected a map`). Anything but an object is
/// refused whole (serde would read a list as the fields in order).
pub fn object_from_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if !value.is_object() {
        let found = match value {
            serde_json::Value::Array(_) => "a list",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::Bool(_) => "a boolean",
            _ => "null",
        };
        return Err(format!("expected a JSON object, found {found}"));
    }
    from_json(&value)
}

/// serde names a map it expected by the Rust struct meant to read it (`expected struct
/// PlayerJson`), which tells a user nothing: a map is what is expected.
fn plain(message: String) -> String {
    match message.rfind("expected struct ") {
        Some(i) if !message[i + 16..].contains(' ') => format!("{}expected a map", &message[..i]),
        _ => message,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn pointer_tokens_escape_tilde_then_slash() {
        assert_eq!(super::pointer_token("corn"), "corn");
        assert_eq!(super::pointer_token("a/b"), "a~1b");
        assert_eq!(super::pointer_token("~1"), "~01");
        assert_eq!(super::pointer_token("/~"), "~1~0");
        // What it writes, a JSON Pointer reads back as the key.
        let value = serde_json::json!({ "~1/": 7 });
        assert_eq!(value.pointer(&format!("/{}", super::pointer_token("~1/"))), Some(&serde_json::json!(7)));
    }
}
