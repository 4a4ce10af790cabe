//! 3 D Residents (REF §2.5): steps, moves along own roads, settling, building roads.
//!
//! Moving along roads is not an action, and moving A→B then B→C equals moving A→C, so
//! each resident moves along roads at most once per phase (it is then kept in `moved`):
//! this keeps the phase finite without losing any reachable position.

use crate::action::Action;
use crate::purchase::{effects, owns_any, recount, room_for_one};
use crate::rules::{Effect, MAX_EDGES, MAX_TERRAINS, Rules};
use crate::state::{Phase, Player, State, capital_bit, own_tiles};
use rulesmith_game::OptId;

/// Tiles reachable from `from` along the player's own roads (including `from`).
pub fn road_component(rules: &Rules, p: &Player, from: u8) -> u64 {
    if from >= 64 || p.network & (1 << from) == 0 {
        return if from < 64 { 1 << from } else { 0 };
    }
    let mut seen: u64 = 1 << from;
    let mut frontier = seen;
    while frontier != 0 {
        let t = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        for &(n, e) in rules.adjacency.get(t).map_or(&[][..], Vec::as_slice) {
            if p.has_road(e) && seen & (1 << n) == 0 {
                seen |= 1 << n;
                frontier |= 1 << n;
            }
        }
    }
    seen
}

/// The edges where the player may still build a road ([`Player::open_roads`]), counted
/// from scratch: between two own tiles, without the player's road, an end on the network
/// (before the first road: at the capital).
pub fn open_roads(rules: &Rules, p: &Player) -> [u64; MAX_EDGES / 64] {
    let own = own_tiles(p);
    let connected = connected(p);
    let mut out = [0u64; MAX_EDGES / 64];
    for (e, &(a, b)) in rules.edges.iter().enumerate().take(MAX_EDGES) {
        let ends = 1u64.checked_shl(u32::from(a)).unwrap_or(0) | 1u64.checked_shl(u32::from(b)).unwrap_or(0);
        if own & ends == ends && connected & ends != 0 && !p.has_road(e as u8) {
            out[e / 64] |= 1 << (e % 64);
        }
    }
    out
}

/// The tiles a new road must touch: the network, or the capital before the first road.
fn connected(p: &Player) -> u64 {
    if p.network == 0 { capital_bit(p) } else { p.network }
}

/// Marks the edges from `tile` to the player's other own tiles as open for a road when
/// `tile` or the other end is connected (the edges of a tile just settled or just joined
/// to the network).
fn open_roads_at(rules: &Rules, p: &mut Player, tile: u8) {
    let Some(&around) = rules.derived.neighbours.get(usize::from(tile)) else { return };
    let own = own_tiles(p);
    let connected = connected(p);
    let mut other = around & own;
    if connected & (1 << tile) == 0 {
        other &= connected;
    }
    while other != 0 {
        let n = other.trailing_zeros() as u8;
        other &= other - 1;
        if let Some(e) = rules.edge(tile, n) {
            if !p.has_road(e) {
                p.open_roads[usize::from(e) / 64] |= 1 << (e % 64);
            }
        }
    }
}

/// Water by the map: a state's terrain keeps each tile's kind (`check_state`).
fn is_water(rules: &Rules, tile: u8) -> bool {
    tile >= 64 || rules.derived.water & (1 << tile) != 0
}

pub fn can_move(rules: &Rules, s: &State, from: u8, to: u8) -> bool {
    let p = s.cur();
    s.phase == Phase::Residents
        && from != to
        && to < 64
        && p.active.get(usize::from(from)).is_some_and(|&n| n > 0)
        && road_component(rules, p, from) & (1 << to) != 0
        && room_for_one(rules, p, to)
}

pub fn can_step(rules: &Rules, s: &State, from: u8, to: u8) -> bool {
    let p = s.cur();
    if s.phase != Phase::Residents || p.active_on(from) == 0 || rules.edge(from, to).is_none() || is_water(rules, to) {
        return false;
    }
    if p.owns(to) { room_for_one(rules, p, to) } else { p.settlements_in_storage > 0 }
}

/// Takes one active resident off a tile: one that already moved along roads first (a
/// resident that may still move is worth more, so this is never a worse choice).
fn take_active(p: &mut Player, tile: u8) {
    let t = usize::from(tile);
    if p.moved[t] > 0 {
        p.moved[t] -= 1;
    } else if p.active[t] > 0 {
        p.active[t] -= 1;
    }
}

