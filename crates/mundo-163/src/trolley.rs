//! 3 E Transport trolley (REF §2.6): movement, loading, unloading, deliveries; then
//! 3 H income (§2.7) and the turn and round change with the game end (§2.9).

use crate::action::Action;
use crate::purchase::{effects, owns_any, recount, room_for_one, start_turn};
use crate::residents::settle;
use crate::rules::{Effect, MAX_TERRAINS, MAX_TILES, Rules};
use crate::scoring::income;
use crate::state::{End, Phase, Player, RESIDENT_BIT, State, own_tiles};
use rulesmith_game::OptId;
use rulesmith_game::cargo;

/// Holds needed for a cargo: goods and residents never share a hold (the core's
/// [`cargo::holds_needed`]).
pub fn holds_needed(rules: &Rules, goods: u32, residents: u32) -> u32 {
    cargo::holds_needed(&[(goods, rules.trolley.goods_per_hold), (residents, rules.trolley.residents_per_hold)])
}

pub fn capacity(rules: &Rules, p: &Player) -> u32 {
    u32::from(rules.trolley.holds.get(usize::from(p.holds_level)).copied().unwrap_or(0))
}

fn fits(rules: &Rules, p: &Player, goods: u32, residents: u32) -> bool {
    holds_needed(rules, goods, residents) <= capacity(rules, p)
}

/// Half points the trolley pays to enter a tile of each terrain off-road, after the
/// player's privileges (`u8::MAX` = never: water).
pub fn off_road_costs(rules: &Rules, p: &Player) -> [u8; MAX_TERRAINS] {
    let mut out = rules.derived.off_road;
    if !owns_any(p, rules.derived.trolley_enter) {
        return out;
    }
    for e in effects(rules, p) {
        if let Effect::TrolleyEnterCost { terrain, half } = *e {
            if let Some(c) = out.get_mut(usize::from(terrain)) {
                if *c != u8::MAX {
                    *c = (*c).min(half);
                }
            }
        }
    }
    out
}

/// Half points the trolley pays to enter `to` from `from` (REF §2.6 and §6 Q4): along
/// an own road 0.5 MP, else the terrain's cost; a privilege may make a terrain cheaper,
/// even by road (III (1): cities for 0).
pub fn enter_cost(rules: &Rules, s: &State, p: &Player, from: u8, to: u8) -> Option<u8> {
    step_cost(rules, s, p, &off_road_costs(rules, p), to, rules.edge(from, to)?)
}

fn step_cost(rules: &Rules, s: &State, p: &Player, off: &[u8; MAX_TERRAINS], to: u8, edge: u8) -> Option<u8> {
    let ti = usize::from(s.terrain.get(usize::from(to)).copied()?);
    let off_road = *off.get(ti)?;
    if off_road == u8::MAX {
        return None;
    }
    Some(if p.has_road(edge) { off_road.min(rules.trolley.own_road_half) } else { off_road })
}

/// The cheapest cost (half points) from the trolley's tile to every tile it can reach
/// with the movement it has left (`u8::MAX` = out of reach).
pub fn reach(rules: &Rules, s: &State) -> [u8; MAX_TILES] {
    let mut cost = [u8::MAX; MAX_TILES];
    by_levels(rules, s, |c, mut tiles| {
        while tiles != 0 {
            let t = tiles.trailing_zeros() as usize;
            tiles &= tiles - 1;
            if c < u16::from(u8::MAX) {
                cost[t] = c as u8;
            }
        }
        false
    });
    cost
}

/// The tiles the trolley can reach with the movement it has left (a bit per tile; its own
/// tile among them), as [`reach`] has them.
fn reach_tiles(rules: &Rules, s: &State) -> u64 {
    let mut priced = 0u64;
    by_levels(rules, s, |c, tiles| {
        // A cost of `u8::MAX` half points reads as out of reach in [`reach`].
        if c < u16::from(u8::MAX) {
            priced |= tiles;
        }
        false
    });
    priced
}

/// The cheapest cost of reaching `to`, as [`reach`] has it.
fn cost_to(rules: &Rules, s: &State, to: u8) -> u8 {
    let target = if to < 64 { 1u64 << to } else { 0 };
    let mut cost = u8::MAX;
    by_levels(rules, s, |c, tiles| {
        if tiles & target != 0 {
            cost = u8::try_from(c).unwrap_or(u8::MAX);
            return true;
        }
        false
    });
    cost
}

