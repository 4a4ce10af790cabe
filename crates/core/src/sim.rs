//! The simulation driver and its report.
//!
//! Game `i` of a run uses [`game_seed`]`(run_seed, i)` for the game and a bot generator
//! derived from that seed, so results do not depend on thread count or sharding.
//! Games run in parallel in chunks; their results are folded in index order, so even
//! floating-point sums are identical on every run.

use crate::actions::Actions;
use crate::bots::{self, Bot, BotError, BotSpec};
use crate::game::{GameError, Outcome, Seat, ToMove};
use crate::json::StateJson;
use crate::metrics::Metrics;
use crate::rng::{Rng, game_seed};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::game::MAX_DECISIONS;
pub use crate::metrics::wilson;

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
    /// Play only games of index `from` and on (0: all): a long run may be played in
    /// blocks (`compare` pairs its rulesets block by block, in bounded memory).
    pub from: u64,
    pub seed: u64,
    pub bots: Vec<BotSpec>,
    /// `(k, n)`: play only games `i` with `i % n == k` (0-based `k`).
    pub shard: Option<(u64, u64)>,
    /// Keep each game's actions in notation (for records).
    pub record: bool,
    /// Counts games as each one finishes, on any thread (a progress bar reads it).
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    /// Play each seed once per rotation of the bot list ([`rotated_bots`]), so a bot's
    /// result does not depend on where it sits: `games` seeds give `games × players` games.
    pub rotate_seats: bool,
    /// Collect the designer metrics ([`crate::metrics`]): on for reports; off
    /// (`--no-metrics`) for the fastest runs, whose reports then have none.
    pub metrics: bool,
}

impl SimOptions {
    /// Rotations played per seed: 1, or one per seat when rotating.
    pub fn rotations(&self) -> u64 {
        if self.rotate_seats { self.players.max(1) as u64 } else { 1 }
    }
}

/// The bots of rotation `r`: seat `s` is played by the bot at position `(s + r) mod players`
/// of the list (rotation 0 is the list as given).
pub fn rotated_bots(bots: &[BotSpec], players: usize, r: u32) -> Vec<BotSpec> {
    (0..players).map(|s| bots.get((s + r as usize) % players.max(1)).cloned().unwrap_or(BotSpec::Random)).collect()
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
    #[serde(default, skip_serializing_if = "Actions::is_empty")]
    pub actions: Actions,
    /// The game's designer metrics, flat per seat ([`crate::metrics::MetricSheet`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<i64>,
    /// Changes of the single leader ([`crate::metrics::Lead`]).
    #[serde(default)]
    pub lead_changes: u32,
    /// The seat rotation this game was played in (0 unless rotating, see [`rotated_bots`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
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
    /// The game was stopped before its end because another game of the run failed (or
    /// the run was interrupted): it says nothing about this game.
    #[error("game {index} (seed {seed}): stopped before its end")]
    Stopped { index: u64, seed: u64 },
}

pub use crate::rng::bot_rng;

/// Plays one game from setup to the end, each seat played by a fresh bot of its spec.
pub fn play_game<G: Metrics + StateJson + crate::encode::Encode>(
    game: &G,
    players: usize,
    index: u64,
    seed: u64,
    bots: &[BotSpec],
    record: bool,
) -> Result<GameResult, SimError> {
    play_game_collecting(game, players, index, seed, bots, record, true, None)
}

/// [`play_game`], collecting the designer metrics only when `metrics`; the game stops
/// ([`SimError::Stopped`]) at its next decision once `stop` is set.
#[allow(clippy::too_many_arguments)]
pub fn play_game_collecting<G: Metrics + StateJson + crate::encode::Encode>(
    game: &G,
    players: usize,
    index: u64,
    seed: u64,
    bots: &[BotSpec],
    record: bool,
    metrics: bool,
    stop: Option<&AtomicBool>,
) -> Result<GameResult, SimError> {
    if bots.iter().any(BotSpec::is_external) {
        let mut seats: Vec<Box<dyn Bot<G>>> =
            (0..players).map(|s| bots.get(s).unwrap_or(&BotSpec::Random).instantiate::<G>(s as Seat) as _).collect();
        return play_game_with_collecting(game, players, index, seed, &mut seats, record, metrics, stop);
    }
    // Built-in bots are chosen without a `Bot` object: the playout hot path stays free of
    // a virtual call and a fallible result per decision.
    let choose = |seat: Seat, state: &G::State, legal: &[G::Action], rng: &mut Rng| {
        let spec = bots.get(usize::from(seat)).unwrap_or(&BotSpec::Random);
        bots::try_choose(game, spec, state, legal, rng).map_err(|reason| BotError {
            bot: spec.to_string(),
            seat,
            reason,
        })
    };
    run_game(game, players, index, seed, record, metrics, stop, choose).map(|(result, _)| result)
}

/// Plays one game from setup to the end with the given bots, one per seat (a Rust
/// user's own [`Bot`]s included).
pub fn play_game_with<G: Metrics + StateJson>(
    game: &G,
    players: usize,
    index: u64,
    seed: u64,
    seats: &mut [Box<dyn Bot<G>>],
    record: bool,
) -> Result<GameResult, SimError> {
    play_game_with_collecting(game, players, index, seed, seats, record, true, None)
}

