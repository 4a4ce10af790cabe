//! Actions as words and back (the table of words is in [`crate::action`]'s docs): building,
//! role and group names come from the ruleset.

use crate::action::{Action, Group};
use crate::goods::ByGood;
use crate::rules::Rules;
use rulesmith_core::GameError;
use std::fmt::Write as _;

pub fn format(rules: &Rules, ship_capacities: &[u8], a: Action) -> String {
    match a {
        Action::Role(r) => rules.roles.get(r as usize).map_or_else(|| format!("role-{r}"), |r| r.id.clone()),
        Action::Draw => "draw".into(),
        Action::Take(g) => format!("take {}", rules.good_name(g)),
        Action::TakeQuarry => "take quarry".into(),
        Action::TakeColonist => "take colonist".into(),
        Action::TakeVp => "take vp".into(),
        Action::Place { group, count } => format!("place {count} on {}", group_name(rules, group)),
        Action::Build(b) => format!("build {}", building_name(rules, b)),
        Action::Bonus(g) => format!("bonus {}", rules.good_name(g)),
        Action::Sell(g) => format!("sell {}", rules.good_name(g)),
        Action::Ship { good, ship } => {
            format!("ship {} on {}", rules.good_name(good), ship_capacities.get(ship as usize).copied().unwrap_or(0))
        }
        Action::Wharf(g) => format!("ship {} on wharf", rules.good_name(g)),
        Action::Keep { kinds, barrel } => {
            let mut s = String::from("keep");
            for g in rules.goods() {
                if kinds & g.bit() != 0 {
                    let _ = write!(s, " {}", rules.good_name(g));
                }
            }
            if let Some(b) = barrel {
                let _ = write!(s, " + {}", rules.good_name(b));
            }
            s
        }
        Action::Pass => "pass".into(),
        Action::Plant(g) => format!("plant {}", rules.good_name(g)),
        Action::ReturnColonist(g) => format!("return colonist from {}", group_name(rules, g)),
        Action::ReturnGood(g) => format!("return {}", rules.good_name(g)),
        Action::ReturnVp => "return vp".into(),
        Action::SellPost { good, building } => {
            format!("sell {} to {}", rules.good_name(good), building_name(rules, building))
        }
        Action::Use(b) => format!("use {}", building_name(rules, b)),
        Action::Load { good, count } => format!("load {count} {}", rules.good_name(good)),
        Action::Extension(code) => match rules.extension.get() {
            Some(ext) => ext.format(rules, code),
            None => format!("extension-{code}"),
        },
        Action::KeepExact(kept) => {
            let mut s = String::from("keep");
            for g in rules.goods() {
                if kept[g] > 0 {
                    let _ = write!(s, " {} {}", kept[g], rules.good_name(g));
                }
            }
            if kept.total() == 0 {
                s.push_str(" nothing");
            }
            s
        }
    }
}

/// Borrowed where it can be: a recorded run names a building at every build.
fn building_name(rules: &Rules, b: u8) -> std::borrow::Cow<'_, str> {
    rules.buildings.get(b as usize).map_or_else(|| format!("building-{b}").into(), |b| b.id.as_str().into())
}

/// The notation of a group (a plantation kind, `quarry`, a building id, `san-juan`).
pub fn group_name(rules: &Rules, g: Group) -> String {
    match g {
        Group::Plantation(g) => rules.good_name(g).into(),
        Group::Quarry => "quarry".into(),
        Group::Building(b) => building_name(rules, b).into_owned(),
        Group::SanJuan => "san-juan".into(),
    }
}

/// Reads a group's notation (see [`group_name`]).
pub fn parse_group(rules: &Rules, w: &str) -> Result<Group, String> {
    match w {
        "quarry" => Ok(Group::Quarry),
        "san-juan" => Ok(Group::SanJuan),
        w => match rules.good(w) {
            Some(g) => Ok(Group::Plantation(g)),
            None => rules
                .building_index(w)
                .map(|i| Group::Building(i as u8))
                .ok_or_else(|| format!("`{w}` is not a building of this ruleset")),
        },
    }
}