/// Dijkstra by cost levels over bit sets: costs are whole half points up to the movement
/// left, so the tiles whose cheapest cost is `c` are found together, level after level,
/// and handed to `visit(c, tiles)` (which stops the search by answering `true`); returns
/// the tiles found. Entering a tile off-road costs what its terrain costs, so the
/// terrains are grouped by that cost, a mask each, and a level is the neighbours of the
/// levels one cost below it, masked by each group; along an own road a step costs the
/// cheaper of the road and the terrain ([`enter_cost`]), so the neighbours along own
/// roads of the network tiles of a level are charged the road's cost as well.
fn by_levels(rules: &Rules, s: &State, mut visit: impl FnMut(u16, u64) -> bool) -> u64 {
    let p = s.cur();
    let start = match p.trolley.tile.get() {
        Some(t) if t < 64 && usize::from(t) < rules.tiles() => t,
        _ => return 0,
    };
    let d = &rules.derived;
    let off = off_road_costs(rules, p);
    let budget = u16::from(p.trolley.half_mp);
    let enterable: u64 = if !rules.trolley.needs_own_tile || p.trolley.residents > 0 { u64::MAX } else { own_tiles(p) };
    // The enterable tiles of each terrain.
    let mut by_terrain = d.by_terrain;
    if s.terrain != d.terrain {
        // Dealt at random (`deal_land = "shuffled"`).
        by_terrain = [0; MAX_TERRAINS];
        for (t, &ti) in s.terrain.iter().enumerate().take(rules.tiles()) {
            if let Some(m) = by_terrain.get_mut(usize::from(ti)) {
                *m |= 1 << t;
            }
        }
    }
    // The terrains by what entering them costs: (half points, enterable tiles). Every
    // movement cost is at most 40 half points (the ruleset's readers), so a level looks
    // back at most 40 levels: the levels are kept modulo 64.
    let mut groups = [(0u16, 0u64); MAX_TERRAINS];
    let mut n = 0;
    for (&m, &k) in by_terrain.iter().zip(&off) {
        let m = m & enterable;
        if k == u8::MAX || k >= 64 || m == 0 {
            continue;
        }
        let k = u16::from(k);
        match groups[..n].iter_mut().find(|g| g.0 == k) {
            Some(g) => g.1 |= m,
            None => {
                groups[n] = (k, m);
                n += 1;
            }
        }
    }
    let groups = &groups[..n];
    let road_k = u16::from(rules.trolley.own_road_half.min(63));
    let reach_back = groups.iter().map(|g| g.0).fold(road_k, u16::max);
    // Per level: the neighbours of its tiles, and those along own roads.
    let mut near = [0u64; 64];
    let mut by_road = [0u64; 64];
    let mut done: u64 = 1 << start;
    let mut level: u64 = 1 << start;
    let mut last: u16 = 0;
    let mut c: u16 = 0;
    loop {
        // The level's neighbours; steps that cost nothing add to the level itself.
        let (mut around, mut along) = (0u64, 0u64);
        let mut fresh = level;
        while fresh != 0 {
            let (mut a, mut r) = (0u64, 0u64);
            let mut bits = fresh;
            while bits != 0 {
                let t = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                a |= d.neighbours.get(t).copied().unwrap_or(0);
            }
            let mut bits = fresh & p.network;
            while bits != 0 {
                let t = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let (Some(edges), Some(around)) = (d.around_edges.get(t), d.around_bits.get(t)) {
                    for (&e, &bit) in edges.iter().zip(around) {
                        if p.has_road(e) {
                            r |= bit;
                        }
                    }
                }
            }
            around |= a;
            along |= r;
            let mut free = groups.iter().filter(|g| g.0 == 0).fold(0, |m, g| m | (a & g.1));
            if road_k == 0 {
                free |= r & enterable;
            }
            fresh = free & !done;
            done |= fresh;
            level |= fresh;
        }
        if visit(c, level) {
            return done;
        }
        if level != 0 {
            last = c;
        }
        let slot = usize::from(c % 64);
        near[slot] = around;
        by_road[slot] = along;
        c += 1;
        if c > budget || c > last + reach_back {
            return done;
        }
        // The next level: one step from the level its cost below.
        let mut next = 0u64;
        for &(k, m) in groups {
            if k != 0 && k <= c {
                next |= near[usize::from((c - k) % 64)] & m;
            }
        }
        if road_k != 0 && road_k <= c {
            next |= by_road[usize::from((c - road_k) % 64)] & enterable;
        }
        level = next & !done;
        done |= level;
    }
}