/// A resident enters a tile without the player's settlement: it is exchanged for a
/// settlement (REF §2.5 "Settling"). Counts cities for privilege I (2).
pub fn settle(rules: &Rules, s: &mut State, tile: u8) {
    let is_city = rules.city_at(tile).is_some();
    let p = s.cur_mut();
    p.settlements |= 1 << tile;
    p.settlements_in_storage -= 1;
    p.residents_in_storage += 1;
    open_roads_at(rules, p, tile);
    if is_city {
        s.turn.cities_settled += 1;
    }
}

pub fn step(rules: &Rules, s: &mut State, from: u8, to: u8) {
    let p = s.cur_mut();
    take_active(p, from);
    recount(rules, p, from);
    if s.cur().owns(to) {
        let p = s.cur_mut();
        p.exhausted[usize::from(to)] += 1;
        recount(rules, p, to);
    } else {
        settle(rules, s, to);
    }
}

pub fn move_along_roads(rules: &Rules, s: &mut State, from: u8, to: u8) {
    let p = s.cur_mut();
    p.active[usize::from(from)] -= 1;
    p.moved[usize::from(to)] += 1;
    recount(rules, p, from);
    recount(rules, p, to);
}

/// Residents a road end of each terrain costs the player, after privileges.
pub fn road_end_costs(rules: &Rules, p: &Player) -> [u8; MAX_TERRAINS] {
    let mut out = rules.derived.road_ends;
    if !owns_any(p, rules.derived.road_cost) {
        return out;
    }
    for e in effects(rules, p) {
        if let Effect::RoadCost { terrain, residents } = *e {
            if let Some(c) = out.get_mut(usize::from(terrain)) {
                *c = (*c).min(residents);
            }
        }
    }
    out
}

/// The residents a road between two own tiles costs, if it may be built now
/// (REF §2.5 "Building a road"): the dearer terrain (after privileges) plus one per
/// opposing road already there.
pub fn road_cost(rules: &Rules, s: &State, a: u8, b: u8) -> Option<u8> {
    let edge = rules.edge(a, b)?;
    if s.phase != Phase::Residents {
        return None;
    }
    road_cost_with(rules, s, &road_end_costs(rules, s.cur()), a, b, edge)
}

fn road_cost_with(rules: &Rules, s: &State, ends: &[u8; MAX_TERRAINS], a: u8, b: u8, edge: u8) -> Option<u8> {
    let p = s.cur();
    let own = own_tiles(p);
    if a >= b || b >= 64 || own & (1 << a) == 0 || own & (1 << b) == 0 || p.has_road(edge) {
        return None;
    }
    let connected = if p.network == 0 {
        OptId::some(a) == p.capital || OptId::some(b) == p.capital
    } else {
        p.network & (1 << a | 1 << b) != 0
    };
    if !connected {
        return None;
    }
    let end_cost = |tile: u8| -> u8 {
        let ti = s.terrain.get(usize::from(tile)).copied().unwrap_or(0);
        ends.get(usize::from(ti)).copied().unwrap_or(0)
    };
    let opposing =
        s.p.iter().enumerate().filter(|&(i, o)| i != usize::from(s.current) && o.has_road(edge)).count() as u8;
    Some(end_cost(a).max(end_cost(b)) + opposing * rules.roads.opposing_road_extra)
}

pub fn can_road(rules: &Rules, s: &State, a: u8, b: u8, from_a: u8, from_b: u8, lose_a: bool) -> bool {
    let Some(cost) = road_cost(rules, s, a, b) else { return false };
    let p = s.cur();
    if u16::from(from_a) + u16::from(from_b) != u16::from(cost) || from_a > p.active_on(a) || from_b > p.active_on(b) {
        return false;
    }
    if rules.roads.residents_returned == 0 || cost == 0 {
        !lose_a
    } else if lose_a {
        from_a > 0
    } else {
        from_b > 0
    }
}

pub fn can_free_road(rules: &Rules, s: &State, a: u8, b: u8) -> bool {
    !s.turn.free_road_used && owns_any(s.cur(), rules.derived.free_road) && road_cost(rules, s, a, b).is_some()
}

fn place_road(rules: &Rules, s: &mut State, a: u8, b: u8) {
    let Some(edge) = rules.edge(a, b) else { return };
    let p = s.cur_mut();
    let was = connected(p);
    p.set_road(edge);
    p.network |= 1 << a | 1 << b;
    p.open_roads[usize::from(edge) / 64] &= !(1 << (edge % 64));
    // A tile that joins the network opens its edges to the other own tiles.
    for t in [a, b] {
        if was & (1 << t) == 0 {
            open_roads_at(rules, p, t);
        }
    }
}

