//! Setup choices and 3 C Purchase: the privilege row (REF §2.4.1), the trolley upgrade
//! (§2.4.2) and buying residents (§2.4.3).

use crate::action::{Action, Track};
use crate::rules::{Effect, Rules};
use crate::state::{Phase, Player, ResidentTiles, State};
use rulesmith_game::OptId;

/// The effects of every privilege a player owns.
pub fn effects<'r>(rules: &'r Rules, p: &Player) -> impl Iterator<Item = &'r Effect> + 'r {
    // Over the owned types' bits only (a player owns a few), in type order.
    let mut owned = p.privileges;
    std::iter::from_fn(move || {
        while owned != 0 {
            let k = owned.trailing_zeros() as usize;
            owned &= owned - 1;
            if let Some(t) = rules.privileges.get(k) {
                return Some(t);
            }
        }
        None
    })
    .flat_map(|t| t.effects.iter())
}

/// Whether the player owns a privilege type of `kinds` (a bit per type, from
/// [`crate::rules::Derived`]).
#[inline]
pub fn owns_any(p: &Player, kinds: u32) -> bool {
    p.privileges & kinds != 0
}

// ---------------------------------------------------------------- capitals (REF §2.2)

/// The seat choosing a capital is `state.current`; a city is open when nobody chose it
/// and no capital offers its goods type (REF §1.4 "different types of goods").
pub fn can_choose_capital(rules: &Rules, s: &State, city: u8) -> bool {
    let Some(c) = rules.cities.get(usize::from(city)) else { return false };
    s.phase == Phase::Capital
        && s.p.iter().all(|p| {
            let Some(capital) = p.capital.get() else { return true };
            Some(capital) != c.tile
                && rules
                    .city_at(capital)
                    .and_then(|o| rules.cities.get(usize::from(o)))
                    .is_none_or(|o| o.goods != c.goods)
        })
}

pub fn choose_capital(rules: &Rules, s: &mut State, city: u8) {
    let Some(c) = rules.cities.get(usize::from(city)) else { return };
    let (tile, goods) = (OptId::from(c.tile), c.goods);
    let load = rules.setup.trolley_start_goods.min(s.city_stock[usize::from(city)]);
    s.city_stock[usize::from(city)] -= load;
    let p = s.cur_mut();
    p.capital = tile;
    p.trolley.tile = tile;
    p.trolley.goods[usize::from(goods)] += load;
    // Capitals are chosen from the last seat to the first; then seat 0 starts round 1.
    match rulesmith_game::steps::reverse_setup_next(s.current) {
        Some(seat) => s.current = seat,
        None => {
            s.round = 1;
            start_turn(rules, s);
        }
    }
}

// ---------------------------------------------------------------- privilege row

/// Start of a turn: 3 C begins with the row refill (REF §2.4.1 step 1).
pub fn start_turn(rules: &Rules, s: &mut State) {
    s.phase = Phase::Privilege;
    s.turn = Default::default();
    let below = rules.market.refill_below.get(usize::from(s.players)).copied().unwrap_or(0);
    if s.row_len < below {
        draw_to_row(rules, s);
    }
}

/// Draws the top card of the deck onto the right end of the row (price: full).
pub fn draw_to_row(rules: &Rules, s: &mut State) {
    if s.deck_len == 0 || usize::from(s.row_len) >= s.row.len() {
        return;
    }
    s.deck_len -= 1;
    let card = std::mem::take(&mut s.deck[usize::from(s.deck_len)]);
    s.row[usize::from(s.row_len)] = card;
    s.row_len += 1;
    back_rule(rules, s);
}

/// Cards of a lower back than the highest in the row drop to $0 (REF §2.4.1 step 4).
/// Lower backs were drawn earlier, so they form a prefix of the row.
pub fn back_rule(rules: &Rules, s: &mut State) {
    let back = |k: u8| rules.privileges.get(usize::from(k)).map_or(0, |p| p.back);
    let Some(top) = s.row().iter().map(|&k| back(k)).max() else { return };
    let lower = s.row().iter().filter(|&&k| back(k) < top).count() as u8;
    s.free = s.free.max(lower);
}

