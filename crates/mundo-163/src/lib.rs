//! 504, World 163 ("Mundo 163"): The World of Traveling Road Builders with a Bias to
//! Individualism, for 2–4 players, played from the bundled ruleset `mundo-163`.
//!
//! Sources: the Spanish summary `seeds/004_08882bf69cdac25c.txt` (cited `S004:Lnn`) and
//! the full reference `rules/mundo163-504-reference.md` (cited `REF §n`). Every number,
//! the map, the cities and the privileges live in `rulesets/mundo-163.toml`; this crate
//! implements the kinds of rule. The defaults chosen where the sources are silent are
//! listed in the crate's README.
//!
//! # Turn structure
//! Setup: capitals are chosen in reverse turn order, each offering a goods type no other
//! capital offers; each trolley loads one good from its capital. Then each turn runs
//! 3 C purchase (one privilege → one upgrade → residents), 3 D residents, 3 E trolley and
//! 3 H income (automatic at `end trolley`). The game ends after the round in which
//! 19 / 21 / 23 goods (2 / 3 / 4 players) have been delivered in total.
//!
//! # Notation
//! Tiles are named by row letter (`a` at the top to `i`) and column from the left
//! (`a1` is city 5, `e4` city 1); cities by their number; privileges by their card label
//! (`i-2`, `ii-11`, `iii-9`); goods by name (`wheat`, `cattle`, `fish`, `wood`, `ore`).
//!
//! | action | meaning |
//! |---|---|
//! | `capital 5` | choose city 5 as capital (setup) |
//! | `buy i-8 for 20`, `buy i-8 for 0` | buy privilege I (8) from the row at that price |
//! | `no privilege` | buy none: every card in the row drops to $0 |
//! | `upgrade movement`, `upgrade cargo`, `no upgrade` | the turn's trolley upgrade |
//! | `buy resident e4` | buy one resident onto an own tile (in tile order) |
//! | `end purchase` | end 3 C: exhausted residents stand up |
//! | `move e4 e3` | an active resident moves along own roads (stays active) |
//! | `step e3 d2` | an active resident steps to an adjacent tile and is exhausted, or becomes a settlement there |
//! | `road e3 e4 pay 1 2 lose e4` | build a road paid by 1 active resident on `e3` and 2 on `e4`; the one returned to storage comes from `e4` |
//! | `free road e3 e4` | privilege III (9): a road without residents |
//! | `again d2` | privilege II (11): an exhausted resident on `d2` acts once more |
//! | `end residents` | end 3 D |
//! | `go e3` | the trolley moves to a tile it can reach with the movement it has left, by the cheapest way |
//! | `load wheat`, `load resident` | load one good / one exhausted resident |
//! | `unload wheat`, `unload resident` | unload one (a good is delivered where a city demands it) |
//! | `end trolley` | end 3 E; 3 H pays income and the next turn begins |
//!
//! `parse_action(format_action(a)) == a` for every action; `road` also reads its tiles in
//! either order, and the `lose` clause is absent when no resident is returned.
//!
//! A turn is a few dozen small decisions and every phase is finite: each resident moves
//! along roads at most once and acts once (twice with II (11)); the trolley's moves cost
//! movement (and are capped per turn); undoing a load or unload at the same stop is
//! refused; `end …` is always legal. The ruleset's `max_rounds` ends games in which
//! nobody delivers (see the README).
//!
//! # State JSON
//! Maps are keyed by names, e.g. `/players/0/money`, `/players/0/residents/e4/exhausted`,
//! `/players/0/settlements`, `/players/0/roads` (`["e1-e2"]`), `/players/0/trolley/goods/fish`,
//! `/players/0/majority/forest`, `/cities/1/demands/1/covered`, `/lying_goods/e3/wheat`,
//! `/privilege_row/0/price`. Derived values are printed and recomputed when read.
//!
//! # Example
//!
//! Load the ruleset and a house rule (here inline) that starts everyone with $100, drive a
//! game, play a seeded game between bots and run a scenario of the library
//! (`tests/scenarios/mundo-163/delivery-covers-demand.toml`):
//!
//! ```
//! use std::sync::Arc;
//! use rulesmith_core::erased::AnyGame;
//! use rulesmith_core::game::{GameError, play_text};
//! use rulesmith_core::prelude::*; // the game interface and its capabilities (state JSON …)
//! use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
//! use rulesmith_core::{bots, scenario, sim};
//! use rulesmith_mundo_163::Mundo163;
//!
//! // The rules are data: the TOML ruleset (which the `rulesmith` crate embeds), decoded
//! // and validated into `Mundo163`. A house rule states only what differs.
//! let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
//! let mut bundled = Vec::new();
//! let text = rulesmith_mundo_163::BUNDLED_TOML;
//! bundled.push(Bundled { name: "mundo-163", path: "rulesets/mundo-163.toml", text });
//! bundled.push(Bundled {
//!     name: "rich-start",
//!     path: "rich-start.toml",
//!     text: "[ruleset]\nname = \"rich-start\"\nextends = \"mundo-163\"\n\n[setup]\nstarting_money = 100\n",
//! });
//! let load = |arg: &str| -> Result<Mundo163, String> {
//!     let loaded = ruleset::load(arg, &bundled).map_err(|e| e.render())?;
//!     let mut d = Diagnostics::default();
//!     rulesmith_mundo_163::decode(&loaded.tree, &mut d).ok_or_else(|| d.render(&loaded.sources))
//! };
//! let rules = load("mundo-163")?;
//! let house = load("rich-start")?;
//! let money = |rules: &Mundo163| -> Result<serde_json::Value, GameError> {
//!     Ok(rules.state_to_json(&rules.new_game(4, 7)?)["players"][0]["money"].clone())
//! };
//! assert_eq!((money(&rules)?, money(&house)?), (80.into(), 100.into()));
//!
//! // Drive a game: 4 players, seed 7, actions in the game's notation.
//! let mut state = rules.new_game(4, 7)?;
//! play_text(&rules, &mut state, "capital 1")?;
//! let mut legal = Vec::new();
//! rules.legal_actions(&state, &mut legal);
//! let names: Vec<String> = legal.iter().map(|&a| rules.format_action(&state, a)).collect();
//! assert!(!names.contains(&"capital 1".to_string()), "city 1 is taken: {names:?}");
//!
//! // A whole seeded game between bots.
//! let seats = bots::parse_bots("greedy,random,random,random", 4)?;
//! let played = sim::play_game(&rules, &seats, &sim::PlayOptions::new(4, 7))?;
//! assert_eq!(played.outcome.scores.len(), 4);
//!
//! // A scenario: a position, actions, and what must hold afterwards.
//! let case = scenario::read(&root.join("tests/scenarios/mundo-163/delivery-covers-demand.toml"))?;
//! let verdict = scenario::run(&case, &mut |arg| Ok(Arc::new(load(arg)?) as Arc<dyn AnyGame>));
//! assert_eq!(verdict, scenario::Verdict::Pass);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod action;
mod check;
pub mod encoding;
pub mod fixed;
mod heuristic;
mod hidden;
pub mod metrics;
pub mod purchase;
pub mod residents;
pub mod rules;
pub mod scoring;
pub mod screen;
pub mod setup;
pub mod state;
pub mod trolley;
mod view;

