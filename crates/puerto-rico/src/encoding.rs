//! The action space and the observation layout of a ruleset at a player count
//! ([`rulesmith_game::encode`]). Both are derived from the ruleset: its roles (those in
//! play at the count), buildings (in ruleset order), goods, ships and setup numbers.
//!
//! **Actions**, in id order (blocks marked † only when a building of the ruleset has the
//! effect that makes them legal):
//! 1. each role in play, by ruleset order (`settler`, `prospector-2`, …);
//! 2. `draw`, `take GOOD` (goods in the ruleset's order: corn, indigo, sugar, tobacco, coffee),
//!    `take quarry`, `take colonist`, `take vp`;
//! 3. `place N on GROUP` for each group — the goods, `quarry`, then each building — and
//!    N from 0 to the group's most circles (the island's spaces for plantations and
//!    quarries, the building's circles);
//! 4. `build BUILDING` for each building; `bonus GOOD`; `sell GOOD`;
//! 5. `ship GOOD on CAPACITY` for each good and each ship of the count's setup;
//!    `ship GOOD on wharf` for each good;
//! 6. `keep KINDS [+ GOOD]`: each set of kinds (as a number with a bit per good, 0 to 31 with five goods) without, then
//!    with a single barrel of each good not in the set;
//! 7. `pass`;
//! 8. † `plant GOOD` (a drawn tile the extension lets its owner look at);
//!    † `return colonist from GROUP` (goods, `quarry`, buildings, `san-juan`),
//!    `return GOOD`, `return vp` (payment with components);
//!    † `sell GOOD to BUILDING` for each trading-post building;
//!    † `use BUILDING` for each mixed-ship building, `load N GOOD` for N from 0 to the
//!    count's barrels of the good; † the extension's moves, in its order (the
//!    expansion's: `forest`, `forest GOOD`, `guest to GROUP`);
//!    † `keep N GOOD …` for every count of each good from 0 to the count's barrels of it
//!    (loose barrels at storage: more than one free barrel, or extra storage barrels).
//!
//! **Observation** (names in parentheses; `GOOD` in good order, `ROLE` the roles in play,
//! `BUILDING` the ruleset's buildings, `N` each seat from 0):
//! `round`; one-hots `governor.seatN`, `to_move.seatN`, `chooser.seatN`,
//! `phase.PHASE`, `role.ROLE.in_progress`; per role `role.ROLE.taken`,
//! `role.ROLE.doubloons`; `colonists.supply`, `colonists.ship`, `vp_chips`,
//! `quarries.supply`, `goods.supply.GOOD`, `stack.tiles`, `stack.unseen.GOOD` (tiles
//! nobody has seen: the stack's and, when the extension holds tiles face down, theirs),
//! `face_up.GOOD`, `discards.GOOD`, `held_tiles.GOOD` (tiles the extension holds: 0 while
//! face down; the expansion calls them `forest_tiles`),
//! `building.BUILDING.supply`, `building.BUILDING.in_game`; per ship `shipK.capacity`,
//! `shipK.load`, `shipK.good.GOOD`; `trading_house.GOOD`; `end.colonists`, `end.city`,
//! `end.vp_chips`; `pending.drawn.GOOD`, `pending.settler_extra`, `pending.craftsman_picks`,
//! `pending.owed`, `pending.mixed_load.GOOD`, `craftsman_kinds.GOOD`; per seat
//! `seatN.hacienda_used`, `seatN.wharf_used`, `seatN.captain_done`, `seatN.doubloons`,
//! `seatN.vp` (the observer's own; 0 for the others: face-down chips, S000:L332),
//! `seatN.goods.GOOD`, `seatN.plantations.GOOD`, `seatN.occupied.GOOD`,
//! `seatN.quarries`, `seatN.quarries_occupied`, `seatN.extension_tiles` (the expansion:
//! `seatN.forests`), `seatN.san_juan`,
//! `seatN.building.BUILDING` (1 when built), `seatN.building.BUILDING.colonists`.

use crate::action::{Action, Group};
use crate::goods::{ByGood, Good, MAX_GOODS};
use crate::rules::{Effect, Rules, kind};
use crate::state::{END_CITY, END_COLONISTS, END_VP, Phase, State};
use rulesmith_game::Seat;
use rulesmith_game::encode::{Features, Names};

