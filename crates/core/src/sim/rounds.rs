//! Games over time: each seat's score and money at each round end, summed exactly over a
//! run's finished games (count, Σ, Σ² per round and seat), so that shards merge into
//! exactly the unsplit run's figures.
//!
//! A game gives the figures through its [`crate::metrics::Metrics::round_figures`]
//! capability, and names its money in its own words
//! ([`crate::metrics::Metrics::money_name`]). They are read at every round end and on the
//! final state (as the end of the last round), in runs with metrics on only.

use serde::{Deserialize, Serialize};

/// Rounds kept per game: a ruleset that makes longer games has its later rounds left out
/// of the per-round figures (a bound on what a run, or a report read back, may allocate).
pub const MAX_ROUNDS: usize = 200;

/// Values per seat and round in a game's flat figures: its score, then its money.
pub const PER_SEAT: usize = 2;

/// One seat's exact sums at one round end, over the games that reached it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundSums {
    pub games: u64,
    pub score_sum: i64,
    pub score_sum_sq: u64,
    pub money_sum: i64,
    pub money_sum_sq: u64,
}

/// The per-round sums of a run (inside [`crate::sim::Tally`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundTally {
    /// The game's money in its own words (`doubloons`, `pesos`); empty where it has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub money: String,
    /// `rounds[r - 1][seat]`: the sums at the end of round `r`.
    #[serde(default)]
    pub rounds: Vec<Vec<RoundSums>>,
}

impl RoundTally {
    pub fn new(money: Option<&str>) -> Self {
        RoundTally { money: money.unwrap_or_default().to_string(), rounds: Vec::new() }
    }

    /// Nothing counted and no money named: a run without metrics.
    pub fn is_empty(&self) -> bool {
        self.money.is_empty() && self.rounds.is_empty()
    }

    /// Counts one finished game's figures, flat as `[(round - 1) * players + seat] * 2`:
    /// the score, then the money.
    pub fn add(&mut self, figures: &[i64], players: usize) {
        let per_round = players * PER_SEAT;
        if per_round == 0 {
            return;
        }
        let rows = figures.chunks_exact(per_round).take(MAX_ROUNDS);
        while self.rounds.len() < rows.len() {
            self.rounds.push(vec![RoundSums::default(); players]);
        }
        for (row, sums) in rows.zip(self.rounds.iter_mut()) {
            for (sums, v) in sums.iter_mut().zip(row.chunks_exact(PER_SEAT)) {
                let (score, money) = (v[0], v[1]);
                sums.games += 1;
                sums.score_sum = sums.score_sum.saturating_add(score);
                sums.score_sum_sq = sums.score_sum_sq.saturating_add(square(score));
                sums.money_sum = sums.money_sum.saturating_add(money);
                sums.money_sum_sq = sums.money_sum_sq.saturating_add(square(money));
            }
        }
    }

    /// Adds another shard's sums; refuses another game's money or an overflow.
    pub fn merge(&mut self, other: &RoundTally) -> Result<(), String> {
        if self.money != other.money && !other.is_empty() && !self.is_empty() {
            return Err(format!("its rounds count `{}` where the others count `{}`", other.money, self.money));
        }
        if self.money.is_empty() {
            self.money = other.money.clone();
        }
        let over = || "the merged sums overflow".to_string();
        for (r, row) in other.rounds.iter().enumerate() {
            if self.rounds.len() <= r {
                self.rounds.push(vec![RoundSums::default(); row.len()]);
            }
            let mine = &mut self.rounds[r];
            if mine.len() != row.len() {
                return Err("its rounds do not hold the same seats".into());
            }
            for (a, b) in mine.iter_mut().zip(row) {
                a.games = a.games.checked_add(b.games).ok_or_else(over)?;
                a.score_sum = a.score_sum.checked_add(b.score_sum).ok_or_else(over)?;
                a.score_sum_sq = a.score_sum_sq.checked_add(b.score_sum_sq).ok_or_else(over)?;
                a.money_sum = a.money_sum.checked_add(b.money_sum).ok_or_else(over)?;
                a.money_sum_sq = a.money_sum_sq.checked_add(b.money_sum_sq).ok_or_else(over)?;
            }
        }
        Ok(())
    }

