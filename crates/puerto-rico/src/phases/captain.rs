//! Captain phase (S000:L308-378; harbor L604-608, wharf L612-620, warehouses L546-584).
//! Expansion effects: VP for pairs on hold before loading ([`Effect::VpPerPairOnHold`],
//! S001:L618-622), doubloons per load ([`Effect::DoubloonPerLoad`], S001:L591-595), the
//! mixed ship ([`Effect::MixedShip`], S001:L583-587) and extra storage
//! ([`Effect::ExtraStorageBarrels`], S001:L549-553).

pub mod shipping;

use super::flow::{Flow, Interrupt};
use crate::action::Action;
use crate::board;
use crate::effect::EffectKind;
use crate::goods::{ByGood, Good, Goods};
use crate::role_kind::RoleKind;
use crate::rules::{Effect, Rules, kind};
use crate::state::{Phase, State};
use rulesmith_game::Seat;
use rulesmith_game::cargo::transfer;
use rulesmith_game::steps::{Rotation, clockwise};
use shipping::Shipping;

/// Whether [`begin`] settles `effect` (for the captain, or for any owner): the union
/// hall's VP for everyone, the lighthouse's doubloon for the captain.
pub fn settled_at_begin(effect: &Effect, captain: bool) -> bool {
    match *effect {
        Effect::VpPerPairOnHold { .. } => true,
        Effect::DoubloonPerLoad { captain: extra, .. } => captain && extra > 0,
        _ => false,
    }
}

pub fn begin(rules: &Rules, s: &mut State) {
    s.phase = Phase::Captain;
    s.current = s.chooser;
    s.captain = Shipping::new(s.chooser, s.player_count());
    s.pending.mixed.mixed_used = 0;
    if rules.has_effect(kind::VP_PER_PAIR_ON_HOLD) {
        // Union hall: before anyone loads, VP per pair of barrels of one good (S001:L620).
        for seat in clockwise(s.chooser, s.player_count()) {
            let p = &s.players[seat];
            let vp: u16 = board::effects(rules, p)
                .map(|e| match *e {
                    Effect::VpPerPairOnHold { barrels_per_vp } => {
                        Good::every().map(|g| u16::from(p.goods[g] / barrels_per_vp.max(1))).sum()
                    }
                    _ => 0,
                })
                .sum();
            if vp > 0 {
                super::supply::award_vp(rules, s, seat, vp, RoleKind::Captain);
            }
        }
    }
    if rules.has_effect(kind::DOUBLOON_PER_LOAD) {
        // Lighthouse: the captain's doubloon, loading or not (S001:L593).
        let chooser = s.chooser;
        let extra: u16 = board::effects(rules, &s.players[chooser])
            .map(|e| if let Effect::DoubloonPerLoad { captain, .. } = *e { u16::from(captain) } else { 0 })
            .sum();
        s.players[chooser].doubloons += extra;
    }
}

/// The cargo-ship loads open to `seat` (L319-326): a kind already on a ship goes only
/// there, and only if it is not full; a kind on no ship goes on an empty ship, and among
/// empty ships only on those that take the most of the player's barrels (L325).
fn ship_loads(s: &State, seat: Seat, f: &mut impl FnMut(Action)) {
    let p = &s.players[seat];
    let ships = s.ships();
    for g in p.goods.present() {
        let have = p.goods[g];
        if let Some(i) = ships.iter().position(|x| x.good() == Some(g)) {
            if !ships[i].is_full() {
                f(Action::Ship { good: g, ship: i as u8 });
            }
            continue;
        }
        let best = ships.iter().filter(|x| x.good().is_none()).map(|x| x.capacity().min(have)).max();
        if let Some(best) = best {
            for (i, x) in ships.iter().enumerate() {
                if x.good().is_none() && x.capacity().min(have) == best {
                    f(Action::Ship { good: g, ship: i as u8 });
                }
            }
        }
    }
}

