//! A tiny complete game for tests, examples and learning the binary on.
//!
//! [`TakeAway`] is a toy game (2–4 players take stones from a pile) that implements
//! [`Game`] fully, with a seeded chance event and hidden information, so the scenario
//! runner, records, replay and the binary can be tested without any real game. Its
//! ruleset is [`TAKE_AWAY_TOML`]; [`decode`] reads it like a real game crate would.
//!
//! The test kit every game crate's tests use (play by notation, refused actions, checked
//! random playouts, edited states, the conformance checks every game must pass) is the
//! crate `rulesmith-testkit`, a dev-dependency: no production code reaches it.

use crate::by_player::{ByPlayer, MAX_PLAYERS};
use crate::game::{Game, GameError, Outcome, Progress, Seat, ToMove};
use crate::rng::Rng;
use crate::ruleset::de::{self, Located};
use crate::ruleset::{Diagnostics, Node};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// The `[ruleset] game` of the toy game.
pub const GAME_ID: &str = "take-away";

/// The toy game's default ruleset.
pub const TAKE_AWAY_TOML: &str = r#"[ruleset]
name = "take-away"
game = "take-away"
description = "A toy game for tests: take 1 to 3 stones; stones and a hidden bonus score"

[rules]
# Seats.
min_players = 2
max_players = 4
# Stones in the pile at the start.
stones = 21
# Most stones one turn may take.
max_take = 3
# Each player's hidden bonus is drawn from 0 to this at setup.
secret_max = 5
# A player who has taken this many stones ends the game at once.
target = 9
# After each take, one stone falls off the pile (is discarded) with chance 1 in this.
spill_one_in = 6
"#;

/// The toy game's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeAway {
    pub players: RangeInclusive<usize>,
    pub stones: u32,
    pub max_take: u32,
    pub secret_max: u32,
    pub target: u32,
    pub spill_one_in: u32,
}

/// The toy game's ruleset: `[rules]` reads itself, each number by its range (strict:
/// every other key is an error, every key required).
#[derive(Deserialize)]
struct Sections {
    #[serde(rename = "ruleset")]
    _ruleset: de::RulesetMeta,
    rules: Located<Rules>,
}

#[derive(Deserialize)]
struct Rules {
    #[serde(deserialize_with = "de::num::<1, { MAX_PLAYERS as i64 }, _, _>")]
    min_players: usize,
    #[serde(deserialize_with = "de::num::<1, { MAX_PLAYERS as i64 }, _, _>")]
    max_players: usize,
    #[serde(deserialize_with = "de::num::<1, 1000, _, _>")]
    stones: u32,
    #[serde(deserialize_with = "de::num::<1, 100, _, _>")]
    max_take: u32,
    #[serde(deserialize_with = "de::num::<0, 100, _, _>")]
    secret_max: u32,
    #[serde(deserialize_with = "de::num::<1, 1000, _, _>")]
    target: u32,
    #[serde(deserialize_with = "de::num::<0, 1000, _, _>")]
    spill_one_in: u32,
}

/// Reads the toy game's ruleset from a merged tree, reporting every problem: the rules
/// read themselves ([`de`]), then the one check across fields, as every game crate does.
pub fn decode(tree: &Node, d: &mut Diagnostics) -> Option<TakeAway> {
    let before = d.len();
    let read: Sections = de::from_tree(tree, d)?;
    let r = read.rules.value;
    // 0 stands in for a bound that could not be read (reported).
    let (lo, hi) = (r.min_players, r.max_players);
    if lo >= 1 && hi >= 1 && lo > hi {
        d.error(read.rules.origin, format!("min_players ({lo}) is above max_players ({hi})"));
    }
    let rules = TakeAway {
        players: lo..=hi,
        stones: r.stones,
        max_take: r.max_take,
        secret_max: r.secret_max,
        target: r.target,
        spill_one_in: r.spill_one_in,
    };
    (d.len() == before).then_some(rules)
}

