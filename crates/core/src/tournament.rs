//! Tournaments: bots played round robin over rotated seatings, with win shares, pairwise
//! results and a rating.
//!
//! With `k` bots and `p` players, every set of `p` bots (all of them when `k = p`) sits
//! in each of its `p` rotations, and each seating plays the same `games` seeds, so no bot
//! profits from a seat or a seed. Game `i` of every seating uses
//! [`game_seed`]`(seed, i)`, as `simulate` does.
//!
//! Everything is counted in integers (win shares in sixtieths: a tie among `w ≤ 5`
//! winners gives each `60 / w`; pairwise results in halves), so shards (`i mod N`) add up
//! to the unsplit tournament exactly. The rating is a Bradley–Terry fit of the pairwise
//! results, on the Elo scale (400 points: 10-to-1 odds), centred on 1500: it depends only
//! on the summed counts, not on the order games were played, which a sequential Elo or
//! TrueSkill update would.

use crate::bots::BotSpec;
use crate::json::StateJson;
use crate::metrics::Metrics;
use crate::rng::game_seed;
use crate::sim::{PlayOptions, SimError, play_game, wilson};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A tie shared by `w` winners gives each `SHARE / w`: exact for up to 5 winners.
const SHARE: u64 = 60;
/// The most seatings a tournament may have (a bound on work and memory).
pub const MAX_SEATINGS: usize = 10_000;

/// What to play.
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    pub players: usize,
    /// Seeds per seating.
    pub games: u64,
    pub seed: u64,
    pub bots: Vec<BotSpec>,
    /// `(k, n)`: only seeds `i` with `i % n == k`.
    pub shard: Option<(u64, u64)>,
    /// Counts games as each one finishes, on any thread (a progress bar reads it).
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

/// Every seating: each `players`-subset of the bots (in index order) in each rotation.
pub fn seatings(bots: usize, players: usize) -> Result<Vec<Vec<usize>>, String> {
    if players == 0 || bots < players {
        return Err(format!("a tournament of {players} players needs at least {players} bots; --bots lists {bots}"));
    }
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..players).collect();
    loop {
        for r in 0..players {
            out.push((0..players).map(|s| pick[(s + r) % players]).collect());
            if out.len() > MAX_SEATINGS {
                return Err(format!(
                    "{bots} bots at {players}-player tables give more than {MAX_SEATINGS} seatings: name fewer bots"
                ));
            }
        }
        // The next combination in lexicographic order, or done.
        let Some(i) = (0..players).rev().find(|&i| pick[i] < bots - players + i) else { break };
        pick[i] += 1;
        for j in i + 1..players {
            pick[j] = pick[j - 1] + 1;
        }
    }
    Ok(out)
}

/// The raw counts of a tournament: add them to merge shards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentTally {
    /// Finished games.
    pub games: u64,
    /// Games stopped by a safety cap (no winner): counted here only.
    pub unfinished: u64,
    /// Per bot: games played.
    pub played: Vec<u64>,
    /// Per bot: win shares in sixtieths.
    pub wins_60: Vec<u64>,
    /// Per bot: the sum of its scores.
    pub score_sum: Vec<i64>,
    /// `pairs[a][b]`: games where bot `a` finished ahead of bot `b`, in halves (a tie on
    /// rank gives each one half).
    pub pairs: Vec<Vec<u64>>,
}

impl TournamentTally {
    pub fn new(bots: usize) -> Self {
        TournamentTally {
            played: vec![0; bots],
            wins_60: vec![0; bots],
            score_sum: vec![0; bots],
            pairs: vec![vec![0; bots]; bots],
            ..Default::default()
        }
    }

