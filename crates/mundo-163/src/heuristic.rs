//! The greedy bot's view of a position: victory points now, plus what the trolley's
//! cargo and the player's network are likely to become.

use crate::rules::{MAX_EDGES, MAX_TERRAINS, MAX_TILES, Rules};
use crate::scoring::{income, score};
use crate::state::own_tiles;
use crate::state::{Phase, State};
use crate::trolley::{capacity, cheapest_paths, holds_needed, off_road_costs};
use rulesmith_game::Seat;

/// Everything [`distances`] reads from the state: equal keys, equal distances.
#[derive(Clone, Copy, PartialEq, Eq)]
struct PathKey {
    start: u8,
    enterable: u64,
    off: [u8; MAX_TERRAINS],
    roads: [u64; MAX_EDGES / 64],
    terrain: [u8; MAX_TILES],
}

impl PathKey {
    fn slot(&self) -> usize {
        // FxHash-style mixing of the key's words: only to spread keys over the slots.
        let mut h = u64::from(self.start) ^ self.enterable.rotate_left(17);
        for w in self.roads {
            h = (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        h = (h.rotate_left(5) ^ u64::from_le_bytes(self.off)).wrapping_mul(0x517c_c1b7_2722_0a95);
        (h >> 32) as usize % CACHE_SLOTS
    }
}

const CACHE_SLOTS: usize = 1024;

/// Trolley distances already computed in one search ([`Evaluate::search_scratch`]): the
/// leaves of one search mostly share each player's trolley tile, roads and settlements,
/// and the shortest paths were most of the evaluation's cost. Direct-mapped: a slot keeps
/// the last key that fell into it.
///
/// [`Evaluate::search_scratch`]: rulesmith_game::evaluate::Evaluate::search_scratch
pub struct PathCache {
    slots: Vec<Option<(PathKey, [u16; MAX_TILES])>>,
}

impl Default for PathCache {
    fn default() -> Self {
        PathCache { slots: vec![None; CACHE_SLOTS] }
    }
}

/// Trolley distances (half points) from its tile, over the tiles it may enter now
/// (`own_only`) or with residents aboard.
fn distances(rules: &Rules, s: &State, seat: Seat, own_only: bool, cache: Option<&mut PathCache>) -> [u16; MAX_TILES] {
    let p = s.player(seat);
    let Some(start) = p.trolley.tile.get().map(usize::from).filter(|&t| t < rules.tiles()) else {
        return [u16::MAX; MAX_TILES];
    };
    let off = off_road_costs(rules, p);
    let enterable = if own_only { own_tiles(p) } else { u64::MAX };
    let compute = || {
        cheapest_paths(rules, start, enterable, u16::MAX, |n, e| {
            let ti = usize::from(s.terrain[usize::from(n)]);
            let c = *off.get(ti)?;
            if c == u8::MAX {
                return None;
            }
            let c = if p.has_road(e) { c.min(rules.trolley.own_road_half) } else { c };
            Some(u16::from(c.max(1)))
        })
    };
    let Some(cache) = cache else { return compute() };
    let key = PathKey { start: start as u8, enterable, off, roads: p.roads, terrain: s.terrain.0 };
    let slot = key.slot();
    if let Some(Some((k, d))) = cache.slots.get(slot) {
        if *k == key {
            return *d;
        }
    }
    let d = compute();
    if let Some(entry) = cache.slots.get_mut(slot) {
        *entry = Some((key, d));
    }
    d
}

/// Money is worth less once there is plenty of it: hoarded money delivers nothing, so a
/// rich player should turn it into residents and upgrades.
fn money_value(money: i32) -> f64 {
    let m = f64::from(money.max(0));
    0.025 * m.min(100.0) + 0.008 * (m - 100.0).max(0.0)
}

/// Hex distance from the player's nearest own tile to `tile` (9 without own tiles).
fn frontier_distance(rules: &Rules, own: u64, tile: u8) -> i32 {
    let Some(here) = rules.map.hexes.get(usize::from(tile)) else { return 9 };
    // Over the own tiles' bits only (a player owns a few of the map's tiles).
    let mut bits = own;
    let mut best = None;
    while bits != 0 {
        let t = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if let Some(o) = rules.map.hexes.get(t) {
            let (dq, dr) = (here.q - o.q, here.r - o.r);
            let d = (dq.abs() + dr.abs() + (dq + dr).abs()) / 2;
            best = Some(best.map_or(d, |b: i32| b.min(d)));
        }
    }
    best.unwrap_or(9)
}

/// VP gained by delivering one more good of type `g` after `ahead` more of that type.
fn marginal(rules: &Rules, s: &State, seat: Seat, g: usize, ahead: usize) -> f64 {
    let p = s.player(seat);
    let n = usize::from(p.delivered[g]) + ahead;
    let table = &rules.scoring.goods_of_a_kind;
    let at = |k: usize| if k == 0 { 0 } else { table.get(k - 1).or(table.last()).copied().unwrap_or(0) };
    let mut gain = f64::from(at(n + 1) - at(n));
    let others_min = (0..rules.goods.len()).filter(|&h| h != g).map(|h| p.delivered[h]).min().unwrap_or(0);
    if usize::from(others_min) > n {
        gain += f64::from(rules.scoring.complete_set);
    }
    gain
}

pub fn heuristic(rules: &Rules, s: &State, seat: Seat) -> f64 {
    heuristic_with(rules, s, seat, None)
}

/// [`heuristic`], with a search's cache of trolley distances (the same value).
pub fn heuristic_with(rules: &Rules, s: &State, seat: Seat, mut cache: Option<&mut PathCache>) -> f64 {
    let p = s.player(seat);
    let mut h = f64::from(score(rules, s, seat));
    h += money_value(p.money);
    // Saving for the second hold: it carries a good and residents at once, so the
    // trolley can deliver beyond the player's settlements.
    if usize::from(p.holds_level) + 1 < rules.trolley.holds.len() {
        h += 0.02 * f64::from(p.money.clamp(0, rules.trolley.holds_upgrade_cost));
    }
    if p.capital.is_none() {
        return h;
    }
    // Income is paid every turn (3 H): about a sixth of it stands for the VP it buys later
    // (upgrades, residents for roads towards deliveries).
    h += 0.15 * f64::from(income(rules, s, seat, false));
    // This turn's income is paid at `end trolley`: count it as money already, or ending
    // the turn would always look better than moving the trolley to a delivery.
    if seat == s.current
        && matches!(
            s.phase,
            Phase::Privilege | Phase::Upgrade | Phase::BuyResidents | Phase::Residents | Phase::Trolley
        )
    {
        h += money_value(p.money + income(rules, s, seat, true)) - money_value(p.money);
    }
    // A settlement on the map: income, majority, and a foothold the trolley may stop on.
    h += 0.4 * f64::from(p.settlements.count_ones());
    // Keep the last few settlements for cities: without any, no new city can be reached.
    h += 0.6 * f64::from(p.settlements_in_storage.min(4));
    // Residents: the first few are worth more than their price, later ones less (money
    // is needed for the trolley).
    let residents: u32 =
        (0..rules.tiles()).map(|t| u32::from(p.residents_on(t as u8))).sum::<u32>() + u32::from(p.trolley.residents);
    h += 0.4 * f64::from(residents.min(6)) + 0.1 * f64::from(residents.saturating_sub(6));
    // Trolley upgrades (REF §2.5): more movement reaches more cities each turn; a second
    // hold doubles what one trip delivers, the game's end condition (REF §2.9).
    h += 2.0 * f64::from(p.movement_level) + 5.0 * f64::from(p.holds_level);
    // A privilege's effect lasts the game; its VP (if any) are in `score` already.
    h += 0.8 * f64::from(p.privileges.count_ones());
    // Cities are where goods come from and go to: own them, or get close to them.
    let own = own_tiles(p);
    for (ci, c) in rules.cities.iter().enumerate() {
        let Some(tile) = c.tile else { continue };
        if own & (1 << tile) != 0 {
            h += 1.2;
            continue;
        }
        // A city still wanting goods is worth more to reach than one fully supplied.
        let open = (0..c.demands.len()).filter(|&i| !s.covered[ci].is_covered(i)).count();
        h += (0.3 + 0.3 * open as f64) / f64::from(1 + frontier_distance(rules, own, tile));
    }
    let mp = 2.0 * f64::from(rules.trolley.movement.get(usize::from(p.movement_level)).copied().unwrap_or(3)).max(1.0);
    let free_pass = !rules.trolley.needs_own_tile || p.trolley.residents > 0;
    let dist_now = distances(rules, s, seat, !free_pass, cache.as_deref_mut());
    let dist_any = if free_pass { dist_now } else { distances(rules, s, seat, false, cache) };
    // Residents aboard open the way beyond the player's settlements, but only if a hold is
    // left for them: a trolley full of goods it cannot bring anywhere is stuck until it
    // drops one.
    let goods_aboard = u32::from(p.trolley.goods_count());
    let room = free_pass || holds_needed(rules, goods_aboard, 1) <= capacity(rules, p);
    let near = |d: u16| if d == u16::MAX { 0.0 } else { 1.0 / (1.0 + f64::from(d) / mp) };
    // Goods aboard: worth part of their delivery, more the closer a city wants them
    // (a quarter as much where the trolley would first need residents aboard to get there,
    // none when no hold is left for them).
    for g in 0..rules.goods.len() {
        let carried = p.trolley.goods[g];
        if carried == 0 {
            continue;
        }
        // Each city takes one good of a type: the k-th good aboard is worth the k-th best
        // city that wants it (else holding two goods for one city beats delivering one).
        let mut prospects = [0.0f64; crate::rules::MAX_CITIES];
        let mut n = 0;
        // Over the cities (each stands on one tile), not every tile.
        for (ci, c) in rules.cities.iter().enumerate() {
            let Some(t) = c.tile.map(usize::from) else { continue };
            if n < prospects.len() && s.covered[ci].open_space(&c.demands, g as u8).is_some() {
                // A city not yet settled: residents must first walk there, so credit
                // each step that brings the frontier closer. Kept small (it was 0.6): a
                // large credit held goods aboard for far cities instead of delivering near
                // ones (measured: greedy-vs-greedy games 19 → 17 rounds, fewer stalls).
                let walk = 0.2 / f64::from(1 + frontier_distance(rules, own, t as u8));
                prospects[n] =
                    if room { near(dist_now[t]).max(0.25 * near(dist_any[t])).max(walk) } else { near(dist_now[t]) };
                n += 1;
            }
        }
        prospects[..n].sort_by(|a, b| b.total_cmp(a));
        for (k, &best) in prospects[..n].iter().enumerate().take(usize::from(carried)) {
            h += marginal(rules, s, seat, g, k) * (0.15 + 0.75 * best);
        }
    }
    let dist = dist_now;
    // An empty hold: worth heading for goods that some city still wants.
    // Residents aboard do not count: they can be unloaded anywhere, and carrying them is
    // what lets the trolley reach cities beyond the player's settlements.
    let free_holds = capacity(rules, p).saturating_sub(holds_needed(rules, u32::from(p.trolley.goods_count()), 0));
    if free_holds > 0 {
        let mut wanted = [false; crate::rules::MAX_GOODS];
        for (g, w) in wanted.iter_mut().enumerate().take(rules.goods.len()) {
            *w = rules.cities.iter().enumerate().any(|(ci, c)| s.covered[ci].open_space(&c.demands, g as u8).is_some());
        }
        let mut best = 0.0f64;
        for (t, &d) in dist.iter().enumerate().take(rules.tiles()) {
            if d == u16::MAX {
                continue;
            }
            for (g, &w) in wanted.iter().enumerate().take(rules.goods.len()) {
                let city = rules.city_at(t as u8).map(usize::from);
                let here = u32::from(s.loose[t][g])
                    + city
                        .and_then(|ci| rules.cities.get(ci).map(|c| (ci, c)))
                        .filter(|(_, c)| usize::from(c.goods) == g)
                        .map_or(0, |(ci, _)| u32::from(s.city_stock[ci]));
                if here > 0 && w {
                    best = best.max(marginal(rules, s, seat, g, 0) * 0.2 * near(d));
                }
            }
        }
        h += best * f64::from(free_holds);
    }
    h
}