pub use action::{Action, Track};
pub use rules::Rules;
pub use state::{Phase, State};

use rulesmith_game::game::Progress;
use rulesmith_game::ruleset::{Diagnostics, Node};
use rulesmith_game::{Game, GameError, Outcome, Rng, Seat, ToMove};
use state::End;

/// The bundled ruleset's text: a copy of the repository's `rulesets/mundo-163.toml` (which
/// the `rulesmith` facade embeds) kept inside this crate so that it publishes on its own;
/// the root test `packaging` checks that the two are equal.
pub const BUNDLED_TOML: &str = include_str!("../mundo-163.toml");

/// Loads and decodes the bundled ruleset `mundo-163`, or an `extends` of it.
pub fn load(arg: &str) -> Result<Mundo163, String> {
    let bundled =
        [rulesmith_game::ruleset::Bundled { name: "mundo-163", path: "rulesets/mundo-163.toml", text: BUNDLED_TOML }];
    let loaded = rulesmith_game::ruleset::load(arg, &bundled).map_err(|e| e.render())?;
    let mut d = Diagnostics::default();
    match decode(&loaded.tree, &mut d) {
        Some(g) if d.is_empty() => Ok(g),
        _ => Err(d.render(&loaded.sources)),
    }
}

/// The game id (`[ruleset] game`).
pub const GAME_ID: &str = "mundo-163";

