//! Base Puerto Rico (Andreas Seyfarth) for rulesmith: 3–5 players by the main rules and
//! 2 players by the official 2-player rules, exactly as the rulebook says, from the
//! `puerto-rico` TOML ruleset.
//!
//! # Notation
//! See [`action`] for the full table. Examples: `settler`, `take coffee`, `take quarry`,
//! `draw` (hacienda), `take colonist` (mayor's privilege), `place 2 on sugar`,
//! `build harbor`, `bonus tobacco` (craftsman's privilege), `sell coffee`,
//! `ship sugar on 7`, `ship corn on wharf`, `keep sugar + corn`, `pass`.
//!
//! # State
//! `rulesmith state` prints [`state::State`] as JSON, with building indices replaced by
//! building ids (`"buildings": {"harbor": 2, ...}`, `"city": [{"building": "harbor",
//! "colonists": 1}]`).
//!
//! # Example
//!
//! Load the ruleset and the house rule `rulesets/house-rules/puerto-rico-no-hacienda.toml`,
//! drive a game, play a seeded game between bots and run a scenario of the library
//! (`tests/scenarios/puerto-rico/captain-largest-ship.toml`):
//!
//! ```
//! use std::sync::Arc;
//! use rulesmith_core::erased::AnyGame;
//! use rulesmith_core::game::{GameError, play_text};
//! use rulesmith_core::prelude::*; // the game interface and its capabilities (state JSON …)
//! use rulesmith_core::ruleset::{self, Bundled, Diagnostics};
//! use rulesmith_core::{bots, scenario, sim};
//! use rulesmith_puerto_rico::Rules;
//!
//! // The rules are data: the TOML ruleset (which the `rulesmith` crate embeds), decoded
//! // and validated into `Rules`. A house rule states only what differs.
//! let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
//! let mut bundled = Vec::new();
//! let text = std::fs::read_to_string(root.join("rulesets/puerto-rico.toml"))?.leak();
//! bundled.push(Bundled { name: "puerto-rico", path: "rulesets/puerto-rico.toml", text });
//! let load = |arg: &str| -> Result<Rules, String> {
//!     let loaded = ruleset::load(arg, &bundled).map_err(|e| e.render())?;
//!     let mut d = Diagnostics::default();
//!     rulesmith_puerto_rico::decode(&loaded.tree, &mut d).ok_or_else(|| d.render(&loaded.sources))
//! };
//! let rules = load("puerto-rico")?;
//! let house = load(&root.join("rulesets/house-rules/puerto-rico-no-hacienda.toml").to_string_lossy())?;
//! // The house rule removes the hacienda.
//! let hacienda = |rules: &Rules| -> Result<serde_json::Value, GameError> {
//!     Ok(rules.state_to_json(&rules.new_game(4, 7)?)["buildings"]["hacienda"].clone())
//! };
//! assert_eq!((hacienda(&rules)?, hacienda(&house)?), (2.into(), serde_json::Value::Null));
//!
//! // Drive a game: 4 players, seed 7, actions in the game's notation.
//! let mut state = rules.new_game(4, 7)?;
//! play_text(&rules, &mut state, "settler")?;
//! let mut legal = Vec::new();
//! rules.legal_actions(&state, &mut legal);
//! let names: Vec<String> = legal.iter().map(|&a| rules.format_action(&state, a)).collect();
//! assert!(names.contains(&"take quarry".to_string()), "the settler's privilege: {names:?}");
//!
//! // A whole seeded game between bots.
//! let seats = bots::parse_bots("greedy,random,random,random", 4)?;
//! let played = sim::play_game(&rules, &seats, &sim::PlayOptions::new(4, 7))?;
//! assert_eq!(played.outcome.scores.len(), 4);
//!
//! // A scenario: a position, actions, and what must hold afterwards.
//! let case = scenario::read(&root.join("tests/scenarios/puerto-rico/captain-largest-ship.toml"))?;
//! let verdict = scenario::run(&case, &mut |arg| Ok(Arc::new(load(arg)?) as Arc<dyn AnyGame>));
//! assert_eq!(verdict, scenario::Verdict::Pass);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod action;
pub mod board;
pub mod check;
pub mod effect;
pub mod encoding;
pub mod extension;
pub mod goods;
mod json;
pub mod limits;
pub mod metrics;
pub mod notation;
pub mod phase;
pub mod phases;
mod reading;
pub mod role_kind;
pub mod rules;
pub mod screen;
pub mod setup;
pub mod state;
pub mod testing;