/// Builds a road: one used resident returns to storage, the others are exhausted
/// (S004:L34-36).
pub fn build_road(rules: &Rules, s: &mut State, a: u8, b: u8, from_a: u8, from_b: u8, lose_a: bool) {
    let returned = if from_a + from_b > 0 { rules.roads.residents_returned } else { 0 };
    let p = s.cur_mut();
    for (tile, n, lose) in [(a, from_a, lose_a), (b, from_b, !lose_a)] {
        for i in 0..n {
            take_active(p, tile);
            if lose && i == 0 && returned > 0 {
                p.residents_in_storage += 1;
            } else {
                p.exhausted[usize::from(tile)] += 1;
            }
        }
    }
    recount(rules, p, a);
    recount(rules, p, b);
    place_road(rules, s, a, b);
}

/// Privilege III (9): a road for free, no residents used (REF §6 Q8).
pub fn build_free_road(rules: &Rules, s: &mut State, a: u8, b: u8) {
    s.turn.free_road_used = true;
    place_road(rules, s, a, b);
}

pub fn can_again(rules: &Rules, s: &State, tile: u8) -> bool {
    s.phase == Phase::Residents
        && !s.turn.extra_action_used
        && s.cur().exhausted.get(usize::from(tile)).is_some_and(|&n| n > 0)
        && owns_any(s.cur(), rules.derived.extra_action)
}

/// Privilege II (11): every resident exhausted on a tile during 3 D has just acted (all
/// stood up at the end of 3 C), so standing one up again gives it its second action.
pub fn again(rules: &Rules, s: &mut State, tile: u8) {
    s.turn.extra_action_used = true;
    let p = s.cur_mut();
    p.exhausted[usize::from(tile)] -= 1;
    p.active[usize::from(tile)] += 1;
    recount(rules, p, tile);
}

/// End of 3 D: unused active residents are exhausted; the trolley gets its movement.
pub fn end_residents(rules: &Rules, s: &mut State) {
    let extra: u8 = effects(rules, s.cur())
        .map(|e| match e {
            Effect::ExtraMovement { half } => *half,
            _ => 0,
        })
        .sum();
    let p = s.cur_mut();
    for t in 0..p.active.len() {
        p.exhausted[t] += p.active[t] + p.moved[t];
        p.active[t] = 0;
        p.moved[t] = 0;
    }
    // Every acting resident is exhausted where it stands; no tile's total changes.
    p.tiles.exhausted |= p.tiles.active | p.tiles.moved;
    p.tiles.active = 0;
    p.tiles.moved = 0;
    let mp = rules.trolley.movement.get(usize::from(p.movement_level)).copied().unwrap_or(0);
    p.trolley.half_mp = mp.saturating_mul(2).saturating_add(extra);
    s.turn.trolley_moves = 0;
    s.turn.loaded_here = 0;
    s.turn.unloaded_here = 0;
    s.phase = Phase::Trolley;
}

/// The legal actions of 3 D, in the order of the checks one by one (by tile: moves, then
/// steps; roads by edge; `again` by tile; `end residents`), computed over bit sets of
/// the own tiles: residents stand only on own tiles and the roads form one network from
/// the capital (both held by `check_state`), so the network is the one part of the
/// map a resident moves within.
pub fn legal(rules: &Rules, s: &State, out: &mut Vec<Action>) {
    let p = s.cur();
    let d = &rules.derived;
    let own = own_tiles(p);
    // Own tiles by what stands there: active residents, active or moved ones, exhausted
    // ones, and no room for one more (REF §6 Q5: the tile limits), as the player keeps
    // them ([`Player::tiles`]; residents stand only on own tiles).
    let active = p.tiles.active;
    let acting = active | p.tiles.moved;
    let exhausted = p.tiles.exhausted;
    let room = if rules.purchase.limits_always { own & !p.tiles.full } else { own };
    // Where a step may end: an own tile with room, or another land tile while a
    // settlement is left in storage.
    let step_to = !d.water & (room | if p.settlements_in_storage > 0 { !own } else { 0 });
    let mut bits = acting;
    while bits != 0 {
        let from = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        if active & p.network & (1 << from) != 0 {
            let mut reach = p.network & room & !(1 << from);
            let n = reach.count_ones() as usize;
            out.extend((0..n).map(|_| {
                let to = reach.trailing_zeros() as u8;
                reach &= reach.wrapping_sub(1);
                Action::Move { from, to }
            }));
        }
        // Most tiles have no step left (own neighbours full, no settlement in storage).
        if d.neighbours.get(usize::from(from)).is_some_and(|&n| n & step_to == 0) {
            continue;
        }
        if let (Some(around), Some(bits)) = (d.around.get(usize::from(from)), d.around_bits.get(usize::from(from))) {
            for (&to, &bit) in around.iter().zip(bits) {
                if step_to & bit != 0 {
                    out.push(Action::Step { from, to });
                }
            }
        }
    }
    roads(rules, s, own, acting, out);
    if !s.turn.extra_action_used && owns_any(p, d.extra_action) {
        let mut bits = exhausted;
        while bits != 0 {
            let t = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            out.push(Action::Again(t));
        }
    }
    out.push(Action::EndResidents);
}

