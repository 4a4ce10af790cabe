//! Craftsman phase (S000:L252-262, L463-509; factory L588-592).

use crate::action::Action;
use crate::board;
use crate::goods::Good;
use crate::rules::{Effect, Rules};
use crate::state::{Phase, State};

/// Everyone produces, from the craftsman clockwise, as far as the supply lasts (L261);
/// then the craftsman may take the privilege good of a kind they produced (L256, L262).
pub fn begin(rules: &Rules, s: &mut State) {
    let n = s.player_count() as u8;
    let mut produced_by_chooser = 0u8;
    for k in 0..n {
        let seat = (s.chooser + k) % n;
        let want = board::production(rules, &s.players[seat]);
        let mut kinds = 0u8;
        let mut mask = 0u8;
        for g in Good::ALL {
            let got = want[g].min(s.goods_supply[g]);
            if got > 0 {
                s.goods_supply[g] -= got;
                s.players[seat].goods[g] += got;
                kinds += 1;
                mask |= 1 << g as u8;
            }
        }
        // Factory: by kinds actually received; the barrel count does not matter (L590).
        let bonus: u16 = board::effects(rules, &s.players[seat])
            .map(|e| match e {
                Effect::ProductionBonus { doubloons_by_kinds } => u16::from(doubloons_by_kinds[kinds.min(5) as usize]),
                _ => 0,
            })
            .sum();
        s.players[seat].doubloons += bonus;
        if k == 0 {
            produced_by_chooser = mask;
        }
    }
    s.phase = Phase::Craftsman;
    s.current = s.chooser;
    s.craftsman_kinds = produced_by_chooser;
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    if super::round::privilege(rules, s) == 0 {
        return;
    }
    let mut any = false;
    for g in Good::ALL {
        if s.craftsman_kinds & (1 << g as u8) != 0 && s.goods_supply[g] > 0 {
            f(Action::Bonus(g));
            any = true;
        }
    }
    if any {
        f(Action::Pass);
    }
}

pub fn play(rules: &Rules, s: &mut State, a: Action) {
    if let Action::Bonus(g) = a {
        let n = super::round::privilege(rules, s).min(s.goods_supply[g]);
        s.goods_supply[g] -= n;
        s.players[s.chooser].goods[g] += n;
    }
    finish(rules, s);
}

fn finish(rules: &Rules, s: &mut State) {
    s.craftsman_kinds = 0;
    super::round::end_phase(rules, s);
}

pub fn step(rules: &Rules, s: &mut State) -> bool {
    let mut any = false;
    legal(rules, s, &mut |_| any = true);
    if any {
        return true;
    }
    finish(rules, s);
    false
}
