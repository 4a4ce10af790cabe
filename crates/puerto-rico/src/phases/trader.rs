//! Trader phase (S000:L267-304; markets L522-526, L572-576; office L564-568). Expansion
//! effect: a player's own one-good house ([`Effect::OwnTradingPost`], S001:L565-573).

use super::flow::Flow;
use crate::action::Action;
use crate::board;
use crate::effect::EffectKind;
use crate::goods::Good;
use crate::rules::{Effect, Rules, kind};
use crate::state::{Phase, State};
use rulesmith_game::cargo::transfer;
use std::ops::ControlFlow;

pub fn begin(s: &mut State) {
    s.phase = Phase::Trader;
    s.current = s.chooser;
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let _ = actions(rules, s, &mut super::generator::every(f));
}

/// Whether the player to move has an action (without listing them: the sequencer asks
/// this before every trader's turn).
pub fn any_legal(rules: &Rules, s: &State) -> bool {
    actions(rules, s, &mut super::generator::first).is_break()
}

/// Gives `f` the actions of the player to move in a stable order, until `f` breaks.
fn actions(rules: &Rules, s: &State, f: &mut impl FnMut(Action) -> ControlFlow<()>) -> ControlFlow<()> {
    let seat = s.current;
    let p = &s.players[seat];
    let spaces = rules.trading_house_spaces as usize;
    let full = s.trading_house.is_full(spaces);
    let mut any = false;
    if !full {
        // The goods held, less those already in the trading house (a bit each); the
        // office (selling duplicates) is asked for only when a held good is there.
        let held = p.goods.nonzero();
        let house = s.trading_house.spaces().iter().flatten().fold(0u8, |m, g| m | g.bit());
        let sellable =
            if held & house == 0 || !board::has(rules, p, EffectKind::SellDuplicates) { held & !house } else { held };
        for g in crate::goods::Goods(sellable) {
            f(Action::Sell(g))?;
            any = true;
        }
    }
    // The trading post takes any good, even one in the trading house, even when the
    // trading house is full (S001:L567-569).
    if rules.has_effect(kind::OWN_TRADING_POST) {
        for b in p.city.iter() {
            let post = matches!(
                rules.buildings.get(b.building as usize).map(|x| x.effect),
                Some(Effect::OwnTradingPost { .. })
            );
            if post && b.colonists > 0 {
                for g in p.goods.present() {
                    f(Action::SellPost { good: g, building: b.building })?;
                    any = true;
                }
            }
        }
    }
    if any {
        f(Action::Pass)?;
    }
    ControlFlow::Continue(())
}

/// Price + trader privilege (only when selling, L281) + markets; corn may be sold for 0 (L282).
pub fn sale_price(rules: &Rules, s: &State, seat: u8, g: Good) -> u16 {
    u16::from(rules.price[g]) + trader_privilege(rules, s, seat) + board::trade_bonus(rules, &s.players[seat])
}

fn trader_privilege(rules: &Rules, s: &State, seat: u8) -> u16 {
    if seat == s.chooser { u16::from(super::privilege::privilege(rules, s)) } else { 0 }
}

pub fn play(rules: &Rules, s: &mut State, a: Action) -> Flow {
    let seat = s.current;
    match a {
        Action::Sell(g) => {
            let price = sale_price(rules, s, seat, g);
            s.players[seat].goods[g] -= 1;
            s.players[seat].doubloons += price;
            s.trading_house.put(g);
        }
        Action::SellPost { good, building } => {
            // The normal price and the trader's privilege; markets only if the ruleset says
            // so (S001:L567, L571: they do not). The good goes to the supply.
            let markets = match rules.buildings.get(building as usize).map(|x| x.effect) {
                Some(Effect::OwnTradingPost { market_bonus: true }) => board::trade_bonus(rules, &s.players[seat]),
                _ => 0,
            };
            let price = u16::from(rules.price[good]) + trader_privilege(rules, s, seat) + markets;
            transfer(&mut s.players[seat].goods, &mut s.goods_supply, good.index(), 1);
            s.players[seat].doubloons += price;
        }
        _ => {}
    }
    next(rules, s)
}

/// The phase ends when everyone had a turn or the house is full (then only trading
/// posts still take goods); a full house is emptied into the supply, a partly filled one
/// keeps its goods (L276).
pub fn next(rules: &Rules, s: &mut State) -> Flow {
    let full = s.trading_house.is_full(usize::from(rules.trading_house_spaces));
    if (!full || rules.has_effect(kind::OWN_TRADING_POST)) && s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
        return Flow::Continue;
    }
    if full {
        s.trading_house.empty_into(&mut s.goods_supply, Good::index);
    }
    Flow::Done
}
