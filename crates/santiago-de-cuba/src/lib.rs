//! Santiago de Cuba (Michael Rieneck, eggertspiele 2011), played exactly by its Spanish
//! rulebook (seed S002), from a TOML ruleset (`rulesets/santiago-de-cuba.toml`).
//!
//! The ruleset holds every number and table: goods and their supply, the dice and their
//! faces, the value track, the number of ships, the street costs, the flower colours and
//! their building spaces, the nine citizens and twelve buildings (each an effect kind with
//! parameters), the starting resources and the scoring. Rust implements the kinds.
//!
//! # A turn
//! 1. `drive N`: the car moves N stops clockwise (the first step is free, each further
//!    one costs 1 peso; the port and inactive citizens are stops too).
//! 2. At a citizen: the citizen acts (some need a decision, below); then the pawn moves
//!    (`pawn BUILDING`) to a free building under the citizen's flower, or stays (El Zorro;
//!    all such buildings taken; inactive citizen); then the building may be used
//!    (`use BUILDING ...`) or not (`skip`). The owner of a building another player's pawn
//!    visited gains 1 VP at the end of the turn.
//! 3. At the port: a loading round from this player on (`deliver ...`, `pass`).
//!
//! Decisions with nothing to decide are not asked: a player who cannot deliver passes,
//! a victim of El Zorro with nothing to give gives nothing, a building that would do
//! nothing is not offered.
//!
//! # Action notation
//! Lowercase words; ids are the ruleset's (`sugar`, `white`, `bank`, `maria`, ...).
//!
//! | when | action | example |
//! |---|---|---|
//! | a new ship's demand was rolled | `keep aside DIE` | `keep aside white` |
//! | start of a turn | `drive N` | `drive 3` (pays 2 pesos) |
//! | El Zorro: each other player, in turn order | `give peso`, `give vp`, `give GOOD` | `give tobacco` |
//! | Pablo | `take GOOD` | `take rum` |
//! | Alonso | `claim BUILDING`, `use BUILDING ...` (an own building), `skip` | `claim bank`, `use bank` |
//! | pawn | `pawn BUILDING` | `pawn cigar_factory` |
//! | building | `use BUILDING ...`, `skip` | see below |
//! | loading round | `deliver GOOD N`, `deliver WOOD for GOOD N`, `pass` | `deliver citrus 2`, `deliver wood for rum 2` |
//!
//! Building uses, by effect kind: `use bank`, `use church`, `use sawmill` (gain, trade);
//! `use distillery 3` (convert 3 sugar to rum); `use black_market sugar for rum`;
//! `use cafe rum cigars` (goods in ruleset order); `use customs white` (die to 0);
//! `use casino buy 2` (6 pesos → 2 VP), `use casino sell 1` (1 VP → 3 pesos);
//! `use harbour_office right`, `use harbour_office left`; `use office rum`;
//! `use newspaper` (the peso only), `use newspaper flip maria` (and turn María face down).
//!
//! `parse_action(format_action(a)) == a` for every action, and every outcome has one
//! spelling (dice set aside in increasing order, goods sold in ruleset order).
//!
//! # Example
//!
//! Load the ruleset and a house rule (here inline) that starts everyone with 5 pesos, drive a
//! game, play a seeded game between bots and run a scenario of the library
//! (`tests/scenarios/santiago-de-cuba/building-bank.toml`):
//!
//! ```
//! use std::sync::Arc;
//! use rulesmith_core::erased::AnyGame;
//! use rulesmith_core::game::{GameError, play_text};
//! use rulesmith_core::prelude::*; // the game interface and its capabilities (state JSON …)
//! use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
//! use rulesmith_core::{bots, scenario, sim};
//! use rulesmith_santiago_de_cuba::SantiagoDeCuba;
//!
//! // The rules are data: the TOML ruleset (which the `rulesmith` crate embeds), decoded
//! // and validated into `SantiagoDeCuba`. A house rule states only what differs.
//! let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
//! let mut bundled = Vec::new();
//! let text = std::fs::read_to_string(root.join("rulesets/santiago-de-cuba.toml"))?.leak();
//! bundled.push(Bundled { name: "santiago-de-cuba", path: "rulesets/santiago-de-cuba.toml", text });
//! bundled.push(Bundled {
//!     name: "rich-start",
//!     path: "rich-start.toml",
//!     text: "[ruleset]\nname = \"rich-start\"\nextends = \"santiago-de-cuba\"\n\n[start]\npesos = 5\n",
//! });
//! let load = |arg: &str| -> Result<SantiagoDeCuba, String> {
//!     let loaded = ruleset::load(arg, &bundled).map_err(|e| e.render())?;
//!     let mut d = Diagnostics::default();
//!     rulesmith_santiago_de_cuba::decode(&loaded.tree, &mut d).ok_or_else(|| d.render(&loaded.sources))
//! };
//! let rules = load("santiago-de-cuba")?;
//! let house = load("rich-start")?;
//! let pesos = |rules: &SantiagoDeCuba| -> Result<serde_json::Value, GameError> {
//!     Ok(rules.state_to_json(&rules.new_game(4, 7)?)["players"][0]["pesos"].clone())
//! };
//! assert_eq!((pesos(&rules)?, pesos(&house)?), (3.into(), 5.into()));
//!
//! // Drive a game: 4 players, seed 7, actions in the game's notation.
//! let mut state = rules.new_game(4, 7)?;
//! let mut legal = Vec::new();
//! rules.legal_actions(&state, &mut legal);
//! let names: Vec<String> = legal.iter().map(|&a| rules.format_action(&state, a)).collect();
//! assert!(names.contains(&"keep aside white".to_string()), "a new ship's demand: {names:?}");
//! play_text(&rules, &mut state, "keep aside white")?;
//!
//! // A whole seeded game between bots.
//! let seats = bots::parse_bots("greedy,random,random,random", 4)?;
//! let played = sim::play_game(&rules, &seats, &sim::PlayOptions::new(4, 7))?;
//! assert_eq!(played.outcome.scores.len(), 4);
//!
//! // A scenario: a position, actions, and what must hold afterwards.
//! let case = scenario::read(&root.join("tests/scenarios/santiago-de-cuba/building-bank.toml"))?;
//! let verdict = scenario::run(&case, &mut |arg| Ok(Arc::new(load(arg)?) as Arc<dyn AnyGame>));
//! assert_eq!(verdict, scenario::Verdict::Pass);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod action;
pub mod check;
pub mod choices;
pub mod encoding;
pub mod engine;
pub mod heuristic;
pub mod json;
pub mod limits;
pub mod metrics;
pub mod rules;
pub mod scoring;
pub mod screen;
pub mod state;
pub mod view;