/// Dijkstra over the few tiles in reach: the cheapest cost from `start` to every tile of
/// `enterable` (bit per tile) within `limit`, with `step(to, edge)` the cost of entering
/// a tile over an edge (`None`: not enterable). Unreached tiles stay at `u16::MAX`.
///
/// The tiles are kept in buckets by cost (Dial's algorithm): costs are whole half points
/// and one step costs at most 40 (the ruleset's readers bound every movement cost), so
/// 64 buckets, a bit set of tiles each, hold every open cost at once; a step dearer than
/// that falls back to choosing the cheapest open tile one by one (the same costs).
pub(crate) fn cheapest_paths(
    rules: &Rules,
    start: usize,
    enterable: u64,
    limit: u16,
    step: impl Fn(u8, u8) -> Option<u16>,
) -> [u16; MAX_TILES] {
    let mut dist = [u16::MAX; MAX_TILES];
    if start >= MAX_TILES {
        return dist;
    }
    dist[start] = 0;
    let mut ring = [0u64; 64];
    ring[0] = 1 << start;
    let mut live: u64 = 1;
    let mut done: u64 = 0;
    let mut c: u32 = 0;
    while live != 0 {
        // On to the next cost with open tiles.
        c += live.rotate_right(c % 64).trailing_zeros();
        let slot = (c % 64) as usize;
        let mut open = ring[slot];
        ring[slot] = 0;
        live &= !(1 << slot);
        while open != 0 {
            let t = open.trailing_zeros() as usize;
            open &= open - 1;
            // A tile found again more cheaply was settled at that cost already.
            if done & (1 << t) != 0 || u32::from(dist[t]) != c {
                continue;
            }
            done |= 1 << t;
            for &(n, e) in rules.adjacency.get(t).map_or(&[][..], Vec::as_slice) {
                let bit = 1u64 << n;
                if done & bit != 0 || enterable & bit == 0 {
                    continue;
                }
                let Some(k) = step(n, e) else { continue };
                if k >= 64 {
                    return cheapest_paths_by_scan(rules, start, enterable, limit, step);
                }
                let total = dist[t].saturating_add(k);
                if total <= limit && total < dist[usize::from(n)] {
                    dist[usize::from(n)] = total;
                    if k == 0 {
                        open |= bit;
                    } else {
                        let to = usize::from(total % 64);
                        ring[to] |= bit;
                        live |= 1 << to;
                    }
                }
            }
        }
    }
    dist
}

/// [`cheapest_paths`] for any step costs: the cheapest open tile chosen one by one.
fn cheapest_paths_by_scan(
    rules: &Rules,
    start: usize,
    enterable: u64,
    limit: u16,
    step: impl Fn(u8, u8) -> Option<u16>,
) -> [u16; MAX_TILES] {
    let mut dist = [u16::MAX; MAX_TILES];
    dist[start] = 0;
    let mut open: u64 = 1 << start;
    let mut done: u64 = 0;
    while open != 0 {
        // Pick the cheapest open tile.
        let mut bits = open;
        let mut best = bits.trailing_zeros() as usize;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if dist[t] < dist[best] {
                best = t;
            }
        }
        open &= !(1 << best);
        done |= 1 << best;
        for &(n, e) in &rules.adjacency[best] {
            let bit = 1u64 << n;
            if done & bit != 0 || enterable & bit == 0 {
                continue;
            }
            if let Some(c) = step(n, e) {
                let total = dist[best].saturating_add(c);
                if total <= limit && total < dist[usize::from(n)] {
                    dist[usize::from(n)] = total;
                    open |= bit;
                }
            }
        }
    }
    dist
}

/// `go T`: the trolley moves to any tile it can reach now, by the cheapest way (a move
/// through tiles without stopping has no other effect, so every longer way is the same
/// move with less movement left).
pub fn can_go(rules: &Rules, s: &State, to: u8) -> bool {
    let p = s.cur();
    s.phase == Phase::Trolley
        && s.turn.trolley_moves < rules.trolley.max_moves
        && OptId::some(to) != p.trolley.tile
        && to < 64
        && reach_tiles(rules, s) & (1 << to) != 0
}

