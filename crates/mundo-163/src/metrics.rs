//! Designer metrics of Mundo 163.
//!
//! | group | name | figures | how |
//! |---|---|---|---|
//! | `privilege` | each privilege type's id | bought share, bought per game, mean round, owner / non-owner win share | `buy …` decisions (at a price or free) |
//! | `roads` | `roads` | built per game | the roads on the board at the end |
//! | `roads` | `free roads` | built per game | `free road …` decisions (privilege) |
//! | `delivery` | each good | delivered per game | the goods delivered, from the final state |
//! | `money` | `income` | money per game | money gained in every decision that gains money (deliveries' income) |
//! | `money` | `privileges`, `residents`, `upgrades` | money per game | money spent on each (negative) |
//! | `money` | `other` | money per game | money lost in every other decision |

use crate::action::Action;
use crate::rules::Rules;
use crate::state::State;
use rulesmith_game::metrics::{MetricDef, MetricSheet, SCRATCH};

/// Scratch cells: which money source the decision is, then each seat's money before it.
const SOURCE: usize = 0;
const MONEY_BEFORE: usize = 1;
const MONEY: [&str; 5] = ["income", "privileges", "residents", "upgrades", "other"];

fn roads_base(r: &Rules) -> usize {
    r.privileges.len()
}

fn delivery_base(r: &Rules) -> usize {
    roads_base(r) + 2
}

fn money_base(r: &Rules) -> usize {
    delivery_base(r) + r.goods.len()
}

pub(crate) fn list(r: &Rules) -> Vec<MetricDef> {
    let mut d: Vec<MetricDef> =
        r.privileges.iter().map(|p| MetricDef::event("privilege", &p.id, "bought", "owner")).collect();
    d.push(MetricDef::count("roads", "roads", "built"));
    d.push(MetricDef::count("roads", "free roads", "built"));
    d.extend(r.goods.iter().map(|g| MetricDef::count("delivery", g, "delivered")));
    d.extend(MONEY.iter().map(|m| MetricDef::count("money", m, "money")));
    d
}

pub(crate) fn count(r: &Rules) -> usize {
    money_base(r) + MONEY.len()
}

/// Records a decision before it is applied. Only purchases and the turn's income
/// (`end trolley`) change money: for those it keeps each seat's money and says that the
/// after hook must see the result; every other decision is done here.
#[inline]
pub(crate) fn decision(r: &Rules, s: &State, a: Action, m: &mut MetricSheet) -> bool {
    let seat = usize::from(s.current);
    m.scratch[SOURCE] = match a {
        Action::BuyPrivilege { kind, .. } => {
            m.event(seat, usize::from(kind), s.round);
            1
        }
        Action::BuyResident(_) => 2,
        Action::Upgrade(_) => 3,
        Action::EndTrolley => 0,
        Action::FreeRoad { .. } => {
            m.add(seat, roads_base(r) + 1, 1);
            return false;
        }
        _ => return false,
    };
    for (p, player) in s.p.iter().enumerate().take(SCRATCH - MONEY_BEFORE) {
        m.scratch[MONEY_BEFORE + p] = i64::from(player.money);
    }
    true
}

#[inline]
pub(crate) fn applied(r: &Rules, s: &State, m: &mut MetricSheet) {
    let base = money_base(r);
    for (p, player) in s.p.iter().enumerate().take(SCRATCH - MONEY_BEFORE) {
        let change = i64::from(player.money) - m.scratch[MONEY_BEFORE + p];
        // A purchase costs its buyer; anything else gained is income, lost is other.
        let source = match m.scratch[SOURCE] {
            _ if change > 0 => 0,
            k @ 1..=3 => k as usize,
            _ => 4,
        };
        if change != 0 {
            m.add(p, base + source, change);
        }
    }
}

pub(crate) fn end(r: &Rules, s: &State, m: &mut MetricSheet) {
    for (p, player) in s.p.iter().enumerate() {
        let roads: u32 = player.roads.iter().map(|w| w.count_ones()).sum();
        m.add(p, roads_base(r), i64::from(roads));
        for (g, &n) in player.delivered.iter().enumerate().take(r.goods.len()) {
            m.add(p, delivery_base(r) + g, i64::from(n));
        }
    }
}
