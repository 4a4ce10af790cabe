//! The simulation driver and its report.
//!
//! Game `i` of a run uses [`game_seed`]`(run_seed, i)` for the game and a bot generator
//! derived from that seed, so results do not depend on thread count or sharding.
//! Games run in parallel in chunks; their results are folded in index order, so even
//! floating-point sums are identical on every run.

use crate::bots::{Bot, BotError, BotSpec};
use crate::game::{Game, GameError, Outcome, Seat, ToMove};
use crate::rng::{Rng, game_seed, splitmix64};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A game that has not ended after this many decisions is reported as endless, unless its
/// ruleset allows more ([`crate::Game::decision_limit`]).
pub const MAX_DECISIONS: u64 = 200_000;

/// The seed of every command that does not give one, so that two runs of the same
/// command print the same report.
pub const DEFAULT_SEED: u64 = 1;

/// The player count used when none is given: 4 if the ruleset seats 4, else its minimum.
pub fn default_players(range: &std::ops::RangeInclusive<usize>) -> usize {
    if range.contains(&4) { 4 } else { *range.start() }
}

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimOptions {
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    pub bots: Vec<BotSpec>,
    /// `(k, n)`: play only games `i` with `i % n == k` (0-based `k`).
    pub shard: Option<(u64, u64)>,
    /// Keep each game's actions in notation (for records).
    pub record: bool,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub index: u64,
    pub seed: u64,
    pub outcome: Outcome,
    pub decisions: u64,
    pub rounds: u32,
    /// The actions in notation, when recording.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("game {index} (seed {seed}): {source}")]
    Game { index: u64, seed: u64, source: GameError },
    #[error(
        "game {index} (seed {seed}) did not end after {limit} decisions: the ruleset may make a game that never ends"
    )]
    Endless { index: u64, seed: u64, limit: u64 },
    #[error("game {index} (seed {seed}): nobody can act but the game is not over")]
    Stuck { index: u64, seed: u64 },
    /// A bot could not choose (an `exec:` bot crashed, fell silent or answered nonsense).
    #[error("game {index} (seed {seed}): {source}")]
    Bot { index: u64, seed: u64, source: BotError },
}

/// The generator the bots of a game share, derived from the game's seed only.
pub fn bot_rng(seed: u64) -> Rng {
    Rng::from_seed(splitmix64(seed ^ 0x626f_7473))
}

/// Plays one game from setup to the end, each seat played by a fresh bot of its spec.
pub fn play_game<G: Game>(
    game: &G,
    players: usize,
    index: u64,
    seed: u64,
    bots: &[BotSpec],
    record: bool,
) -> Result<GameResult, SimError> {
    let mut seats: Vec<Box<dyn Bot<G>>> =
        (0..players).map(|s| bots.get(s).unwrap_or(&BotSpec::Random).instantiate::<G>(s as Seat)).collect();
    play_game_with(game, players, index, seed, &mut seats, record)
}

/// Plays one game from setup to the end with the given bots, one per seat (a Rust
/// user's own [`Bot`]s included).
pub fn play_game_with<G: Game>(
    game: &G,
    players: usize,
    index: u64,
    seed: u64,
    seats: &mut [Box<dyn Bot<G>>],
    record: bool,
) -> Result<GameResult, SimError> {
    let err = |source| SimError::Game { index, seed, source };
    let mut state = game.new_game(players, seed).map_err(err)?;
    let mut rng = bot_rng(seed);
    let mut legal = Vec::with_capacity(64);
    let mut actions = Vec::new();
    let mut decisions = 0u64;
    let limit = game.decision_limit();
    loop {
        let seat = match game.to_move(&state) {
            ToMove::Terminal => break,
            ToMove::Seat(s) => s,
        };
        game.legal_actions(&state, &mut legal);
        if legal.is_empty() {
            return Err(SimError::Stuck { index, seed });
        }
        let Some(bot) = seats.get_mut(seat as usize) else {
            return Err(SimError::Stuck { index, seed });
        };
        let action =
            bot.choose(game, &state, &legal, &mut rng).map_err(|source| SimError::Bot { index, seed, source })?;
        if record {
            actions.push(game.format_action(&state, action));
        }
        game.apply_legal(&mut state, action);
        decisions += 1;
        if decisions > limit {
            return Err(SimError::Endless { index, seed, limit });
        }
    }
    for bot in seats.iter_mut() {
        bot.game_over(game, &state);
    }
    let outcome = game.outcome(&state).ok_or(SimError::Stuck { index, seed })?;
    Ok(GameResult { index, seed, outcome, decisions, rounds: game.progress(&state).rounds, actions })
}

/// Runs a simulation; `each` sees every game in index order (for records, progress).
pub fn simulate<G: Game>(game: &G, opts: &SimOptions, each: impl FnMut(&GameResult)) -> Result<Tally, SimError> {
    let specs = &opts.bots;
    let make = |seat: Seat| specs.get(seat as usize).unwrap_or(&BotSpec::Random).instantiate::<G>(seat);
    simulate_with(game, opts, &make, each)
}