/// The toy game as its bundled ruleset ([`TAKE_AWAY_TOML`]) reads: what tests play.
pub fn take_away() -> Result<TakeAway, String> {
    let bundled = [crate::ruleset::Bundled { name: GAME_ID, path: "take-away.toml", text: TAKE_AWAY_TOML }];
    let loaded = crate::ruleset::load(GAME_ID, &bundled).map_err(|e| e.render())?;
    let mut d = Diagnostics::default();
    decode(&loaded.tree, &mut d).ok_or_else(|| d.render(&loaded.sources))
}

/// One player's holdings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hand {
    pub taken: u32,
    /// Hidden from the other players.
    pub secret: u32,
    /// Each player may pass once per game.
    pub passed: bool,
}

/// The toy game's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeAwayState {
    pub pile: u32,
    pub discarded: u32,
    pub to_move: Seat,
    pub decisions: u32,
    pub players: ByPlayer<Hand>,
    pub rng: Rng,
}

/// An action of the toy game: `take N` or `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Take(u32),
    Pass,
}

impl TakeAway {
    fn end(&self, s: &TakeAwayState) -> Option<&'static str> {
        if s.pile == 0 {
            Some("pile_empty")
        } else if s.players.iter().any(|h| h.taken >= self.target) {
            Some("target_reached")
        } else {
            None
        }
    }
}

impl Game for TakeAway {
    type State = TakeAwayState;
    type Action = Move;