/// [`play_game_with`], collecting the designer metrics only when `metrics`; stopped like
/// [`play_game_collecting`].
#[allow(clippy::too_many_arguments)]
pub fn play_game_with_collecting<G: Metrics + StateJson>(
    game: &G,
    players: usize,
    index: u64,
    seed: u64,
    seats: &mut [Box<dyn Bot<G>>],
    record: bool,
    metrics: bool,
    stop: Option<&AtomicBool>,
) -> Result<GameResult, SimError> {
    let choose =
        |seat: Seat, state: &G::State, legal: &[G::Action], rng: &mut Rng| match seats.get_mut(usize::from(seat)) {
            Some(bot) => bot.choose(game, state, legal, rng),
            None => Err(BotError { bot: "none".into(), seat, reason: "no bot sits at this seat".into() }),
        };
    let (result, state) = run_game(game, players, index, seed, record, metrics, stop, choose)?;
    for bot in seats.iter_mut() {
        bot.game_over(game, &state);
    }
    Ok(result)
}

/// The game loop both entry points share; `choose` answers for the seat to move.
#[allow(clippy::too_many_arguments)]
fn run_game<G: Metrics + StateJson>(
    game: &G,
    players: usize,
    index: u64,
    seed: u64,
    record: bool,
    metrics: bool,
    stop: Option<&AtomicBool>,
    mut choose: impl FnMut(Seat, &G::State, &[G::Action], &mut Rng) -> Result<G::Action, BotError>,
) -> Result<(GameResult, G::State), SimError> {
    let err = |source| SimError::Game { index, seed, source };
    let mut state = game.new_game(players, seed).map_err(err)?;
    let mut rng = bot_rng(seed);
    let mut legal = Vec::with_capacity(64);
    // A game's worth of names at once, rather than growing through small sizes.
    let mut actions = if record { Actions::with_capacity(512) } else { Actions::new() };
    let mut decisions = 0u64;
    let limit = game.decision_limit();
    let mut sheet = crate::metrics::MetricSheet::new(players, if metrics { game.metric_len() } else { 0 });
    let mut lead = crate::metrics::Lead::default();
    let mut standings = vec![0.0; if metrics { players } else { 0 }];
    let mut round = game.progress(&state).rounds;
    loop {
        let seat = match game.to_move(&state) {
            ToMove::Terminal => break,
            ToMove::Seat(s) => s,
        };
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(SimError::Stopped { index, seed });
        }
        game.legal_actions(&state, &mut legal);
        if legal.is_empty() {
            return Err(SimError::Stuck { index, seed });
        }
        let action = choose(seat, &state, &legal, &mut rng).map_err(|source| SimError::Bot { index, seed, source })?;
        if record {
            actions.push_with(|out| game.write_action(&state, action, out));
        }
        if metrics {
            let after = game.metric_before(&state, action, &mut sheet);
            game.apply_legal(&mut state, action);
            if after {
                game.metric_after(&state, &mut sheet);
            }
            let now = game.progress(&state).rounds;
            if now != round {
                round = now;
                game.standings(&state, &mut sheet, &mut standings);
                lead.note(standings.iter().copied());
            }
        } else {
            game.apply_legal(&mut state, action);
        }
        decisions += 1;
        if decisions > limit {
            return Err(SimError::Endless { index, seed, limit });
        }
    }
    let outcome = game.outcome(&state).ok_or(SimError::Stuck { index, seed })?;
    if metrics {
        game.metric_final(&state, &mut sheet);
        lead.finish(&outcome);
    }
    let result = GameResult {
        index,
        seed,
        outcome,
        decisions,
        rounds: game.progress(&state).rounds,
        actions,
        metrics: sheet.into_values(),
        lead_changes: lead.changes,
        rotation: 0,
    };
    Ok((result, state))
}

/// Runs a simulation; `each` sees every game in index order (for records, progress).
pub fn simulate<G: Metrics + StateJson + crate::encode::Encode>(
    game: &G,
    opts: &SimOptions,
    each: impl FnMut(&GameResult),
) -> Result<Tally, SimError> {
    let play = |i: u64, r: u32, stop: &AtomicBool| {
        let seed = game_seed(opts.seed, i);
        let (record, metrics, stop) = (opts.record, opts.metrics, Some(stop));
        if r == 0 {
            return play_game_collecting(game, opts.players, i, seed, &opts.bots, record, metrics, stop);
        }
        let bots = rotated_bots(&opts.bots, opts.players, r);
        let mut result = play_game_collecting(game, opts.players, i, seed, &bots, record, metrics, stop)?;
        result.rotation = r;
        Ok(result)
    };
    simulate_games(opts, game.metric_defs(), &play, each)
}

/// Runs a simulation whose bots come from `make_bot` (called once per seat of each
/// game, on the worker threads): the way to simulate with a [`Bot`] of one's own.
/// `opts.bots` only names the seats in the report.
pub fn simulate_with<G: Metrics + StateJson>(
    game: &G,
    opts: &SimOptions,
    make_bot: &(dyn Fn(Seat) -> Box<dyn Bot<G>> + Sync),
    each: impl FnMut(&GameResult),
) -> Result<Tally, SimError> {
    // When rotating, `make_bot` is asked for the bot of list position `(seat + r) mod players`.
    let play = |i: u64, r: u32, stop: &AtomicBool| {
        let n = opts.players.max(1);
        let mut seats: Vec<Box<dyn Bot<G>>> =
            (0..opts.players).map(|s| make_bot(((s + r as usize) % n) as Seat)).collect();
        let seed = game_seed(opts.seed, i);
        let mut result =
            play_game_with_collecting(game, opts.players, i, seed, &mut seats, opts.record, opts.metrics, Some(stop))?;
        result.rotation = r;
        Ok(result)
    };
    simulate_games(opts, game.metric_defs(), &play, each)
}