fn wharf_loads(rules: &Rules, s: &State, seat: Seat, f: &mut impl FnMut(Action)) {
    let p = &s.players[seat];
    if s.captain.wharf_used & (1 << seat) != 0 || !board::has(rules, p, EffectKind::OwnShip) {
        return;
    }
    for g in p.goods.present() {
        f(Action::Wharf(g));
    }
}

/// The mixed ships open to `seat`: once per phase, with enough barrels (S001:L585).
fn mixed_loads(rules: &Rules, s: &State, seat: Seat, f: &mut impl FnMut(Action)) {
    if !rules.has_effect(kind::MIXED_SHIP) || s.pending.mixed.mixed_used & (1 << seat) != 0 {
        return;
    }
    let p = &s.players[seat];
    for b in p.city.iter() {
        if let Some(Effect::MixedShip { min_barrels, .. }) = rules.buildings.get(b.building as usize).map(|x| x.effect)
        {
            if b.colonists > 0 && p.goods.total() >= u32::from(min_barrels) {
                f(Action::Use(b.building));
            }
        }
    }
}

/// A player who can load a ship must (L313); the wharf (and the mixed ship) is an
/// alternative and never required (L513, L616), so with only those left the player may
/// pass, which ends their loading for this phase (ships only fill up, so nothing new
/// opens later).
pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let seat = s.current;
    if s.captain.round.has_passed(seat) {
        return;
    }
    let mut must = false;
    ship_loads(s, seat, &mut |a| {
        must = true;
        f(a)
    });
    let mut own = false;
    wharf_loads(rules, s, seat, &mut |a| {
        own = true;
        f(a)
    });
    mixed_loads(rules, s, seat, &mut |a| {
        own = true;
        f(a)
    });
    if own && !must {
        f(Action::Pass);
    }
}

/// Whether `seat` has a cargo-ship load, as [`ship_loads`] would list one: a kind held
/// that is on a ship (the first with it) with room, or on no ship while a ship is empty.
/// Asked for each seat after every load, so answered in one pass over the ships.
fn can_load(s: &State, seat: Seat) -> bool {
    let held = s.players[seat].goods.nonzero();
    let (mut on_board, mut room, mut empty) = (0u8, 0u8, false);
    for x in s.ships() {
        match x.good() {
            Some(g) if on_board & g.bit() == 0 => {
                on_board |= g.bit();
                if !x.is_full() {
                    room |= g.bit();
                }
            }
            Some(_) => {}
            None => empty = true,
        }
    }
    held & room != 0 || (empty && held & !on_board != 0)
}

fn can_act(rules: &Rules, s: &State, seat: Seat) -> bool {
    let mut any = can_load(s, seat);
    if !any {
        wharf_loads(rules, s, seat, &mut |_| any = true);
    }
    if !any {
        mixed_loads(rules, s, seat, &mut |_| any = true);
    }
    if !any {
        // Extension moves (a guest to move to the wharf) give the player a turn too.
        any = super::own_turn::has_moves(rules, s, seat);
    }
    any
}

/// VP for a load: `vp_per_barrel` per barrel (L330), the harbor's per load (L606), the captain's once with
/// the first load (L330, L377). Chips may run out; VP then go on paper (L416). The
/// lighthouse's doubloon per load (S001:L591). Returns whether the captain is asked about
/// the privilege VP ([`offers_privilege`]): the turn then goes on with that decision.
fn score_load(rules: &Rules, s: &mut State, seat: Seat, barrels: u8) -> bool {
    score(rules, s, seat, u16::from(barrels) * u16::from(rules.vp_per_barrel), true)
}

fn score(rules: &Rules, s: &mut State, seat: Seat, vp: u16, harbor: bool) -> bool {
    let mut vp = vp;
    if harbor {
        vp += board::shipping_bonus(rules, &s.players[seat]);
    }
    let mut offered = false;
    if seat == s.chooser && !s.captain.privilege_given {
        s.captain.privilege_given = true;
        let bonus = u16::from(super::privilege::privilege(rules, s));
        if offers_privilege(rules, s, vp, bonus) {
            s.phase = Phase::CaptainPrivilege;
            offered = true;
        } else {
            vp += bonus;
        }
    }
    super::supply::award_vp(rules, s, seat, vp, RoleKind::Captain);
    if rules.has_effect(kind::DOUBLOON_PER_LOAD) {
        let doubloons = board::doubloons_per_load(rules, &s.players[seat]);
        s.players[seat].doubloons += doubloons;
    }
    offered
}

