//! Actions as words and back (the table of words is in [`crate::action`]'s docs): building,
//! role and group names come from the ruleset.

use crate::action::{Action, Group};
use crate::goods::ByGood;
use crate::rules::Rules;
use rulesmith_game::GameError;
use rulesmith_game::game::push_number;

/// Writes the action's notation at the end of `out` (a buffer a recorded run reuses: no
/// string of its own per decision).
pub fn write(rules: &Rules, ship_capacities: &[u8], a: Action, out: &mut String) {
    let good = |out: &mut String, g| out.push_str(rules.good_name(g));
    match a {
        Action::Role(r) => match rules.roles.get(r as usize) {
            Some(role) => out.push_str(&role.id),
            None => {
                out.push_str("role-");
                push_number(out, r);
            }
        },
        Action::Draw => out.push_str("draw"),
        Action::Take(g) => {
            out.push_str("take ");
            good(out, g);
        }
        Action::TakeQuarry => out.push_str("take quarry"),
        Action::TakeColonist => out.push_str("take colonist"),
        Action::TakeVp => out.push_str("take vp"),
        Action::Place { group, count } => {
            out.push_str("place ");
            push_number(out, count);
            out.push_str(" on ");
            write_group(rules, group, out);
        }
        Action::Build(b) => {
            out.push_str("build ");
            write_building(rules, b, out);
        }
        Action::Bonus(g) => {
            out.push_str("bonus ");
            good(out, g);
        }
        Action::Sell(g) => {
            out.push_str("sell ");
            good(out, g);
        }
        Action::Ship { good: g, ship } => {
            out.push_str("ship ");
            good(out, g);
            out.push_str(" on ");
            push_number(out, ship_capacities.get(ship as usize).copied().unwrap_or(0));
        }
        Action::Wharf(g) => {
            out.push_str("ship ");
            good(out, g);
            out.push_str(" on wharf");
        }
        Action::Keep { kinds, barrel } => {
            out.push_str("keep");
            for g in rules.goods() {
                if kinds & g.bit() != 0 {
                    out.push(' ');
                    good(out, g);
                }
            }
            if let Some(b) = barrel {
                out.push_str(" + ");
                good(out, b);
            }
        }
        Action::Pass => out.push_str("pass"),
        Action::Plant(g) => {
            out.push_str("plant ");
            good(out, g);
        }
        Action::ReturnColonist(g) => {
            out.push_str("return colonist from ");
            write_group(rules, g, out);
        }
        Action::ReturnGood(g) => {
            out.push_str("return ");
            good(out, g);
        }
        Action::ReturnVp => out.push_str("return vp"),
        Action::SellPost { good: g, building } => {
            out.push_str("sell ");
            good(out, g);
            out.push_str(" to ");
            write_building(rules, building, out);
        }
        Action::Use(b) => {
            out.push_str("use ");
            write_building(rules, b, out);
        }
        Action::Load { good: g, count } => {
            out.push_str("load ");
            push_number(out, count);
            out.push(' ');
            good(out, g);
        }
        Action::Extension(code) => match rules.extension.get() {
            Some(ext) => ext.write(rules, code, out),
            None => {
                out.push_str("extension-");
                push_number(out, code);
            }
        },
        Action::KeepExact(kept) => {
            out.push_str("keep");
            for g in rules.goods() {
                if kept[g] > 0 {
                    out.push(' ');
                    push_number(out, kept[g]);
                    out.push(' ');
                    good(out, g);
                }
            }
            if kept.total() == 0 {
                out.push_str(" nothing");
            }
        }
    }
}

fn write_building(rules: &Rules, b: u8, out: &mut String) {
    match rules.buildings.get(b as usize) {
        Some(x) => out.push_str(&x.id),
        None => {
            out.push_str("building-");
            push_number(out, b);
        }
    }
}

/// Writes the notation of a group (a plantation kind, `quarry`, a building id, `san-juan`)
/// at the end of `out`.
pub fn write_group(rules: &Rules, g: Group, out: &mut String) {
    match g {
        Group::Plantation(g) => out.push_str(rules.good_name(g)),
        Group::Quarry => out.push_str("quarry"),
        Group::Building(b) => write_building(rules, b, out),
        Group::SanJuan => out.push_str("san-juan"),
    }
}

/// Reads a group's notation (see [`write_group`]).
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