    fn add(&mut self, seating: &[usize], outcome: &crate::game::Outcome) {
        if outcome.unfinished {
            self.unfinished += 1;
            return;
        }
        self.games += 1;
        let winners = outcome.winners().len().max(1) as u64;
        for (seat, &bot) in seating.iter().enumerate() {
            self.played[bot] += 1;
            self.score_sum[bot] += i64::from(outcome.scores.get(seat).copied().unwrap_or(0));
            if outcome.ranks.get(seat) == Some(&0) {
                self.wins_60[bot] += SHARE / winners;
            }
            for (other, &rival) in seating.iter().enumerate() {
                if other == seat {
                    continue;
                }
                let (mine, theirs) = (outcome.ranks.get(seat), outcome.ranks.get(other));
                if mine < theirs {
                    self.pairs[bot][rival] += 2;
                } else if mine == theirs {
                    self.pairs[bot][rival] += 1;
                }
            }
        }
    }

    /// Adds another shard's counts (same bots).
    pub fn merge(&mut self, other: &TournamentTally) -> Result<(), String> {
        let n = self.played.len();
        let fits = |v: usize| v == n;
        if !(fits(other.played.len())
            && fits(other.wins_60.len())
            && fits(other.score_sum.len())
            && fits(other.pairs.len())
            && other.pairs.iter().all(|row| fits(row.len())))
        {
            return Err(format!("the tallies are of different bot lists ({n} bots against {})", other.played.len()));
        }
        let add = |a: &mut u64, b: u64| -> Result<(), String> {
            *a = a.checked_add(b).ok_or("a count overflows: the reports cannot be one tournament")?;
            Ok(())
        };
        add(&mut self.games, other.games)?;
        add(&mut self.unfinished, other.unfinished)?;
        for b in 0..n {
            add(&mut self.played[b], other.played[b])?;
            add(&mut self.wins_60[b], other.wins_60[b])?;
            self.score_sum[b] = self.score_sum[b]
                .checked_add(other.score_sum[b])
                .ok_or("a score sum overflows: the reports cannot be one tournament")?;
            for c in 0..n {
                add(&mut self.pairs[b][c], other.pairs[b][c])?;
            }
        }
        Ok(())
    }
}

/// Plays the tournament (or its shard).
pub fn run<G: Metrics + StateJson + crate::encode::Encode>(
    game: &G,
    opts: &TournamentOptions,
) -> Result<TournamentTally, SimError> {
    let seatings = seatings(opts.bots.len(), opts.players).map_err(|reason| SimError::Game {
        index: 0,
        seed: opts.seed,
        source: crate::game::GameError::InvalidState(reason),
    })?;
    let mut tally = TournamentTally::new(opts.bots.len());
    let (first, step) = match opts.shard {
        Some((k, n)) if n > 0 => (k, n),
        _ => (0, 1),
    };
    let mut next = first;
    let mut chunk: Vec<(u64, usize)> = Vec::with_capacity(512);
    while next < opts.games {
        chunk.clear();
        while chunk.len() < 512 && next < opts.games {
            chunk.extend((0..seatings.len()).map(|s| (next, s)));
            next = next.saturating_add(step);
        }
        let results: Vec<_> = chunk
            .par_iter()
            .map(|&(i, s)| {
                let specs: Vec<BotSpec> = seatings[s].iter().map(|&b| opts.bots[b].clone()).collect();
                let play =
                    PlayOptions { index: i, metrics: false, ..PlayOptions::new(opts.players, game_seed(opts.seed, i)) };
                let r = play_game(game, &specs, &play);
                if let Some(p) = &opts.progress {
                    p.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                r.map(|r| (s, r.outcome))
            })
            .collect();
        for r in results {
            let (s, outcome) = r?;
            tally.add(&seatings[s], &outcome);
        }
    }
    Ok(tally)
}

/// One bot's line of the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotStanding {
    pub bot: String,
    pub games: u64,
    pub wins: f64,
    pub win_share: f64,
    /// Wilson 95% interval of the win share.
    pub win_share_ci95: [f64; 2],
    pub score_mean: f64,
    /// Bradley–Terry strength on the Elo scale (mean 1500).
    pub rating: f64,
}