/// Every phase, in the order of the `phase.PHASE` one-hot.
const PHASES: [(Phase, &str); 15] = [
    (Phase::RoleSelection, "role_selection"),
    (Phase::Settler, "settler"),
    (Phase::MayorPrivilege, "mayor_privilege"),
    (Phase::Mayor, "mayor"),
    (Phase::Builder, "builder"),
    (Phase::BuildPayment, "build_payment"),
    (Phase::Craftsman, "craftsman"),
    (Phase::Trader, "trader"),
    (Phase::Captain, "captain"),
    (Phase::MixedShip, "mixed_ship"),
    (Phase::CaptainStorage, "captain_storage"),
    (Phase::ColonistOffer, "colonist_offer"),
    (Phase::Window, "guest_moves"),
    (Phase::GameOver, "game_over"),
    (Phase::CaptainPrivilege, "captain_privilege"),
];

fn roles_in_play(rules: &Rules, players: usize) -> impl Iterator<Item = (usize, &crate::rules::Role)> {
    rules.roles.iter().enumerate().filter(move |(_, r)| u32::from(r.players) & (1 << players) != 0)
}

fn ship_count(rules: &Rules, players: usize) -> usize {
    rules.setup.get(players).map_or(0, |s| s.ships.len())
}

fn barrels(rules: &Rules, players: usize) -> ByGood<u8> {
    rules.setup.get(players).map_or_else(ByGood::default, |s| s.barrels)
}

/// The groups colonists and guests go to: the goods, the quarries, each building.
fn groups(rules: &Rules) -> impl Iterator<Item = Group> + '_ {
    rules
        .goods()
        .map(Group::Plantation)
        .chain([Group::Quarry])
        .chain((0..rules.buildings.len()).map(|b| Group::Building(b as u8)))
}

fn buildings_with(rules: &Rules, f: fn(&Effect) -> bool) -> impl Iterator<Item = u8> + '_ {
    rules.buildings.iter().enumerate().filter(move |(_, b)| f(&b.effect)).map(|(i, _)| i as u8)
}

/// The action space (see the module docs for the order).
pub fn action_space(rules: &Rules, players: usize) -> Vec<Action> {
    let mut out = Vec::new();
    out.extend(roles_in_play(rules, players).map(|(i, _)| Action::Role(i as u8)));
    out.push(Action::Draw);
    out.extend(rules.goods().map(Action::Take));
    out.extend([Action::TakeQuarry, Action::TakeColonist, Action::TakeVp]);
    for group in groups(rules) {
        let most = match group {
            Group::Building(b) => rules.buildings.get(usize::from(b)).map_or(0, |b| b.circles),
            _ => rules.island_spaces,
        };
        out.extend((0..=most).map(|count| Action::Place { group, count }));
    }
    out.extend((0..rules.buildings.len()).map(|b| Action::Build(b as u8)));
    out.extend(rules.goods().map(Action::Bonus));
    out.extend(rules.goods().map(Action::Sell));
    for good in rules.goods() {
        out.extend((0..ship_count(rules, players)).map(|ship| Action::Ship { good, ship: ship as u8 }));
    }
    out.extend(rules.goods().map(Action::Wharf));
    for kinds in 0..(1u16 << rules.good_count()) {
        let kinds = kinds as u8;
        out.push(Action::Keep { kinds, barrel: None });
        for g in rules.goods() {
            if kinds & g.bit() == 0 {
                out.push(Action::Keep { kinds, barrel: Some(g) });
            }
        }
    }
    out.push(Action::Pass);
    let barrels = barrels(rules, players);
    if rules.extension.get().is_some_and(|ext| ext.drawn_tiles_looked_at(rules)) {
        out.extend(rules.goods().map(Action::Plant));
    }
    if rules.has_effect(kind::PAY_WITH_COMPONENTS) {
        out.extend(groups(rules).chain([Group::SanJuan]).map(Action::ReturnColonist));
        out.extend(rules.goods().map(Action::ReturnGood));
        out.push(Action::ReturnVp);
    }
    for building in buildings_with(rules, |e| matches!(e, Effect::OwnTradingPost { .. })) {
        out.extend(rules.goods().map(|good| Action::SellPost { good, building }));
    }
    let mixed: Vec<u8> = buildings_with(rules, |e| matches!(e, Effect::MixedShip { .. })).collect();
    if !mixed.is_empty() {
        out.extend(mixed.iter().map(|&b| Action::Use(b)));
        for good in rules.goods() {
            out.extend((0..=barrels[good]).map(|count| Action::Load { good, count }));
        }
    }
    if let Some(ext) = rules.extension.get() {
        out.extend(ext.codes(rules).into_iter().map(Action::Extension));
    }
    if rules.keeps_loose_barrels() {
        // Every holding: counts in good order, the last good changing fastest.
        let mut kept = ByGood::<u8>::default();
        loop {
            out.push(Action::KeepExact(kept));
            let mut i = rules.good_count();
            loop {
                if i == 0 {
                    return out;
                }
                i -= 1;
                let g = Good::at(i);
                if kept[g] < barrels[g] {
                    kept[g] += 1;
                    break;
                }
                kept[g] = 0;
            }
        }
    }
    out
}

