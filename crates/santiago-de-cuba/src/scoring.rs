//! The final scores and their tie-breaks.

use crate::rules::{Rules, TieBreak};
use crate::state::State;
use rulesmith_game::{Outcome, Seat};

/// How every game ends: the last ship has left (S002:L404-406).
pub const END: &str = "last_ship_departed";

/// Leftover goods, wood included (S002:L408).
fn leftover(s: &State, seat: Seat) -> i32 {
    s.players[seat].goods_total() as i32
}

/// A seat's score as the end of the game counts it: VP plus 1 per `goods_per_vp` leftover
/// goods (S002:L406-408).
#[inline]
pub fn score(r: &Rules, s: &State, seat: Seat) -> i32 {
    let bonus = if r.goods_per_vp > 0 { leftover(s, seat) / i32::from(r.goods_per_vp) } else { 0 };
    i32::from(s.players[seat].vp) + bonus
}

/// Final scores once the last ship has left: VP plus 1 per 3 leftover goods; ties go to
/// the most leftover goods, then the most money (S002:L406-412).
pub fn outcome(r: &Rules, s: &State) -> Option<Outcome> {
    if !s.is_over() {
        return None;
    }
    // Sized once: each game ends here, so growing these would cost a reallocation each.
    let n = s.player_count();
    let mut scores = Vec::with_capacity(n);
    let mut ties = Vec::with_capacity(n);
    for seat in s.players.seats() {
        let p = &s.players[seat];
        scores.push(score(r, s, seat));
        ties.push(
            r.tiebreaks
                .iter()
                .map(|t| match t {
                    TieBreak::LeftoverGoods => leftover(s, seat),
                    TieBreak::Pesos => i32::from(p.pesos),
                })
                .collect(),
        );
    }
    Some(Outcome::ranked(scores, ties, END))
}