pub use action::{Action, Gift, Use};
pub use rules::Rules;
pub use state::{Phase, Player, Ship, State, Turn};

use rules::{MAX_BUILDINGS, MAX_CITIZENS, MAX_GOODS};
use rulesmith_game::game::Progress;
use rulesmith_game::ruleset::{Diagnostics, Node};
use rulesmith_game::{ByPlayer, Game, GameError, OptId, Outcome, Rng, Seat, ToMove};

/// The game id (`[ruleset] game`).
pub const GAME_ID: &str = "santiago-de-cuba";

/// Santiago de Cuba with a validated ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct SantiagoDeCuba {
    pub rules: Rules,
}

/// Decodes the whole merged ruleset tree; every problem goes into `d`.
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<SantiagoDeCuba> {
    rules::decode(tree, d).map(|rules| SantiagoDeCuba { rules })
}

impl Game for SantiagoDeCuba {
    type State = State;
    type Action = Action;

    fn game_id(&self) -> &'static str {
        GAME_ID
    }

    fn players(&self) -> std::ops::RangeInclusive<usize> {
        self.rules.min_players..=self.rules.max_players
    }

    /// Setup (S002:L84-112): buildings and citizens shuffled onto their spaces, the car at
    /// the port, the first ship with the marker on the first flag, starting resources;
    /// the player to the right of the start player (seat 0) rolls the first demand.
    fn new_game(&self, players: usize, seed: u64) -> Result<State, GameError> {
        let r = &self.rules;
        if !self.players().contains(&players) {
            return Err(GameError::PlayerCount { players, min: r.min_players, max: r.max_players });
        }
        let mut rng = Rng::from_seed(seed);
        let mut street = [0u8; MAX_CITIZENS];
        let nc = r.citizens.len();
        for (i, c) in street.iter_mut().enumerate().take(nc) {
            *c = i as u8;
        }
        rng.shuffle(&mut street[..nc]);
        let nb = r.buildings.len();
        let mut order = [0u8; MAX_BUILDINGS];
        for (i, b) in order.iter_mut().enumerate().take(nb) {
            *b = i as u8;
        }
        rng.shuffle(&mut order[..nb]);
        let mut flower = [0u8; MAX_BUILDINGS];
        let mut space = 0;
        for (f, colour) in r.flowers.iter().enumerate() {
            for _ in 0..colour.spaces {
                if let Some(&b) = order.get(space) {
                    flower[usize::from(b)] = f as u8;
                }
                space += 1;
            }
        }
        let player = Player { pesos: r.start_pesos, vp: r.start_vp, goods: r.start_goods, pawn: OptId::NONE };
        let mut supply = [0u8; MAX_GOODS];
        for (g, good) in r.goods.iter().enumerate() {
            supply[g] = good.supply.saturating_sub(r.start_goods[g].saturating_mul(players as u8));
        }
        let mut state = State {
            players: ByPlayer::filled(players, player),
            street,
            car: 0,
            inactive: 0,
            flower,
            owner: [OptId::NONE; MAX_BUILDINGS],
            ship: Ship { departed: 0, marker: 0, dice: Default::default(), aside: 0, awaiting_demand: true },
            supply,
            turn: Turn {
                player: (players - 1) as Seat,
                round: 0,
                citizen: OptId::NONE,
                visited: false,
                roll_pending: false,
            },
            phase: Phase::Demand,
            rng,
        };
        engine::start_demand(r, &mut state);
        Ok(state)
    }

    fn player_count(&self, state: &State) -> usize {
        state.player_count()
    }

    fn to_move(&self, state: &State) -> ToMove {
        match state.phase {
            Phase::Over => ToMove::Terminal,
            Phase::Pickpocket { victim } => ToMove::Seat(victim),
            Phase::Loading { round } => ToMove::Seat(round.current()),
            _ => ToMove::Seat(state.turn.player),
        }
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        out.clear();
        engine::each_legal(&self.rules, state, &mut |a| out.push(a));
    }

    /// The playout path: no second legality check (issue 31).
    fn apply_legal(&self, state: &mut State, action: Action) {
        engine::apply_legal(&self.rules, state, action)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        scoring::outcome(&self.rules, state)
    }

    fn progress(&self, state: &State) -> Progress {
        Progress { rounds: state.turn.round }
    }

    fn write_action(&self, _state: &State, action: Action, out: &mut String) {
        action::write(&self.rules, action, out)
    }

    fn parse_action(&self, _state: &State, text: &str) -> Result<Action, GameError> {
        action::parse(&self.rules, text)
    }

    fn observe(&self, state: &State, seat: Seat) -> State {
        view::observe(&self.rules, state, seat)
    }

    fn determinize(&self, state: &State, seat: Seat, rng: &mut Rng) -> State {
        view::determinize(&self.rules, state, seat, rng)
    }

    fn check_state(&self, state: &State) -> Result<(), GameError> {
        check::check_state(&self.rules, state)
    }
}