/// The observation's names (see the module docs).
pub fn observation_names(rules: &Rules, players: usize) -> Vec<String> {
    let names: Vec<&str> = rules.good_names().map(String::as_str).collect();
    let goods = || names.iter().copied();
    let mut n = Names::default();
    n.push("round");
    for what in ["governor", "to_move", "chooser"] {
        for s in 0..players {
            n.push(format!("{what}.seat{s}"));
        }
    }
    n.each("phase", PHASES.map(|(_, name)| name));
    for (_, r) in roles_in_play(rules, players) {
        n.push(format!("role.{}.in_progress", r.id));
    }
    for (_, r) in roles_in_play(rules, players) {
        n.push(format!("role.{}.taken", r.id));
        n.push(format!("role.{}.doubloons", r.id));
    }
    for x in ["colonists.supply", "colonists.ship", "vp_chips", "quarries.supply"] {
        n.push(x);
    }
    n.each("goods.supply", goods());
    n.push("stack.tiles");
    n.each("stack.unseen", goods());
    n.each("face_up", goods());
    n.each("discards", goods());
    n.each("held_tiles", goods());
    for b in &rules.buildings {
        n.push(format!("building.{}.supply", b.id));
        n.push(format!("building.{}.in_game", b.id));
    }
    for k in 0..ship_count(rules, players) {
        n.push(format!("ship{k}.capacity"));
        n.push(format!("ship{k}.load"));
        n.each(&format!("ship{k}.good"), goods());
    }
    n.each("trading_house", goods());
    n.each("end", ["colonists", "city", "vp_chips"]);
    n.each("pending.drawn", goods());
    n.each("pending", ["settler_extra", "craftsman_picks", "owed"]);
    n.each("pending.mixed_load", goods());
    n.each("craftsman_kinds", goods());
    for s in 0..players {
        let p = format!("seat{s}");
        n.each(&p, ["hacienda_used", "wharf_used", "captain_done", "doubloons", "vp"]);
        n.each(&format!("{p}.goods"), goods());
        n.each(&format!("{p}.plantations"), goods());
        n.each(&format!("{p}.occupied"), goods());
        n.each(&p, ["quarries", "quarries_occupied", "extension_tiles", "san_juan"]);
        for b in &rules.buildings {
            n.push(format!("{p}.building.{}", b.id));
            n.push(format!("{p}.building.{}.colonists", b.id));
        }
    }
    n.into_vec()
}

fn goods(rules: &Rules, f: &mut Features<'_>, v: ByGood<u8>) {
    for (x, g) in f.block(rules.good_count()).iter_mut().zip(v.0) {
        *x = f32::from(g);
    }
}

fn good_mask(rules: &Rules, f: &mut Features<'_>, mask: u8) {
    for (x, g) in f.block(rules.good_count()).iter_mut().zip(rules.goods()) {
        *x = f32::from(u8::from(mask & g.bit() != 0));
    }
}

/// The stack's tiles of each good ([`crate::state::Stack::counts`]), counted in a byte lane
/// per good of one word: an add a tile in a register, where an increment in memory waits for
/// the last one to the same good. The stack holds at most `MAX_PLANTATIONS` (96) tiles:
/// no lane carries into the next.
fn stack_counts(s: &State) -> ByGood<u8> {
    let mut lanes = 0u64;
    for g in s.stack.as_slice() {
        lanes += 1 << (8 * (g.index() % MAX_GOODS));
    }
    ByGood(lanes.to_le_bytes())
}

