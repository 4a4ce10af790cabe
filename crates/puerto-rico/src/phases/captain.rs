//! Captain phase (S000:L308-378; harbor L604-608, wharf L612-620, warehouses L546-584).

use crate::action::Action;
use crate::board;
use crate::goods::Good;
use crate::rules::{Effect, Rules};
use crate::state::{END_VP, Phase, State};
use rulesmith_core::Seat;
use rulesmith_core::steps::Rotation;

pub fn begin(_rules: &Rules, s: &mut State) {
    s.phase = Phase::Captain;
    s.current = s.chooser;
    s.wharf_used = 0;
    s.captain_done = 0;
    s.captain_bonus_given = false;
}

/// The cargo-ship loads open to `seat` (L319-326): a kind already on a ship goes only
/// there, and only if it is not full; a kind on no ship goes on an empty ship, and among
/// empty ships only on those that take the most of the player's barrels (L325).
fn ship_loads(s: &State, seat: Seat, f: &mut impl FnMut(Action)) {
    let p = &s.players[seat];
    let ships = s.ships();
    for g in Good::ALL {
        let have = p.goods[g];
        if have == 0 {
            continue;
        }
        if let Some(i) = ships.iter().position(|x| x.good == Some(g)) {
            if !ships[i].is_full() {
                f(Action::Ship { good: g, ship: i as u8 });
            }
            continue;
        }
        let best = ships.iter().filter(|x| x.good.is_none()).map(|x| x.capacity.min(have)).max();
        if let Some(best) = best {
            for (i, x) in ships.iter().enumerate() {
                if x.good.is_none() && x.capacity.min(have) == best {
                    f(Action::Ship { good: g, ship: i as u8 });
                }
            }
        }
    }
}

fn wharf_loads(rules: &Rules, s: &State, seat: Seat, f: &mut impl FnMut(Action)) {
    let p = &s.players[seat];
    if s.wharf_used & (1 << seat) != 0 || !board::has(rules, p, |e| matches!(e, Effect::OwnShip)) {
        return;
    }
    for g in Good::ALL {
        if p.goods[g] > 0 {
            f(Action::Wharf(g));
        }
    }
}

/// A player who can load a ship must (L313); the wharf is an alternative and never
/// required (L513, L616), so with only the wharf left the player may pass, which ends
/// their loading for this phase (ships only fill up, so nothing new opens later).
pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let seat = s.current;
    if s.captain_done & (1 << seat) != 0 {
        return;
    }
    let mut must = false;
    ship_loads(s, seat, &mut |a| {
        must = true;
        f(a)
    });
    let mut wharf = false;
    wharf_loads(rules, s, seat, &mut |a| {
        wharf = true;
        f(a)
    });
    if wharf && !must {
        f(Action::Pass);
    }
}

fn can_act(rules: &Rules, s: &State, seat: Seat) -> bool {
    if s.captain_done & (1 << seat) != 0 {
        return false;
    }
    let mut any = false;
    ship_loads(s, seat, &mut |_| any = true);
    if !any {
        wharf_loads(rules, s, seat, &mut |_| any = true);
    }
    any
}

/// VP for a load: one per barrel, the harbor's per load (L606), the captain's once with
/// the first load (L330, L377). Chips may run out; VP then go on paper (L416).
fn score_load(rules: &Rules, s: &mut State, seat: Seat, barrels: u8) {
    let mut vp = u16::from(barrels) + board::shipping_bonus(rules, &s.players[seat]);
    if seat == s.chooser && !s.captain_bonus_given {
        s.captain_bonus_given = true;
        vp += u16::from(super::round::privilege(rules, s));
    }
    s.players[seat].vp += vp;
    let chips = vp.min(s.vp_chips);
    s.vp_chips -= chips;
    if s.vp_chips == 0 && vp > 0 {
        s.end_triggers |= END_VP;
    }
}

pub fn play(rules: &Rules, s: &mut State, a: Action) {
    let seat = s.current;
    match a {
        Action::Ship { good, ship } => {
            let have = s.players[seat].goods[good];
            let x = &mut s.ships[ship as usize];
            let n = have.min(x.capacity - x.load);
            x.good = Some(good);
            x.load += n;
            s.players[seat].goods[good] -= n;
            score_load(rules, s, seat, n);
        }
        Action::Wharf(good) => {
            // All barrels of the kind go to the supply (L614, L618).
            let n = s.players[seat].goods[good];
            s.players[seat].goods[good] = 0;
            s.goods_supply[good] += n;
            s.wharf_used |= 1 << seat;
            score_load(rules, s, seat, n);
        }
        Action::Pass => s.captain_done |= 1 << seat,
        _ => {}
    }
    next(rules, s);
}

