//! How a game ended: scores, tie-breaks and the ranks they give.

use crate::by_player::Seat;
use serde::{Deserialize, Serialize};

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Final score per seat.
    pub scores: Vec<i32>,
    /// Tie-break keys per seat, compared left to right after the score (higher wins).
    pub tiebreaks: Vec<Vec<i32>>,
    /// Rank per seat: 0 is first; seats equal on score and every tie-break share a rank.
    pub ranks: Vec<u8>,
    /// Which end condition ended the game, in the game's own words (snake_case).
    pub end: String,
    /// The game was stopped by a safety cap of the ruleset (e.g. Mundo 163's
    /// `max_rounds`), not ended by its rules: `ranks` give the standing when it stopped,
    /// but nobody won, and reports keep such games apart.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unfinished: bool,
}

impl Outcome {
    /// Builds an outcome and ranks the seats by score, then tie-break keys.
    pub fn ranked(scores: Vec<i32>, tiebreaks: Vec<Vec<i32>>, end: impl Into<String>) -> Self {
        let n = scores.len();
        // Borrowed keys: a missing tie-break list compares as an empty one.
        let key = |s: usize| (scores[s], tiebreaks.get(s).map_or(&[][..], Vec::as_slice));
        let ranks = (0..n)
            .map(|s| {
                let mine = key(s);
                (0..n).filter(|&o| key(o) > mine).count() as u8
            })
            .collect();
        Outcome { scores, tiebreaks, ranks, end: end.into(), unfinished: false }
    }

    /// The same standing, for a game stopped by a safety cap: nobody won.
    pub fn stopped(mut self) -> Self {
        self.unfinished = true;
        self
    }

    /// The seats ranked first (more than one on a shared win); none in an unfinished game.
    pub fn winners(&self) -> Vec<Seat> {
        if self.unfinished {
            return Vec::new();
        }
        (0..self.ranks.len()).filter(|&s| self.ranks[s] == 0).map(|s| s as Seat).collect()
    }

    /// Each seat's share of the win: 1/k for each of k tied winners, else 0 (all 0 in an
    /// unfinished game).
    pub fn win_shares(&self) -> Vec<f64> {
        if self.unfinished {
            return vec![0.0; self.ranks.len()];
        }
        let w = self.winners().len().max(1) as f64;
        self.ranks.iter().map(|&r| if r == 0 && !self.unfinished { 1.0 / w } else { 0.0 }).collect()
    }
}
