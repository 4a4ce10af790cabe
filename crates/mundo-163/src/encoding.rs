//! The action space and the observation layout of a ruleset at a player count
//! ([`rulesmith_game::encode`]), derived from the ruleset's map (tiles, edges,
//! adjacency), cities, goods, terrains, privilege types and numbers.
//!
//! **Actions**, in id order (`TILE`s in map order, `EDGE`s as the ruleset's sorted
//! edges `a b` with `a` < `b`):
//! 1. `capital CITY`; `buy PRIVILEGE for PRICE`, then `buy PRIVILEGE for 0`, per
//!    privilege type; `no privilege`; `upgrade movement`, `upgrade cargo`, `no upgrade`;
//! 2. `buy resident TILE`; `end purchase`;
//! 3. `move FROM TO` for every ordered pair of distinct tiles; `step FROM TO` for every
//!    pair of neighbours;
//! 4. `road A B pay X Y [lose T]` per edge, for every payment X + Y from 0 to the
//!    dearest road (the dearest terrain's residents plus `opposing_road_extra` per other
//!    player), with `lose A` (X > 0) and `lose B` (Y > 0) where residents are returned;
//!    `free road A B` per edge; `again TILE`; `end residents`;
//! 5. `go TILE`; `load GOOD`; `load resident`; `unload GOOD`; `unload resident`;
//!    `end trolley`.
//!
//! **Observation** (names; `N` each seat):
//! `round`; one-hots `to_move.seatN`, `phase.PHASE`; `end.delivered_goods`,
//! `end.round_limit`; per tile `tile.TILE.terrain.TERRAIN` (one-hot) and
//! `tile.TILE.loose.GOOD`; per city `city.CITY.goods` and `city.CITY.covered.I` per
//! demand space; `deck.cards` and `deck.back.B` per card back (the deck's order and
//! make-up are hidden: only its backs are public); per privilege type `row.PRIVILEGE`
//! and `row.PRIVILEGE.free` (cards of the type in the row, and among its free ones);
//! `turn.purchase_from.TILE`, `turn.free_road_used`, `turn.extra_action_used`,
//! `turn.cities_settled`, `turn.trolley_moves`, `turn.loaded_here.GOOD`,
//! `turn.loaded_here.resident`, `turn.unloaded_here.GOOD`, `turn.unloaded_here.resident`;
//! per seat `seatN.money`, `seatN.capital.CITY` (one-hot), `seatN.movement_level`,
//! `seatN.holds_level`, `seatN.privilege.PRIVILEGE`, `seatN.residents_in_storage`,
//! `seatN.settlements_in_storage`, `seatN.last_income`, `seatN.delivered.GOOD`,
//! `seatN.trolley.tile.TILE` (one-hot), `seatN.trolley.half_mp`,
//! `seatN.trolley.goods.GOOD`, `seatN.trolley.residents`, per tile
//! `seatN.tile.TILE.settlement`, `.active`, `.moved`, `.exhausted`, and per edge
//! `seatN.road.A-B`.

use crate::action::{Action, Track};
use crate::rules::{MAX_TILES, Rules};
use crate::state::{End, PHASE_NAMES, Player, RESIDENT_BIT, State};
use rulesmith_game::encode::{Features, Names};
use rulesmith_game::{OptId, Seat};

/// The distinct card backs, lowest first.
fn backs(r: &Rules) -> Vec<u8> {
    let mut b: Vec<u8> = r.privileges.iter().map(|p| p.back).collect();
    b.sort_unstable();
    b.dedup();
    b
}

/// The action space (see the module docs for the order).
pub fn action_space(r: &Rules, players: usize) -> Vec<Action> {
    let tiles = r.tiles().min(64) as u8;
    let mut out = Vec::new();
    out.extend((0..r.cities.len() as u8).map(Action::Capital));
    for kind in 0..r.privileges.len() as u8 {
        out.push(Action::BuyPrivilege { kind, free: false });
        out.push(Action::BuyPrivilege { kind, free: true });
    }
    out.push(Action::NoPrivilege);
    out.extend([Action::Upgrade(Track::Movement), Action::Upgrade(Track::Cargo), Action::NoUpgrade]);
    out.extend((0..tiles).map(Action::BuyResident));
    out.push(Action::EndPurchase);
    for from in 0..tiles {
        out.extend((0..tiles).filter(|&to| to != from).map(|to| Action::Move { from, to }));
    }
    for (from, next) in r.adjacency.iter().enumerate().take(usize::from(tiles)) {
        out.extend(next.iter().map(|&(to, _)| Action::Step { from: from as u8, to }));
    }
    let dearest = r.terrains.iter().map(|t| t.road_residents).max().unwrap_or(0);
    let most = dearest.saturating_add(r.roads.opposing_road_extra.saturating_mul(players.saturating_sub(1) as u8));
    for &(a, b) in &r.edges {
        for cost in 0..=most {
            crate::residents::road_payments(r, a, b, cost, 0..=cost, &mut out);
        }
    }
    out.extend(r.edges.iter().map(|&(a, b)| Action::FreeRoad { a, b }));
    out.extend((0..tiles).map(Action::Again));
    out.push(Action::EndResidents);
    out.extend((0..tiles).map(Action::Go));
    out.extend((0..r.goods.len() as u8).map(Action::Load));
    out.push(Action::LoadResident);
    out.extend((0..r.goods.len() as u8).map(Action::Unload));
    out.push(Action::UnloadResident);
    out.push(Action::EndTrolley);
    out
}