/// A safety bound, not a rule: far above what a round takes (a few dozen decisions at
/// five players), so a game is only reported endless when something loops.
const DECISIONS_PER_ROUND: u64 = 2_000;

/// World 163 with its validated ruleset.
#[derive(Clone, Debug)]
pub struct Mundo163 {
    pub rules: Rules,
}

/// Decodes the whole merged ruleset tree, reporting every problem into `d`.
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Mundo163> {
    rules::decode(tree, d).map(|rules| Mundo163 { rules })
}

impl Mundo163 {
    /// Whether `action` may be played now (every index in it checked first).
    pub fn is_legal(&self, s: &State, action: Action) -> bool {
        let r = &self.rules;
        let tile = |t: u8| usize::from(t) < r.tiles();
        let good = |g: u8| usize::from(g) < r.goods.len();
        match (s.phase, action) {
            (Phase::Capital, Action::Capital(c)) => purchase::can_choose_capital(r, s, c),
            (Phase::Privilege, Action::BuyPrivilege { kind, free }) => {
                purchase::privilege_position(r, s, kind, free).is_some()
            }
            (Phase::Privilege, Action::NoPrivilege) => true,
            (Phase::Upgrade, Action::Upgrade(t)) => purchase::can_upgrade(r, s, t),
            (Phase::Upgrade, Action::NoUpgrade) => true,
            (Phase::BuyResidents, Action::BuyResident(t)) => tile(t) && purchase::can_buy_resident(r, s, t),
            (Phase::BuyResidents, Action::EndPurchase) => true,
            (Phase::Residents, Action::Move { from, to }) => {
                tile(from) && tile(to) && residents::can_move(r, s, from, to)
            }
            (Phase::Residents, Action::Step { from, to }) => {
                tile(from) && tile(to) && residents::can_step(r, s, from, to)
            }
            (Phase::Residents, Action::Road { a, b, from_a, from_b, lose_a }) => {
                tile(a) && tile(b) && residents::can_road(r, s, a, b, from_a, from_b, lose_a)
            }
            (Phase::Residents, Action::FreeRoad { a, b }) => tile(a) && tile(b) && residents::can_free_road(r, s, a, b),
            (Phase::Residents, Action::Again(t)) => tile(t) && residents::can_again(r, s, t),
            (Phase::Residents, Action::EndResidents) => true,
            (Phase::Trolley, Action::Go(t)) => tile(t) && trolley::can_go(r, s, t),
            (Phase::Trolley, Action::Load(g)) => good(g) && trolley::can_load(r, s, g),
            (Phase::Trolley, Action::LoadResident) => trolley::can_load_resident(r, s),
            (Phase::Trolley, Action::Unload(g)) => good(g) && trolley::can_unload(s, g),
            (Phase::Trolley, Action::UnloadResident) => trolley::can_unload_resident(r, s),
            (Phase::Trolley, Action::EndTrolley) => true,
            _ => false,
        }
    }

    /// Carries out an action already known to be legal.
    fn play(&self, state: &mut State, action: Action) {
        let r = &self.rules;
        let s = state;
        match action {
            Action::Capital(c) => purchase::choose_capital(r, s, c),
            Action::BuyPrivilege { kind, free } => {
                if let Some(pos) = purchase::privilege_position(r, s, kind, free) {
                    purchase::buy_privilege(r, s, pos, free);
                }
            }
            Action::NoPrivilege => purchase::no_privilege(s),
            Action::Upgrade(t) => purchase::upgrade(r, s, t),
            Action::NoUpgrade => s.phase = Phase::BuyResidents,
            Action::BuyResident(t) => purchase::buy_resident(r, s, t),
            Action::EndPurchase => purchase::end_purchase(s),
            Action::Move { from, to } => residents::move_along_roads(r, s, from, to),
            Action::Step { from, to } => residents::step(r, s, from, to),
            Action::Road { a, b, from_a, from_b, lose_a } => residents::build_road(r, s, a, b, from_a, from_b, lose_a),
            Action::FreeRoad { a, b } => residents::build_free_road(r, s, a, b),
            Action::Again(t) => residents::again(r, s, t),
            Action::EndResidents => residents::end_residents(r, s),
            Action::Go(t) => trolley::go(r, s, t),
            Action::Load(g) => trolley::load(r, s, g),
            Action::LoadResident => trolley::load_resident(r, s),
            Action::Unload(g) => trolley::unload(r, s, g),
            Action::UnloadResident => trolley::unload_resident(r, s),
            Action::EndTrolley => trolley::end_trolley(r, s),
        }
    }
}