pub use action::Action;
pub use goods::{ByGood, Good};
pub use rules::Rules;
pub use state::State;

use rulesmith_game::Rng;
use rulesmith_game::encode::ObservationMemo;
use rulesmith_game::game::{Game, GameError, Outcome, Progress, Seat, ToMove};
use rulesmith_game::ruleset::{Diagnostics, Kind, Node};

/// Decodes a ruleset of the base game: [`rules::decode`], refusing buildings whose effect
/// needs an extension the base game does not bring (the guests and forests of the
/// expansion: use a ruleset that extends `puerto-rico-expansion`).
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<Rules> {
    let rules = rules::decode(tree, d)?;
    let mut ok = true;
    for (i, b) in rules.buildings.iter().enumerate() {
        let kind = b.effect.kind_index();
        if rules::EXTENSION_KINDS & (1 << kind) != 0 {
            let building = match tree.get("buildings").map(|n| &n.kind) {
                Some(Kind::Array(list)) => list.get(i),
                _ => None,
            };
            let at = building.and_then(|n| n.get("effect")).unwrap_or(tree);
            d.error(
                at.origin,
                format!(
                    "building `{}`: effect `{}` belongs to the expansion's rules; a ruleset with it must \
                     extend `puerto-rico-expansion`",
                    b.id,
                    rules::EFFECT_KINDS[kind]
                ),
            );
            ok = false;
        }
    }
    ok.then_some(rules)
}

impl Game for Rules {
    type State = State;
    type Action = Action;