/// A privilege may be declined (S000:L131 "puede decidir no usar … el privilegio"); the
/// game ends after the round in which the last VP chip is taken (S000:L414-416). So the
/// captain is asked about the privilege VP whenever declining it may change whether the
/// chips run out this round: with `left` chips after the load's own `vp` and the rest
/// of the round taking `r` more, taking the privilege ends the game and declining does
/// not when `left - bonus <= r < left`. `r` is at least 0 and at most
/// [`most_vp_still_this_round`], so the captain is asked when `left > 0` and
/// `left <= bonus + most`. With `most` = 0 (nobody can load again, no VP later in the
/// round) this is the privilege itself taking the last chips. Else declining can only
/// lose him a VP: the privilege is simply taken. (`most` is an upper bound, not the exact
/// maximum over every continuation: the question may be asked where no continuation
/// actually reaches the threshold, never withheld where one does.)
fn offers_privilege(rules: &Rules, s: &State, vp: u16, bonus: u16) -> bool {
    // VP are scored only in the captain and builder phases: where neither can end the
    // game, declining changes nothing.
    let ending = rules.vp_chips_run_out_in & (RoleKind::Captain.bit() | RoleKind::Builder.bit()) != 0;
    if !rules.captain_may_decline_last_vp || bonus == 0 || !ending {
        return false;
    }
    let left = s.vp_chips.saturating_sub(vp);
    if left == 0 {
        return false;
    }
    let (left, bonus) = (u32::from(left), u32::from(bonus));
    // Most first loads are far from the end: a quick bound (every barrel held loaded with
    // every harbor VP, every player building with every church) rules them out before
    // the board is looked at.
    let held: u32 = s.players.iter().map(|p| p.goods.total()).sum();
    let per_barrel = u32::from(rules.vp_per_barrel.max(1));
    let quick = held * (per_barrel + u32::from(rules.most_vp_per_load))
        + s.player_count() as u32 * u32::from(rules.most_vp_per_build);
    left <= bonus || (left <= bonus + quick && left <= bonus + most_vp_still_this_round(rules, s))
}