    fn game_id(&self) -> &'static str {
        GAME_ID
    }

    fn players(&self) -> RangeInclusive<usize> {
        self.players.clone()
    }

    fn new_game(&self, players: usize, seed: u64) -> Result<TakeAwayState, GameError> {
        if !self.players.contains(&players) {
            return Err(GameError::PlayerCount { players, min: *self.players.start(), max: *self.players.end() });
        }
        let mut rng = Rng::from_seed(seed);
        let mut hands = ByPlayer::<Hand>::new(players);
        for h in hands.iter_mut() {
            h.secret = rng.below(self.secret_max + 1);
        }
        Ok(TakeAwayState { pile: self.stones, discarded: 0, to_move: 0, decisions: 0, players: hands, rng })
    }

    fn player_count(&self, s: &TakeAwayState) -> usize {
        s.players.len()
    }

    fn to_move(&self, s: &TakeAwayState) -> ToMove {
        if self.end(s).is_some() { ToMove::Terminal } else { ToMove::Seat(s.to_move) }
    }

    fn legal_actions(&self, s: &TakeAwayState, out: &mut Vec<Move>) {
        out.clear();
        if self.end(s).is_some() {
            return;
        }
        for n in 1..=self.max_take.min(s.pile) {
            out.push(Move::Take(n));
        }
        if !s.players[s.to_move].passed {
            out.push(Move::Pass);
        }
    }

    fn apply_legal(&self, s: &mut TakeAwayState, action: Move) {
        let me = s.to_move;
        match action {
            Move::Take(n) => {
                s.pile -= n;
                s.players[me].taken += n;
                if self.spill_one_in > 0 && s.pile > 0 && s.rng.below(self.spill_one_in) == 0 {
                    s.pile -= 1;
                    s.discarded += 1;
                }
            }
            Move::Pass => s.players[me].passed = true,
        }
        s.decisions += 1;
        s.to_move = (me + 1) % s.players.len() as Seat;
    }

    fn outcome(&self, s: &TakeAwayState) -> Option<Outcome> {
        let end = self.end(s)?;
        let scores = s.players.iter().map(|h| (h.taken + h.secret) as i32).collect();
        let tiebreaks = s.players.iter().map(|h| vec![h.taken as i32]).collect();
        Some(Outcome::ranked(scores, tiebreaks, end))
    }

    fn end_names(&self) -> Vec<String> {
        vec!["pile_empty".into(), "target_reached".into()]
    }

    fn progress(&self, s: &TakeAwayState) -> Progress {
        Progress { rounds: s.decisions / s.players.len().max(1) as u32 + 1 }
    }

    fn write_action(&self, _: &TakeAwayState, action: Move, out: &mut String) {
        match action {
            Move::Take(n) => {
                out.push_str("take ");
                crate::game::push_number(out, n);
            }
            Move::Pass => out.push_str("pass"),
        }
    }

    fn parse_action(&self, _: &TakeAwayState, text: &str) -> Result<Move, GameError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let bad = |reason: &str| GameError::Unparsable { text: text.to_string(), reason: reason.to_string() };
        match words.as_slice() {
            ["pass"] => Ok(Move::Pass),
            ["take", n] => n.parse().map(Move::Take).map_err(|_| bad("expected `take N` with a number N")),
            _ => Err(bad("expected `take N` or `pass`")),
        }
    }

    fn observe(&self, s: &TakeAwayState, seat: Seat) -> TakeAwayState {
        let mut v = s.clone();
        for (i, h) in v.players.iter_mut().enumerate() {
            if i != seat as usize {
                h.secret = 0;
            }
        }
        v.rng = Rng::from_seed(0);
        v
    }

    fn determinize(&self, s: &TakeAwayState, seat: Seat, rng: &mut Rng) -> TakeAwayState {
        let mut v = s.clone();
        for (i, h) in v.players.iter_mut().enumerate() {
            if i != seat as usize {
                h.secret = rng.below(self.secret_max + 1);
            }
        }
        v.rng = Rng::from_seed(rng.next_u64());
        v
    }

    fn check_state(&self, s: &TakeAwayState) -> Result<(), GameError> {
        let bad = |m: String| Err(GameError::InvalidState(m));
        if !self.players.contains(&s.players.len()) {
            return bad(format!("{} players, but this ruleset seats {:?}", s.players.len(), self.players));
        }
        if s.to_move as usize >= s.players.len() {
            return bad(format!("seat {} is to move, but there are {} players", s.to_move, s.players.len()));
        }
        let taken: u64 = s.players.iter().map(|h| u64::from(h.taken)).sum();
        let total = taken + u64::from(s.pile) + u64::from(s.discarded);
        if total != u64::from(self.stones) {
            return bad(format!(
                "stones are not conserved: pile {} + discarded {} + taken {taken} = {total}, expected {}",
                s.pile, s.discarded, self.stones
            ));
        }
        if let Some((i, h)) = s.players.iter().enumerate().find(|(_, h)| h.secret > self.secret_max) {
            return bad(format!("player {i} has secret {}, above the maximum {}", h.secret, self.secret_max));
        }
        Ok(())
    }
}

// The capabilities: encodings and the bots' heuristic of its own, the defaults for the rest.
impl crate::encode::Encode for TakeAway {
    /// `take 1` … `take max_take`, then `pass`.
    fn action_space(&self, _players: usize) -> Vec<Move> {
        (1..=self.max_take).map(Move::Take).chain([Move::Pass]).collect()
    }

    /// `pile`, `discarded`, `to_move.seatN`, then per seat `seatN.taken`, `seatN.passed`
    /// and `seatN.secret` (the observer's own only; 0 for the others, hidden).
    fn observation_names(&self, players: usize) -> Vec<String> {
        let mut n = crate::encode::Names::default();
        n.push("pile");
        n.push("discarded");
        for s in 0..players {
            n.push(format!("to_move.seat{s}"));
        }
        for s in 0..players {
            n.each(&format!("seat{s}"), ["taken", "passed", "secret"]);
        }
        n.into_vec()
    }

    fn observation(&self, s: &TakeAwayState, seat: Seat, out: &mut [f32]) {
        let mut f = crate::encode::Features::new(out);
        f.push(s.pile);
        f.push(s.discarded);
        f.one_hot(s.players.len(), Some(usize::from(s.to_move)));
        for (i, h) in s.players.iter().enumerate() {
            f.push(h.taken);
            f.flag(h.passed);
            f.push(if i == usize::from(seat) { h.secret } else { 0 });
        }
    }
}