/// The tournament report (`--format json` prints it; `tally` makes shards mergeable).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentReport {
    /// Always `tournament` (tells `merge` what it reads).
    pub kind: String,
    /// The rulesmith version that made the report (see [`crate::sim::Report::version`]).
    #[serde(default)]
    pub version: String,
    pub ruleset: String,
    pub digest: String,
    pub game: String,
    pub players: usize,
    pub seed: u64,
    /// Seeds per seating (of the whole tournament, not of a shard).
    pub games_per_seating: u64,
    pub seatings: usize,
    pub bots: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    pub standings: Vec<BotStanding>,
    /// `ahead[a][b]`: the share of their games together in which `a` finished ahead of
    /// `b` (ties count one half).
    pub ahead: Vec<Vec<Option<f64>>>,
    pub tally: TournamentTally,
}

impl TournamentReport {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ruleset: &str,
        digest: &str,
        game: &str,
        opts: &TournamentOptions,
        seatings: usize,
        tally: TournamentTally,
    ) -> Self {
        let ratings = ratings(&tally.pairs);
        let standings = (0..opts.bots.len())
            .map(|b| {
                let games = tally.played[b];
                let wins = tally.wins_60[b] as f64 / SHARE as f64;
                let share = if games > 0 { wins / games as f64 } else { 0.0 };
                BotStanding {
                    bot: opts.bots[b].to_string(),
                    games,
                    wins,
                    win_share: share,
                    win_share_ci95: wilson(share, games),
                    score_mean: if games > 0 { tally.score_sum[b] as f64 / games as f64 } else { 0.0 },
                    rating: ratings.get(b).copied().unwrap_or(1500.0),
                }
            })
            .collect();
        let ahead = (0..opts.bots.len())
            .map(|a| {
                (0..opts.bots.len())
                    .map(|b| {
                        let together = tally.pairs[a][b] + tally.pairs[b][a];
                        (a != b && together > 0).then(|| tally.pairs[a][b] as f64 / together as f64)
                    })
                    .collect()
            })
            .collect();
        TournamentReport {
            version: crate::sim::VERSION.to_string(),
            kind: "tournament".into(),
            ruleset: ruleset.into(),
            digest: digest.into(),
            game: game.into(),
            players: opts.players,
            seed: opts.seed,
            games_per_seating: opts.games,
            seatings,
            bots: opts.bots.iter().map(ToString::to_string).collect(),
            shard: opts.shard.map(|(k, n)| format!("{}/{n}", k + 1)),
            standings,
            ahead,
            tally,
        }
    }

    /// The report as a person reads it: the table by rating, then who finishes ahead of whom.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "tournament: {} ({}), {} players, {} bots, {} seatings × {} seeds, seed {}{}",
            self.ruleset,
            self.game,
            self.players,
            self.bots.len(),
            self.seatings,
            self.games_per_seating,
            self.seed,
            self.shard.as_ref().map(|s| format!(", shard {s}")).unwrap_or_default()
        );
        let _ = writeln!(o);
        let width = self.bots.iter().map(String::len).max().unwrap_or(3).max(3);
        let _ = writeln!(o, "{:<width$}  rating  games  win share  95% interval     score mean", "bot");
        let mut order: Vec<usize> = (0..self.standings.len()).collect();
        order.sort_by(|&a, &b| self.standings[b].rating.total_cmp(&self.standings[a].rating).then(a.cmp(&b)));
        for &b in &order {
            let s = &self.standings[b];
            let _ = writeln!(
                o,
                "{:<width$}  {:>6.0}  {:>5}  {:>8.1}%  [{:>5.1}%, {:>5.1}%]  {:>10.2}",
                s.bot,
                s.rating,
                s.games,
                100.0 * s.win_share,
                100.0 * s.win_share_ci95[0],
                100.0 * s.win_share_ci95[1],
                s.score_mean
            );
        }
        let _ = writeln!(o);
        let _ = writeln!(o, "finishes ahead of (share of their games together; ties count half):");
        for &a in &order {
            let cells: Vec<String> = order
                .iter()
                .filter(|&&b| b != a)
                .filter_map(|&b| self.ahead[a][b].map(|v| format!("{} {:.1}%", self.bots[b], 100.0 * v)))
                .collect();
            let _ = writeln!(o, "  {:<width$}  {}", self.bots[a], cells.join(" · "));
        }
        let _ = writeln!(o);
        let _ = write!(o, "{} games", self.tally.games);
        if self.tally.unfinished > 0 {
            let _ =
                write!(o, "; {} unfinished (stopped by a safety cap, kept out of every figure)", self.tally.unfinished);
        }
        let _ = writeln!(o, "; rating: Bradley–Terry fit of the pairwise results, Elo scale, mean 1500");
        o
    }
}