    /// Checks sums read from a file: at most [`MAX_ROUNDS`] rounds of `players` seats, no
    /// round reached by more games than finished or than the round before it, and sums
    /// that `games` values can make (`plausible`: as for the final scores).
    pub fn check(
        &self,
        finished: u64,
        players: usize,
        plausible: impl Fn(i64, u64, u64) -> Result<(), String>,
    ) -> Result<(), String> {
        if self.rounds.len() > MAX_ROUNDS {
            return Err(format!("its tally holds {} rounds, more than {MAX_ROUNDS}", self.rounds.len()));
        }
        let mut before = finished;
        for (r, row) in self.rounds.iter().enumerate() {
            if row.len() != players {
                return Err(format!("its round {} does not hold {players} seats", r + 1));
            }
            for (s, x) in row.iter().enumerate() {
                if x.games > before || x.games != row[0].games {
                    return Err(format!("its round {} counts more games than reached it", r + 1));
                }
                plausible(x.score_sum, x.score_sum_sq, x.games)
                    .map_err(|e| format!("its round {} scores of seat {s} {e}", r + 1))?;
                plausible(x.money_sum, x.money_sum_sq, x.games)
                    .map_err(|e| format!("its round {} money of seat {s} {e}", r + 1))?;
            }
            before = row.first().map_or(0, |x| x.games);
        }
        Ok(())
    }

    /// The figures a report shows: per round, each seat's mean, spread and 95% interval.
    pub fn figures(&self) -> Option<ByRound> {
        if self.is_empty() {
            return None;
        }
        let rounds = self
            .rounds
            .iter()
            .enumerate()
            .map(|(r, row)| RoundFigures {
                round: r as u32 + 1,
                games: row.first().map_or(0, |x| x.games),
                score: row.iter().map(|x| Band::of(x.score_sum, x.score_sum_sq, x.games)).collect(),
                money: row.iter().map(|x| Band::of(x.money_sum, x.money_sum_sq, x.games)).collect(),
            })
            .collect();
        Some(ByRound { money: self.money.clone(), rounds })
    }
}

/// `v²`, saturated (as `saturating_pow(2)`, without its loop).
#[inline(always)]
fn square(v: i64) -> u64 {
    v.unsigned_abs().saturating_mul(v.unsigned_abs())
}

/// The per-round figures of a report (`by_round` in its JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ByRound {
    /// The game's money in its own words (empty: the game has none).
    #[serde(default)]
    pub money: String,
    pub rounds: Vec<RoundFigures>,
}

/// One round end: the games that reached it and each seat's score and money there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundFigures {
    pub round: u32,
    /// Finished games that reached this round's end (a later round averages fewer games).
    pub games: u64,
    /// Per seat, in seat order.
    pub score: Vec<Band>,
    pub money: Vec<Band>,
}

/// A mean over games, its games' spread and the mean's 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Band {
    pub mean: f64,
    /// The standard deviation over games (the spread of single games, not of the mean).
    pub sd: f64,
    /// 95% interval of the mean (normal approximation).
    pub ci95: [f64; 2],
}

impl Band {
    pub fn of(sum: i64, sum_sq: u64, n: u64) -> Band {
        let k = n.max(1) as f64;
        let mean = sum as f64 / k;
        let var = if n > 1 { ((sum_sq as f64 - sum as f64 * mean) / (k - 1.0)).max(0.0) } else { 0.0 };
        let half = 1.959_963_984_540_054 * (var / k).sqrt();
        Band { mean, sd: var.sqrt(), ci95: [mean - half, mean + half] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_sum_and_merge_exactly() {
        // 2 players: a 2-round game and a 1-round game.
        let (a, b) = (vec![1, 10, 0, 12, 3, 8, 2, 9], vec![2, 11, 1, 11]);
        let mut whole = RoundTally::new(Some("doubloons"));
        whole.add(&a, 2);
        whole.add(&b, 2);
        let (mut x, mut y) = (RoundTally::new(Some("doubloons")), RoundTally::new(Some("doubloons")));
        x.add(&b, 2);
        y.add(&a, 2);
        x.merge(&y).unwrap();
        assert_eq!(x, whole);
        assert_eq!(
            whole.rounds[0][0],
            RoundSums { games: 2, score_sum: 3, score_sum_sq: 5, money_sum: 21, money_sum_sq: 221 }
        );
        assert_eq!(whole.rounds[1][1].games, 1);
        let plausible = |_: i64, _: u64, _: u64| Ok(());
        assert_eq!(whole.check(2, 2, plausible), Ok(()));
        assert!(whole.check(1, 2, plausible).is_err(), "2 games reached round 1 of 1 finished");
        let f = whole.figures().unwrap();
        assert_eq!((f.rounds.len(), f.rounds[0].games, f.rounds[0].score[0].mean), (2, 2, 1.5));
        assert!(RoundTally::new(Some("pesos")).merge(&whole).is_err());
    }
}
