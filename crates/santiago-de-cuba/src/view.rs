//! Hidden information: what a seat sees, as a state and as JSON, and a full state
//! consistent with it for the search bots.

use crate::rules::{MAX_GOODS, Rules};
use crate::state::State;
use rulesmith_core::{Rng, Seat};

/// What `seat` sees: other players' pesos and VP are hidden (shown as 0), and so is
/// which of their goods each holds: the goods they hold together (the open supply
/// reveals that) are dealt out in good order, each keeping how many goods it holds, so
/// the view stays a valid state without telling who holds what. The dice to come are
/// hidden by a fixed generator.
pub fn observe(r: &Rules, s: &State, seat: Seat) -> State {
    let mut v = s.clone();
    deal_goods(r, &mut v, seat, None);
    for o in s.players.seats().filter(|&o| o != seat) {
        v.players[o].pesos = 0;
        v.players[o].vp = 0;
    }
    v.rng = Rng::from_seed(0);
    v
}

/// Deals the goods the players other than `seat` hold together back to them, each
/// keeping its count: in good order (`None`) or in a random order.
fn deal_goods(r: &Rules, v: &mut State, seat: Seat, rng: Option<&mut Rng>) {
    let mut pool = [0u8; 8 * 255];
    let mut len = 0;
    for g in 0..r.goods.len() {
        for o in v.players.seats().filter(|&o| o != seat) {
            for _ in 0..v.players[o].goods[g] {
                if len < pool.len() {
                    pool[len] = g as u8;
                    len += 1;
                }
            }
        }
    }
    if let Some(rng) = rng {
        rng.shuffle(&mut pool[..len]);
    }
    let mut next = 0;
    for o in v.players.seats().filter(|&o| o != seat) {
        let count = v.players[o].goods_total() as usize;
        v.players[o].goods = [0; MAX_GOODS];
        for &g in pool.get(next..next + count).unwrap_or(&[]) {
            v.players[o].goods[usize::from(g)] += 1;
        }
        next += count;
    }
}

/// What `seat` receives as JSON: the observed state without the generator, other
/// players' goods, pesos and VP (behind their screens, VP tokens face down: S002:L100,
/// data sheet C.1) marked `"hidden"` until the game is over.
pub fn view_json(r: &Rules, s: &State, seat: Seat) -> serde_json::Value {
    // Once the last ship has left, screens come down and VP tokens are counted
    // (S002:L406-412): every player's goods, pesos and VP are shown.
    if s.is_over() {
        let mut v = crate::json::to_json(r, s);
        if let Some(m) = v.as_object_mut() {
            m.remove("rng");
        }
        return v;
    }
    let mut v = crate::json::to_json(r, &observe(r, s, seat));
    if let Some(m) = v.as_object_mut() {
        m.remove("rng");
        if let Some(players) = m.get_mut("players").and_then(serde_json::Value::as_array_mut) {
            for (o, p) in players.iter_mut().enumerate() {
                if o == usize::from(seat) {
                    continue;
                }
                for key in ["goods", "pesos", "vp"] {
                    if let Some(x) = p.get_mut(key) {
                        *x = serde_json::json!("hidden");
                    }
                }
            }
        }
    }
    v
}

/// A full state consistent with what `seat` knows (bots pass the state [`observe`] gave
/// `seat`). Which opponent holds which goods is redealt at random, keeping how many goods
/// each holds and how many of each kind they hold together. Opponents' pesos and VP lie
/// behind their screens (S002:L100): each is guessed to hold what `seat` holds itself (a
/// consistent sample, not a distribution: nothing public bounds them, the bank being
/// unlimited). The dice to come are drawn from a fresh generator.
pub fn determinize(r: &Rules, s: &State, seat: Seat, rng: &mut Rng) -> State {
    let mut v = s.clone();
    deal_goods(r, &mut v, seat, Some(rng));
    let (pesos, vp) = (s.players[seat].pesos, s.players[seat].vp);
    for o in s.players.seats().filter(|&o| o != seat) {
        v.players[o].pesos = pesos;
        v.players[o].vp = vp;
    }
    v.rng = Rng::from_seed(rng.next_u64());
    v
}