/// The most VP chips the rest of this round could still take after the load being
/// scored: in this captain phase, every barrel still held that could be loaded (on the
/// cargo ships only as many as they have room for, S000:L319-320; all of a player's with
/// a wharf or a mixed ship still unused, S000:L614, S001:L585), each load's harbor VP
/// (S000:L606; loads: one per kind held on the cargo ships, one on the wharf, one on the
/// mixed ship, never more than the barrels), and in a builder phase still to come this
/// round the most each player's building VP can give (church, S001:L577), counted only
/// where VP scored in the builder phase can end the game (`vp_chips_run_out_in`; the
/// bundled rulesets end it by the captain's alone, S000:L414). A player with
/// guests that move on their own turn (S001:L557) may still man any building they own,
/// and a later mayor phase may man any: those count as occupied. The union hall scored
/// when the phase began (S001:L620); the lighthouse gives doubloons, not VP (S001:L591);
/// the library's doubled privilege is in `bonus` itself (S001:L608).
fn most_vp_still_this_round(rules: &Rules, s: &State) -> u32 {
    let held_by_anyone = s.players.iter().fold(0u8, |m, p| m | p.goods.nonzero());
    // A ship with a kind aboard takes only that kind (S000:L319-321).
    let room: u32 = s
        .ships()
        .iter()
        .filter(|x| !x.is_full() && x.good().is_none_or(|g| held_by_anyone & g.bit() != 0))
        .map(|x| u32::from(x.capacity().saturating_sub(x.load())))
        .sum();
    let n = s.player_count();
    let builder_to_come = rules.has_effect(kind::BUILD_VP_BY_COLUMN)
        && rules.vp_chips_run_out_in & RoleKind::Builder.bit() != 0
        && u32::from(s.roles_chosen) < u32::from(rules.setup[n].roles_per_round)
        && rules
            .roles
            .iter()
            .enumerate()
            .any(|(i, r)| r.kind == RoleKind::Builder && s.roles.available_mask() & (1 << i) != 0);
    // A bound: the mixed ship scores at most a VP per barrel too (S001:L585).
    let per_barrel = u32::from(rules.vp_per_barrel.max(1));
    let (mut most, mut cargo_only) = (0u32, 0u32);
    for seat in s.players.seats() {
        let p = &s.players[seat];
        let guests = board::effects(rules, p).any(|e| matches!(e, Effect::Guests { on_own_turn: true, .. }));
        let (mut harbor, mut own_ship, mut mixed, mut church) = (0u32, false, false, 0u32);
        for (e, occupied) in board::owned_effects(rules, p) {
            match *e {
                Effect::ShippingBonus { vp } if occupied || guests => harbor += u32::from(vp),
                Effect::OwnShip if occupied || guests => own_ship = true,
                Effect::MixedShip { .. } if occupied || guests => mixed = true,
                Effect::BuildVpByColumn { vp_by_column } if builder_to_come => {
                    church += u32::from(vp_by_column.iter().copied().max().unwrap_or(0));
                }
                _ => {}
            }
        }
        let wharf = own_ship && s.captain.wharf_used & (1 << seat) == 0;
        let mixed = mixed && s.pending.mixed.mixed_used & (1 << seat) == 0;
        // A player who passed loads nothing more this phase (ships only fill up).
        let barrels = if s.captain.round.has_passed(seat) { 0 } else { p.goods.total() };
        if wharf || mixed {
            most += barrels * per_barrel;
        } else {
            cargo_only += barrels;
        }
        let loads = (p.goods.nonzero().count_ones() + u32::from(wharf) + u32::from(mixed)).min(barrels);
        most += harbor * loads + church;
    }
    most + cargo_only.min(room) * per_barrel
}

/// `take vp` or `pass`: the captain's privilege VP, when declining may change the end
/// (`offers_privilege` decides when).
pub fn legal_privilege(f: &mut impl FnMut(Action)) {
    f(Action::TakeVp);
    f(Action::Pass);
}

pub fn play_privilege(rules: &Rules, s: &mut State, a: Action) -> Flow {
    s.phase = Phase::Captain;
    if a == Action::TakeVp {
        let chooser = s.chooser;
        let bonus = u16::from(super::privilege::privilege(rules, s));
        super::supply::award_vp(rules, s, chooser, bonus, RoleKind::Captain);
    }
    next(rules, s)
}

pub fn play(rules: &Rules, s: &mut State, a: Action) -> Flow {
    let seat = s.current;
    match a {
        Action::Ship { good, ship } => {
            // As many barrels as fit (L319): the player's barrels go on board.
            let n = match s.ships.get_mut(usize::from(ship)) {
                Some(x) => x.load_from(&mut s.players[seat].goods, good, good.index(), u32::MAX),
                None => 0,
            };
            if score_load(rules, s, seat, n) {
                return Flow::Continue;
            }
        }
        Action::Wharf(good) => {
            // All barrels of the kind go to the supply (L614, L618).
            let n = transfer(&mut s.players[seat].goods, &mut s.goods_supply, good.index(), u32::MAX) as u8;
            s.captain.wharf_used |= 1 << seat;
            if score_load(rules, s, seat, n) {
                return Flow::Continue;
            }
        }
        Action::Use(b) => {
            s.pending.mixed.mixed_used |= 1 << seat;
            s.pending.mixed.mixed_building = Some(b);
            s.pending.mixed.mixed_good = 0;
            s.pending.mixed.mixed_load = ByGood::default();
            s.phase = Phase::MixedShip;
            return Flow::Continue;
        }
        Action::Pass => s.captain.round.pass(seat),
        _ => {}
    }
    next(rules, s)
}

// The mixed ship: the loader decides good by good how many barrels go on it (any mix,
// as many or as few as they like, at least `min_barrels`, S001:L585).