/// The observation's names (see the module docs).
pub fn observation_names(r: &Rules, players: usize) -> Vec<String> {
    let goods = || r.goods.iter().map(String::as_str);
    let mut n = Names::default();
    n.push("round");
    for s in 0..players {
        n.push(format!("to_move.seat{s}"));
    }
    n.each("phase", PHASE_NAMES.map(|(name, _)| name));
    n.each("end", ["delivered_goods", "round_limit"]);
    for h in &r.map.hexes {
        n.each(&format!("tile.{}.terrain", h.name), r.terrains.iter().map(|t| t.name.as_str()));
        n.each(&format!("tile.{}.loose", h.name), goods());
    }
    for c in &r.cities {
        n.push(format!("city.{}.goods", c.id));
        for i in 0..c.demands.len() {
            n.push(format!("city.{}.covered.{i}", c.id));
        }
    }
    n.push("deck.cards");
    for b in backs(r) {
        n.push(format!("deck.back.{b}"));
    }
    for p in &r.privileges {
        n.push(format!("row.{}", p.id));
        n.push(format!("row.{}.free", p.id));
    }
    n.each("turn.purchase_from", r.map.hexes.iter().map(|h| h.name.as_str()));
    n.each("turn", ["free_road_used", "extra_action_used", "cities_settled", "trolley_moves"]);
    for what in ["loaded_here", "unloaded_here"] {
        n.each(&format!("turn.{what}"), goods().chain(["resident"]));
    }
    for s in 0..players {
        let p = format!("seat{s}");
        n.push(format!("{p}.money"));
        n.each(&format!("{p}.capital"), r.cities.iter().map(|c| c.id.as_str()));
        n.each(&p, ["movement_level", "holds_level"]);
        n.each(&format!("{p}.privilege"), r.privileges.iter().map(|x| x.id.as_str()));
        n.each(&p, ["residents_in_storage", "settlements_in_storage", "last_income"]);
        n.each(&format!("{p}.delivered"), goods());
        n.each(&format!("{p}.trolley.tile"), r.map.hexes.iter().map(|h| h.name.as_str()));
        n.each(&format!("{p}.trolley"), ["half_mp", "residents"]);
        n.each(&format!("{p}.trolley.goods"), goods());
        for h in &r.map.hexes {
            n.each(&format!("{p}.tile.{}", h.name), ["settlement", "active", "moved", "exhausted"]);
        }
        for &(a, b) in &r.edges {
            n.push(format!("{p}.road.{}-{}", r.tile_name(a), r.tile_name(b)));
        }
    }
    n.into_vec()
}

fn tile_hot(f: &mut Features<'_>, tiles: usize, t: OptId) {
    f.one_hot(tiles, t.get().map(usize::from));
}

/// Calls `write(i, v)` for each `v` of `values` that is not 0, eight at a time: most are
/// 0, and [`Features::clear_ahead`] cleared the block.
#[inline]
fn nonzero(values: &[u8], mut write: impl FnMut(usize, u8)) {
    let chunks = values.chunks_exact(8);
    let rest = chunks.remainder();
    for (w, chunk) in chunks.enumerate() {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else { continue };
        let mut word = u64::from_le_bytes(bytes);
        while word != 0 {
            let i = word.trailing_zeros() as usize / 8;
            write(8 * w + i, bytes[i]);
            word &= !(0xff << (8 * i));
        }
    }
    let first = values.len() - rest.len();
    for (i, &v) in rest.iter().enumerate() {
        if v != 0 {
            write(first + i, v);
        }
    }
}

/// Sets `block[stride · i]` to 1 for each bit `i` set in `words` (bit `b` of word `w` is
/// `i = 64 w + b`); past the block's end nothing.
#[inline]
fn ones(words: &[u64], block: &mut [f32], stride: usize) {
    for (w, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            if let Some(x) = block.get_mut(stride * (64 * w + bits.trailing_zeros() as usize)) {
                *x = 1.0;
            }
            bits &= bits - 1;
        }
    }
}