pub fn go(rules: &Rules, s: &mut State, to: u8) {
    let cost = cost_to(rules, s, to);
    let p = s.cur_mut();
    p.trolley.half_mp -= cost.min(p.trolley.half_mp);
    p.trolley.tile = OptId::some(to);
    s.turn.trolley_moves += 1;
    s.turn.loaded_here = 0;
    s.turn.unloaded_here = 0;
}

/// Goods of type `g` that can be picked up where the trolley stands: goods lying there,
/// then the city's own stock.
fn available(rules: &Rules, s: &State, tile: u8, g: u8) -> u32 {
    let lying = s.loose.get(usize::from(tile)).map_or(0, |l| l[usize::from(g)]);
    let stock = match rules.city_at(tile).map(usize::from).and_then(|ci| Some((ci, rules.cities.get(ci)?))) {
        Some((ci, c)) if c.goods == g => s.city_stock[ci],
        _ => 0,
    };
    u32::from(lying) + u32::from(stock)
}

pub fn can_load(rules: &Rules, s: &State, g: u8) -> bool {
    let p = s.cur();
    s.phase == Phase::Trolley
        && usize::from(g) < rules.goods.len()
        && s.turn.unloaded_here & (1 << g) == 0
        && p.trolley.tile.get().is_some_and(|tile| available(rules, s, tile, g) > 0)
        && fits(rules, p, u32::from(p.trolley.goods_count()) + 1, u32::from(p.trolley.residents))
}

pub fn load(rules: &Rules, s: &mut State, g: u8) {
    let Some(tile) = s.cur().trolley.tile.get() else { return };
    let gi = usize::from(g);
    let (loose, trolley) = s.loose_and_trolley(usize::from(tile));
    if cargo::transfer(loose, trolley, gi, 1) == 0 {
        // None loose here: from the city's stock (its one good).
        if let Some(stock) = rules.city_at(tile).and_then(|city| s.city_stock.get_mut(usize::from(city))) {
            *stock = stock.saturating_sub(1);
        }
        s.cur_mut().trolley.goods[gi] += 1;
    }
    s.turn.loaded_here |= 1 << g;
}

/// The uncovered demand space of the city on `tile` for goods `g`, if any.
pub fn open_demand(rules: &Rules, s: &State, tile: u8, g: u8) -> Option<(usize, usize)> {
    let city = usize::from(rules.city_at(tile)?);
    let c = rules.cities.get(city)?;
    s.covered[city].open_space(&c.demands, g).map(|i| (city, i))
}

pub fn can_unload(s: &State, g: u8) -> bool {
    let p = s.cur();
    s.phase == Phase::Trolley
        && p.trolley.goods.get(usize::from(g)).is_some_and(|&n| n > 0)
        && s.turn.loaded_here & (1 << g) == 0
}

/// Unloads a good: delivered if the city here still demands it (the space is covered and
/// the player keeps the good, S004:L45), else it stays on the tile.
pub fn unload(rules: &Rules, s: &mut State, g: u8) {
    let Some(tile) = s.cur().trolley.tile.get() else { return };
    let gi = usize::from(g);
    match open_demand(rules, s, tile, g) {
        Some((city, slot)) => {
            s.covered[city].set_covered(slot);
            let p = s.cur_mut();
            cargo::transfer(&mut p.trolley.goods, &mut p.delivered, gi, 1);
        }
        None => {
            let (loose, trolley) = s.loose_and_trolley(usize::from(tile));
            cargo::transfer(trolley, loose, gi, 1);
            s.turn.unloaded_here |= 1 << g;
        }
    }
}

pub fn can_load_resident(rules: &Rules, s: &State) -> bool {
    let p = s.cur();
    s.phase == Phase::Trolley
        && s.turn.unloaded_here & RESIDENT_BIT == 0
        && p.trolley.tile.get().and_then(|t| p.exhausted.get(usize::from(t))).is_some_and(|&n| n > 0)
        && fits(rules, p, u32::from(p.trolley.goods_count()), u32::from(p.trolley.residents) + 1)
}

pub fn load_resident(rules: &Rules, s: &mut State) {
    let p = s.cur_mut();
    let Some(tile) = p.trolley.tile.get() else { return };
    p.exhausted[usize::from(tile)] -= 1;
    recount(rules, p, tile);
    p.trolley.residents += 1;
    s.turn.loaded_here |= RESIDENT_BIT;
}

