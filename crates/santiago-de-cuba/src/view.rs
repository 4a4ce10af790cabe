//! Hidden information: what a seat sees, as a state and as JSON, and a full state
//! consistent with it for the search bots.

use crate::rules::{MAX_GOODS, Rules};
use crate::state::State;
use rulesmith_core::{Rng, Seat};

/// What `seat` sees: other players' pesos and VP are hidden (shown as 0), and their goods
/// are dealt out in turn order from the part of the supply they hold together (which
/// the open supply reveals), so the view stays a valid state without telling who holds
/// what. The dice to come are hidden by a fixed generator.
pub fn observe(r: &Rules, s: &State, seat: Seat) -> State {
    let mut v = s.clone();
    let others: Vec<Seat> = s.players.seats().filter(|&o| o != seat).collect();
    for g in 0..r.goods.len() {
        let total: u32 = others.iter().map(|&o| u32::from(s.players[o].goods[g])).sum();
        for &o in &others {
            v.players[o].goods[g] = 0;
        }
        for &o in others.iter().cycle().take(total as usize) {
            v.players[o].goods[g] += 1;
        }
    }
    for &o in &others {
        v.players[o].pesos = 0;
        v.players[o].vp = 0;
    }
    v.rng = Rng::from_seed(0);
    v
}

/// What `seat` receives as JSON: the observed state without the generator, other
/// players' goods, pesos and VP (behind their screens, VP tokens face down: S002:L100,
/// data sheet C.1) marked `"hidden"`.
pub fn view_json(r: &Rules, s: &State, seat: Seat) -> serde_json::Value {
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

/// A full state consistent with what `seat` knows. Every peso and VP change in this game
/// happens in the open, so opponents' pesos and VP are kept (perfect recall); which
/// opponent holds which goods is redealt at random, keeping how many goods each holds and
/// how many of each kind they hold together (the open supply shows that). The dice to
/// come are drawn from a fresh generator.
pub fn determinize(r: &Rules, s: &State, seat: Seat, rng: &mut Rng) -> State {
    let mut v = s.clone();
    let mut pool = [0u8; 8 * 255];
    let mut len = 0;
    for o in s.players.seats().filter(|&o| o != seat) {
        for g in 0..r.goods.len() {
            for _ in 0..s.players[o].goods[g] {
                if len < pool.len() {
                    pool[len] = g as u8;
                    len += 1;
                }
            }
        }
    }
    rng.shuffle(&mut pool[..len]);
    let mut next = 0;
    for o in s.players.seats().filter(|&o| o != seat) {
        let count = s.players[o].goods_total() as usize;
        v.players[o].goods = [0; MAX_GOODS];
        for &g in pool.get(next..next + count).unwrap_or(&[]) {
            v.players[o].goods[usize::from(g)] += 1;
        }
        next += count;
    }
    v.rng = Rng::from_seed(rng.next_u64());
    v
}
