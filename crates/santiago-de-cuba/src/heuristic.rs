//! The greedy bot's evaluation of a state.

use crate::engine::{held_mask, low_bits, owned_mask};
use crate::rules::Rules;
use crate::scoring::score;
use crate::state::State;
use rulesmith_game::Seat;

/// VP, plus what the rest is likely worth: pesos at half the casino's rate (they buy VP
/// there only at that rate, and buy goods and buildings' uses otherwise; at the full rate
/// greedy hoarded pesos and beat random players in 91% of 4-player games instead of 97%),
/// goods the ship wants now at 0.8 of the marker's value (the marker may move before they
/// are loaded), other goods 1.2 VP (a later ship or a building turns them into VP), a
/// substitute good 0.9 of its VP, and 2 VP per owned building for the visits it will
/// bring.
pub fn heuristic(r: &Rules, s: &State, seat: Seat) -> f64 {
    if s.is_over() {
        return f64::from(score(r, s, seat));
    }
    let p = &s.players[seat];
    let marker = f64::from(r.value_track.get(usize::from(s.ship.marker)).copied().unwrap_or(0));
    let pesos_per_vp = r
        .casino_rate
        .map(f64::from)
        // A ruleset without a casino: pesos still buy goods and buildings' uses; value them
        // as at the bundled casino's 3 pesos a VP (an evaluation weight, not a rule).
        .unwrap_or(3.0);
    let mut value = f64::from(p.vp) + 0.5 * f64::from(p.pesos) / pesos_per_vp;
    // Only the goods held, in ruleset order (the same sums): a good not held adds exactly
    // +0.0 to a value that is never -0.0.
    let mut holding = held_mask(&p.goods) & low_bits(r.goods.len()) as u8;
    while holding != 0 {
        let g = holding.trailing_zeros() as usize;
        holding &= holding - 1;
        let Some(good) = r.goods.get(g) else { break };
        let held = f64::from(p.goods[g]);
        value += match (good.substitute_vp, r.die_of_good(g as u8)) {
            (Some(vp), _) => held * f64::from(vp) * 0.9,
            (None, Some(d)) if s.on_ship(d) && !s.ship.awaiting_demand => {
                let now = held.min(f64::from(s.ship.dice.open(usize::from(d))));
                now * marker * 0.8 + (held - now) * 1.2
            }
            _ => held * 1.2,
        };
    }
    value + 2.0 * f64::from(owned_mask(r, s, seat).count_ones())
}