/// The row position of the card bought by `BuyPrivilege { kind, free }`, if legal.
pub fn privilege_position(rules: &Rules, s: &State, kind: u8, free: bool) -> Option<usize> {
    if s.phase != Phase::Privilege || s.cur().has_privilege(kind) {
        return None;
    }
    let price = if free { 0 } else { rules.market.price };
    if s.cur().money < price {
        return None;
    }
    s.row().iter().enumerate().position(|(i, &k)| k == kind && (i < usize::from(s.free)) == free)
}

pub fn buy_privilege(rules: &Rules, s: &mut State, pos: usize, free: bool) {
    let len = usize::from(s.row_len);
    if pos >= len {
        return;
    }
    let kind = s.row[pos];
    s.row.copy_within(pos + 1..len, pos);
    s.row[len - 1] = 0;
    s.row_len -= 1;
    if pos < usize::from(s.free) {
        s.free -= 1;
    }
    back_rule(rules, s);
    let price = if free { 0 } else { rules.market.price };
    let p = s.cur_mut();
    p.money -= price;
    p.privileges |= 1 << kind;
    s.phase = Phase::Upgrade;
}

/// No purchase: every card in the row now costs $0 (REF §2.4.1 step 3).
pub fn no_privilege(s: &mut State) {
    s.free = s.row_len;
    s.phase = Phase::Upgrade;
}

// ---------------------------------------------------------------- upgrade

/// The price of the next step of an upgrade track, if there is one.
pub fn upgrade_cost(rules: &Rules, p: &Player, track: Track) -> Option<i32> {
    let (level, levels, cost) = match track {
        Track::Movement => (p.movement_level, rules.trolley.movement.len(), rules.trolley.movement_upgrade_cost),
        Track::Cargo => (p.holds_level, rules.trolley.holds.len(), rules.trolley.holds_upgrade_cost),
    };
    if usize::from(level) + 1 >= levels {
        return None;
    }
    let discount: i32 = effects(rules, p)
        .map(|e| match e {
            Effect::UpgradeDiscount { money } => *money,
            _ => 0,
        })
        .sum();
    Some((cost - discount).max(0))
}

pub fn can_upgrade(rules: &Rules, s: &State, track: Track) -> bool {
    s.phase == Phase::Upgrade && upgrade_cost(rules, s.cur(), track).is_some_and(|c| c <= s.cur().money)
}

pub fn upgrade(rules: &Rules, s: &mut State, track: Track) {
    let Some(cost) = upgrade_cost(rules, s.cur(), track) else { return };
    let p = s.cur_mut();
    p.money -= cost;
    match track {
        Track::Movement => p.movement_level += 1,
        Track::Cargo => p.holds_level += 1,
    }
    s.phase = Phase::BuyResidents;
}

// ---------------------------------------------------------------- residents

pub fn resident_price(rules: &Rules, p: &Player) -> i32 {
    if !owns_any(p, rules.derived.resident_price) {
        return rules.purchase.resident_price;
    }
    effects(rules, p).fold(rules.purchase.resident_price, |acc, e| match e {
        Effect::ResidentPrice { money } => acc.min(*money),
        _ => acc,
    })
}

/// The most residents a player may have on a tile (REF §2.4.3): 9 on the capital,
/// 7 elsewhere.
pub fn tile_limit(rules: &Rules, p: &Player, tile: u8) -> u8 {
    if OptId::some(tile) == p.capital { rules.purchase.capital_limit } else { rules.purchase.settlement_limit }
}

/// [`Player::tiles`] counted from the residents on each tile.
pub fn resident_tiles(rules: &Rules, p: &Player) -> ResidentTiles {
    let mut out = ResidentTiles::default();
    for t in 0..crate::rules::MAX_TILES as u8 {
        tile_bits(rules, p, t, &mut out);
    }
    out
}

/// Brings [`Player::tiles`] up to date for one tile whose residents changed.
#[inline]
pub fn recount(rules: &Rules, p: &mut Player, tile: u8) {
    let mut tiles = p.tiles;
    tile_bits(rules, p, tile, &mut tiles);
    p.tiles = tiles;
}

fn tile_bits(rules: &Rules, p: &Player, tile: u8, out: &mut ResidentTiles) {
    let t = usize::from(tile);
    if t >= crate::rules::MAX_TILES {
        return;
    }
    let bit = 1u64 << t;
    let set = |mask: &mut u64, on: bool| *mask = (*mask & !bit) | if on { bit } else { 0 };
    set(&mut out.active, p.active[t] > 0);
    set(&mut out.moved, p.moved[t] > 0);
    set(&mut out.exhausted, p.exhausted[t] > 0);
    let here = u16::from(p.active[t]) + u16::from(p.moved[t]) + u16::from(p.exhausted[t]);
    set(&mut out.full, here >= u16::from(tile_limit(rules, p, tile)));
}