/// The first error of a chunk, in index order, that caused the run to stop (not a
/// [`SimError::Stopped`] game), else the first one.
fn first_failure(results: &mut Vec<Result<GameResult, SimError>>) -> Option<SimError> {
    let cause = results.iter().position(|r| matches!(r, Err(e) if !matches!(e, SimError::Stopped { .. })));
    let at = cause.or_else(|| results.iter().position(Result::is_err))?;
    results.swap_remove(at).err()
}

/// The run's games in parallel chunks, folded in index order.
fn simulate_games(
    opts: &SimOptions,
    defs: Vec<crate::metrics::MetricDef>,
    play: &(dyn Fn(u64, u32, &AtomicBool) -> Result<GameResult, SimError> + Sync),
    mut each: impl FnMut(&GameResult),
) -> Result<Tally, SimError> {
    let mut tally = Tally::new(opts.players);
    tally.metrics =
        if opts.metrics { crate::metrics::MetricTally::new(defs) } else { crate::metrics::MetricTally::off() };
    if opts.rotate_seats {
        tally.bots = vec![BotSums::default(); opts.players];
    }
    let rotations = opts.rotations() as u32;
    // The shard's games k, k+n, k+2n, … in chunks, never all indices at once.
    let (first, step) = match opts.shard {
        Some((k, n)) if n > 0 => (k, n),
        _ => (0, 1),
    };
    // The first index of the shard at or after `from`.
    let mut next = match opts.from.checked_sub(first) {
        None | Some(0) => first,
        Some(d) => first.saturating_add(d.div_ceil(step).saturating_mul(step)),
    };
    let mut chunk = Vec::with_capacity(512);
    // A game that fails stops the others at their next decision: a broken bot ends the
    // run within its time limit, not after every game in flight.
    let stop = AtomicBool::new(false);
    while next < opts.games {
        chunk.clear();
        // Shards split by seed: a seed's rotations stay together.
        while chunk.len() < 512 && next < opts.games {
            chunk.extend((0..rotations).map(|r| (next, r)));
            next = next.saturating_add(step);
        }
        let mut results: Vec<Result<GameResult, SimError>> = chunk
            .par_iter()
            .map(|&(i, rot)| {
                if stop.load(Ordering::Relaxed) {
                    return Err(SimError::Stopped { index: i, seed: game_seed(opts.seed, i) });
                }
                let r = play(i, rot, &stop);
                if r.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                if let Some(p) = &opts.progress {
                    p.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                r
            })
            .collect();
        // The first failure that is not a game stopped because of it.
        if let Some(e) = first_failure(&mut results) {
            return Err(e);
        }
        for r in results.into_iter().flatten() {
            tally.add(&r);
            each(&r);
        }
    }
    Ok(tally)
}

/// The version of rulesmith that writes reports.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why a report could not be read, saying so when another version of rulesmith made it
/// (its fields may differ from this version's).
pub fn report_read_error(text: &str, error: &str) -> String {
    #[derive(Deserialize)]
    struct Looks {
        #[serde(default)]
        version: Option<serde_json::Value>,
        #[serde(default)]
        ruleset: Option<serde_json::Value>,
        #[serde(default)]
        tally: Option<serde_json::Value>,
    }
    match serde_json::from_str::<Looks>(text) {
        Ok(Looks { version: Some(serde_json::Value::String(v)), .. }) if v != VERSION => {
            format!("it was made by another version of rulesmith ({v}; this is {VERSION}): {error}")
        }
        Ok(Looks { version: None, ruleset: Some(_), tally: Some(_) }) => {
            format!("it was made by another (earlier) version of rulesmith than this one ({VERSION}): {error}")
        }
        _ => error.to_string(),
    }
}

/// The most decisions per game a report's sums may hold (far above any game's limit).
pub const MAX_REPORT_DECISIONS: u64 = 1 << 40;

/// Score sums that `games` games can make: |Σx| ≤ games · 2³¹, Σx² ≤ games · 2⁶², and
/// (Σx)² ≤ games · Σx² (Cauchy–Schwarz: no negative variance).
fn plausible_scores(sum: i64, sum_sq: u64, games: u64) -> Result<(), String> {
    let (n, abs, sq) = (u128::from(games), u128::from(sum.unsigned_abs()), u128::from(sum_sq));
    if abs > n << 31 || sq > n << 62 {
        return Err(format!("are larger than {games} games can make"));
    }
    let negative_variance = match (abs.checked_mul(abs), n.checked_mul(sq)) {
        (Some(a), Some(b)) => a > b,
        (None, Some(_)) => true,
        (Some(_), None) => false,
        (None, None) => (abs as f64) * (abs as f64) > (n as f64) * (sq as f64) * (1.0 + 1e-12),
    };
    if negative_variance {
        return Err("are impossible: their sums give a negative variance".into());
    }
    Ok(())
}

/// The most seats a report may claim (bounds what a merge input can make us allocate).
pub const MAX_REPORT_PLAYERS: usize = 64;

/// Raw integer sums of a run: shards add up to exactly the unsplit run, and every
/// figure of the report comes from them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Every game played, unfinished ones included.
    pub games: u64,
    /// Games stopped by a safety cap (no winner; out of win rates and score means).
    pub unfinished: u64,
    /// `wins[seat][k - 1]`: finished games this seat won together with k - 1 others, so
    /// its win share is `Σ wins[seat][k-1] / k`, exactly.
    pub wins: Vec<Vec<u64>>,
    /// Sums over finished games.
    pub score_sum: Vec<i64>,
    pub score_sum_sq: Vec<u64>,
    pub rounds_sum: u64,
    pub decisions_sum: u64,
    /// How many games ended by each end condition (unfinished ones included).
    pub ends: BTreeMap<String, u64>,
    /// The designer metrics' sums (finished games).
    #[serde(default)]
    pub metrics: crate::metrics::MetricTally,
    /// With rotated seats: sums per bot of the list, by its position (finished games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<BotSums>,
}

