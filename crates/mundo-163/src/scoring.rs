//! The majority board, 3 H income (REF §2.7) and the final scoring (REF §2.10).

use crate::purchase::effects;
use crate::rules::{Effect, MAX_TERRAINS, Rules, TerrainKind, TieBreak};
use crate::state::State;
use rulesmith_game::{Outcome, Seat};

/// The player's majority-board counts, per terrain: the counted tiles his roads touch
/// (the capital counts with the first road; deserts never, REF §2.5 "Counting").
pub fn majority(rules: &Rules, s: &State, seat: Seat) -> [u8; MAX_TERRAINS] {
    let mut counts = [0u8; MAX_TERRAINS];
    let mut bits = s.player(seat).network;
    while bits != 0 {
        let t = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let ti = usize::from(s.terrain.get(t).copied().unwrap_or(0));
        if rules.terrains.get(ti).is_some_and(|x| x.counted) {
            if let Some(c) = counts.get_mut(ti) {
                *c += 1;
            }
        }
    }
    counts
}

/// What 3 H pays `seat` now (REF §2.7): $20 for the capital, $10 per additional
/// connected city, land income capped per connected city, $10 per complete set; plus,
/// for the player to move when `with_turn`, privilege I (2)'s bonus for cities settled
/// this turn.
pub fn income(rules: &Rules, s: &State, seat: Seat, with_turn: bool) -> i32 {
    let counts = majority(rules, s, seat);
    let city = rules.terrains.iter().position(|t| t.kind == TerrainKind::City).unwrap_or(0);
    let c = i32::from(counts[city]);
    let cap = |n: i32| if rules.income.cap_by_cities { n.min(c) } else { n };
    let mut total = rules.income.capital + rules.income.per_city * (c - 1).max(0);
    let mut sets = i32::MAX;
    for (ti, t) in rules.terrains.iter().enumerate() {
        if !t.counted {
            continue;
        }
        let n = i32::from(counts[ti]);
        sets = sets.min(n);
        if t.kind == TerrainKind::Land {
            total += t.income * cap(n);
        }
    }
    if sets != i32::MAX {
        total += rules.income.complete_set * cap(sets);
    }
    if with_turn && seat == s.current {
        let bonus: i32 = effects(rules, s.player(seat))
            .map(|e| match e {
                Effect::CitySettlementIncome { money } => *money,
                _ => 0,
            })
            .sum();
        total += bonus * i32::from(s.turn.cities_settled);
    }
    total
}

/// Victory points (REF §2.10): the goods-set table per type, +2 per complete set of all
/// types, and privilege VP.
pub fn score(rules: &Rules, s: &State, seat: Seat) -> i32 {
    let p = s.player(seat);
    let table = &rules.scoring.goods_of_a_kind;
    let mut vp = 0;
    let mut sets = u8::MAX;
    for g in 0..rules.goods.len() {
        let n = usize::from(p.delivered[g]);
        sets = sets.min(p.delivered[g]);
        if n > 0 {
            vp += table.get(n - 1).or(table.last()).copied().unwrap_or(0);
        }
    }
    vp += rules.scoring.complete_set * i32::from(if sets == u8::MAX { 0 } else { sets });
    vp += effects(rules, p)
        .map(|e| match e {
            Effect::VictoryPoints { vp } => *vp,
            _ => 0,
        })
        .sum::<i32>();
    vp
}

/// Final result: ties go by the ruleset's `[scoring] tiebreaks` (REF §2.10: the most goods
/// in the trolley, then the highest income of the last round); still tied players share
/// the win (REF §6 Q15).
pub fn outcome(rules: &Rules, s: &State, end: &str) -> Outcome {
    let n = usize::from(s.players);
    let scores = (0..n).map(|i| score(rules, s, i as Seat)).collect();
    let tiebreaks = (0..n)
        .map(|i| {
            let p = s.player(i as Seat);
            rules
                .scoring
                .tiebreaks
                .iter()
                .map(|t| match t {
                    TieBreak::TrolleyGoods => i32::from(p.trolley.goods_count()),
                    TieBreak::LastIncome => p.last_income,
                    TieBreak::DeliveredGoods => p.delivered.iter().map(|&n| i32::from(n)).sum(),
                })
                .collect()
        })
        .collect();
    Outcome::ranked(scores, tiebreaks, end)
}
