//! Puerto Rico Expansion I, "the new buildings", for rulesmith: the base game with 14 new
//! violet buildings and a building draft at setup, 2–5 players, from the
//! `puerto-rico-expansion` TOML ruleset (which `extends` `puerto-rico`).
//!
//! The new buildings are data: each picks a kind of effect of the base crate's closed
//! vocabulary ([`rulesmith_puerto_rico::rules::Effect`]), whose rules the base crate's
//! phases implement, except the guests and the forests: their moves (guests: windows at
//! phase starts and before storage, moves on the owner's own turn; forests: island tiles
//! laid face down, a discount on buildings) are this crate's [`guests`] and [`forests`],
//! behind the base game's extension points ([`rulesmith_puerto_rico::extension`], joined in
//! [`extension`]). This crate adds the
//! draft too: [`Rules`] wraps the base rules and the draft settings, [`State`] the base
//! state and the draft; until the draft is over its actions are draft picks, afterwards
//! every action goes to the base game.
//!
//! # Notation
//! `draft library` during the draft; then the base game's notation (see
//! [`rulesmith_puerto_rico::action`]), including the expansion effects' actions:
//! `forest`, `plant sugar`, `return colonist from san-juan`, `return indigo`,
//! `return vp`, `sell coffee to trading-post`, `use small-wharf`, `load 3 corn`,
//! `guest to library`, `keep 3 corn 1 sugar`.
//!
//! # State
//! `rulesmith state` prints the base game's state JSON (forests in
//! `/players/N/forests`, the face-down forest tiles in `/forest_tiles`, the buildings out
//! of this game in `/out_of_game`, multi-step decisions in `/pending`) plus `/draft`:
//! `{"slots": [{"cost": 1, "building": "aqueduct"}, …], "over": true}`.
//!
//! # Example
//!
//! Load the ruleset and the house rule
//! `rulesets/house-rules/puerto-rico-expansion-all-buildings.toml`, drive a game, play a seeded
//! game between bots and run a scenario of the library
//! (`tests/scenarios/puerto-rico-expansion/aqueduct-example-1-s001-l511.toml`):
//!
//! ```
//! use std::sync::Arc;
//! use rulesmith_core::erased::AnyGame;
//! use rulesmith_core::game::{GameError, play_text};
//! use rulesmith_core::prelude::*; // the game interface and its capabilities (state JSON …)
//! use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
//! use rulesmith_core::{bots, scenario, sim};
//! use rulesmith_puerto_rico_expansion::Rules;
//!
//! // The rules are data: the TOML ruleset (which the `rulesmith` crate embeds), decoded
//! // and validated into `Rules`. A house rule states only what differs.
//! let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
//! let mut bundled = Vec::new();
//! let text = std::fs::read_to_string(root.join("rulesets/puerto-rico-expansion.toml"))?.leak();
//! bundled.push(Bundled { name: "puerto-rico-expansion", path: "rulesets/puerto-rico-expansion.toml", text });
//! let text = std::fs::read_to_string(root.join("rulesets/puerto-rico.toml"))?.leak();
//! bundled.push(Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text });
//! let load = |arg: &str| -> Result<Rules, String> {
//!     let loaded = ruleset::load(arg, &bundled).map_err(|e| e.render())?;
//!     let mut d = Diagnostics::default();
//!     rulesmith_puerto_rico_expansion::decode(&loaded.tree, &mut d).ok_or_else(|| d.render(&loaded.sources))
//! };
//! let rules = load("puerto-rico-expansion")?;
//! let house = load(&root.join("rulesets/house-rules/puerto-rico-expansion-all-buildings.toml").to_string_lossy())?;
//! // The house rule puts every building in the game: no draft.
//! let draft_over = |rules: &Rules| -> Result<serde_json::Value, GameError> {
//!     Ok(rules.state_to_json(&rules.new_game(4, 7)?)["draft"]["over"].clone())
//! };
//! assert_eq!((draft_over(&rules)?, draft_over(&house)?), (false.into(), true.into()));
//!
//! // Drive a game: 4 players, seed 7, actions in the game's notation.
//! let mut state = rules.new_game(4, 7)?;
//! let mut legal = Vec::new();
//! rules.legal_actions(&state, &mut legal);
//! let first = rules.format_action(&state, legal[0]);
//! assert!(first.starts_with("draft "), "the draft comes first: {first}");
//! play_text(&rules, &mut state, &first)?;
//!
//! // A whole seeded game between bots.
//! let seats = bots::parse_bots("greedy,random,random,random", 4)?;
//! let played = sim::play_game(&rules, &seats, &sim::PlayOptions::new(4, 7))?;
//! assert_eq!(played.outcome.scores.len(), 4);
//!
//! // A scenario: a position, actions, and what must hold afterwards.
//! let case = scenario::read(&root.join("tests/scenarios/puerto-rico-expansion/aqueduct-example-1-s001-l511.toml"))?;
//! let verdict = scenario::run(&case, &mut |arg| Ok(Arc::new(load(arg)?) as Arc<dyn AnyGame>));
//! assert_eq!(verdict, scenario::Verdict::Pass);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod action;
pub mod draft;
pub mod encoding;
pub mod extension;
pub mod forests;
pub mod guests;
mod json;
pub mod rules;
pub mod screen;
pub mod state;