/// Runs a simulation whose bots come from `make_bot` (called once per seat of each
/// game, on the worker threads): the way to simulate with a [`Bot`] of one's own.
/// `opts.bots` only names the seats in the report.
pub fn simulate_with<G: Game>(
    game: &G,
    opts: &SimOptions,
    make_bot: &(dyn Fn(Seat) -> Box<dyn Bot<G>> + Sync),
    mut each: impl FnMut(&GameResult),
) -> Result<Tally, SimError> {
    let mut tally = Tally::new(opts.players);
    // The shard's games k, k+n, k+2n, … in chunks, never all indices at once.
    let (first, step) = match opts.shard {
        Some((k, n)) if n > 0 => (k, n),
        _ => (0, 1),
    };
    let mut next = first;
    let mut chunk = Vec::with_capacity(512);
    while next < opts.games {
        chunk.clear();
        while chunk.len() < 512 && next < opts.games {
            chunk.push(next);
            next = next.saturating_add(step);
        }
        let results: Vec<Result<GameResult, SimError>> = chunk
            .par_iter()
            .map(|&i| {
                let mut seats: Vec<Box<dyn Bot<G>>> = (0..opts.players).map(|s| make_bot(s as Seat)).collect();
                play_game_with(game, opts.players, i, game_seed(opts.seed, i), &mut seats, opts.record)
            })
            .collect();
        for r in results {
            let r = r?;
            tally.add(&r);
            each(&r);
        }
    }
    Ok(tally)
}

/// Raw sums of a run: mergeable across shards (add them), and the source of every
/// figure of the report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub games: u64,
    /// Win shares per seat (a tie between k winners gives each 1/k).
    pub wins: Vec<f64>,
    pub score_sum: Vec<f64>,
    pub score_sum_sq: Vec<f64>,
    pub rounds_sum: u64,
    pub decisions_sum: u64,
    /// How many games ended by each end condition.
    pub ends: BTreeMap<String, u64>,
    /// Games stopped by a safety cap (by the cap's name), which did not end by the rules:
    /// counted here only, and in no other figure (`games` included).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unfinished: BTreeMap<String, u64>,
}

impl Tally {
    pub fn new(players: usize) -> Self {
        Tally {
            wins: vec![0.0; players],
            score_sum: vec![0.0; players],
            score_sum_sq: vec![0.0; players],
            ..Default::default()
        }
    }

    pub fn add(&mut self, r: &GameResult) {
        if r.outcome.unfinished {
            *self.unfinished.entry(r.outcome.end.clone()).or_default() += 1;
            return;
        }
        self.games += 1;
        for (s, w) in r.outcome.win_shares().into_iter().enumerate() {
            if s < self.wins.len() {
                self.wins[s] += w;
                let score = f64::from(r.outcome.scores[s]);
                self.score_sum[s] += score;
                self.score_sum_sq[s] += score * score;
            }
        }
        self.rounds_sum += u64::from(r.rounds);
        self.decisions_sum += r.decisions;
        *self.ends.entry(r.outcome.end.clone()).or_default() += 1;
    }

    /// Adds another shard's tally (same player count).
    pub fn merge(&mut self, other: &Tally) -> Result<(), String> {
        if other.wins.len() != self.wins.len() {
            return Err(format!(
                "cannot merge a {}-player tally into a {}-player one",
                other.wins.len(),
                self.wins.len()
            ));
        }
        self.games += other.games;
        for s in 0..self.wins.len() {
            self.wins[s] += other.wins[s];
            self.score_sum[s] += other.score_sum[s];
            self.score_sum_sq[s] += other.score_sum_sq[s];
        }
        self.rounds_sum += other.rounds_sum;
        self.decisions_sum += other.decisions_sum;
        for (k, v) in &other.ends {
            *self.ends.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &other.unfinished {
            *self.unfinished.entry(k.clone()).or_default() += v;
        }
        Ok(())
    }
}

/// Figures for one seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatReport {
    pub seat: usize,
    pub bot: String,
    pub wins: f64,
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_rate_ci95: [f64; 2],
    pub score_mean: f64,
    pub score_sd: f64,
}

/// The simulation report (`--format json` prints it as is).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub ruleset: String,
    pub game: String,
    pub players: usize,
    pub seed: u64,
    pub bots: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    pub games: u64,
    pub seats: Vec<SeatReport>,
    pub rounds_mean: f64,
    pub decisions_mean: f64,
    pub ends: BTreeMap<String, u64>,
    /// Games stopped by a safety cap, by the cap's name: not finished, so kept out of
    /// every other figure (`games`, wins, scores, length, ends).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unfinished: BTreeMap<String, u64>,
    pub seconds: f64,
    pub games_per_second: f64,
    /// The raw sums, so reports of shards can be merged.
    pub tally: Tally,
}