/// One bot's exact sums over the seat-games it played (finished games).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotSums {
    pub games: u64,
    /// Win share in 60ths ([`crate::metrics::WIN_UNIT`]).
    pub wins: u64,
    pub score_sum: i64,
    pub score_sum_sq: u64,
}

impl Tally {
    pub fn new(players: usize) -> Self {
        Tally {
            wins: vec![vec![0; players]; players],
            score_sum: vec![0; players],
            score_sum_sq: vec![0; players],
            ..Default::default()
        }
    }

    pub fn players(&self) -> usize {
        self.wins.len()
    }

    /// Finished games: the base of win rates and score means.
    pub fn finished(&self) -> u64 {
        self.games.saturating_sub(self.unfinished)
    }

    /// A seat's win share (1/k of each k-way shared win), from the exact counts.
    pub fn win_share(&self, seat: usize) -> f64 {
        self.wins.get(seat).map_or(0.0, |w| w.iter().enumerate().map(|(k, &n)| n as f64 / (k + 1) as f64).sum())
    }

    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        *self.ends.entry(r.outcome.end.clone()).or_default() += 1;
        if r.outcome.unfinished {
            self.unfinished += 1;
            return;
        }
        let winners = r.outcome.winners().len();
        let players = self.players();
        for (s, &score) in r.outcome.scores.iter().enumerate().take(players) {
            if r.outcome.ranks.get(s) == Some(&0) && winners > 0 {
                if let Some(c) = self.wins[s].get_mut(winners - 1) {
                    *c += 1;
                }
            }
            self.score_sum[s] = self.score_sum[s].saturating_add(i64::from(score));
            let sq = u64::from(score.unsigned_abs()).pow(2);
            self.score_sum_sq[s] = self.score_sum_sq[s].saturating_add(sq);
            let position = (s + r.rotation as usize) % players.max(1);
            if let Some(b) = self.bots.get_mut(position) {
                b.games += 1;
                if r.outcome.ranks.get(s) == Some(&0) && winners > 0 {
                    b.wins += crate::metrics::WIN_UNIT as u64 / winners as u64;
                }
                b.score_sum = b.score_sum.saturating_add(i64::from(score));
                b.score_sum_sq = b.score_sum_sq.saturating_add(sq);
            }
        }
        self.rounds_sum += u64::from(r.rounds);
        self.decisions_sum += r.decisions;
        self.metrics.add(&r.outcome, &r.metrics, r.lead_changes);
    }

    /// Checks that a tally read from a file is whole and self-consistent.
    pub fn check(&self, players: usize) -> Result<(), String> {
        if players == 0 || players > MAX_REPORT_PLAYERS {
            return Err(format!("players {players} is not between 1 and {MAX_REPORT_PLAYERS}"));
        }
        if self.wins.len() != players
            || self.wins.iter().any(|w| w.len() != players)
            || self.score_sum.len() != players
            || self.score_sum_sq.len() != players
        {
            return Err(format!("its tally does not hold {players} seats × {players} tie counts"));
        }
        if self.unfinished > self.games {
            return Err("its tally has more unfinished games than games".into());
        }
        let ends = self.ends.values().try_fold(0u64, |a, &v| a.checked_add(v));
        if ends != Some(self.games) {
            return Err("its tally's end counts do not add up to its games".into());
        }
        // Each k-way shared win is counted once at each of k seats.
        let mut won = 0u64;
        for k in 1..=players {
            let seats = self.wins.iter().try_fold(0u64, |a, w| a.checked_add(w[k - 1]));
            match seats {
                Some(n) if n % k as u64 == 0 => won = won.saturating_add(n / k as u64),
                _ => return Err(format!("its tally's {k}-way shared wins do not add up")),
            }
        }
        if won > self.finished() {
            return Err("its tally has more won games than finished games".into());
        }
        if !self.bots.is_empty() && self.bots.len() != players {
            return Err(format!("its tally does not hold {players} bots"));
        }
        // What real games can add up to: per finished game a score within i32, at most
        // u32::MAX rounds and MAX_REPORT_DECISIONS decisions; and sums of squares no smaller
        // than the sums allow (a variance is never negative).
        let finished = self.finished();
        for s in 0..players {
            plausible_scores(self.score_sum[s], self.score_sum_sq[s], finished)
                .map_err(|e| format!("its tally's scores of seat {s} {e}"))?;
        }
        if u128::from(self.rounds_sum) > u128::from(finished) * u128::from(u32::MAX) {
            return Err(format!("its tally has {} rounds in {finished} finished games", self.rounds_sum));
        }
        if u128::from(self.decisions_sum) > u128::from(finished) * u128::from(MAX_REPORT_DECISIONS) {
            return Err(format!("its tally has {} decisions in {finished} finished games", self.decisions_sum));
        }
        for (p, b) in self.bots.iter().enumerate() {
            if b.games > finished || u128::from(b.wins) > u128::from(b.games) * crate::metrics::WIN_UNIT as u128 {
                return Err(format!("its tally counts more games or wins for bot {p} than it has"));
            }
            plausible_scores(b.score_sum, b.score_sum_sq, b.games)
                .map_err(|e| format!("its tally's scores of bot {p} {e}"))?;
        }
        if !self.bots.is_empty() {
            let seat_games = self.bots.iter().try_fold(0u64, |a, b| a.checked_add(b.games));
            if seat_games != finished.checked_mul(players as u64) {
                return Err("its tally's games per bot do not add up to its finished games × players".into());
            }
        }
        self.metrics.check(self.finished(), players)
    }

    /// Adds another shard's tally (same player count); refuses on overflow.
    pub fn merge(&mut self, other: &Tally) -> Result<(), String> {
        let players = self.players();
        if other.players() != players || other.wins.iter().any(|w| w.len() != players) {
            return Err(format!("cannot merge a {}-player tally into a {players}-player one", other.players()));
        }
        let over = || "the merged sums overflow".to_string();
        let add = |a: u64, b: u64| a.checked_add(b).ok_or_else(over);
        self.games = add(self.games, other.games)?;
        self.unfinished = add(self.unfinished, other.unfinished)?;
        for s in 0..players {
            for k in 0..players {
                self.wins[s][k] = add(self.wins[s][k], other.wins[s][k])?;
            }
            let sum = other.score_sum.get(s).copied().unwrap_or(0);
            self.score_sum[s] = self.score_sum[s].checked_add(sum).ok_or_else(over)?;
            self.score_sum_sq[s] = add(self.score_sum_sq[s], other.score_sum_sq.get(s).copied().unwrap_or(0))?;
        }
        self.rounds_sum = add(self.rounds_sum, other.rounds_sum)?;
        self.decisions_sum = add(self.decisions_sum, other.decisions_sum)?;
        for (k, v) in &other.ends {
            let e = self.ends.entry(k.clone()).or_default();
            *e = add(*e, *v)?;
        }
        if self.bots.len() != other.bots.len() {
            return Err("cannot merge a tally with rotated seats and one without".into());
        }
        for (a, b) in self.bots.iter_mut().zip(&other.bots) {
            a.games = add(a.games, b.games)?;
            a.wins = add(a.wins, b.wins)?;
            a.score_sum = a.score_sum.checked_add(b.score_sum).ok_or_else(over)?;
            a.score_sum_sq = add(a.score_sum_sq, b.score_sum_sq)?;
        }
        self.metrics.merge(&other.metrics)
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
    /// The rulesmith version that made the report (absent in reports of versions before
    /// 0.1.0's; `merge` names the version when it cannot read a report).
    #[serde(default)]
    pub version: String,
    pub ruleset: String,
    /// The ruleset's digest: shards of one run must agree on it.
    pub digest: String,
    /// The `--set KEY=VALUE` overrides the ruleset was played with (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<String>,
    pub game: String,
    pub players: usize,
    pub seed: u64,
    pub bots: Vec<String>,
    /// The run's `--games`: the whole run, of which a shard plays its part.
    pub run_games: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Each seed played once per rotation of the bots ([`rotated_bots`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rotate_seats: bool,
    /// Games this report covers (unfinished included; with rotated seats, seeds × players).
    pub games: u64,
    /// Games stopped by a safety cap: no winner, out of win rates and score means.
    pub unfinished: u64,
    pub seats: Vec<SeatReport>,
    /// With rotated seats: each bot of the list (by position) over every seat it played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_bot: Vec<SeatReport>,
    pub rounds_mean: f64,
    pub decisions_mean: f64,
    pub ends: BTreeMap<String, u64>,
    /// Designer metrics ([`crate::metrics`]): game-independent figures, then the game's.
    #[serde(default)]
    pub metrics: Vec<crate::metrics::Figure>,
    pub seconds: f64,
    pub games_per_second: f64,
    /// The raw sums, so reports of shards can be merged.
    pub tally: Tally,
}

/// The note a report carries when different bots sit in fixed seats: its seat figures
/// (the first player's share included) measure the bots as much as the seats.
pub fn unrotated_note(bots: &[String], rotated: bool) -> Option<String> {
    (!rotated && bots.windows(2).any(|w| w[0] != w[1])).then(|| {
        "note: the bots differ by seat and the seats are not rotated: the seat figures (the first player's share \
         included) measure the bots, not the seats; --rotate-seats separates them"
            .to_string()
    })
}

impl Report {
    pub fn new(ruleset: &str, digest: &str, game: &str, opts: &SimOptions, tally: Tally, seconds: f64) -> Self {
        let finished = tally.finished();
        let n = finished.max(1) as f64;
        let seats = (0..tally.wins.len())
            .map(|s| {
                let mean = tally.score_sum.get(s).copied().unwrap_or(0) as f64 / n;
                let sq = tally.score_sum_sq.get(s).copied().unwrap_or(0) as f64 / n;
                let var = (sq - mean * mean).max(0.0);
                let wins = tally.win_share(s);
                let rate = wins / n;
                SeatReport {
                    seat: s,
                    bot: opts.bots.get(s).map_or_else(|| "random".into(), ToString::to_string),
                    wins,
                    win_rate: rate,
                    win_rate_ci95: wilson(rate, finished),
                    score_mean: mean,
                    score_sd: var.sqrt(),
                }
            })
            .collect();
        // A bot's seat-games: `seat` is its position in the bot list.
        let by_bot = tally
            .bots
            .iter()
            .enumerate()
            .map(|(p, b)| {
                let k = b.games.max(1) as f64;
                let mean = b.score_sum as f64 / k;
                let var = (b.score_sum_sq as f64 / k - mean * mean).max(0.0);
                let wins = b.wins as f64 / crate::metrics::WIN_UNIT as f64;
                SeatReport {
                    seat: p,
                    bot: opts.bots.get(p).map_or_else(|| "random".into(), ToString::to_string),
                    wins,
                    win_rate: wins / k,
                    win_rate_ci95: wilson(wins / k, b.games),
                    score_mean: mean,
                    score_sd: var.sqrt(),
                }
            })
            .collect();
        Report {
            version: VERSION.to_string(),
            ruleset: ruleset.to_string(),
            digest: digest.to_string(),
            overrides: Vec::new(),
            game: game.to_string(),
            players: opts.players,
            seed: opts.seed,
            bots: opts.bots.iter().map(ToString::to_string).collect(),
            run_games: opts.games,
            shard: opts.shard.map(|(k, n)| format!("{}/{n}", k + 1)),
            rotate_seats: opts.rotate_seats,
            games: tally.games,
            unfinished: tally.unfinished,
            seats,
            by_bot,
            rounds_mean: tally.rounds_sum as f64 / n,
            decisions_mean: tally.decisions_sum as f64 / n,
            ends: tally.ends.clone(),
            metrics: tally.metrics.figures(tally.players(), tally.win_share(0)),
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
            self.games,
            self.seed,
            self.shard.as_ref().map(|s| format!(", shard {s}")).unwrap_or_default()
        );
        for set in &self.overrides {
            let _ = writeln!(o, "--set {set}");
        }
        if let Some(note) = unrotated_note(&self.bots, self.rotate_seats) {
            let _ = writeln!(o, "{note}");
        }
        let _ = writeln!(o);
        // One line per seat (or per bot when rotating): the first column `width` wide.
        let row = |o: &mut String, width: usize, s: &SeatReport| {
            let _ = writeln!(
                o,
                "{:<width$} {:<12} {:>8.1}  {:>7.1}%  [{:>5.1}%, {:>5.1}%]  {:>10.2}  {:.2}",
                s.seat,
                s.bot,
                s.wins,
                100.0 * s.win_rate,
                100.0 * s.win_rate_ci95[0],
                100.0 * s.win_rate_ci95[1],
                s.score_mean,
                s.score_sd
            );
        };
        let _ = writeln!(o, "seat  bot          wins     win rate  95% interval     score mean  sd");
        for s in &self.seats {
            row(&mut o, 5, s);
        }
        if self.rotate_seats {
            let _ = writeln!(o);
            let _ = writeln!(
                o,
                "seats rotated: each of {} seeds played once per rotation of the bots; by bot (over every seat):",
                self.games / self.players.max(1) as u64
            );
            let _ = writeln!(o, "bot# bot          wins     win rate  95% interval     score mean  sd");
            for s in &self.by_bot {
                row(&mut o, 4, s);
            }
        }
        let _ = writeln!(o);
        if self.unfinished > 0 {
            let _ = writeln!(
                o,
                "unfinished: {} games stopped by a safety cap ({:.1}%), no winner; out of the win rates and score means",
                self.unfinished,
                100.0 * self.unfinished as f64 / self.games.max(1) as f64
            );
        }
        let _ = writeln!(o, "game length: {:.1} rounds, {:.1} decisions (mean)", self.rounds_mean, self.decisions_mean);
        let ends: Vec<String> = self
            .ends
            .iter()
            .map(|(k, v)| format!("{k} {v} ({:.1}%)", 100.0 * *v as f64 / self.games.max(1) as f64))
            .collect();
        let _ = writeln!(o, "ended by: {}", ends.join(", "));
        if !self.metrics.is_empty() {
            let _ = writeln!(o);
            o.push_str(&crate::metrics::text(&self.metrics));
            let _ = writeln!(o);
        }
        let _ = writeln!(o, "speed: {} games/s ({:.2} s)", rate_text(self.games_per_second), self.seconds);
        o
    }
}

/// The games of shard `(k, n)` of a run of `games`: `i < games` with `i % n == k`.
pub fn shard_games(games: u64, k: u64, n: u64) -> u64 {
    if n == 0 || k >= games { 0 } else { (games - k - 1) / n + 1 }
}

/// `K/N` (1-based K, as reports and `--shard` write it) → `(K-1, N)`.
pub fn parse_shard(s: &str) -> Option<(u64, u64)> {
    let (k, n) = s.split_once('/')?;
    let (k, n) = (k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?);
    (n >= 1 && (1..=n).contains(&k)).then_some((k - 1, n))
}

/// Merges the reports of one run's shards (each named, e.g. by its file) into the report
/// of the whole run, refusing what does not belong together: another run (ruleset, digest,
/// game, players, seed, bots, `--games`), a shard given twice or overlapping another
/// (shards must split the run the same way), missing shards, and tallies that do not
/// hold together.
pub fn merge_reports(reports: &[(String, Report)]) -> Result<Report, String> {
    let mut m = ReportMerge::default();
    for (name, r) in reports {
        m.add(name, r)?;
    }
    m.finish()
}

/// [`merge_reports`] one report at a time: what is kept is the first report's header and
/// the running tally, so the shards of a long run merge in bounded memory.
#[derive(Default)]
pub struct ReportMerge {
    /// The first report's name and its fields (its tally left out).
    first: Option<(String, Report)>,
    tally: Tally,
    seen: BTreeMap<u64, String>,
    of: Option<u64>,
    seconds: f64,
}

impl ReportMerge {
    /// Checks one shard's report against the first and adds its tally.
    pub fn add(&mut self, name: &str, r: &Report) -> Result<(), String> {
        let (first_name, first) = self.first.get_or_insert_with(|| {
            let mut header = r.clone();
            header.tally = Tally::default();
            (name.to_string(), header)
        });
        if r.version != first.version {
            let v = |v: &str| if v.is_empty() { "an earlier version".to_string() } else { v.to_string() };
            return Err(format!(
                "`{name}` was made by another version of rulesmith ({}) than `{first_name}` ({}): merge shards of one version",
                v(&r.version),
                v(&first.version)
            ));
        }
        // The first field that differs is named: what makes the file another run's.
        let differs = [
            ("ruleset", r.ruleset != first.ruleset),
            ("digest", r.digest != first.digest),
            ("game", r.game != first.game),
            ("players", r.players != first.players),
            ("seed", r.seed != first.seed),
            ("bots", r.bots != first.bots),
            ("run_games", r.run_games != first.run_games),
            ("rotate_seats", r.rotate_seats != first.rotate_seats),
            ("overrides", r.overrides != first.overrides),
        ];
        if let Some((field, _)) = differs.iter().find(|(_, d)| *d) {
            return Err(format!(
                "`{name}` is not a shard of the same run as `{first_name}`: its `{field}` differs (ruleset, digest, game, players, seed, bots, --games, --set and seat rotation must match)"
            ));
        }
        r.tally.check(r.players).map_err(|e| format!("`{name}`: {e}"))?;
        let (k, n) = match &r.shard {
            None => (0, 1),
            Some(s) => parse_shard(s).ok_or_else(|| format!("`{name}`: shard `{s}` is not K/N with 1 ≤ K ≤ N"))?,
        };
        match self.of {
            None => self.of = Some(n),
            Some(m) if m != n => {
                return Err(format!(
                    "`{name}` is shard {}/{n} but `{first_name}` is of {m} shards: shards split differently overlap",
                    k + 1
                ));
            }
            Some(_) => {}
        }
        if let Some(other) = self.seen.get(&k) {
            return Err(format!("shard {}/{n} is given twice (`{other}` and `{name}`)", k + 1));
        }
        self.seen.insert(k, name.to_string());
        let rotations = if r.rotate_seats { r.players as u64 } else { 1 };
        let expected = shard_games(r.run_games, k, n).saturating_mul(rotations);
        if r.tally.games != expected || r.games != r.tally.games || r.unfinished != r.tally.unfinished {
            return Err(format!(
                "`{name}`: shard {}/{n} of a {}-game run has {expected} games, but the report says {}",
                k + 1,
                r.run_games,
                r.tally.games
            ));
        }
        let tally = &mut self.tally;
        if tally.players() == 0 {
            *tally = Tally::new(r.players);
            tally.bots = vec![BotSums::default(); r.tally.bots.len()];
            tally.metrics = if r.tally.metrics.off {
                crate::metrics::MetricTally::off()
            } else {
                crate::metrics::MetricTally::new(r.tally.metrics.defs.clone())
            };
        }
        tally.merge(&r.tally).map_err(|e| format!("`{name}`: {e}"))?;
        if r.seconds.is_finite() && r.seconds >= 0.0 {
            self.seconds += r.seconds;
        }
        Ok(())
    }

    /// The merged report, once every shard is in.
    pub fn finish(self) -> Result<Report, String> {
        let Some((first_name, first)) = self.first else {
            return Err("no reports given".into());
        };
        let (seen, tally, seconds) = (self.seen, self.tally, self.seconds);
        let n = self.of.unwrap_or(1);
        let missing: Vec<String> =
            (0..n).filter(|k| !seen.contains_key(k)).take(10).map(|k| format!("{}/{n}", k + 1)).collect();
        if !missing.is_empty() {
            let more = if (n as usize).saturating_sub(seen.len()) > missing.len() { ", …" } else { "" };
            return Err(format!(
                "shards missing: {}{more} ({} of {n} given); merge all shards of the run",
                missing.join(", "),
                seen.len()
            ));
        }
        let bots: Vec<BotSpec> = first
            .bots
            .iter()
            .map(|b| b.parse())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("`{first_name}`: {e}"))?;
        let opts = SimOptions {
            players: first.players,
            games: first.run_games,
            from: 0,
            seed: first.seed,
            bots,
            shard: None,
            record: false,
            progress: None,
            rotate_seats: first.rotate_seats,
            metrics: true,
        };
        let mut report = Report::new(&first.ruleset, &first.digest, &first.game, &opts, tally, seconds);
        // The overrides are the run's, as the unsplit run reports them.
        report.overrides = first.overrides;
        Ok(report)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let [lo, hi] = wilson(0.25, 1000);
        assert!(lo < 0.25 && hi > 0.25 && hi - lo < 0.06, "{lo} {hi}");
        assert_eq!(wilson(0.0, 0), [0.0, 1.0]);
    }

    fn report(games: u64, shard: Option<(u64, u64)>, tally: Tally) -> Report {
        let opts = SimOptions {
            players: 2,
            games,
            from: 0,
            seed: 1,
            bots: vec![],
            shard,
            record: false,
            progress: None,
            rotate_seats: false,
            metrics: true,
        };
        Report::new("r", "d", "g", &opts, tally, 0.0)
    }

    /// Two 2-way ties and one 3-way tie split across shards add up exactly.
    #[test]
    fn shared_wins_merge_exactly() {
        let game = |index, ranks: Vec<u8>| GameResult {
            index,
            seed: index,
            outcome: Outcome { scores: vec![1, 1, 1], tiebreaks: vec![], ranks, end: "e".into(), unfinished: false },
            decisions: 1,
            rounds: 1,
            actions: Actions::new(),
            metrics: vec![],
            lead_changes: 0,
            rotation: 0,
        };
        let games = [game(0, vec![0, 0, 0]), game(1, vec![0, 0, 1]), game(2, vec![0, 1, 0])];
        let mut whole = Tally::new(3);
        let mut parts = [Tally::new(3), Tally::new(3)];
        for g in &games {
            whole.add(g);
            parts[(g.index % 2) as usize].add(g);
        }
        let opts = |shard| SimOptions {
            players: 3,
            games: 3,
            from: 0,
            seed: 1,
            bots: vec![],
            shard,
            record: false,
            progress: None,
            rotate_seats: false,
            metrics: true,
        };
        let named: Vec<(String, Report)> = parts
            .iter()
            .enumerate()
            .map(|(k, t)| (format!("s{k}"), Report::new("r", "d", "g", &opts(Some((k as u64, 2))), t.clone(), 0.0)))
            .collect();
        let merged = merge_reports(&named).unwrap();
        assert_eq!(merged.tally, whole);
        assert_eq!(whole.wins[0], vec![0, 2, 1]);
        assert_eq!(merged.seats[0].wins, 1.0 + 1.0 / 3.0);
    }

    proptest::proptest! {
        /// Any tally, shard and game count a report file may hold: merge answers, never panics.
        #[test]
        fn merge_never_panics(
            games in proptest::prelude::any::<u64>(),
            wins in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u64>(), 0..4), 0..4),
            sums in proptest::collection::vec(proptest::prelude::any::<i64>(), 0..4),
            tg in proptest::prelude::any::<u64>(),
            unfinished in proptest::prelude::any::<u64>(),
            k in 0u64..5, n in 0u64..5, twice in proptest::prelude::any::<bool>(),
        ) {
            let tally = Tally { games: tg, unfinished, wins, score_sum: sums, ..Default::default() };
            let mut r = report(games, Some((k, n)), tally);
            r.shard = Some(format!("{k}/{n}"));
            let mut list = vec![("a".to_string(), r.clone())];
            if twice {
                list.push(("b".to_string(), r));
            }
            let _ = merge_reports(&list);
        }
    }
}

