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

/// Game-independent measures of how far a game has gone, for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Completed or current round number (1-based once play begins).
    pub rounds: u32,
}

/// One game's rules, validated: the rules and nothing else.
///
/// What else a game offers is a capability of its own, a trait of the harness
/// (`rulesmith-core`) with defaults where one exists: state JSON and views (`StateJson`),
/// encodings for learning (`Encode`), designer metrics (`Metrics`), screens (`Screen`)
/// and the bots' settings (`Evaluate`). A game implements what it offers; the harness
/// asks for what it needs. This crate names none of them.
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
    /// Plays an action taken from [`Game::legal_actions`] of this very state, with no
    /// check (the playout hot path: simulation and search). Anything else goes through
    /// [`Game::apply`].
    fn apply_legal(&self, state: &mut Self::State, action: Self::Action);
    /// Plays `action` for the player to move if it is legal; otherwise an error and the
    /// state unchanged. Provided: the legal list, then [`Game::apply_legal`].
    fn apply(&self, state: &mut Self::State, action: Self::Action) -> Result<(), GameError> {
        if self.to_move(state) == ToMove::Terminal {
            return Err(GameError::Over);
        }
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        if !legal.contains(&action) {
            let names: Vec<String> = legal.iter().map(|&a| self.format_action(state, a)).collect();
            return Err(GameError::Illegal {
                action: self.format_action(state, action),
                reason: format!("legal now: {}", names.join(", ")),
            });
        }
        self.apply_legal(state, action);
        Ok(())
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
    /// Every end an outcome of this ruleset may name ([`Outcome::end`]), so that a figure
    /// named after one (`ended by END`) is checked before any game. Empty: the game does
    /// not say, and any name is taken.
    fn end_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// Checks every invariant of a state (components conserved, counts in range).
    /// Used after scenario edits and by the conformance suite.
    fn check_state(&self, state: &Self::State) -> Result<(), GameError>;

    /// Writes the action in the game's notation at the end of `out`: lowercase words,
    /// stable. Into a buffer the caller reuses: a recorded run names every decision.
    fn write_action(&self, state: &Self::State, action: Self::Action, out: &mut String);
    /// The action in the game's notation (see [`Game::write_action`]).
    fn format_action(&self, state: &Self::State, action: Self::Action) -> String {
        let mut out = String::new();
        self.write_action(state, action, &mut out);
        out
    }
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
}

/// Writes a number in decimal at the end of `out` (for [`Game::write_action`]: no
/// formatting machinery per decision).
pub fn push_number(out: &mut String, n: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(n));
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
    // Checked against the list above: `apply` would list the legal actions again.
    game.apply_legal(state, action);
    Ok(action)
}

/// Reads a JSON value into `T`; a problem is named at its JSON Pointer, as scenario edits
/// address it (`/players/0/goods/sugar: invalid type: string "a", expected u8`).
pub fn from_json<T: serde::de::DeserializeOwned>(value: &serde_json::Value) -> Result<T, String> {
    from_json_at("", value)
}

/// [`from_json`] for a part of a larger document that lies at the JSON Pointer `at` (a
/// key read apart from the rest, under a name only known at run time): problems are named
/// from the document's root (`/forest_tiles/corn: …`).
pub fn from_json_at<T: serde::de::DeserializeOwned>(at: &str, value: &serde_json::Value) -> Result<T, String> {
    use serde_path_to_error::Segment;
    serde_path_to_error::deserialize(value).map_err(|e| {
        let inner: String = e
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
        let at = format!("{at}{inner}");
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
