//! A capability: the state as JSON (what `rulesmith state` prints and scenario pointers
//! address) and each seat's view of it.

use crate::game::{Game, GameError, Seat, from_json};

/// State JSON and views. Every method has a default from the state's serde form; a game
/// overrides what its rules need (names from its ruleset, hidden values marked hidden).
pub trait StateJson: Game {
    /// The state as JSON with stable snake_case keys (what `rulesmith state` prints
    /// and scenario pointers address).
    fn state_to_json(&self, state: &Self::State) -> serde_json::Value {
        serde_json::to_value(state).unwrap_or(serde_json::Value::Null)
    }
    /// The inverse of [`StateJson::state_to_json`], followed by [`Game::check_state`].
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

    /// Why the value at `pointer` (a JSON Pointer into [`StateJson::state_to_json`]) cannot
    /// be set: what the game derives it from, for a scenario's `[set]` that does not stick.
    /// Default: nothing to say.
    fn derived(&self, _pointer: &str) -> Option<String> {
        None
    }
}