fn mixed_rules(rules: &Rules, s: &State) -> (u8, u8, bool) {
    match s.pending.mixed.mixed_building.and_then(|b| rules.buildings.get(usize::from(b))).map(|x| x.effect) {
        Some(Effect::MixedShip { barrels_per_vp, min_barrels, harbor_bonus }) => {
            (barrels_per_vp.max(1), min_barrels, harbor_bonus)
        }
        _ => (1, 1, true),
    }
}

/// The counts the current good may take: (lowest, highest).
fn mixed_range(rules: &Rules, s: &State) -> Option<(u8, u8)> {
    let i = usize::from(s.pending.mixed.mixed_good);
    let g = (i < rules.good_count()).then_some(Good::at(i))?;
    let p = &s.players[s.current];
    let have = p.goods[g];
    let later: u32 = rules.goods().skip(i + 1).map(|x| u32::from(p.goods[x])).sum();
    let (_, min, _) = mixed_rules(rules, s);
    let lo = u32::from(min).saturating_sub(s.pending.mixed.mixed_load.total() + later).min(u32::from(have)) as u8;
    Some((lo, have))
}

pub fn legal_mixed(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    if let Some((lo, hi)) = mixed_range(rules, s) {
        if lo < hi {
            let good = Good::at(usize::from(s.pending.mixed.mixed_good));
            for count in lo..=hi {
                f(Action::Load { good, count });
            }
        }
    }
}

pub fn play_mixed(_rules: &Rules, s: &mut State, a: Action) -> Flow {
    if let Action::Load { good, count } = a {
        s.pending.mixed.mixed_load[good] = count;
        s.pending.mixed.mixed_good += 1;
    }
    Flow::Continue
}

/// Fills forced counts; once every good is decided the barrels go to the supply and
/// score 1 VP per `barrels_per_vp` (S001:L585, L595).
pub fn step_mixed(rules: &Rules, s: &mut State) -> Flow {
    while let Some((lo, hi)) = mixed_range(rules, s) {
        if lo < hi {
            return Flow::Decide;
        }
        let good = Good::at(usize::from(s.pending.mixed.mixed_good));
        s.pending.mixed.mixed_load[good] = lo;
        s.pending.mixed.mixed_good += 1;
    }
    let seat = s.current;
    let load = s.pending.mixed.mixed_load;
    for g in Good::every() {
        transfer(&mut s.players[seat].goods, &mut s.goods_supply, g.index(), u32::from(load[g]));
    }
    let (per, _, harbor) = mixed_rules(rules, s);
    let vp = (load.total() / u32::from(per)) as u16;
    s.pending.mixed.mixed_load = ByGood::default();
    s.pending.mixed.mixed_good = 0;
    s.pending.mixed.mixed_building = None;
    s.phase = Phase::Captain;
    if score(rules, s, seat, vp, harbor) {
        return Flow::Continue;
    }
    next(rules, s)
}

/// The next seat clockwise that can still load; when nobody can, storage begins (L311),
/// after a last chance to move guests, e.g. to a storehouse (S001:L559).
fn next(rules: &Rules, s: &mut State) -> Flow {
    // A player who cannot load now never can later in this phase (ships only fill,
    // goods only leave): the round counts them as passed.
    let mut round = s.captain.round;
    let seat = round.next(|seat| can_act(rules, s, seat));
    s.captain.round = round;
    match seat {
        Some(seat) => {
            s.current = seat;
            Flow::Continue
        }
        None => Flow::Interrupt(Interrupt::BeforeStorage),
    }
}

/// A decision when the player to move has a choice; a single load and nothing else
/// (no pass, no guest to move first) is made for the player (forced choices are never
/// asked); a player with nothing to do is skipped.
pub fn step(rules: &Rules, s: &mut State) -> Flow {
    let (mut only, mut count) = (None, 0u32);
    if !s.captain.round.has_passed(s.current) {
        legal(rules, s, &mut |a| {
            count += 1;
            only.get_or_insert(a);
        });
        if let Some(ext) = rules.extension.get() {
            ext.own_turn_actions(rules, s, s.current, &mut |_| count += 1);
        }
    }
    match (count, only) {
        (0, _) => next(rules, s),
        (1, Some(a)) => play(rules, s, a),
        _ => Flow::Decide,
    }
}