/// Whether one more resident may arrive on an own tile by moving or unloading
/// (REF §6 Q5: the limits hold at all times by default).
pub fn room_for_one(rules: &Rules, p: &Player, tile: u8) -> bool {
    !rules.purchase.limits_always || p.residents_on(tile) < tile_limit(rules, p, tile)
}

/// Buying one resident onto `tile` (REF §2.4.3). During 3 C every resident bought this
/// turn is active and every other one exhausted, so `active` counts this turn's buys.
pub fn can_buy_resident(rules: &Rules, s: &State, tile: u8) -> bool {
    let p = s.cur();
    if s.phase != Phase::BuyResidents
        || p.residents_in_storage == 0
        || p.money < resident_price(rules, p)
        || s.turn.purchase_from.get().is_some_and(|from| tile < from)
        || !p.owns(tile)
    {
        return false;
    }
    room_to_buy(rules, p, tile)
}

/// The tile limits of buying one more resident onto an own tile.
fn room_to_buy(rules: &Rules, p: &Player, tile: u8) -> bool {
    let now = p.residents_on(tile);
    if now >= tile_limit(rules, p, tile) {
        return false;
    }
    if OptId::some(tile) == p.capital {
        return true;
    }
    // At most as many new residents as pieces there before: the settlement plus the
    // residents already there.
    let bought = p.active.get(usize::from(tile)).copied().unwrap_or(0);
    let before = 1 + now - bought;
    bought < before
}

pub fn buy_resident(rules: &Rules, s: &mut State, tile: u8) {
    let price = resident_price(rules, s.cur());
    s.turn.purchase_from = OptId::some(tile);
    let p = s.cur_mut();
    p.money -= price;
    p.residents_in_storage -= 1;
    p.active[usize::from(tile)] += 1;
    recount(rules, p, tile);
}

/// End of 3 C: the player stands all his exhausted residents upright (REF §2.4.4).
pub fn end_purchase(s: &mut State) {
    let p = s.cur_mut();
    for t in 0..p.active.len() {
        p.active[t] += p.exhausted[t] + p.moved[t];
        p.exhausted[t] = 0;
        p.moved[t] = 0;
    }
    // Every resident stands up; no tile's total changes.
    p.tiles.active |= p.tiles.exhausted | p.tiles.moved;
    p.tiles.exhausted = 0;
    p.tiles.moved = 0;
    s.phase = Phase::Residents;
}

/// Legal actions of the capital choice and of 3 C.
pub fn legal(rules: &Rules, s: &State, out: &mut Vec<Action>) {
    match s.phase {
        Phase::Capital => {
            for c in 0..rules.cities.len() as u8 {
                if can_choose_capital(rules, s, c) {
                    out.push(Action::Capital(c));
                }
            }
        }
        Phase::Privilege => {
            for (i, &kind) in s.row().iter().enumerate() {
                let free = i < usize::from(s.free);
                // Two copies at the same price are the same purchase.
                let seen =
                    s.row()[..i].iter().enumerate().any(|(j, &k)| k == kind && (j < usize::from(s.free)) == free);
                if !seen && privilege_position(rules, s, kind, free).is_some() {
                    out.push(Action::BuyPrivilege { kind, free });
                }
            }
            out.push(Action::NoPrivilege);
        }
        Phase::Upgrade => {
            for t in [Track::Movement, Track::Cargo] {
                if can_upgrade(rules, s, t) {
                    out.push(Action::Upgrade(t));
                }
            }
            out.push(Action::NoUpgrade);
        }
        Phase::BuyResidents => {
            let p = s.cur();
            if p.residents_in_storage > 0 && p.money >= resident_price(rules, p) {
                let from = s.turn.purchase_from.get().unwrap_or(0);
                // Residents are bought onto own tiles only: over their bits, in tile order.
                let mut bits = crate::state::own_tiles(p) & (u64::MAX << from.min(63));
                while bits != 0 {
                    let t = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                    if room_to_buy(rules, p, t) {
                        out.push(Action::BuyResident(t));
                    }
                }
            }
            out.push(Action::EndPurchase);
        }
        _ => {}
    }
}
