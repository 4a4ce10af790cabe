//! Builder phase (S000:L200-244, L451-457; university L596-600). Expansion effects:
//! the extension's tiles (forests) lower costs (in [`board::build_cost`]), paying a shortfall with returned
//! components ([`Effect::PayWithComponents`], S001:L537-545), VP by the new building's
//! column ([`Effect::BuildVpByColumn`], S001:L577).

use super::flow::{Flow, Interrupt};
use crate::action::{Action, Group};
use crate::board;
use crate::effect::EffectKind;
use crate::goods::Good;
use crate::phase::Payment;
use crate::rules::{Effect, Rules};
use crate::state::{END_CITY, Offer, Phase, State};
use rulesmith_game::Seat;
use rulesmith_game::cargo::transfer;
use std::ops::ControlFlow;

pub fn begin(s: &mut State) {
    s.phase = Phase::Builder;
    s.current = s.chooser;
}

fn privilege(rules: &Rules, s: &State, seat: Seat) -> u8 {
    if seat == s.chooser { super::privilege::privilege(rules, s) } else { 0 }
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let _ = actions(rules, s, &mut super::generator::every(f));
}

/// Whether the player to move has an action (without listing them: the sequencer asks
/// this before every builder's turn, and the first affordable building answers it).
pub fn any_legal(rules: &Rules, s: &State) -> bool {
    actions(rules, s, &mut super::generator::first).is_break()
}

/// Gives `f` the actions of the player to move in a stable order, until `f` breaks.
fn actions(rules: &Rules, s: &State, f: &mut impl FnMut(Action) -> ControlFlow<()>) -> ControlFlow<()> {
    let seat = s.current;
    let p = &s.players[seat];
    // The spaces the city uses and the buildings it has, in one pass.
    let (used, owned) = p.city.iter().fold((0u8, 0u64), |(used, owned), b| {
        (used + rules.table.get(b.building).spaces, owned | (1u64 << (b.building & 63)))
    });
    let free = rules.city_spaces.saturating_sub(used);
    let discount = privilege(rules, s, seat);
    // Short of doubloons, returned components may pay the rest (S001:L539-541).
    let raise = board::payment_capacity(rules, p);
    let budget = p.doubloons + raise;
    // Discounts that do not depend on the building, worked out once.
    let off = discount.saturating_add(board::extension_discount(rules, p));
    // Legality as masks: the buildings left on the board, not owned (one of each per
    // player, L453), fitting the free spaces (large ones need two, L455) and affordable,
    // each a bit per building, read from the ruleset's tables in a few words.
    let mut open = rules.table.fitting(free)
        & !owned
        & rules.table.affordable(p.quarries_occupied, off, budget)
        & s.buildings_left(rules.buildings.len());
    let any = open != 0;
    while open != 0 {
        let i = open.trailing_zeros();
        open &= open - 1;
        f(Action::Build(i as u8))?;
    }
    if any {
        f(Action::Pass)?;
    }
    ControlFlow::Continue(())
}

pub fn play(rules: &Rules, s: &mut State, a: Action) -> Flow {
    let seat = s.current;
    if let Action::Build(b) = a {
        let cost = board::build_cost(rules, &s.players[seat], b as usize, privilege(rules, s, seat));
        let have = s.players[seat].doubloons;
        if cost > have {
            // Every doubloon goes, and exactly the shortfall is returned: no money may be
            // kept after building (S001:L541-543).
            s.players[seat].doubloons = 0;
            let owed = (cost - have).min(u16::from(u8::MAX)) as u8;
            s.pending.payment = Payment { build: Some(b), owed, ..Payment::default() };
            s.phase = Phase::BuildPayment;
            return Flow::Continue;
        }
        s.players[seat].doubloons -= cost;
        return complete(rules, s, seat, b);
    }
    next(rules, s)
}