pub fn begin_storage(s: &mut State) {
    s.phase = Phase::CaptainStorage;
    s.rotation = Rotation::new(s.chooser, s.player_count());
    s.current = s.chooser;
}

/// The ways to keep goods (L336, L550, L582): every barrel of up to `kinds` kinds
/// (warehouses) and the free barrel of another kind; with more loose barrels (more than
/// one free, or a storehouse) that many barrels of any other kinds. Only maximal choices
/// are offered (keeping more never costs anything here). Calls `f` for each distinct one.
fn storage_options(rules: &Rules, s: &State, seat: Seat, f: &mut impl FnMut(Action)) {
    let p = &s.players[seat];
    let held = p.goods.nonzero();
    let k = u32::from(board::storage_kinds(rules, p)).min(rules.good_count() as u32);
    let take = k.min(held.count_ones());
    let extra = if rules.has_effect(kind::EXTRA_STORAGE_BARRELS) { board::extra_storage_barrels(rules, p) } else { 0 };
    // Loose barrels of any kinds: the free ones (S000:L336) and the storehouse's, which
    // come "además de una mercancía que siempre se permite retener" (S001:L551).
    if extra > 0 || rules.free_barrels > 1 {
        let loose = u32::from(rules.free_barrels) + u32::from(extra);
        exact_options(rules, p.goods, held, take, loose, &mut |kept| f(Action::KeepExact(kept)));
        return;
    }
    if take == 0 {
        // No warehouse: one barrel of one kind each, never the same holding twice and
        // never one keeping more than another (the hot path of random playouts).
        if rules.free_barrels > 0 {
            for g in Goods(held) {
                f(Action::Keep { kinds: 0, barrel: Some(g) });
            }
        }
        if rules.free_barrels == 0 || held == 0 {
            f(Action::Keep { kinds: 0, barrel: None });
        }
        return;
    }
    // Every choice with what it keeps; then only those no other choice keeps more of
    // (S000:L336: keeping never costs anything), each holding under its first spelling.
    // At most C(n, k) masks times n − k single barrels: 60 with up to six goods, on the
    // stack; up to 280 with eight, on the heap.
    let mut small = [(Action::Pass, ByGood::<u8>::default()); 64];
    let mut large = Vec::new();
    if rules.good_count() > 6 {
        large.resize(280, (Action::Pass, ByGood::<u8>::default()));
    }
    let options: &mut [(Action, ByGood<u8>)] = if large.is_empty() { &mut small } else { &mut large };
    let mut n = 0;
    let mut add = |a: Action| {
        if let Some(slot) = options.get_mut(n) {
            *slot = (a, kept_by(rules, p.goods, a));
            n += 1;
        }
    };
    // The kinds held, in increasing order of masks (their submasks only: a mask with a
    // kind not held keeps nothing of it).
    let mut next = Some(0u8);
    while let Some(mask) = next {
        next = (mask != held).then(|| mask.wrapping_sub(held) & held);
        if mask.count_ones() != take {
            continue;
        }
        let rest = held & !mask;
        if rules.free_barrels == 0 || rest == 0 {
            add(Action::Keep { kinds: mask, barrel: None });
            continue;
        }
        for g in Good::every() {
            if rest & g.bit() != 0 {
                add(Action::Keep { kinds: mask, barrel: Some(g) });
            }
        }
    }
    let options = &options[..n];
    let covers = |a: &ByGood<u8>, b: &ByGood<u8>| Good::every().all(|g| a[g] >= b[g]);
    for (i, (a, h)) in options.iter().enumerate() {
        let dominated = options.iter().any(|(_, o)| o != h && covers(o, h));
        let earlier = options[..i].iter().any(|(_, o)| o == h);
        if !dominated && !earlier {
            f(*a);
        }
    }
}