/// The road actions, by edge: between two own tiles without the player's road, one of
/// them on the network (the first road: at the capital), paid by active residents at
/// its ends (privilege III (9): or free), found as a bit set of edges.
fn roads(rules: &Rules, s: &State, own: u64, acting: u64, out: &mut Vec<Action>) {
    let p = s.cur();
    let d = &rules.derived;
    // No edge open for a road: nothing to price.
    if p.open_roads.iter().all(|&w| w == 0) {
        return;
    }
    let free = !s.turn.free_road_used && owns_any(p, d.free_road);
    let ends = road_end_costs(rules, p);
    // A road costs residents unless both ends' terrains cost none (water is never own:
    // `off_road` marks it); a road that costs residents needs an active one at an end.
    let costless = ends.iter().zip(&d.off_road).any(|(&c, &off)| c == 0 && off != u8::MAX);
    const W: usize = MAX_EDGES / 64;
    let mut edges = p.open_roads;
    if !(free || costless) {
        let mut touching = [0u64; W];
        let mut from = acting & own;
        while from != 0 {
            let t = from.trailing_zeros() as usize;
            from &= from - 1;
            if let (Some(lower), Some(higher)) = (d.lower_end.get(t), d.higher_end.get(t)) {
                for w in 0..W {
                    touching[w] |= lower[w] | higher[w];
                }
            }
        }
        for w in 0..W {
            edges[w] &= touching[w];
        }
    }
    // Roads of the other players: each opposing road costs more.
    let mut opposed = [0u64; W];
    for (i, o) in s.p.iter().enumerate() {
        if i != usize::from(s.current) {
            for (w, r) in opposed.iter_mut().zip(o.roads) {
                *w |= r;
            }
        }
    }
    let end_cost = |tile: u8| -> u8 {
        let ti = s.terrain.get(usize::from(tile)).copied().unwrap_or(0);
        ends.get(usize::from(ti)).copied().unwrap_or(0)
    };
    for w in 0..W {
        let mut edges = edges[w];
        while edges != 0 {
            let bit = edges.trailing_zeros();
            edges &= edges - 1;
            let edge = (w * 64) as u8 + bit as u8;
            let Some(&(a, b)) = rules.edges.get(usize::from(edge)) else { continue };
            let (have_a, have_b) = (p.active_on(a), p.active_on(b));
            let base = end_cost(a).max(end_cost(b));
            // Opposing roads only add to the cost: most pairs are out of reach without them.
            if !free && u16::from(have_a) + u16::from(have_b) < u16::from(base) {
                continue;
            }
            let opposing = if opposed[w] & (1 << bit) != 0 {
                s.p.iter().enumerate().filter(|&(i, o)| i != usize::from(s.current) && o.has_road(edge)).count() as u8
            } else {
                0
            };
            let cost = base + opposing * rules.roads.opposing_road_extra;
            if free {
                out.push(Action::FreeRoad { a, b });
            }
            if u16::from(have_a) + u16::from(have_b) < u16::from(cost) {
                continue;
            }
            road_payments(rules, a, b, cost, cost.saturating_sub(have_b)..=cost.min(have_a), out);
        }
    }
}

/// The road actions that pay `cost` residents from the two ends, `from_a` in the range
/// from `a`; with returned residents, one spelling for each end that loses one.
pub(crate) fn road_payments(
    rules: &Rules,
    a: u8,
    b: u8,
    cost: u8,
    from_a: std::ops::RangeInclusive<u8>,
    out: &mut Vec<Action>,
) {
    for from_a in from_a {
        let from_b = cost - from_a;
        if rules.roads.residents_returned == 0 || cost == 0 {
            out.push(Action::Road { a, b, from_a, from_b, lose_a: false });
            continue;
        }
        if from_a > 0 {
            out.push(Action::Road { a, b, from_a, from_b, lose_a: true });
        }
        if from_b > 0 {
            out.push(Action::Road { a, b, from_a, from_b, lose_a: false });
        }
    }
}