    fn game_id(&self) -> &'static str {
        "puerto-rico"
    }

    fn players(&self) -> std::ops::RangeInclusive<usize> {
        self.min_players..=self.max_players
    }

    fn new_game(&self, players: usize, seed: u64) -> Result<State, GameError> {
        let mut s = setup::new_game(self, players, seed)?;
        phases::advance(self, &mut s);
        Ok(s)
    }

    fn player_count(&self, s: &State) -> usize {
        s.player_count()
    }

    fn to_move(&self, s: &State) -> ToMove {
        match s.phase {
            state::Phase::GameOver => ToMove::Terminal,
            _ => ToMove::Seat(s.current),
        }
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        phases::for_each_legal(self, s, &mut |a| out.push(a));
    }

    fn apply_legal(&self, s: &mut State, a: Action) {
        phases::play(self, s, a);
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        if s.phase != state::Phase::GameOver {
            return None;
        }
        let scores = s.players.iter().map(|p| score(self, p)).collect();
        // Ties: the ruleset's keys in order (S000:L429: doubloons plus goods).
        let tiebreaks = s.players.iter().map(|p| self.tiebreaks.iter().map(|&t| tiebreak(p, t)).collect()).collect();
        Some(Outcome::ranked(scores, tiebreaks, phases::round::end_name(s.end_triggers)))
    }

    /// Every combination of the end conditions met in the last round (S000:L408-416).
    fn end_names(&self) -> Vec<String> {
        phases::round::end_names()
    }

    fn progress(&self, s: &State) -> Progress {
        Progress { rounds: s.round }
    }

    fn write_action(&self, s: &State, a: Action, out: &mut String) {
        let caps = ship_capacities(s);
        notation::write(self, &caps[..s.ship_count as usize], a, out)
    }

    fn parse_action(&self, s: &State, text: &str) -> Result<Action, GameError> {
        let caps = ship_capacities(s);
        let a = notation::parse(self, &caps[..s.ship_count as usize], text.trim())?;
        // Twin role cards with the same coins are one choice, listed under the first
        // card's name: naming the other one means the same choice.
        if let Action::Role(r) = a {
            let available = s.roles.available_mask();
            let mine = available & (1 << r) != 0;
            let twins = if mine { self.roles.get(r as usize).map_or(0, |x| x.twins_before) & available } else { 0 };
            if let Some(o) =
                (0..r).find(|&o| twins & (1 << o) != 0 && s.roles.coins()[o as usize] == s.roles.coins()[r as usize])
            {
                return Ok(Action::Role(o));
            }
        }
        Ok(a)
    }

    /// VP chips lie face down (S000:L333): how many the other players hold together is
    /// public (the chips left in the supply, and paper VP are written in the open), who
    /// holds how many is not, so the view splits their total evenly in seat order. The
    /// order of the plantation stack is hidden. Tiles the extension holds face down unseen
    /// (forests drawn from the stack): which goods they are is hidden too (their tiles are
    /// pooled with the stack's).
    fn observe(&self, s: &State, seat: Seat) -> State {
        let mut v = s.clone();
        let mut counts = v.stack.counts();
        let hidden_held = board::hidden_held_tiles(self, s);
        if hidden_held {
            for g in self.goods() {
                counts[g] += v.held_tiles[g];
            }
        }
        v.stack = state::Stack::default();
        for g in self.goods() {
            for _ in 0..counts[g] {
                v.stack.push(g);
            }
        }
        if hidden_held {
            deal_held_tiles(&mut v);
        }
        // The chips are counted in the open once the game is over (S000:L418-420).
        if s.phase != state::Phase::GameOver {
            deal_vp(&mut v, seat, None);
        }
        v.rng = Rng::from_seed(0);
        v
    }

    /// The stack (and tiles held face down) shuffled, the other players' VP total split
    /// among them at random (each split equally likely: a consistent sample, not the
    /// distribution play would give), and a fresh generator.
    fn determinize(&self, s: &State, seat: Seat, rng: &mut Rng) -> State {
        let mut v = s.clone();
        if board::hidden_held_tiles(self, s) {
            for g in self.goods() {
                for _ in 0..v.held_tiles[g] {
                    v.stack.push(g);
                }
            }
            v.stack.shuffle(rng);
            deal_held_tiles(&mut v);
        } else {
            v.stack.shuffle(rng);
        }
        deal_vp(&mut v, seat, Some(rng));
        v.rng = Rng::from_seed(rng.next_u64());
        v
    }

    fn check_state(&self, s: &State) -> Result<(), GameError> {
        check::check(self, s).map_err(GameError::InvalidState)
    }
}

impl rulesmith_game::metrics::Metrics for Rules {
    fn metric_defs(&self) -> Vec<rulesmith_game::metrics::MetricDef> {
        self.metric_list()
    }

    fn metric_len(&self) -> usize {
        self.metric_count()
    }

    #[inline(always)]
    fn metric_before(&self, s: &State, a: Action, m: &mut rulesmith_game::metrics::MetricSheet) -> bool {
        self.metric_decision(s, a, m)
    }

    #[inline]
    fn metric_after(&self, s: &State, m: &mut rulesmith_game::metrics::MetricSheet) {
        self.metric_applied(s, m);
    }

    fn metric_final(&self, s: &State, m: &mut rulesmith_game::metrics::MetricSheet) {
        self.metric_end(s, m);
    }

    /// Lead changes follow the score so far: VP chips, buildings and bonuses.
    #[inline]
    fn standing(&self, s: &State, seat: Seat) -> f64 {
        f64::from(score(self, &s.players[seat]))
    }

    #[inline]
    fn standings(
        &self,
        s: &State,
        m: &mut rulesmith_game::metrics::MetricSheet,
        _: &mut dyn std::any::Any,
        out: &mut [f64],
    ) {
        self.metric_standings(s, m, out);
    }