pub use action::Action;
pub use rules::{Rules, decode};
pub use state::State;

use rulesmith_game::encode::ObservationMemo;
use rulesmith_game::game::{Game, GameError, Seat};
use rulesmith_game::staged::SetupThenBase;
use serde_json::Value;

/// The draft, then the base game: [`SetupThenBase`] makes this a [`Game`], with the base
/// game's outcome, metrics and the bots' settings.
impl SetupThenBase for Rules {
    type Base = rulesmith_puerto_rico::Rules;
    type State = State;
    type Pick = u8;

    fn game_id(&self) -> &'static str {
        "puerto-rico-expansion"
    }

    fn base(&self) -> &rulesmith_puerto_rico::Rules {
        &self.base
    }

    fn base_state<'s>(&self, s: &'s State) -> &'s rulesmith_puerto_rico::State {
        &s.base
    }

    fn base_state_mut<'s>(&self, s: &'s mut State) -> &'s mut rulesmith_puerto_rico::State {
        &mut s.base
    }

    fn with_base_state(&self, s: &State, base: rulesmith_puerto_rico::State) -> State {
        State { base, draft: s.draft }
    }

    fn begin(&self, base: rulesmith_puerto_rico::State) -> State {
        let mut s = State { base, draft: state::Draft { slots: [None; rules::MAX_SLOTS], over: false } };
        draft::setup(self, &mut s);
        s
    }

    fn setup_over(&self, s: &State) -> bool {
        s.draft.over
    }

    fn setup_seat(&self, s: &State) -> Seat {
        draft::seat(s)
    }

    fn setup_legal(&self, s: &State, f: &mut impl FnMut(u8)) {
        draft::legal(self, s, f);
    }

    fn setup_pick(&self, s: &mut State, b: u8) {
        draft::pick(self, s, b);
        draft::finish_if_done(self, s);
    }

    fn write_pick(&self, b: u8, out: &mut String) {
        action::write_draft(self, b, out)
    }

    fn parse_pick(&self, text: &str) -> Option<Result<u8, GameError>> {
        action::parse_draft(self, text)
    }

    /// The forests' invariants (tiles conserved, laid on the island) and the draft's.
    fn check_setup(&self, s: &State) -> Result<(), GameError> {
        forests::Forests.check(&s.base).map_err(GameError::InvalidState)?;
        draft::check(self, s).map_err(GameError::InvalidState)
    }

    /// Without a list per decision (the playout path).
    fn base_legal(&self, s: &rulesmith_puerto_rico::State, f: &mut impl FnMut(rulesmith_puerto_rico::Action)) {
        rulesmith_puerto_rico::phases::for_each_legal(&self.base, s, f);
    }
}

impl rulesmith_game::encode::Encode for Rules {
    fn action_space(&self, players: usize) -> Vec<Action> {
        encoding::action_space(self, players)
    }

    fn observation_names(&self, players: usize) -> Vec<String> {
        encoding::observation_names(self, players)
    }

    fn observation(&self, s: &State, seat: Seat, out: &mut [f32]) {
        encoding::observe(self, s, seat, out);
    }

    fn observation_update(&self, s: &State, seat: Seat, out: &mut [f32], memo: &mut ObservationMemo) {
        encoding::observe_update(self, s, seat, out, memo);
    }

    fn action_key(action: &Action) -> Option<u32> {
        encoding::action_key(action)
    }
}

impl rulesmith_game::json::StateJson for Rules {
    fn state_to_json(&self, s: &State) -> Value {
        let mut v = self.base.state_to_json(&s.base);
        if let Some(m) = v.as_object_mut() {
            m.insert("draft".into(), json::draft_out(self, s));
        }
        v
    }

    fn view_to_json(&self, s: &State, seat: Seat) -> Value {
        let mut v = self.state_to_json(&self.observe(s, seat));
        self.base.hide_in_view(&mut v, &s.base, seat);
        v
    }

    fn state_from_json(&self, mut value: Value) -> Result<State, GameError> {
        let draft = json::draft_in(self, &mut value)?;
        let base = self.base.state_from_json(value)?;
        let s = State { base, draft };
        self.check_state(&s)?;
        Ok(s)
    }
}

impl rulesmith_game::screen::Screen for Rules {
    fn screen(&self, s: &State, seat: Seat, style: &rulesmith_game::screen::Style) -> String {
        screen::draw(self, &self.observe(s, seat), seat, style)
    }

    fn annotate(&self, s: &State, a: Action) -> Option<String> {
        screen::annotate(self, s, a)
    }
}
