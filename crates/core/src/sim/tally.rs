//! The run's exact sums: every figure of a report comes from them, and the tallies of a
//! run's shards add up to exactly the unsplit run's.

use crate::sim::driver::GameResult;
use crate::sim::extremes::Extremes;
use crate::sim::rounds::RoundTally;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// Each seat's score and money at each round end (finished games; runs with metrics).
    #[serde(default, skip_serializing_if = "RoundTally::is_empty")]
    pub rounds: RoundTally,
    /// The longest and shortest games, the largest and smallest margins, the capped games.
    #[serde(default)]
    pub extremes: Extremes,
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
        self.extremes.add(r);
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
        self.rounds.add(&r.by_round, players);
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
        self.rounds.check(finished, players, plausible_scores)?;
        self.extremes.check(finished, self.unfinished, players)?;
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
        self.rounds.merge(&other.rounds)?;
        self.extremes.merge(&other.extremes);
        self.metrics.merge(&other.metrics)
    }
}