/// The next seat clockwise that can still load; when nobody can, storage begins (L311).
fn next(rules: &Rules, s: &mut State) {
    let n = s.player_count() as u8;
    for k in 1..=n {
        let seat = (s.current + k) % n;
        if can_act(rules, s, seat) {
            s.current = seat;
            return;
        }
    }
    begin_storage(s);
}

pub fn step(rules: &Rules, s: &mut State) -> bool {
    if can_act(rules, s, s.current) {
        return true;
    }
    next(rules, s);
    false
}

fn begin_storage(s: &mut State) {
    s.phase = Phase::CaptainStorage;
    s.rotation = Rotation::new(s.chooser, s.player_count());
    s.current = s.chooser;
}

/// The ways to keep goods (L336, L550, L582): every barrel of up to `kinds` kinds
/// (warehouses) and `free_barrels` single barrel of another kind. Only maximal choices
/// are offered (keeping more never costs anything here). Calls `f` for each distinct one.
fn storage_options(rules: &Rules, s: &State, seat: Seat, f: &mut impl FnMut(Action)) {
    let p = &s.players[seat];
    let held: u8 = Good::ALL.iter().filter(|&&g| p.goods[g] > 0).fold(0, |m, &g| m | (1 << g as u8));
    let k = board::storage_kinds(rules, p).min(5) as u32;
    let take = k.min(held.count_ones());
    for mask in 0u8..32 {
        if mask & !held != 0 || mask.count_ones() != take {
            continue;
        }
        let rest = held & !mask;
        if rules.free_barrels == 0 || rest == 0 {
            f(Action::Keep { kinds: mask, barrel: None });
            continue;
        }
        for g in Good::ALL {
            if rest & (1 << g as u8) != 0 {
                f(Action::Keep { kinds: mask, barrel: Some(g) });
            }
        }
    }
}

/// Whether keeping per `a` keeps every barrel (then nobody needs to be asked).
fn keeps_all(s: &State, seat: Seat, a: Action) -> bool {
    let Action::Keep { kinds, barrel } = a else { return false };
    let p = &s.players[seat];
    Good::ALL.iter().all(|&g| p.goods[g] == 0 || kinds & (1 << g as u8) != 0 || (barrel == Some(g) && p.goods[g] <= 1))
}

/// The choice made for the player when there is nothing to decide: a single option, or
/// one that keeps every barrel.
fn forced_storage(rules: &Rules, s: &State, seat: Seat) -> Option<Action> {
    let mut first = None;
    let mut count = 0;
    let mut all = None;
    storage_options(rules, s, seat, &mut |o| {
        count += 1;
        first.get_or_insert(o);
        if all.is_none() && keeps_all(s, seat, o) {
            all = Some(o);
        }
    });
    if count <= 1 { first } else { all }
}

pub fn legal_storage(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    if forced_storage(rules, s, s.current).is_none() {
        storage_options(rules, s, s.current, f);
    }
}

pub fn play_storage(rules: &Rules, s: &mut State, a: Action) {
    keep(rules, s, s.current, a);
    next_storage(rules, s);
}

fn keep(rules: &Rules, s: &mut State, seat: Seat, a: Action) {
    let Action::Keep { kinds, barrel } = a else { return };
    for g in Good::ALL {
        let have = s.players[seat].goods[g];
        let kept = if kinds & (1 << g as u8) != 0 {
            have
        } else if barrel == Some(g) {
            have.min(rules.free_barrels)
        } else {
            0
        };
        s.players[seat].goods[g] = kept;
        s.goods_supply[g] += have - kept;
    }
}

/// Players with nothing to decide keep their goods without being asked.
pub fn step_storage(rules: &Rules, s: &mut State) -> bool {
    let seat = s.current;
    let held = s.players[seat].goods.total() > 0;
    match forced_storage(rules, s, seat) {
        Some(a) => keep(rules, s, seat, a),
        None if held => return true,
        None => {}
    }
    next_storage(rules, s);
    false
}

/// After storage the captain empties the full ships; partly loaded ones keep their cargo
/// (L338).
fn next_storage(rules: &Rules, s: &mut State) {
    if s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
        return;
    }
    for i in 0..s.ship_count as usize {
        let x = s.ships[i];
        if x.is_full() {
            if let Some(g) = x.good {
                s.goods_supply[g] += x.load;
            }
            s.ships[i].good = None;
            s.ships[i].load = 0;
        }
    }
    super::round::end_phase(rules, s);
}