impl Report {
    pub fn new(ruleset: &str, game: &str, opts: &SimOptions, tally: Tally, seconds: f64) -> Self {
        let n = tally.games.max(1) as f64;
        let seats = (0..tally.wins.len())
            .map(|s| {
                let mean = tally.score_sum[s] / n;
                let var = (tally.score_sum_sq[s] / n - mean * mean).max(0.0);
                let rate = tally.wins[s] / n;
                SeatReport {
                    seat: s,
                    bot: opts.bots.get(s).map_or_else(|| "random".into(), ToString::to_string),
                    wins: tally.wins[s],
                    win_rate: rate,
                    win_rate_ci95: wilson(rate, tally.games),
                    score_mean: mean,
                    score_sd: var.sqrt(),
                }
            })
            .collect();
        Report {
            ruleset: ruleset.to_string(),
            game: game.to_string(),
            players: opts.players,
            seed: opts.seed,
            bots: opts.bots.iter().map(ToString::to_string).collect(),
            shard: opts.shard.map(|(k, n)| format!("{}/{n}", k + 1)),
            games: tally.games,
            seats,
            rounds_mean: tally.rounds_sum as f64 / n,
            decisions_mean: tally.decisions_sum as f64 / n,
            ends: tally.ends.clone(),
            unfinished: tally.unfinished.clone(),
            seconds,
            games_per_second: if seconds > 0.0 { tally.games as f64 / seconds } else { 0.0 },
            tally,
        }
    }

    /// The report as a designer reads it.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "{} ({}), {} players, {} games, seed {}{}",
            self.ruleset,
            self.game,
            self.players,
            self.games + self.unfinished.values().sum::<u64>(),
            self.seed,
            self.shard.as_ref().map(|s| format!(", shard {s}")).unwrap_or_default()
        );
        let _ = writeln!(o);
        let _ = writeln!(o, "seat  bot          wins     win rate  95% interval     score mean  sd");
        for s in &self.seats {
            let _ = writeln!(
                o,
                "{:<5} {:<12} {:>8.1}  {:>7.1}%  [{:>5.1}%, {:>5.1}%]  {:>10.2}  {:.2}",
                s.seat,
                s.bot,
                s.wins,
                100.0 * s.win_rate,
                100.0 * s.win_rate_ci95[0],
                100.0 * s.win_rate_ci95[1],
                s.score_mean,
                s.score_sd
            );
        }
        let _ = writeln!(o);
        let _ = writeln!(o, "game length: {:.1} rounds, {:.1} decisions (mean)", self.rounds_mean, self.decisions_mean);
        let ends: Vec<String> = self
            .ends
            .iter()
            .map(|(k, v)| format!("{k} {v} ({:.1}%)", 100.0 * *v as f64 / self.games.max(1) as f64))
            .collect();
        let _ = writeln!(o, "ended by: {}", ends.join(", "));
        if !self.unfinished.is_empty() {
            let stopped: Vec<String> = self.unfinished.iter().map(|(k, v)| format!("{v} by {k}")).collect();
            let _ = writeln!(
                o,
                "unfinished: {} games stopped by a safety cap ({}), kept out of every figure above",
                self.unfinished.values().sum::<u64>(),
                stopped.join(", ")
            );
        }
        let _ = writeln!(o, "speed: {} games/s ({:.2} s)", rate_text(self.games_per_second), self.seconds);
        o
    }
}

/// A rate with as many decimals as it needs to be read (slow search bots play < 1 game/s).
pub fn rate_text(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}")
    } else if r >= 10.0 {
        format!("{r:.1}")
    } else {
        format!("{r:.2}")
    }
}

/// Wilson score interval at 95% for a proportion over `n` trials.
pub fn wilson(p: f64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let n = n as f64;
    let z = 1.959_963_984_540_054_f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).max(0.0)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfinished_games_count_apart() {
        let finished = Outcome::ranked(vec![10, 20], vec![], "delivered_goods");
        let stopped = Outcome::ranked(vec![30, 5], vec![], "round_limit").stopped();
        assert!(stopped.winners().is_empty() && stopped.win_shares() == [0.0, 0.0]);
        let game = |outcome| GameResult { index: 0, seed: 0, outcome, decisions: 9, rounds: 3, actions: vec![] };
        let mut t = Tally::new(2);
        t.add(&game(finished));
        t.add(&game(stopped));
        assert_eq!((t.games, t.wins.clone(), t.score_sum.clone()), (1, vec![0.0, 1.0], vec![10.0, 20.0]));
        assert_eq!((t.rounds_sum, t.decisions_sum), (3, 9));
        assert_eq!(t.unfinished.get("round_limit"), Some(&1));
        assert!(!t.ends.contains_key("round_limit"));
        let mut merged = Tally::new(2);
        merged.merge(&t).unwrap();
        merged.merge(&t).unwrap();
        assert_eq!((merged.games, merged.unfinished.get("round_limit")), (2, Some(&2)));
    }

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let [lo, hi] = wilson(0.25, 1000);
        assert!(lo < 0.25 && hi > 0.25 && hi - lo < 0.06, "{lo} {hi}");
        assert_eq!(wilson(0.0, 0), [0.0, 1.0]);
    }
}
