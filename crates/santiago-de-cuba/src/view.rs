//! Hidden information: what a seat sees, as a state and as JSON, and a full state
//! consistent with it for the search bots.

use crate::rules::{MAX_GOODS, Rules};
use crate::state::State;
use rulesmith_game::{Rng, Seat};

/// What `seat` sees. Goods and pesos lie behind each player's screen (S002:L100 "Las
/// mercancías y las monedas que obtenga un jugador se colocan siempre detrás de su
/// pantalla") and VP tokens face down (S002:L13): the other players' pesos and VP are
/// hidden (shown as 0), and so are their goods, counts included. What the open supply
/// (S002:L95, L194) tells, how many of each good the others hold together, stays: those
/// goods are dealt out in a fixed order that does not depend on who holds them, so the
/// view stays a valid state without telling who holds what or how many. The dice to come
/// are hidden by a fixed generator. Once the game is over the screens come down
/// (S002:L408): everything is seen.
pub fn observe(r: &Rules, s: &State, seat: Seat) -> State {
    let mut v = s.clone();
    v.rng = Rng::from_seed(0);
    if s.is_over() {
        return v;
    }
    deal_goods(r, &mut v, seat, None);
    for o in s.players.seats().filter(|&o| o != seat) {
        v.players[o].pesos = 0;
        v.players[o].vp = 0;
    }
    v
}

/// Deals the goods the players other than `seat` hold together back to them: one at a
/// time in good order, to each of them in turn (`None`), or each to one of them at
/// random.
fn deal_goods(r: &Rules, v: &mut State, seat: Seat, mut rng: Option<&mut Rng>) {
    let mut pool = [0u8; MAX_GOODS];
    for o in v.players.seats().filter(|&o| o != seat) {
        for (g, n) in pool.iter_mut().enumerate().take(r.goods.len()) {
            *n = n.saturating_add(v.players[o].goods[g]);
        }
        v.players[o].goods = [0; MAX_GOODS];
    }
    let mut others = [0 as Seat; rulesmith_game::MAX_PLAYERS];
    let mut len = 0;
    for o in v.players.seats().filter(|&o| o != seat) {
        if let Some(slot) = others.get_mut(len) {
            *slot = o;
            len += 1;
        }
    }
    let others = &others[..len];
    if others.is_empty() {
        return;
    }
    let mut turn = 0;
    for (g, &n) in pool.iter().enumerate() {
        for _ in 0..n {
            let i = match rng.as_deref_mut() {
                Some(rng) => rng.index(others.len()),
                None => turn % others.len(),
            };
            turn += 1;
            let goods = &mut v.players[others[i]].goods[g];
            *goods = goods.saturating_add(1);
        }
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
/// `seat`). The goods the opponents hold together (each kind's count, which the open supply
/// tells) are redealt at random, each to one of them. Opponents' pesos and VP lie
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