pub fn can_unload_resident(rules: &Rules, s: &State) -> bool {
    let p = s.cur();
    let Some(tile) = p.trolley.tile.get() else { return false };
    s.phase == Phase::Trolley
        && p.trolley.residents > 0
        && s.turn.loaded_here & RESIDENT_BIT == 0
        && if p.owns(tile) { room_for_one(rules, p, tile) } else { p.settlements_in_storage > 0 }
}

/// Unloading a resident where the player has no settlement turns it into one
/// (REF §2.6 "Carrying residents").
pub fn unload_resident(rules: &Rules, s: &mut State) {
    let Some(tile) = s.cur().trolley.tile.get() else { return };
    s.cur_mut().trolley.residents -= 1;
    if s.cur().owns(tile) {
        let p = s.cur_mut();
        p.exhausted[usize::from(tile)] += 1;
        recount(rules, p, tile);
    } else {
        settle(rules, s, tile);
    }
    s.turn.unloaded_here |= RESIDENT_BIT;
}

/// End of 3 E: leftover MP are lost (REF §6 Q11), residents aboard are unloaded (with
/// `residents_aboard_at_end = "unload"`), 3 H pays income, the turn passes.
pub fn end_trolley(rules: &Rules, s: &mut State) {
    if rules.trolley.unload_at_end {
        unload_all(rules, s);
    }
    let pay = income(rules, s, s.current, true);
    let p = s.cur_mut();
    p.trolley.half_mp = 0;
    p.money += pay;
    p.last_income = pay;
    next_turn(rules, s);
}

/// Residents ride only within one trolley phase (the chosen reading of REF §2.6, so that
/// one passenger does not lift the own-tiles rule for the rest of the game): at its end
/// they are unloaded where the trolley stands, as an unload would (onto an own tile while
/// it has room; elsewhere one becomes a settlement and the rest stay there exhausted);
/// any that cannot be unloaded go back to storage.
fn unload_all(rules: &Rules, s: &mut State) {
    let Some(tile) = s.cur().trolley.tile.get() else { return };
    while s.cur().trolley.residents > 0 {
        let p = s.cur();
        let own = p.owns(tile);
        if !(if own { room_for_one(rules, p, tile) } else { p.settlements_in_storage > 0 }) {
            break;
        }
        s.cur_mut().trolley.residents -= 1;
        if own {
            let p = s.cur_mut();
            p.exhausted[usize::from(tile)] += 1;
            recount(rules, p, tile);
        } else {
            settle(rules, s, tile);
        }
    }
    let p = s.cur_mut();
    p.residents_in_storage += p.trolley.residents;
    p.trolley.residents = 0;
}

/// The next player's turn; after the last seat of a round, the game-end check (REF §2.9).
pub fn next_turn(rules: &Rules, s: &mut State) {
    s.turn = Default::default();
    let next = rulesmith_game::steps::next_seat(s.current, usize::from(s.players));
    if next == 0 {
        let threshold = u32::from(rules.end.delivered.get(usize::from(s.players)).copied().unwrap_or(0));
        if s.delivered_total() >= threshold {
            s.phase = Phase::Over;
            s.end = End::DeliveredGoods;
            return;
        }
        if s.round >= rules.end.max_rounds {
            s.phase = Phase::Over;
            s.end = End::RoundLimit;
            return;
        }
        s.round += 1;
    }
    s.current = next;
    start_turn(rules, s);
}

pub fn legal(rules: &Rules, s: &State, out: &mut Vec<Action>) {
    let p = s.cur();
    if s.turn.trolley_moves < rules.trolley.max_moves {
        // Not the tile it stands on (with none, nothing is reached: bit 63 is as good).
        let mut reached = reach_tiles(rules, s) & !(1u64 << p.trolley.tile.to_bits().min(63));
        let n = reached.count_ones() as usize;
        out.extend((0..n).map(|_| {
            let to = reached.trailing_zeros() as u8;
            reached &= reached.wrapping_sub(1);
            Action::Go(to)
        }));
    }
    for g in 0..rules.goods.len() as u8 {
        if can_load(rules, s, g) {
            out.push(Action::Load(g));
        }
    }
    if can_load_resident(rules, s) {
        out.push(Action::LoadResident);
    }
    for g in 0..rules.goods.len() as u8 {
        if can_unload(s, g) {
            out.push(Action::Unload(g));
        }
    }
    if can_unload_resident(rules, s) {
        out.push(Action::UnloadResident);
    }
    out.push(Action::EndTrolley);
}