impl crate::bots::Evaluate for TakeAway {
    fn heuristic(&self, s: &TakeAwayState, seat: Seat) -> f64 {
        s.players.as_slice().get(seat as usize).map_or(0.0, |h| f64::from(h.taken + h.secret))
    }
}

impl crate::json::StateJson for TakeAway {}
impl crate::metrics::Metrics for TakeAway {}
impl crate::screen::Screen for TakeAway {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotSpec;
    use crate::ruleset::{Bundled, load};

    fn bundled() -> Vec<Bundled> {
        vec![Bundled { name: "take-away", path: "take-away.toml", text: TAKE_AWAY_TOML }]
    }

    #[test]
    fn default_ruleset_decodes_to_the_default_rules() {
        let l = load("take-away", &bundled()).unwrap();
        let mut d = Diagnostics::default();
        let rules = TakeAway { players: 2..=4, stones: 21, max_take: 3, secret_max: 5, target: 9, spill_one_in: 6 };
        assert_eq!(decode(&l.tree, &mut d), Some(rules), "{}", d.render(&l.sources));
    }

    #[test]
    fn decode_reports_every_problem() {
        let text = TAKE_AWAY_TOML.replace("stones = 21", "stones = -1\nstonez = 3").replace("max_take = 3", "");
        let mut sources = crate::ruleset::Sources::default();
        let f = sources.add("t.toml", text.clone());
        let mut d = Diagnostics::default();
        let tree = crate::ruleset::node::parse(f, &text, &mut d).unwrap();
        assert!(decode(&tree, &mut d).is_none());
        let r = d.render(&sources);
        assert_eq!(d.len(), 3, "{r}");
        assert!(r.contains("-1 is out of range") && r.contains("unknown key `stonez`") && r.contains("`max_take`"));
    }

    #[test]
    fn shards_play_exactly_the_games_of_the_unsplit_run() {
        use crate::sim::{SimOptions, simulate};
        let g = take_away().unwrap();
        let opts = SimOptions {
            players: 3,
            games: 1100,
            from: 0,
            seed: 9,
            bots: vec![BotSpec::Random; 3],
            shard: None,
            record: true,
            progress: None,
            rotate_seats: false,
            metrics: true,
        };
        let mut all = Vec::new();
        simulate(&g, &opts, |r| all.push(r.clone())).unwrap();
        let mut pieces = Vec::new();
        for k in 0..3 {
            simulate(&g, &SimOptions { shard: Some((k, 3)), ..opts.clone() }, |r| pieces.push(r.clone())).unwrap();
        }
        pieces.sort_by_key(|r| r.index);
        assert_eq!(all, pieces);
        assert_eq!(all.iter().map(|r| r.index).collect::<Vec<_>>(), (0..1100).collect::<Vec<_>>());
    }

    /// `from` plays a run in blocks (`compare` does): the blocks, in order, are the run,
    /// and with a shard each block plays only that shard's games.
    #[test]
    fn blocks_play_exactly_the_games_of_the_whole_run() {
        use crate::sim::{SimOptions, simulate};
        let g = take_away().unwrap();
        let opts = SimOptions {
            players: 3,
            games: 1100,
            from: 0,
            seed: 9,
            bots: vec![BotSpec::Random; 3],
            shard: None,
            record: false,
            progress: None,
            rotate_seats: true,
            metrics: true,
        };
        let mut all = Vec::new();
        let whole = simulate(&g, &opts, |r| all.push(r.clone())).unwrap();
        let mut blocks = Vec::new();
        let mut tally: Option<crate::sim::Tally> = None;
        for (from, games) in [(0, 500), (500, 512), (512, 1100)] {
            let t = simulate(&g, &SimOptions { from, games, ..opts.clone() }, |r| blocks.push(r.clone())).unwrap();
            match &mut tally {
                Some(x) => x.merge(&t).unwrap(),
                None => tally = Some(t),
            }
        }
        assert_eq!(all, blocks);
        assert_eq!(tally.unwrap(), whole);
        let mut shard = Vec::new();
        simulate(&g, &SimOptions { from: 7, games: 20, shard: Some((1, 3)), ..opts.clone() }, |r| shard.push(r.index))
            .unwrap();
        shard.dedup();
        assert_eq!(shard, [7, 10, 13, 16, 19]);
    }

