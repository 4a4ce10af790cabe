//! Trader phase (S000:L267-304; markets L522-526, L572-576; office L564-568).

use crate::action::Action;
use crate::board;
use crate::goods::Good;
use crate::rules::{Effect, Rules};
use crate::state::State;

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let seat = s.current;
    let p = &s.players[seat];
    let spaces = rules.trading_house_spaces as usize;
    if s.trading_house_len() >= spaces {
        return;
    }
    let office = board::has(rules, p, |e| matches!(e, Effect::SellDuplicates));
    let mut any = false;
    for g in Good::ALL {
        if p.goods[g] > 0 && (office || !s.trading_house.contains(&Some(g))) {
            f(Action::Sell(g));
            any = true;
        }
    }
    if any {
        f(Action::Pass);
    }
}

/// Price + trader privilege (only when selling, L281) + markets; corn may be sold for 0 (L282).
pub fn sale_price(rules: &Rules, s: &State, seat: u8, g: Good) -> u16 {
    let privilege = if seat == s.chooser { u16::from(super::round::privilege(rules, s)) } else { 0 };
    u16::from(rules.price[g]) + privilege + board::trade_bonus(rules, &s.players[seat])
}

pub fn play(rules: &Rules, s: &mut State, a: Action) {
    let seat = s.current;
    if let Action::Sell(g) = a {
        let price = sale_price(rules, s, seat, g);
        s.players[seat].goods[g] -= 1;
        s.players[seat].doubloons += price;
        if let Some(slot) = s.trading_house.iter_mut().find(|x| x.is_none()) {
            *slot = Some(g);
        }
    }
    next(rules, s);
}

pub fn step(rules: &Rules, s: &mut State) -> bool {
    let mut any = false;
    legal(rules, s, &mut |_| any = true);
    if any {
        return true;
    }
    next(rules, s);
    false
}

/// The phase ends when everyone had a turn or the house is full; a full house is emptied
/// into the supply, a partly filled one keeps its goods (L276).
fn next(rules: &Rules, s: &mut State) {
    let full = s.trading_house_len() >= rules.trading_house_spaces as usize;
    if !full && s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
        return;
    }
    if full {
        for slot in s.trading_house.iter_mut() {
            if let Some(g) = slot.take() {
                s.goods_supply[g] += 1;
            }
        }
    }
    super::round::end_phase(rules, s);
}