impl rulesmith_game::metrics::Metrics for SantiagoDeCuba {
    fn metric_defs(&self) -> Vec<rulesmith_game::metrics::MetricDef> {
        metrics::list(&self.rules)
    }

    fn metric_len(&self) -> usize {
        metrics::count(&self.rules)
    }

    #[inline]
    fn metric_before(&self, s: &State, a: Action, m: &mut rulesmith_game::metrics::MetricSheet) -> bool {
        // VP may change with any decision: the after hook sees every one.
        metrics::decision(&self.rules, self.to_move(s), s, a, m);
        true
    }

    #[inline]
    fn metric_after(&self, s: &State, m: &mut rulesmith_game::metrics::MetricSheet) {
        metrics::applied(&self.rules, s, m);
    }

    fn metric_final(&self, s: &State, m: &mut rulesmith_game::metrics::MetricSheet) {
        metrics::end(&self.rules, s, m);
    }

    /// Lead changes follow the greedy bot's evaluation, as they always have: the score so
    /// far (VP, and leftover goods once over) ranks seats otherwise in mid-game, which would
    /// change every report's `lead changes` figure. The evaluation reads the ruleset's
    /// derived tables, so it is cheap.
    #[inline]
    fn standing(&self, s: &State, seat: Seat) -> f64 {
        heuristic::heuristic(&self.rules, s, seat)
    }

