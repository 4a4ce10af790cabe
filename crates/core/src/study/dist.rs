//! Per-game distributions a report's sums cannot give back (scores, length, margin),
//! gathered from the games as they finish: a sweep's game lengths, the pages' plots.

use crate::sim::GameResult;
use std::collections::BTreeMap;

/// Counts of each value over a run's finished games (unfinished ones have no winner and
/// stay out, as in the report's means).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Distributions {
    /// `scores[seat][score]`: games in which this seat ended with this score.
    pub scores: Vec<BTreeMap<i64, u64>>,
    /// Games that lasted this many rounds.
    pub rounds: BTreeMap<i64, u64>,
    /// The winner's score minus the best score of the others (0 for a tie on points).
    pub margins: BTreeMap<i64, u64>,
}

impl Distributions {
    pub fn new(players: usize) -> Self {
        Distributions { scores: vec![BTreeMap::new(); players], ..Default::default() }
    }

    pub fn add(&mut self, r: &GameResult) {
        if r.outcome.unfinished {
            return;
        }
        for (seat, &score) in r.outcome.scores.iter().enumerate() {
            if let Some(d) = self.scores.get_mut(seat) {
                *d.entry(i64::from(score)).or_default() += 1;
            }
        }
        *self.rounds.entry(i64::from(r.rounds)).or_default() += 1;
        let winner = r.outcome.ranks.iter().position(|&k| k == 0);
        if let Some(w) = winner {
            let best_other =
                r.outcome.scores.iter().enumerate().filter(|&(s, _)| s != w).map(|(_, &v)| i64::from(v)).max();
            if let (Some(&mine), Some(other)) = (r.outcome.scores.get(w), best_other) {
                *self.margins.entry(i64::from(mine) - other).or_default() += 1;
            }
        }
    }

    /// All seats' scores together.
    pub fn all_scores(&self) -> BTreeMap<i64, u64> {
        let mut all = BTreeMap::new();
        for d in &self.scores {
            for (&v, &n) in d {
                *all.entry(v).or_default() += n;
            }
        }
        all
    }
}