pub fn parse(rules: &Rules, ship_capacities: &[u8], text: &str) -> Result<Action, GameError> {
    let bad = |reason: &str| GameError::Unparsable { text: text.to_string(), reason: reason.to_string() };
    let words: Vec<&str> = text.split_whitespace().collect();
    let good = |w: &str| {
        rules.good(w).ok_or_else(|| {
            let names: Vec<&str> = rules.good_names().map(String::as_str).collect();
            bad(&format!("`{w}` is not a good ({})", names.join(", ")))
        })
    };
    let building = |w: &str| {
        rules.building_index(w).map(|i| i as u8).ok_or_else(|| bad(&format!("`{w}` is not a building of this ruleset")))
    };
    let group = |w: &str| parse_group(rules, w).map_err(|reason| bad(&reason));
    if let Some(read) = rules.extension.get().and_then(|ext| ext.parse(rules, &words)) {
        return read.map(Action::Extension).map_err(|reason| bad(&reason));
    }
    match words.as_slice() {
        [] => Err(bad("empty action")),
        ["pass"] => Ok(Action::Pass),
        ["draw"] => Ok(Action::Draw),
        ["take", "quarry"] => Ok(Action::TakeQuarry),
        ["take", "colonist"] => Ok(Action::TakeColonist),
        ["take", "vp"] => Ok(Action::TakeVp),
        ["take", g] => Ok(Action::Take(good(g)?)),
        ["build", b] => Ok(Action::Build(building(b)?)),
        ["bonus", g] => Ok(Action::Bonus(good(g)?)),
        ["sell", g] => Ok(Action::Sell(good(g)?)),
        ["ship", g, "on", "wharf"] => Ok(Action::Wharf(good(g)?)),
        ["ship", g, "on", cap] => {
            let good = good(g)?;
            let cap: u8 = cap.parse().map_err(|_| bad("expected a ship's capacity or `wharf` after `on`"))?;
            let ship = ship_capacities
                .iter()
                .position(|&c| c == cap)
                .ok_or_else(|| bad(&format!("there is no ship of capacity {cap} (ships: {ship_capacities:?})")))?;
            Ok(Action::Ship { good, ship: ship as u8 })
        }
        ["place", n, "on", what] => {
            let count: u8 = n.parse().map_err(|_| bad("expected a number of colonists after `place`"))?;
            Ok(Action::Place { group: group(what)?, count })
        }
        ["plant", g] => Ok(Action::Plant(good(g)?)),
        ["return", "colonist", "from", what] => Ok(Action::ReturnColonist(group(what)?)),
        ["return", "vp"] => Ok(Action::ReturnVp),
        ["return", g] => Ok(Action::ReturnGood(good(g)?)),
        ["sell", g, "to", b] => Ok(Action::SellPost { good: good(g)?, building: building(b)? }),
        ["use", b] => Ok(Action::Use(building(b)?)),
        ["load", n, g] => {
            let count: u8 = n.parse().map_err(|_| bad("expected a number of barrels after `load`"))?;
            Ok(Action::Load { good: good(g)?, count })
        }
        ["keep", "nothing"] => Ok(Action::KeepExact(ByGood::default())),
        ["keep", first, rest @ ..] if first.parse::<u8>().is_ok() => {
            let mut kept = ByGood::<u8>::default();
            let mut words = std::iter::once(*first).chain(rest.iter().copied());
            while let Some(n) = words.next() {
                let n: u8 = n.parse().map_err(|_| bad("expected `keep N GOOD [N GOOD]...`"))?;
                let g = good(words.next().ok_or_else(|| bad("expected a good after the number"))?)?;
                if kept[g] != 0 || n == 0 {
                    return Err(bad("expected each good once, with a count of 1 or more"));
                }
                kept[g] = n;
            }
            Ok(Action::KeepExact(kept))
        }
        ["keep", rest @ ..] => {
            let mut kinds = 0u8;
            let mut barrel = None;
            let mut after_plus = false;
            for w in rest {
                match *w {
                    "+" if !after_plus => after_plus = true,
                    w if after_plus && barrel.is_none() => barrel = Some(good(w)?),
                    w if !after_plus => kinds |= good(w)?.bit(),
                    _ => return Err(bad("expected `keep KIND... [+ KIND]`")),
                }
            }
            if after_plus && barrel.is_none() {
                return Err(bad("expected a good after `+`"));
            }
            Ok(Action::Keep { kinds, barrel })
        }
        [role] => rules
            .role_index(role)
            .map(|i| Action::Role(i as u8))
            .ok_or_else(|| bad("unknown action (see `rulesmith legal` for the notation)")),
        _ => Err(bad("unknown action (see `rulesmith legal` for the notation)")),
    }
}