#[cfg(test)]
mod stop_tests {
    use super::*;
    use crate::testing::{TakeAway, take_away};
    use std::sync::Arc;
    use std::sync::atomic::AtomicU64;

    /// Fails at its first decision if `fails`, else plays the first legal action and
    /// counts its decisions.
    struct Counted {
        fails: bool,
        decisions: Arc<AtomicU64>,
    }

    impl Bot<TakeAway> for Counted {
        fn name(&self) -> String {
            "counted".into()
        }
        fn choose(
            &mut self,
            _game: &TakeAway,
            _state: &<TakeAway as crate::game::Game>::State,
            legal: &[<TakeAway as crate::game::Game>::Action],
            _rng: &mut Rng,
        ) -> Result<<TakeAway as crate::game::Game>::Action, BotError> {
            if self.fails {
                return Err(BotError { bot: "counted".into(), seat: 0, reason: "fails on purpose".into() });
            }
            self.decisions.fetch_add(1, Ordering::Relaxed);
            Ok(legal[0])
        }
    }

    /// Issue 30: a bot that fails in one game stops the run at once: the games in flight
    /// stop at their next decision and no other game starts, so the run does not wait for
    /// every game of the chunk (512 here, about 10 decisions each) to be played.
    #[test]
    fn a_failing_game_stops_the_run_at_once() {
        let game = take_away().unwrap();
        let decisions = Arc::new(AtomicU64::new(0));
        let made = Arc::new(AtomicU64::new(0));
        let (d, m) = (Arc::clone(&decisions), Arc::clone(&made));
        let make = move |seat: Seat| -> Box<dyn Bot<TakeAway>> {
            // The first seat-0 bot made fails; every other bot plays.
            let fails = seat == 0 && m.fetch_add(1, Ordering::SeqCst) == 0;
            Box::new(Counted { fails, decisions: Arc::clone(&d) })
        };
        let opts = SimOptions {
            players: 2,
            games: 512,
            from: 0,
            seed: 1,
            bots: vec![BotSpec::Random; 2],
            shard: None,
            record: false,
            progress: None,
            rotate_seats: false,
            metrics: false,
        };
        let e = simulate_with(&game, &opts, &make, |_| {}).unwrap_err();
        assert!(matches!(e, SimError::Bot { .. }), "the cause is reported, not a stopped game: {e}");
        let played = decisions.load(Ordering::Relaxed);
        assert!(played < 200, "{played} decisions were played after the failure");
    }
}