/// Writes `seat`'s observation of `s` (see the module docs).
pub fn observe(rules: &Rules, s: &State, seat: Seat, f: &mut Features<'_>) {
    let players = s.player_count();
    f.push(s.round);
    // The seat and phase one-hots, cleared at once.
    f.clear_ahead(3 * players + PHASES.len());
    let to_move = (s.phase != Phase::GameOver).then_some(usize::from(s.current));
    f.one_hot(players, Some(usize::from(s.governor)));
    f.one_hot(players, to_move);
    f.one_hot(players, Some(usize::from(s.chooser)));
    f.one_hot(PHASES.len(), PHASES.iter().position(|(p, _)| *p == s.phase));
    let selecting = matches!(s.phase, Phase::RoleSelection | Phase::GameOver);
    for (i, _) in roles_in_play(rules, players) {
        f.flag(!selecting && usize::from(s.role) == i);
    }
    for (i, _) in roles_in_play(rules, players) {
        f.flag(s.roles.taken() & (1 << i) != 0);
        f.push(s.roles.coins().get(i).copied().unwrap_or(0));
    }
    f.push(s.colonist_supply);
    f.push(s.colonist_ship);
    f.push(s.vp_chips);
    f.push(s.quarry_supply);
    goods(rules, f, s.goods_supply);
    // The stack's order and, when the extension's tiles lie face down (forests), their
    // goods are hidden: only how many tiles of each good nobody has seen (as the seat's
    // view shows).
    let hidden = crate::board::hidden_held_tiles(rules, s);
    let mut unseen = stack_counts(s);
    if hidden {
        for g in rules.goods() {
            unseen[g] += s.held_tiles[g];
        }
    }
    f.push(s.stack.len);
    goods(rules, f, unseen);
    goods(rules, f, s.face_up);
    goods(rules, f, s.discards);
    goods(rules, f, if hidden { ByGood::default() } else { s.held_tiles });
    for (i, pair) in f.block(2 * rules.buildings.len()).chunks_exact_mut(2).enumerate() {
        pair[0] = f32::from(s.buildings.get(i).copied().unwrap_or(0));
        pair[1] = f32::from(u8::from(s.in_game(i)));
    }
    f.clear_ahead(ship_count(rules, players) * (2 + rules.good_count()));
    f.clear_ahead(ship_count(rules, players) * (2 + rules.good_count()));
    for k in 0..ship_count(rules, players) {
        let ship = s.ships().get(k).copied().unwrap_or_default();
        f.push(ship.capacity());
        f.push(ship.load());
        f.one_hot(rules.good_count(), ship.good().map(Good::index));
    }
    let mut house = ByGood::<u8>::default();
    for g in s.trading_house.spaces().iter().flatten() {
        house[*g] += 1;
    }
    goods(rules, f, house);
    for bit in [END_COLONISTS, END_CITY, END_VP] {
        f.flag(s.end_triggers & bit != 0);
    }
    f.one_hot(rules.good_count(), s.pending.settler.drawn.map(Good::index));
    f.push(s.pending.settler.settler_extra);
    f.push(s.pending.craftsman.craftsman_picks);
    f.push(s.pending.payment.owed);
    goods(rules, f, s.pending.mixed.mixed_load);
    good_mask(rules, f, s.craftsman.kinds);
    // Each seat's features as one block: a head, then its buildings (cleared, then the
    // dozen at most it built).
    let nb = rules.buildings.len();
    let n = rules.good_count().min(MAX_GOODS);
    let head_len = 5 + 3 * n + 4;
    let loading = matches!(s.phase, Phase::Captain | Phase::MixedShip | Phase::CaptainPrivilege);
    for (i, p) in s.players.iter().enumerate() {
        let bit = 1 << i;
        let block = f.block(head_len + 2 * nb);
        let Some((head, city)) = block.split_at_mut_checked(head_len) else {
            // The buffer ends within the head (shorter than the layout): nothing of this
            // seat or after it fits whole; what does is left at 0.
            continue;
        };
        head[0] = f32::from(u8::from(s.settler.hacienda_used & bit != 0));
        head[1] = f32::from(u8::from(s.captain.wharf_used & bit != 0));
        // Each seat's own flag (it read the observer's for every seat before).
        head[2] = f32::from(u8::from(loading && s.captain.round.has_passed(i as Seat)));
        head[3] = f32::from(p.doubloons);
        head[4] = if i == usize::from(seat) { f32::from(p.vp) } else { 0.0 };
        let (goods, rest) = head[5..].split_at_mut(n);
        let (plantations, rest) = rest.split_at_mut(n);
        let (occupied, tail) = rest.split_at_mut(n);
        for (k, ((x, y), z)) in goods.iter_mut().zip(plantations.iter_mut()).zip(occupied.iter_mut()).enumerate() {
            let g = Good::at(k);
            *x = f32::from(p.goods[g]);
            *y = f32::from(p.plantations[g]);
            *z = f32::from(p.plantations_occupied[g]);
        }
        tail.copy_from_slice(&[
            f32::from(p.quarries),
            f32::from(p.quarries_occupied),
            f32::from(p.extension_tiles),
            f32::from(p.san_juan),
        ]);
        city.fill(0.0);
        for c in p.city.iter() {
            let b = 2 * usize::from(c.building);
            if let Some([built, colonists]) = city.get_mut(b..b + 2) {
                *built = 1.0;
                *colonists = f32::from(c.colonists);
            }
        }
    }
}
