//! A run: many games in parallel, folded into a [`Tally`] in index order.
//!
//! Game `i` of a run uses [`game_seed`]`(run_seed, i)` for the game and a bot generator
//! derived from that seed, so results do not depend on thread count or sharding.
//! Games run in parallel in chunks; their results are folded in index order, so even
//! floating-point sums are identical on every run.

use crate::bots::{Bot, BotSpec};
use crate::game::Seat;
use crate::json::StateJson;
use crate::metrics::Metrics;
use crate::rng::game_seed;
use crate::sim::driver::{GameResult, PlayOptions, SimError, play_game};
use crate::sim::tally::{BotSums, Tally};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// How game `index` of the run is played (its seed from the run's), stopped by `stop`.
    pub fn play_options<'a>(&self, index: u64, stop: &'a AtomicBool) -> PlayOptions<'a> {
        PlayOptions {
            players: self.players,
            index,
            seed: game_seed(self.seed, index),
            record: self.record,
            metrics: self.metrics,
            decision_limit: None,
            stop: Some(stop),
        }
    }

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

/// Runs a simulation; `each` sees every game in index order (for records, progress).
pub fn simulate<G: Metrics + StateJson + crate::encode::Encode>(
    game: &G,
    opts: &SimOptions,
    each: impl FnMut(&GameResult),
) -> Result<Tally, SimError> {
    let play = |i: u64, r: u32, stop: &AtomicBool| {
        let play = opts.play_options(i, stop);
        if r == 0 {
            return play_game(game, &opts.bots, &play);
        }
        let bots = rotated_bots(&opts.bots, opts.players, r);
        let mut result = play_game(game, &bots, &play)?;
        result.rotation = r;
        Ok(result)
    };
    simulate_games(opts, game.metric_defs(), game.money_name(), &play, each)
}

/// Runs a simulation whose bots come from `make_bot` (called once per seat of each
/// game, on the worker threads): the way to simulate with a [`Bot`] of one's own.
/// `opts.bots` only names the seats in the report.
pub fn simulate_with<G: Metrics + StateJson + crate::encode::Encode>(
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
        let mut result = play_game(game, &mut seats, &opts.play_options(i, stop))?;
        result.rotation = r;
        Ok(result)
    };
    simulate_games(opts, game.metric_defs(), game.money_name(), &play, each)
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
    money: Option<&str>,
    play: &(dyn Fn(u64, u32, &AtomicBool) -> Result<GameResult, SimError> + Sync),
    mut each: impl FnMut(&GameResult),
) -> Result<Tally, SimError> {
    let mut tally = Tally::new(opts.players);
    tally.metrics =
        if opts.metrics { crate::metrics::MetricTally::new(defs) } else { crate::metrics::MetricTally::off() };
    if opts.metrics {
        tally.rounds = crate::sim::rounds::RoundTally::new(money);
    }
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

#[cfg(test)]
mod stop_tests {
    use super::*;
    use crate::bots::BotError;
    use crate::rng::Rng;
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