    fn money_name(&self) -> Option<&'static str> {
        Some("pesos")
    }

    /// The score as the end of the game would count it now, and the pesos held.
    fn round_figures(&self, s: &State, seat: Seat) -> rulesmith_game::metrics::SeatFigures {
        rulesmith_game::metrics::SeatFigures {
            score: i64::from(scoring::score(&self.rules, s, seat)),
            money: i64::from(s.players[seat].pesos),
        }
    }
}

impl rulesmith_game::encode::Encode for SantiagoDeCuba {
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

impl rulesmith_game::evaluate::Evaluate for SantiagoDeCuba {
    /// A turn is `drive`, then the citizen's choice, `pawn` and `use`: the building a drive
    /// reaches is worth only what using it brings, so greedy looks through the rest of
    /// the turn (3 measured best: 75% → 98% against random players with 3 players, 78% →
    /// 96% with 4; `cargo run --release --example strength -- --budgets none`).
    fn greedy_turn_depth(&self) -> usize {
        3
    }

    /// The dice and the street make random rollout moves mostly noise: `mcts` rollouts take
    /// the game's one-ply choice instead (a random move one time in ten). Measured with
    /// `cargo run --release --example strength -- --games 50 --budgets mcts --rulesets
    /// santiago-de-cuba --players 2,3,4` against greedy: 98 / 82 / 66% with random moves,
    /// 100 / 88 / 75% with these (8 moves deep; 4 or 30 moves, or a random move one time
    /// in four, did worse), at about twice the time a decision.
    fn search_rollout_policy(&self) -> rulesmith_game::RolloutPolicy {
        rulesmith_game::RolloutPolicy::Greedy { explore_percent: 10 }
    }

    fn heuristic(&self, state: &State, seat: Seat) -> f64 {
        heuristic::heuristic(&self.rules, state, seat)
    }
}

impl rulesmith_game::json::StateJson for SantiagoDeCuba {
    fn state_to_json(&self, state: &State) -> serde_json::Value {
        json::to_json(&self.rules, state)
    }

    fn view_to_json(&self, state: &State, seat: Seat) -> serde_json::Value {
        view::view_json(&self.rules, state, seat)
    }

    fn state_from_json(&self, value: serde_json::Value) -> Result<State, GameError> {
        let state = json::from_json(&self.rules, &value)?;
        self.check_state(&state)?;
        Ok(state)
    }

    /// A die set aside demands nothing (S002:L110): the reader shows it as 0.
    fn derived(&self, pointer: &str) -> Option<String> {
        let die = pointer.strip_prefix("/ship/dice/")?;
        Some(format!(
            "the {die} die is set aside (`/ship/aside`) and so demands nothing (S002:L110); take it out of `/ship/aside` to give it a demand"
        ))
    }
}

impl rulesmith_game::screen::Screen for SantiagoDeCuba {
    /// Drawn from what the seat sees ([`view::observe`]: every holding once the game is
    /// over, S002:L406-412), as the view and the observation are.
    fn screen(&self, state: &State, seat: Seat, style: &rulesmith_game::screen::Style) -> String {
        screen::draw(&self.rules, &self.observe(state, seat), seat, style)
    }

    fn annotate(&self, state: &State, action: Action) -> Option<String> {
        screen::annotate(&self.rules, state, action)
    }
}
