//! Hidden information: only the order (and, with 3 players, the make-up) of the
//! privilege deck. The backs of the deck's cards are public (the stack is sorted by
//! back), so a view keeps each position's back and refills it from the cards the seat
//! has not seen: the pool of the game minus the row and every player's privileges.

use crate::rules::{MAX_PRIVILEGE_TYPES, Rules};
use crate::state::State;
use rulesmith_game::Rng;

/// Cards of each type nobody has seen: in the deck or (3 players) removed at setup.
fn unseen(rules: &Rules, s: &State) -> [u8; MAX_PRIVILEGE_TYPES] {
    let n = usize::from(s.players);
    let per_type = rules.market.full_sets.get(n).copied().unwrap_or(0)
        + u8::from(rules.market.random_extra.get(n).copied().unwrap_or(0) > 0);
    let mut counts = [0u8; MAX_PRIVILEGE_TYPES];
    for (k, c) in counts.iter_mut().enumerate().take(rules.privileges.len()) {
        let seen = s.row().iter().filter(|&&x| usize::from(x) == k).count()
            + s.p.iter().filter(|p| p.has_privilege(k as u8)).count();
        *c = per_type.saturating_sub(seen as u8);
    }
    counts
}

/// Refills the deck's positions, back by back, with cards from the unseen pool:
/// `shuffle` picks which (and in which order), or `None` for a canonical pick.
fn refill(rules: &Rules, s: &mut State, mut rng: Option<&mut Rng>) {
    let back = |k: u8| rules.privileges.get(usize::from(k)).map_or(0, |p| p.back);
    let counts = unseen(rules, s);
    let len = usize::from(s.deck_len);
    let mut done = 0;
    while done < len {
        let b = back(s.deck[done]);
        let end = (done..len).find(|&i| back(s.deck[i]) != b).unwrap_or(len);
        let mut pool: Vec<u8> = Vec::new();
        for (k, &c) in counts.iter().enumerate().take(rules.privileges.len()) {
            if back(k as u8) == b {
                pool.extend(std::iter::repeat_n(k as u8, usize::from(c)));
            }
        }
        if let Some(r) = rng.as_deref_mut() {
            r.shuffle(&mut pool);
        }
        for (i, &k) in (done..end).zip(pool.iter()) {
            s.deck[i] = k;
        }
        done = end;
    }
}

/// The deck refilled canonically and a neutral generator: the real generator would let
/// a seat compute the deck's order.
pub fn observe(rules: &Rules, s: &State) -> State {
    let mut o = s.clone();
    refill(rules, &mut o, None);
    o.rng = Rng::from_seed(0);
    o
}

pub fn determinize(rules: &Rules, s: &State, rng: &mut Rng) -> State {
    let mut o = s.clone();
    refill(rules, &mut o, Some(rng));
    o.rng = Rng::from_seed(rng.next_u64());
    o
}