/// The building joins the player's city; the turn ends (after a university's offer).
fn complete(rules: &Rules, s: &mut State, seat: Seat, b: u8) -> Flow {
    let column = rules.buildings.get(b as usize).map_or(0, |x| x.column);
    // The effects occupied before this building joins the city, in one walk of it.
    let kinds = board::occupied_kinds(rules, &s.players[seat]);
    // VP by the new building's column, from a building occupied before this one was
    // built: never for building it itself, even with a university (S001:L577).
    if board::holds(kinds, EffectKind::BuildVpByColumn) {
        let vp: u16 = board::effects(rules, &s.players[seat])
            .map(|e| match *e {
                Effect::BuildVpByColumn { vp_by_column } if column > 0 => {
                    u16::from(vp_by_column[usize::from(column - 1).min(vp_by_column.len() - 1)])
                }
                _ => 0,
            })
            .sum();
        if vp > 0 {
            super::supply::award_vp(rules, s, seat, vp, crate::role_kind::RoleKind::Builder);
        }
    }
    s.buildings[b as usize] -= 1;
    let university = board::holds(kinds, EffectKind::ColonistOnNewBuilding);
    s.players[seat].city.insert(b, 0);
    // University: the owner *may* take one colonist from the supply, else the ship
    // (L598-600); a building with no circle sends it to San Juan (statue, S001:L630).
    if board::city_spaces_used(rules, &s.players[seat]) >= rules.city_spaces {
        s.end_triggers |= END_CITY;
    }
    if university {
        let circles = rules.buildings.get(b as usize).map_or(0, |x| x.circles);
        let to = if circles > 0 { Offer::Building(b) } else { Offer::SanJuan };
        return Flow::Interrupt(Interrupt::ColonistOffer(to));
    }
    next(rules, s)
}

/// The turn is over: the next player, or the end of the phase.
pub fn next(_rules: &Rules, s: &mut State) -> Flow {
    if s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
        Flow::Continue
    } else {
        Flow::Done
    }
}

// Paying with returned components: colonists first, then goods, then VP, each in a fixed
// order of sources, so that every way to pay is one sequence of decisions.

/// Colonist sources in order: San Juan, plantations by good, quarries, city buildings.
fn colonist_source(rules: &Rules, p: &crate::state::Player, i: u8) -> Option<(Group, u8)> {
    let (i, goods) = (usize::from(i), rules.good_count());
    match i {
        0 => Some((Group::SanJuan, p.san_juan)),
        _ if i <= goods => {
            let g = Good::at(i - 1);
            Some((Group::Plantation(g), p.plantations_occupied[g]))
        }
        _ if i == goods + 1 => Some((Group::Quarry, p.quarries_occupied)),
        _ => {
            let b = p.city.as_slice().get(i - goods - 2)?;
            // Never the colonist of the building that takes the returns (S001:L545).
            let payer = matches!(
                rules.buildings.get(b.building as usize).map(|x| x.effect),
                Some(Effect::PayWithComponents { .. })
            );
            Some((Group::Building(b.building), if payer { 0 } else { b.colonists }))
        }
    }
}

/// How many colonist sources the player has (see [`colonist_source`]).
fn sources(rules: &Rules, p: &crate::state::Player) -> u8 {
    rules.good_count() as u8 + 2 + p.city.len
}

/// What can still be raised after the current stage: goods and VP after colonists, VP
/// after goods.
fn raise_after(rules: &Rules, s: &State, stage: u8) -> u32 {
    let p = &s.players[s.current];
    let [_, goods, vp] = board::payment_limits(rules, p);
    let g = u32::from(goods).min(p.goods.total());
    let v = u32::from(vp).min(u32::from(p.vp));
    match stage {
        0 => g + v,
        1 => v,
        _ => 0,
    }
}