    fn money_name(&self) -> Option<&'static str> {
        Some("doubloons")
    }

    /// The score so far (as lead changes follow it) and the doubloons held.
    #[inline]
    fn round_figures(
        &self,
        s: &State,
        seat: Seat,
        standing: Option<f64>,
        m: &rulesmith_game::metrics::MetricSheet,
    ) -> rulesmith_game::metrics::SeatFigures {
        let p = &s.players[seat];
        // The standing is the score (a whole number): no second count at a round end.
        let score = standing.map_or_else(|| i64::from(self.kept_score(p, usize::from(seat), m)), |v| v as i64);
        rulesmith_game::metrics::SeatFigures { score, money: i64::from(p.doubloons) }
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
        encoding::observe(self, s, seat, &mut rulesmith_game::encode::Features::new(out));
    }

    fn observation_update(&self, s: &State, seat: Seat, out: &mut [f32], memo: &mut ObservationMemo) {
        encoding::observe_update(self, s, seat, out, memo);
    }

    fn action_key(action: &Action) -> Option<u32> {
        encoding::action_key(action)
    }
}

impl rulesmith_game::evaluate::Evaluate for Rules {
    /// VP as they would be scored now, plus what the rest will likely turn into VP. The
    /// weights are VP per unit (their effect on strength: `examples/strength.rs`):
    fn heuristic(&self, s: &State, seat: Seat) -> f64 {
        let p = &s.players[seat];
        let production: u32 = board::production(self, p).0.iter().map(|&x| u32::from(x)).sum();
        f64::from(score(self, p))
            // A doubloon buys about a quarter of a VP: buildings cost 1–10 doubloons for
            // 1–4 VP (S000 building table), and they also work for the rest of the game.
            + 0.25 * f64::from(p.doubloons)
            // A barrel in store is worth little by itself: it scores only once shipped
            // (counted in `score` then) and may spoil at storage (S000:L336). Weighted
            // higher (0.3), greedy hoarded goods instead of shipping them and won 4-player
            // games against random players less often (94.0% against 97.0%, see docs/strength.md).
            + 0.05 * f64::from(p.goods.total())
            // A barrel produced per craftsman phase: it repeats every round a craftsman
            // is chosen, so it is worth more than a barrel held.
            + 0.6 * f64::from(production)
            // Colonists on the board: each runs a plantation or building; the next mayor
            // phase places them where they produce.
            + 0.15 * f64::from(board::colonists(p))
            // An island space filled (plantation, quarry or forest): it produces or lowers
            // building costs once manned, and the island has only so many spaces. Without
            // this weight a tile not yet manned was worth nothing, so greedy took tiles
            // carelessly or passed; with it, 5-player expansion games against random
            // players went 94.0% → 98.4% and every Puerto Rico cell rose or held (any
            // weight from 0.05 to 0.2 gave the same games, see docs/strength.md).
            + 0.1 * f64::from(board::island_used(p))
    }

    /// 100 random moves (several rounds) before the heuristic scores the leaf, not the
    /// default 8: scored after 8 moves, the search learned only what the heuristic sees a
    /// role or two ahead, and 10× the iterations barely helped (`mcts:4000` against two
    /// `mcts:400`, 3 players: 37.5% of 48 games; 100 moves: 83.3% of 24). An iteration
    /// costs about 6× more, and still `mcts:1000` this way beat two 8-move `mcts:6000`
    /// (the same CPU) in 62.5% of 24 games and greedy in 30 of 30 (docs/strength.md).
    fn search_rollout_depth(&self) -> usize {
        100
    }
}

impl rulesmith_game::json::StateJson for Rules {
    fn state_to_json(&self, s: &State) -> serde_json::Value {
        json::to_json(self, s)
    }

    fn view_to_json(&self, s: &State, seat: Seat) -> serde_json::Value {
        let mut v = json::to_json(self, &self.observe(s, seat));
        self.hide_in_view(&mut v, s, seat);
        v
    }