impl Game for Mundo163 {
    type State = State;
    type Action = Action;

    fn game_id(&self) -> &'static str {
        GAME_ID
    }

    fn players(&self) -> std::ops::RangeInclusive<usize> {
        self.rules.min_players()..=self.rules.max_players()
    }

    fn new_game(&self, players: usize, seed: u64) -> Result<State, GameError> {
        setup::new_game(&self.rules, players, seed)
    }

    fn player_count(&self, state: &State) -> usize {
        usize::from(state.players)
    }

    fn to_move(&self, state: &State) -> ToMove {
        if state.phase == Phase::Over { ToMove::Terminal } else { ToMove::Seat(state.current) }
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        out.clear();
        let r = &self.rules;
        match state.phase {
            Phase::Capital | Phase::Privilege | Phase::Upgrade | Phase::BuyResidents => purchase::legal(r, state, out),
            Phase::Residents => residents::legal(r, state, out),
            Phase::Trolley => trolley::legal(r, state, out),
            Phase::Over => {}
        }
    }

    fn apply_legal(&self, state: &mut State, action: Action) {
        if state.phase != Phase::Over {
            self.play(state, action);
        }
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        match state.end {
            End::None => None,
            End::DeliveredGoods => Some(scoring::outcome(&self.rules, state, "delivered_goods")),
            // `max_rounds` is a safety cap, not a rule of the game: nobody wins (REF §2.9).
            End::RoundLimit => Some(scoring::outcome(&self.rules, state, "round_limit").stopped()),
        }
    }

    fn end_names(&self) -> Vec<String> {
        vec!["delivered_goods".into(), "round_limit".into()]
    }

    /// Each round may take up to `DECISIONS_PER_ROUND` decisions, for `max_rounds` rounds.
    fn decision_limit(&self) -> u64 {
        u64::from(self.rules.end.max_rounds)
            .saturating_mul(DECISIONS_PER_ROUND)
            .max(rulesmith_game::game::MAX_DECISIONS)
    }

    fn progress(&self, state: &State) -> Progress {
        Progress { rounds: state.round }
    }

    fn write_action(&self, _state: &State, action: Action, out: &mut String) {
        action::write(&self.rules, action, out)
    }

    fn parse_action(&self, _state: &State, text: &str) -> Result<Action, GameError> {
        action::parse(&self.rules, text)
    }

    fn observe(&self, state: &State, _seat: Seat) -> State {
        hidden::observe(&self.rules, state)
    }

    fn determinize(&self, state: &State, _seat: Seat, rng: &mut Rng) -> State {
        hidden::determinize(&self.rules, state, rng)
    }

    fn check_state(&self, state: &State) -> Result<(), GameError> {
        check::check(&self.rules, state)
    }
}

impl rulesmith_game::metrics::Metrics for Mundo163 {
    fn metric_defs(&self) -> Vec<rulesmith_game::metrics::MetricDef> {
        metrics::list(&self.rules)
    }

    fn metric_len(&self) -> usize {
        metrics::count(&self.rules)
    }

    #[inline]
    fn metric_before(&self, s: &State, a: Action, m: &mut rulesmith_game::metrics::MetricSheet) -> bool {
        // The after hook sees the decisions that change money (purchases, income).
        metrics::decision(&self.rules, s, a, m)
    }

    #[inline]
    fn metric_after(&self, s: &State, m: &mut rulesmith_game::metrics::MetricSheet) {
        metrics::applied(&self.rules, s, m);
    }

    fn metric_final(&self, s: &State, m: &mut rulesmith_game::metrics::MetricSheet) {
        metrics::end(&self.rules, s, m);
    }