    #[test]
    fn toy_game_rules() {
        let g = take_away().unwrap();
        let mut s = g.new_game(2, 5).unwrap();
        assert!(g.new_game(5, 5).is_err());
        let mut legal = Vec::new();
        g.legal_actions(&s, &mut legal);
        assert_eq!(legal, vec![Move::Take(1), Move::Take(2), Move::Take(3), Move::Pass]);
        g.apply(&mut s, Move::Pass).unwrap();
        g.apply(&mut s, Move::Take(3)).unwrap();
        let before = s.clone();
        assert!(matches!(g.apply(&mut s, Move::Take(4)), Err(GameError::Illegal { .. })));
        assert_eq!(s, before);
        assert_eq!(g.parse_action(&s, "take 2").unwrap(), Move::Take(2));
        assert!(g.parse_action(&s, "grab").is_err());
        let view = g.observe(&s, 0);
        assert_eq!(view.players[1].secret, 0);
        assert_eq!(view.players[0].secret, s.players[0].secret);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Shards of a run, written as JSON and merged, give exactly the unsplit run's
        /// tally and report (metrics, per-bot results, per-round figures and extreme games
        /// included), rotated or not.
        #[test]
        fn merged_shards_equal_the_unsplit_run_with_metrics_and_rotation(
            games in 1u64..30,
            n in 1u64..5,
            seed in proptest::prelude::any::<u64>(),
            rotate_seats in proptest::prelude::any::<bool>(),
        ) {
            use crate::sim::{Report, SimOptions, merge_reports, simulate};
            let g = take_away().unwrap();
            let opts = SimOptions {
                players: 3,
                games,
                from: 0,
                seed,
                bots: crate::bots::parse_bots("greedy,random,random", 3).unwrap(),
                shard: None,
                record: false,
                progress: None,
                rotate_seats,
                metrics: true,
            };
            let report = |opts: &SimOptions| {
                let tally = simulate(&g, opts, |_| {}).unwrap();
                Report::new("take-away", "d", "take-away", opts, tally, 0.0)
            };
            let whole = report(&opts);
            let rotations = if rotate_seats { 3 } else { 1 };
            proptest::prop_assert_eq!(whole.games, games * rotations);
            proptest::prop_assert_eq!(whole.by_bot.len(), if rotate_seats { 3 } else { 0 });
            let shards: Vec<(String, Report)> = (0..n)
                .map(|k| {
                    let r = report(&SimOptions { shard: Some((k, n)), ..opts.clone() });
                    let json = serde_json::to_string(&r).unwrap();
                    (format!("s{k}"), serde_json::from_str(&json).unwrap())
                })
                .collect();
            let merged = merge_reports(&shards).unwrap();
            proptest::prop_assert_eq!(&merged.tally, &whole.tally);
            proptest::prop_assert_eq!(&merged.metrics, &whole.metrics);
            proptest::prop_assert_eq!(&merged.by_bot, &whole.by_bot);
            proptest::prop_assert!(!whole.metrics.is_empty());
            // Issue 50: the per-round figures and the extreme games merge exactly too.
            proptest::prop_assert_eq!(&merged.by_round, &whole.by_round);
            proptest::prop_assert_eq!(&merged.extremes, &whole.extremes);
            let rounds = whole.by_round.as_ref().map_or(0, |b| b.rounds.len());
            proptest::prop_assert!(rounds > 1, "{rounds} rounds");
            proptest::prop_assert!(whole.extremes.iter().any(|x| x.what == "longest game"));
        }
    }
}