    fn state_from_json(&self, value: serde_json::Value) -> Result<State, GameError> {
        let s = json::from_json(self, value).map_err(GameError::InvalidState)?;
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

impl Rules {
    /// Marks in a view's JSON what `seat` may not see of `s` (the true state): no
    /// generator; the plantation stack as its size and the goods of the tiles nobody has
    /// seen (the stack's and, while hidden, the extension's held tiles together), not their
    /// order; other players' VP chips (face down, S000:L332) as `"hidden"` until the game
    /// is over, when every player's chips are counted in the open (S000:L418-420).
    pub fn hide_in_view(&self, v: &mut serde_json::Value, s: &State, seat: Seat) {
        let Some(m) = v.as_object_mut() else { return };
        m.remove("rng");
        let hidden_held = board::hidden_held_tiles(self, s);
        let mut unseen = s.stack.counts();
        if hidden_held {
            for g in self.goods() {
                unseen[g] += s.held_tiles[g];
            }
            m.insert(json::names(self).held_tiles.into(), serde_json::json!("hidden"));
        }
        let unseen = json::with_names(self, || serde_json::to_value(unseen)).unwrap_or(serde_json::Value::Null);
        m.insert("stack".into(), serde_json::json!({ "tiles": s.stack.len, "unseen": unseen }));
        let counted = s.phase == state::Phase::GameOver;
        if let Some(players) = m.get_mut("players").and_then(serde_json::Value::as_array_mut).filter(|_| !counted) {
            for (o, p) in players.iter_mut().enumerate() {
                if o != usize::from(seat) {
                    if let Some(vp) = p.get_mut("vp") {
                        *vp = serde_json::json!("hidden");
                    }
                }
            }
        }
    }
}

/// Moves as many tiles from the top of the stack to the tiles the extension holds as it
/// holds (face-down forests, once pooled with the stack).
/// Splits the VP the players other than `seat` hold together among them: evenly in seat
/// order (`None`, what a view shows), or uniformly at random over every split (bars drawn
/// among the VP, "stars and bars").
fn deal_vp(v: &mut State, seat: Seat, rng: Option<&mut Rng>) {
    let mut others = [0 as Seat; rulesmith_game::MAX_PLAYERS];
    let mut k = 0;
    for o in v.players.seats().filter(|&o| o != seat) {
        others[k] = o;
        k += 1;
    }
    if k == 0 {
        return;
    }
    let others = &others[..k];
    let total: u32 = others.iter().map(|&o| u32::from(v.players[o].vp)).sum();
    let Some(rng) = rng else {
        for (i, &o) in others.iter().enumerate() {
            let share = total / k as u32 + u32::from((i as u32) < total % k as u32);
            v.players[o].vp = share as u16;
        }
        return;
    };
    // k - 1 distinct bars among total + k - 1 places; the VP between bars go to a player.
    let places = total + k as u32 - 1;
    let mut bars = [0u32; rulesmith_game::MAX_PLAYERS];
    let mut drawn = 0;
    while drawn + 1 < k {
        let b = rng.below(places);
        if !bars[..drawn].contains(&b) {
            bars[drawn] = b;
            drawn += 1;
        }
    }
    let bars = &mut bars[..drawn];
    bars.sort_unstable();
    let mut start = 0;
    for (i, &o) in others.iter().enumerate() {
        let end = bars.get(i).copied().unwrap_or(places);
        v.players[o].vp = (end - start) as u16;
        start = end + 1;
    }
}

fn deal_held_tiles(v: &mut State) {
    let held = v.held_tiles.total();
    v.held_tiles = ByGood::default();
    for _ in 0..held {
        if let Some(g) = v.stack.pop() {
            v.held_tiles[g] += 1;
        }
    }
}

fn ship_capacities(s: &State) -> [u8; rules::MAX_SHIPS] {
    let mut caps = [0u8; rules::MAX_SHIPS];
    for (i, x) in s.ships().iter().enumerate() {
        caps[i] = x.capacity();
    }
    caps
}

/// Final score: VP (chips and paper) + building VP + bonuses of occupied large
/// buildings (S000:L418-427).
/// A player's value for one tie-break key.
fn tiebreak(p: &state::Player, t: role_kind::TieBreak) -> i32 {
    use role_kind::TieBreak::*;
    match t {
        DoubloonsAndGoods => i32::from(p.doubloons) + p.goods.total() as i32,
        Doubloons => i32::from(p.doubloons),
        Goods => p.goods.total() as i32,
        Colonists => board::colonists(p) as i32,
        Buildings => i32::from(p.city.len),
    }
}

pub fn score(rules: &Rules, p: &state::Player) -> i32 {
    i32::from(p.vp) + board::building_points(rules, p)
}