    /// The evaluation's cache of trolley distances, kept for the game: a seat whose
    /// trolley, roads and the map did not change since an earlier round end is not
    /// searched again (the same values).
    fn standings_scratch(&self) -> Box<dyn std::any::Any> {
        rulesmith_game::evaluate::Evaluate::search_scratch(self)
    }

    fn standings(
        &self,
        s: &State,
        _: &mut rulesmith_game::metrics::MetricSheet,
        scratch: &mut dyn std::any::Any,
        out: &mut [f64],
    ) {
        for (seat, v) in out.iter_mut().enumerate() {
            *v = rulesmith_game::evaluate::Evaluate::heuristic_in_search(self, s, seat as Seat, scratch);
        }
    }

    /// The reference's word: "Players and money" ($).
    fn money_name(&self) -> Option<&'static str> {
        Some("money")
    }

    /// The victory points as the final scoring would count them now, and the money held.
    fn round_figures(
        &self,
        s: &State,
        seat: Seat,
        _: Option<f64>,
        _: &rulesmith_game::metrics::MetricSheet,
    ) -> rulesmith_game::metrics::SeatFigures {
        rulesmith_game::metrics::SeatFigures {
            score: i64::from(scoring::score(&self.rules, s, seat)),
            money: i64::from(s.player(seat).money),
        }
    }
}

impl rulesmith_game::encode::Encode for Mundo163 {
    fn action_space(&self, players: usize) -> Vec<Action> {
        encoding::action_space(&self.rules, players)
    }

    fn observation_names(&self, players: usize) -> Vec<String> {
        encoding::observation_names(&self.rules, players)
    }

    fn observation(&self, state: &State, seat: Seat, out: &mut [f32]) {
        encoding::observe(&self.rules, state, seat, out);
    }
}

impl rulesmith_game::evaluate::Evaluate for Mundo163 {
    fn heuristic(&self, state: &State, seat: Seat) -> f64 {
        heuristic::heuristic(&self.rules, state, seat)
    }

    fn search_scratch(&self) -> Box<dyn std::any::Any> {
        Box::new(heuristic::PathCache::default())
    }

    fn heuristic_in_search(&self, state: &State, seat: Seat, scratch: &mut dyn std::any::Any) -> f64 {
        heuristic::heuristic_with(&self.rules, state, seat, scratch.downcast_mut())
    }

    /// Random moves in Mundo 163 are mostly aimless trolley steps: scoring the leaf at
    /// once beat 8 random moves (mcts:200 against greedy, 2 players: 38.5 against 50.5
    /// points on average, where 8 random moves scored 15 against 70).
    fn search_rollout_depth(&self) -> usize {
        0
    }

    /// A Mundo 163 turn is a chain of decisions with dozens of moves each (residents'
    /// steps and roads, trolley steps), most of them poor: trying each once before
    /// searching any deeper left a 100 ms search barely past the next decision. Widening
    /// best first (the heuristic's order) won 22 of 24 three-player games against two
    /// greedy seats where plain search won 19 (`mcts:8000` each; see the README).
    fn search_widening(&self) -> Option<rulesmith_game::evaluate::Widening> {
        Some(rulesmith_game::evaluate::Widening { base: 2.0, exponent: 0.5 })
    }
}

impl rulesmith_game::json::StateJson for Mundo163 {
    fn state_to_json(&self, state: &State) -> serde_json::Value {
        view::to_json(&self.rules, state)
    }

    fn view_to_json(&self, state: &State, _seat: Seat) -> serde_json::Value {
        view::view_json(&self.rules, &hidden::observe(&self.rules, state))
    }

    fn state_from_json(&self, value: serde_json::Value) -> Result<State, GameError> {
        view::from_json(&self.rules, value)
    }

    fn derived(&self, pointer: &str) -> Option<String> {
        view::derived(pointer).map(str::to_string)
    }
}

impl rulesmith_game::screen::Screen for Mundo163 {
    fn screen(&self, state: &State, seat: Seat, style: &rulesmith_game::screen::Style) -> String {
        screen::draw(&self.rules, &self.observe(state, seat), seat, style)
    }

    fn annotate(&self, state: &State, action: Action) -> Option<String> {
        screen::annotate(&self.rules, state, action)
    }
}