/// Bradley–Terry strengths from pairwise counts (in halves), by Hunter's MM iteration,
/// on the Elo scale. Each pair also gets one virtual drawn game, so a bot that never
/// finished ahead still has a finite rating.
pub fn ratings(pairs: &[Vec<u64>]) -> Vec<f64> {
    let n = pairs.len();
    if n == 0 {
        return Vec::new();
    }
    let games = |a: usize, b: usize| (pairs[a][b] + pairs[b][a]) as f64 / 2.0 + 1.0;
    let wins: Vec<f64> =
        (0..n).map(|a| (0..n).filter(|&b| b != a).map(|b| pairs[a][b] as f64 / 2.0 + 0.5).sum()).collect();
    let mut p = vec![1.0_f64; n];
    for _ in 0..500 {
        let mut next: Vec<f64> = (0..n)
            .map(|a| {
                let denom: f64 = (0..n).filter(|&b| b != a).map(|b| games(a, b) / (p[a] + p[b])).sum();
                if denom > 0.0 { wins[a] / denom } else { p[a] }
            })
            .collect();
        let log_mean = next.iter().map(|v| v.ln()).sum::<f64>() / n as f64;
        for v in &mut next {
            *v /= log_mean.exp();
        }
        let change = next.iter().zip(&p).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p.iter().map(|v| 1500.0 + 400.0 * v.log10()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seatings_rotate_every_table() {
        assert_eq!(seatings(2, 2).unwrap(), vec![vec![0, 1], vec![1, 0]]);
        let s = seatings(3, 2).unwrap();
        assert_eq!(s, vec![vec![0, 1], vec![1, 0], vec![0, 2], vec![2, 0], vec![1, 2], vec![2, 1]]);
        assert_eq!(seatings(4, 3).unwrap().len(), 4 * 3);
        assert!(seatings(1, 2).unwrap_err().contains("at least 2 bots"));
        assert!(seatings(30, 5).unwrap_err().contains("more than"));
    }

    #[test]
    fn ratings_follow_the_results() {
        // a beats b 3 times in 4; b and c are even.
        let pairs = vec![vec![0, 6, 4], vec![2, 0, 4], vec![4, 4, 0]];
        let r = ratings(&pairs);
        assert!(r[0] > r[1] && r[0] > r[2], "{r:?}");
        assert!((r.iter().sum::<f64>() / 3.0 - 1500.0).abs() < 1e-6);
        let even = ratings(&[vec![0, 4], vec![4, 0]]);
        assert!((even[0] - even[1]).abs() < 1e-9);
    }

    #[test]
    fn shards_add_up_to_the_whole_tournament() {
        let game = crate::testing::take_away().unwrap();
        let opts = TournamentOptions {
            players: 2,
            games: 9,
            seed: 5,
            bots: vec![BotSpec::Greedy, BotSpec::Random, BotSpec::Mcts(8)],
            shard: None,
            progress: None,
        };
        let whole = run(&game, &opts).unwrap();
        assert_eq!(whole.games + whole.unfinished, 9 * 6);
        assert_eq!(whole.played.iter().sum::<u64>(), 2 * whole.games);
        let mut merged = TournamentTally::new(3);
        for k in 0..4 {
            merged.merge(&run(&game, &TournamentOptions { shard: Some((k, 4)), ..opts.clone() }).unwrap()).unwrap();
        }
        assert_eq!(merged, whole);
        assert!(merged.merge(&TournamentTally::new(2)).is_err());
    }
}