/// Writes `seat`'s observation of `s` (see the module docs). Mundo 163 hides nothing
/// from one seat that another sees: the same for every seat.
///
/// The per-tile and per-edge features are most of the 2,895 numbers at 4 players and most
/// of them are 0: only those that are not are written (a seat's roads and settlements bit
/// by bit, its residents and the loose goods eight tiles or goods at a time), into the
/// blocks [`Features::clear_ahead`] cleared. The deck's backs and the row's types are counted in
/// one pass each.
pub fn observe(r: &Rules, s: &State, _seat: Seat, out: &mut [f32]) {
    let mut f = Features::new(out);
    let players = usize::from(s.players);
    f.push(s.round);
    let over = s.phase == crate::state::Phase::Over;
    f.one_hot(players, (!over).then_some(usize::from(s.current)));
    for (_, p) in PHASE_NAMES {
        f.flag(s.phase == p);
    }
    f.flag(s.end == End::DeliveredGoods);
    f.flag(s.end == End::RoundLimit);
    map_tiles(r, s, &mut f);
    for (c, city) in r.cities.iter().enumerate() {
        f.push(s.city_stock.get(c).copied().unwrap_or(0));
        let covered = s.covered.get(c).copied().unwrap_or_default();
        for i in 0..city.demands.len() {
            f.flag(covered.is_covered(i));
        }
    }
    deck(r, s, &mut f);
    row(r, s, &mut f);
    tile_hot(&mut f, r.tiles(), s.turn.purchase_from);
    f.flag(s.turn.free_road_used);
    f.flag(s.turn.extra_action_used);
    f.push(s.turn.cities_settled);
    f.push(s.turn.trolley_moves);
    for bits in [s.turn.loaded_here, s.turn.unloaded_here] {
        for g in 0..r.goods.len() {
            f.flag(bits & (1 << g) != 0);
        }
        f.flag(bits & RESIDENT_BIT != 0);
    }
    for p in s.p.iter() {
        seat(r, p, &mut f);
    }
}

/// Each tile: its terrain (one-hot) and the goods lying loose on it.
fn map_tiles(r: &Rules, s: &State, f: &mut Features<'_>) {
    let (tiles, ng, nt) = (r.tiles(), r.goods.len(), r.terrains.len());
    let per_tile = nt + ng;
    f.clear_ahead(tiles * per_tile);
    let block = f.block(tiles * per_tile);
    for t in 0..tiles.min(MAX_TILES) {
        let terrain = usize::from(s.terrain[t]);
        if terrain < nt
            && let Some(x) = block.get_mut(per_tile * t + terrain)
        {
            *x = 1.0;
        }
        nonzero(&s.loose[t], |g, v| {
            if g < ng
                && let Some(x) = block.get_mut(per_tile * t + nt + g)
            {
                *x = f32::from(v);
            }
        });
    }
}

/// The deck: its size and its cards' backs (public); not which cards. Backs are counted
/// in one pass and written lowest first (as `backs` lists them).
fn deck(r: &Rules, s: &State, f: &mut Features<'_>) {
    let deck = s.deck();
    f.push(deck.len() as u32);
    let (mut present, mut per_back) = ([0u64; 4], [0u8; 256]);
    for p in &r.privileges {
        present[usize::from(p.back / 64)] |= 1 << (p.back % 64);
    }
    for &k in deck {
        if let Some(p) = r.privileges.get(usize::from(k)) {
            per_back[usize::from(p.back)] += 1;
        }
    }
    for (w, &word) in present.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f.push(per_back[64 * w + bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
    }
}

/// The row: each type's cards, and those among the free ones, counted in one pass.
fn row(r: &Rules, s: &State, f: &mut Features<'_>) {
    let (mut in_row, mut free) = ([0u8; 256], [0u8; 256]);
    for (i, &k) in s.row().iter().enumerate() {
        in_row[usize::from(k)] += 1;
        free[usize::from(k)] += u8::from(i < usize::from(s.free));
    }
    for k in 0..r.privileges.len() {
        let (a, b) = if k < 256 { (in_row[k], free[k]) } else { (0, 0) };
        f.extend([a, b]);
    }
}

/// A seat's features, cleared at once: most are 0, and only those that are not are
/// written.
fn seat(r: &Rules, p: &Player, f: &mut Features<'_>) {
    let (tiles, ng) = (r.tiles(), r.goods.len());
    let seat_len = 1 + r.cities.len() + 2 + r.privileges.len() + 3 + ng + tiles + 2 + ng + 4 * tiles + r.edges.len();
    f.clear_ahead(seat_len);
    f.push(p.money);
    let capital_city = p.capital.get().and_then(|t| r.city_at(t));
    f.one_hot(r.cities.len(), capital_city.map(usize::from));
    f.push(p.movement_level);
    f.push(p.holds_level);
    for k in 0..r.privileges.len() {
        f.flag(p.has_privilege(k as u8));
    }
    f.push(p.residents_in_storage);
    f.push(p.settlements_in_storage);
    f.push(p.last_income);
    for g in 0..ng {
        f.push(p.delivered.get(g).copied().unwrap_or(0));
    }
    tile_hot(f, tiles, p.trolley.tile);
    f.push(p.trolley.half_mp);
    f.push(p.trolley.residents);
    for g in 0..ng {
        f.push(p.trolley.goods.get(g).copied().unwrap_or(0));
    }
    // Each tile: settlement, active, moved, exhausted (a tile past the map's falls
    // outside the block).
    let block = f.block(4 * tiles);
    ones(&[p.settlements], block, 4);
    for (k, counts) in [&p.active, &p.moved, &p.exhausted].into_iter().enumerate() {
        nonzero(&counts[..], |t, v| {
            if let Some(x) = block.get_mut(4 * t + 1 + k) {
                *x = f32::from(v);
            }
        });
    }
    ones(&p.roads, f.block(r.edges.len()), 1);
}