/// The goods `have` becomes when kept per `a` (a `Keep`).
fn kept_by(rules: &Rules, have: ByGood<u8>, a: Action) -> ByGood<u8> {
    let mut h = ByGood::<u8>::default();
    if let Action::Keep { kinds, barrel } = a {
        for g in Good::every() {
            h[g] = if kinds & g.bit() != 0 {
                have[g]
            } else if barrel == Some(g) {
                have[g].min(rules.free_barrels)
            } else {
                0
            };
        }
    }
    h
}

/// Storage with extra barrels of any kinds (storehouse): every barrel of `take` kinds
/// and `loose` barrels of any kinds. The options are the final holdings, each once, and
/// only those no other option keeps more of (keeping never costs anything here).
fn exact_options(rules: &Rules, have: ByGood<u8>, held: u8, take: u32, loose: u32, f: &mut dyn FnMut(ByGood<u8>)) {
    let masks =
        || (0..(1u16 << rules.good_count())).map(|m| m as u8).filter(move |m| m & !held == 0 && m.count_ones() == take);
    let rest_total = |mask: u8| -> u32 {
        rules.goods().filter(|&g| (held & !mask) & g.bit() != 0).map(|g| u32::from(have[g])).sum()
    };
    // Whether `mask` kept whole and the rest loose gives exactly `h`.
    let gives = |mask: u8, h: &ByGood<u8>| -> bool {
        let whole = rules.goods().all(|g| mask & g.bit() == 0 || h[g] == have[g]);
        let loose_kept: u32 = rules.goods().filter(|&g| (held & !mask) & g.bit() != 0).map(|g| u32::from(h[g])).sum();
        whole && loose_kept == loose.min(rest_total(mask))
    };
    // Whether some option keeps everything `h` keeps and more.
    let dominated = |h: &ByGood<u8>| -> bool {
        masks().any(|m| {
            let need: u32 = rules.goods().filter(|&g| (held & !m) & g.bit() != 0).map(|g| u32::from(h[g])).sum();
            let short_whole = rules.goods().any(|g| m & g.bit() != 0 && h[g] < have[g]);
            let short_loose = rules.goods().any(|g| (held & !m) & g.bit() != 0 && h[g] < have[g]);
            need <= loose && (short_whole || (need < loose && short_loose))
        })
    };
    for mask in masks() {
        let left = loose.min(rest_total(mask));
        let mut cur = ByGood::<u8>::default();
        compositions(rules, &have, held & !mask, 0, left, &mut cur, &mut |b| {
            let mut h = b;
            for g in rules.goods() {
                if mask & g.bit() != 0 {
                    h[g] = have[g];
                }
            }
            // Each holding once: only from the first mask that gives it.
            if masks().find(|&m| gives(m, &h)) == Some(mask) && !dominated(&h) {
                f(h);
            }
        });
    }
}

/// Every way to take `left` barrels from the kinds in `kinds` (at most `have` of each).
fn compositions(
    rules: &Rules,
    have: &ByGood<u8>,
    kinds: u8,
    i: usize,
    left: u32,
    cur: &mut ByGood<u8>,
    f: &mut dyn FnMut(ByGood<u8>),
) {
    let Some(g) = (i < rules.good_count()).then_some(Good::at(i)) else {
        if left == 0 {
            f(*cur);
        }
        return;
    };
    if kinds & g.bit() == 0 {
        compositions(rules, have, kinds, i + 1, left, cur, f);
        return;
    }
    let later: u32 = rules.goods().skip(i + 1).filter(|&x| kinds & x.bit() != 0).map(|x| u32::from(have[x])).sum();
    let lo = left.saturating_sub(later);
    let hi = left.min(u32::from(have[g]));
    for c in lo..=hi {
        cur[g] = c as u8;
        compositions(rules, have, kinds, i + 1, left - c, cur, f);
    }
    cur[g] = 0;
}