pub fn legal_payment(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let p = &s.players[s.current];
    let limits = board::payment_limits(rules, p);
    let pending = &s.pending;
    if pending.payment.owed == 0 {
        return;
    }
    let owed = u32::from(pending.payment.owed);
    let stage = pending.payment.pay_stage.min(2);
    let left = u32::from(limits[usize::from(stage)].saturating_sub(pending.payment.pay_count));
    let later = raise_after(rules, s, stage);
    // A return is offered only if the rest can still be paid after it (returns go in
    // source order, so a source passed over is not available again).
    let feasible = |from_here: u32| left > 0 && from_here > 0 && owed - 1 <= (left - 1).min(from_here - 1) + later;
    match stage {
        0 => {
            let end = sources(rules, p);
            for i in pending.payment.pay_last..end {
                let Some((g, n)) = colonist_source(rules, p, i) else { continue };
                let from_here: u32 =
                    (i..end).filter_map(|j| colonist_source(rules, p, j)).map(|(_, n)| u32::from(n)).sum();
                if n > 0 && feasible(from_here) {
                    f(Action::ReturnColonist(g));
                }
            }
        }
        1 => {
            for (i, g) in rules.goods().enumerate().skip(usize::from(pending.payment.pay_last)) {
                let from_here: u32 = rules.goods().skip(i).map(|x| u32::from(p.goods[x])).sum();
                if p.goods[g] > 0 && feasible(from_here) {
                    f(Action::ReturnGood(g));
                }
            }
        }
        _ => {
            if left > 0 && p.vp > 0 {
                f(Action::ReturnVp);
            }
        }
    }
    if stage < 2 && owed <= later {
        f(Action::Pass);
    }
}

pub fn play_payment(rules: &Rules, s: &mut State, a: Action) -> Flow {
    let seat = s.current;
    let source = |s: &State, g: Group| -> u8 {
        let p = &s.players[seat];
        (0..sources(rules, p)).find(|&i| colonist_source(rules, p, i).is_some_and(|(x, _)| x == g)).unwrap_or(0)
    };
    match a {
        Action::ReturnColonist(g) => {
            let at = source(s, g);
            let p = &mut s.players[seat];
            match g {
                Group::SanJuan => p.san_juan -= 1,
                Group::Plantation(good) => p.plantations_occupied[good] -= 1,
                Group::Quarry => p.quarries_occupied -= 1,
                Group::Building(b) => {
                    if let Some(x) = p.city.iter_mut().find(|x| x.building == b) {
                        x.colonists -= 1;
                    }
                }
            }
            s.colonist_supply += 1;
            paid(s, at);
        }
        Action::ReturnGood(g) => {
            transfer(&mut s.players[seat].goods, &mut s.goods_supply, g.index(), 1);
            paid(s, g.index() as u8);
        }
        Action::ReturnVp => {
            super::supply::return_vp(rules, s, seat);
            paid(s, 0);
        }
        _ => next_stage(s),
    }
    Flow::Continue
}

/// On to the next kind of component (colonists, goods, VP).
fn next_stage(s: &mut State) {
    let p = &mut s.pending.payment;
    p.pay_stage += 1;
    p.pay_count = 0;
    p.pay_last = 0;
}

fn paid(s: &mut State, source: u8) {
    s.pending.payment.owed -= 1;
    s.pending.payment.pay_count += 1;
    s.pending.payment.pay_last = source;
}

/// Completes the building once paid; forced choices are made for the player.
pub fn step_payment(rules: &Rules, s: &mut State) -> Flow {
    loop {
        if s.pending.payment.owed == 0 || s.pending.payment.pay_stage > 2 {
            let (seat, b) = (s.current, s.pending.payment.build);
            s.phase = Phase::Builder;
            s.pending.payment = Payment::default();
            // The state check refuses a payment without its building.
            return match b {
                Some(b) => complete(rules, s, seat, b),
                None => next(rules, s),
            };
        }
        let mut count = 0;
        let mut only = Action::Pass;
        legal_payment(rules, s, &mut |a| {
            count += 1;
            only = a;
        });
        match count {
            0 => next_stage(s),
            1 => {
                play_payment(rules, s, only);
            }
            _ => return Flow::Decide,
        }
    }
}
