//! Craftsman phase (S000:L252-262, L463-509; factory L588-592). Expansion effects: more
//! barrels from normal production buildings ([`Effect::ProductionPerNormalPlant`],
//! S001:L507-513), doubloons for the most produced good
//! ([`Effect::DoubloonsByTopProduction`], S001:L600-604), and a doubled privilege taken
//! as separate picks (library, S001:L614).

pub mod production;

use super::flow::Flow;
use crate::action::Action;
use crate::board;
use crate::effect::EffectKind;
use crate::goods::{ByGood, Good};
use crate::rules::{BuildingKind, Effect, Rules};
use crate::state::{Phase, Player, State};
use rulesmith_game::cargo::transfer;
use rulesmith_game::steps::clockwise;

/// Everyone produces, from the craftsman clockwise, as far as the supply lasts (L261);
/// then the craftsman may take the privilege good of a kind they produced (L256, L262).
pub fn begin(rules: &Rules, s: &mut State) {
    let mut produced_by_chooser = 0u8;
    for seat in clockwise(s.chooser, s.player_count()) {
        let want = board::production(rules, &s.players[seat]);
        let mut kinds = 0u8;
        let mut mask = 0u8;
        let mut received = ByGood::<u8>::default();
        // Only the goods the player makes (the others would move nothing).
        for g in want.present() {
            let got = transfer(&mut s.goods_supply, &mut s.players[seat].goods, g.index(), u32::from(want[g])) as u8;
            if got > 0 {
                received[g] = got;
                kinds += 1;
                mask |= g.bit();
            }
        }
        // The effects of the player's occupied buildings, a bit per kind: what the
        // buildings below look for is asked of them only when they are there.
        let occupied = board::occupied_kinds(rules, &s.players[seat]);
        // Aqueduct: one more of a good produced, if a normal production building of it is
        // occupied; the produced barrel is counted as that building's (chosen default).
        if board::holds(occupied, EffectKind::ProductionPerNormalPlant) {
            let before = s.players[seat];
            for e in board::effects(rules, &before) {
                if let Effect::ProductionPerNormalPlant { goods, extra } = *e {
                    for g in rules.goods() {
                        if goods & g.bit() != 0 && received[g] > 0 && normal_plant(rules, &before, g) {
                            let more =
                                transfer(&mut s.goods_supply, &mut s.players[seat].goods, g.index(), u32::from(extra));
                            received[g] += more as u8;
                        }
                    }
                }
            }
        }
        // Factory: by kinds actually received; the barrel count does not matter (L590).
        if board::holds(occupied, EffectKind::ProductionBonus) {
            let bonus: u16 = board::effects(rules, &s.players[seat])
                .map(|e| match e {
                    Effect::ProductionBonus { doubloons_by_kinds } => u16::from(doubloons_by_kinds[usize::from(kinds)]),
                    _ => 0,
                })
                .sum();
            s.players[seat].doubloons += bonus;
        }
        if seat == s.chooser {
            produced_by_chooser = mask;
            s.pending.craftsman.craftsman_produced = received;
        } else if board::holds(occupied, EffectKind::DoubloonsByTopProduction) {
            s.players[seat].doubloons += top_production_bonus(rules, &s.players[seat], received);
        }
    }
    s.phase = Phase::Craftsman;
    s.current = s.chooser;
    s.craftsman.kinds = produced_by_chooser;
    // A doubled privilege is that many separate picks, of one kind or of different kinds
    // (S001:L614).
    s.pending.craftsman.craftsman_picks =
        if super::privilege::card_privilege(rules, s) > 0 { super::privilege::privilege_factor(rules, s) } else { 0 };
}

/// Whether the player has an occupied normal (not small) production building of `g`.
fn normal_plant(rules: &Rules, p: &Player, g: Good) -> bool {
    p.city.iter().any(|b| {
        b.colonists > 0
            && matches!(
                rules.buildings.get(b.building as usize).map(|x| x.kind),
                Some(BuildingKind::Production { good, small: false }) if good == g
            )
    })
}

/// Specialty factory: the most barrels received of one good (some goods left out),
/// less a number, in doubloons (S001:L600-604).
fn top_production_bonus(rules: &Rules, p: &Player, received: ByGood<u8>) -> u16 {
    board::effects(rules, p)
        .map(|e| match *e {
            Effect::DoubloonsByTopProduction { minus, exclude } => {
                let top = rules.goods().filter(|&g| exclude & g.bit() == 0).map(|g| received[g]).max();
                u16::from(top.unwrap_or(0).saturating_sub(minus))
            }
            _ => 0,
        })
        .sum()
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    if s.pending.craftsman.craftsman_picks == 0 || super::privilege::card_privilege(rules, s) == 0 {
        return;
    }
    let mut any = false;
    for g in Good::every() {
        if s.craftsman.kinds & g.bit() != 0 && s.goods_supply[g] > 0 {
            f(Action::Bonus(g));
            any = true;
        }
    }
    if any {
        f(Action::Pass);
    }
}

pub fn play(rules: &Rules, s: &mut State, a: Action) -> Flow {
    if let Action::Bonus(g) = a {
        let privilege = u32::from(super::privilege::card_privilege(rules, s));
        let chooser = s.chooser;
        let n = transfer(&mut s.goods_supply, &mut s.players[chooser].goods, g.index(), privilege) as u8;
        s.pending.craftsman.craftsman_produced[g] += n;
        s.pending.craftsman.craftsman_picks -= 1;
        // Further picks in good order: each set of picks is one sequence of decisions.
        s.craftsman.kinds &= !(g.bit() - 1);
        if s.pending.craftsman.craftsman_picks > 0 {
            return Flow::Continue;
        }
    }
    finish(rules, s)
}

/// The privilege is a decision while a pick is open; the phase ends after it.
pub fn step(rules: &Rules, s: &mut State) -> Flow {
    let mut any = false;
    legal(rules, s, &mut |_| any = true);
    if any { Flow::Decide } else { finish(rules, s) }
}

/// The craftsman's specialty factory counts the privilege goods too (S001:L604: 1 + 3 +
/// 1 + 2 = 7 barrels).
fn finish(rules: &Rules, s: &mut State) -> Flow {
    let chooser = s.chooser;
    if rules.has_effect(crate::rules::kind::DOUBLOONS_BY_TOP_PRODUCTION) {
        let bonus = top_production_bonus(rules, &s.players[chooser], s.pending.craftsman.craftsman_produced);
        s.players[chooser].doubloons += bonus;
    }
    s.pending.craftsman.craftsman_produced = ByGood::default();
    s.pending.craftsman.craftsman_picks = 0;
    s.craftsman.kinds = 0;
    Flow::Done
}