/// Whether keeping per `a` keeps every barrel (then nobody needs to be asked).
fn keeps_all(s: &State, seat: Seat, a: Action) -> bool {
    if let Action::KeepExact(kept) = a {
        return kept == s.players[seat].goods;
    }
    let Action::Keep { kinds, barrel } = a else { return false };
    let p = &s.players[seat];
    let single = barrel.filter(|&g| p.goods[g] <= 1).map_or(0, Good::bit);
    p.goods.nonzero() & !(kinds | single) == 0
}

/// The choice made for the player when there is nothing to decide: a single option, or
/// one that keeps every barrel.
fn forced_storage(rules: &Rules, s: &State, seat: Seat) -> Option<Action> {
    if let Some(quick) = forced_storage_quick(rules, s, seat) {
        return quick;
    }
    forced_storage_listed(rules, s, seat)
}

/// [`forced_storage`] where the options need not be listed: no warehouse occupied (or
/// nothing held) and no extra barrels. Every player's storage in every playout asks, so
/// this stays apart from the listing (and its large stack frame).
#[inline]
fn forced_storage_quick(rules: &Rules, s: &State, seat: Seat) -> Option<Option<Action>> {
    let p = &s.players[seat];
    let held = p.goods.nonzero();
    if held == 0 {
        // Nothing to keep: nothing to list either.
        return Some(Some(Action::Keep { kinds: 0, barrel: None }));
    }
    // Warehouses and storehouses are asked about only when one is occupied.
    let kinds = board::occupied_kinds(rules, p);
    let extra = board::holds(kinds, EffectKind::ExtraStorageBarrels) && board::extra_storage_barrels(rules, p) > 0;
    if extra
        || rules.free_barrels > 1
        || (board::holds(kinds, EffectKind::Storage) && board::storage_kinds(rules, p) > 0)
    {
        return None;
    }
    // What `storage_options` lists here: one barrel of each kind held, or nothing. Only
    // a single kind held, or no free barrel, leaves no choice.
    if rules.free_barrels == 0 || held == 0 {
        return Some(Some(Action::Keep { kinds: 0, barrel: None }));
    }
    let first = Goods(held).next();
    Some((held.count_ones() == 1).then_some(Action::Keep { kinds: 0, barrel: first }))
}

/// [`forced_storage`] by listing the options.
#[inline(never)]
fn forced_storage_listed(rules: &Rules, s: &State, seat: Seat) -> Option<Action> {
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

pub fn play_storage(rules: &Rules, s: &mut State, a: Action) -> Flow {
    keep(rules, s, s.current, a);
    next_storage(s)
}

fn keep(rules: &Rules, s: &mut State, seat: Seat, a: Action) {
    if let Action::KeepExact(kept) = a {
        for g in Good::every() {
            let spoiled = s.players[seat].goods[g].saturating_sub(kept[g]);
            transfer(&mut s.players[seat].goods, &mut s.goods_supply, g.index(), u32::from(spoiled));
        }
        return;
    }
    let Action::Keep { kinds, barrel } = a else { return };
    // Only the goods held can spoil (the others would move nothing).
    for g in s.players[seat].goods.present() {
        let have = s.players[seat].goods[g];
        let kept = if kinds & g.bit() != 0 {
            have
        } else if barrel == Some(g) {
            have.min(rules.free_barrels)
        } else {
            0
        };
        transfer(&mut s.players[seat].goods, &mut s.goods_supply, g.index(), u32::from(have - kept));
    }
}

/// Players with nothing to decide keep their goods without being asked.
pub fn step_storage(rules: &Rules, s: &mut State) -> Flow {
    let seat = s.current;
    let held = s.players[seat].goods.total() > 0;
    match forced_storage(rules, s, seat) {
        Some(a) => keep(rules, s, seat, a),
        None if held => return Flow::Decide,
        None => {}
    }
    next_storage(s)
}

/// After storage the captain empties the full ships; partly loaded ones keep their cargo
/// (L338).
fn next_storage(s: &mut State) -> Flow {
    if s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
        return Flow::Continue;
    }
    let count = usize::from(s.ship_count).min(s.ships.len());
    for ship in s.ships[..count].iter_mut().filter(|x| x.is_full()) {
        ship.unload_into(&mut s.goods_supply, Good::index);
    }
    Flow::Done
}
