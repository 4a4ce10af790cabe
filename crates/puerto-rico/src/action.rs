//! Actions and their notation.
//!
//! | action | notation | when |
//! |---|---|---|
//! | choose a role | `settler`, `prospector-2` (the role's id) | role selection |
//! | hacienda draw | `draw` | settler, before taking a tile |
//! | take a face-up plantation | `take corn` | settler |
//! | take a quarry | `take quarry` | settler (privilege or construction hut) |
//! | mayor's privilege colonist | `take colonist` | mayor, first |
//! | place colonists on a group | `place 2 on sugar`, `place 1 on quarry`, `place 1 on harbor` | mayor |
//! | build | `build harbor` | builder |
//! | craftsman's privilege good | `bonus sugar` | craftsman, after production |
//! | sell | `sell coffee` | trader |
//! | load a cargo ship | `ship sugar on 7` (the ship's capacity) | captain |
//! | use the wharf | `ship sugar on wharf` | captain |
//! | keep goods at the end of the captain phase | `keep sugar coffee`, `keep sugar + corn`, `keep + corn` | storage |
//! | decline (privilege, tile, building, sale, wharf) | `pass` | where declining is allowed |
//!
//! Actions of the expansion effects (only legal with such buildings in play):
//!
//! | action | notation | when |
//! |---|---|---|
//! | place a forest (tile from the stack / the face-up row) | `forest`, `forest corn` | settler (forest house) |
//! | place the hacienda's drawn tile as a plantation | `plant sugar` | settler, after `draw`, when a forest could take its place |
//! | return a component to pay the rest of a building | `return colonist from sugar`, `return colonist from san-juan`, `return indigo`, `return vp` | builder, after `build …` short of doubloons (black market) |
//! | sell in one's own trading post | `sell coffee to trading-post` (the building's id) | trader |
//! | start loading one's mixed ship | `use small-wharf` (the building's id) | captain |
//! | barrels of one good on the mixed ship | `load 3 corn` | captain, after `use …` |
//! | move a guest | `guest to library`, `guest to corn`, `guest to quarry` | start of a phase, before storage (guest house) |
//! | keep exactly these barrels | `keep 3 corn 1 sugar`, `keep nothing` | storage, with extra barrels (storehouse) |

use crate::goods::{ByGood, Good};
use crate::rules::Rules;
use rulesmith_core::GameError;
use std::fmt::Write as _;

/// A colonist group of the mayor phase, in the fixed order players fill them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    Plantation(Good),
    Quarry,
    /// A building of the player's city, by building index.
    Building(u8),
    /// The player's San Juan (colonists not on the board).
    SanJuan,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Role(u8),
    Draw,
    Take(Good),
    TakeQuarry,
    TakeColonist,
    Place {
        group: Group,
        count: u8,
    },
    Build(u8),
    Bonus(Good),
    Sell(Good),
    /// Load a cargo ship (by index into the ships).
    Ship {
        good: Good,
        ship: u8,
    },
    Wharf(Good),
    /// Keep every barrel of the kinds in `kinds` (bit per good) and one barrel of `barrel`.
    Keep {
        kinds: u8,
        barrel: Option<Good>,
    },
    Pass,
    /// Place a forest: a plantation tile face down, from the stack (`None`, or the tile
    /// drawn with the hacienda) or from the face-up row.
    Forest(Option<Good>),
    /// Place the tile drawn with the hacienda as a plantation.
    Plant(Good),
    /// Return a colonist (from this group) to pay for a building.
    ReturnColonist(Group),
    /// Return a good to pay for a building.
    ReturnGood(Good),
    /// Return a VP to pay for a building.
    ReturnVp,
    /// Sell a good in one's own trading post (building index).
    SellPost {
        good: Good,
        building: u8,
    },
    /// Start loading one's mixed ship (building index).
    Use(u8),
    /// Put this many barrels of a good on the mixed ship.
    Load {
        good: Good,
        count: u8,
    },
    /// A move of the ruleset's extension ([`crate::extension`]; the expansion's guests), by
    /// the extension's code.
    Extension(u16),
    /// Keep exactly these barrels at the end of the captain phase.
    KeepExact(ByGood<u8>),
}

pub fn format(rules: &Rules, ship_capacities: &[u8], a: Action) -> String {
    match a {
        Action::Role(r) => rules.roles.get(r as usize).map_or_else(|| format!("role-{r}"), |r| r.id.clone()),
        Action::Draw => "draw".into(),
        Action::Take(g) => format!("take {}", g.name()),
        Action::TakeQuarry => "take quarry".into(),
        Action::TakeColonist => "take colonist".into(),
        Action::Place { group, count } => format!("place {count} on {}", group_name(rules, group)),
        Action::Build(b) => format!("build {}", building_name(rules, b)),
        Action::Bonus(g) => format!("bonus {}", g.name()),
        Action::Sell(g) => format!("sell {}", g.name()),
        Action::Ship { good, ship } => {
            format!("ship {} on {}", good.name(), ship_capacities.get(ship as usize).copied().unwrap_or(0))
        }
        Action::Wharf(g) => format!("ship {} on wharf", g.name()),
        Action::Keep { kinds, barrel } => {
            let mut s = String::from("keep");
            for g in Good::ALL {
                if kinds & (1 << g as u8) != 0 {
                    let _ = write!(s, " {}", g.name());
                }
            }
            if let Some(b) = barrel {
                let _ = write!(s, " + {}", b.name());
            }
            s
        }
        Action::Pass => "pass".into(),
        Action::Forest(None) => "forest".into(),
        Action::Forest(Some(g)) => format!("forest {}", g.name()),
        Action::Plant(g) => format!("plant {}", g.name()),
        Action::ReturnColonist(g) => format!("return colonist from {}", group_name(rules, g)),
        Action::ReturnGood(g) => format!("return {}", g.name()),
        Action::ReturnVp => "return vp".into(),
        Action::SellPost { good, building } => format!("sell {} to {}", good.name(), building_name(rules, building)),
        Action::Use(b) => format!("use {}", building_name(rules, b)),
        Action::Load { good, count } => format!("load {count} {}", good.name()),
        Action::Extension(code) => match rules.extension.get() {
            Some(ext) => ext.format(rules, code),
            None => format!("extension-{code}"),
        },
        Action::KeepExact(kept) => {
            let mut s = String::from("keep");
            for g in Good::ALL {
                if kept[g] > 0 {
                    let _ = write!(s, " {} {}", kept[g], g.name());
                }
            }
            if kept.total() == 0 {
                s.push_str(" nothing");
            }
            s
        }
    }
}

fn building_name(rules: &Rules, b: u8) -> String {
    rules.buildings.get(b as usize).map_or_else(|| format!("building-{b}"), |b| b.id.clone())
}

/// The notation of a group (a plantation kind, `quarry`, a building id, `san-juan`).
pub fn group_name(rules: &Rules, g: Group) -> String {
    match g {
        Group::Plantation(g) => g.name().into(),
        Group::Quarry => "quarry".into(),
        Group::Building(b) => building_name(rules, b),
        Group::SanJuan => "san-juan".into(),
    }
}

/// Reads a group's notation (see [`group_name`]).
pub fn parse_group(rules: &Rules, w: &str) -> Result<Group, String> {
    match w {
        "quarry" => Ok(Group::Quarry),
        "san-juan" => Ok(Group::SanJuan),
        w => match Good::from_name(w) {
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
        Good::from_name(w).ok_or_else(|| bad(&format!("`{w}` is not a good (corn, indigo, sugar, tobacco, coffee)")))
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
        ["forest"] => Ok(Action::Forest(None)),
        ["forest", g] => Ok(Action::Forest(Some(good(g)?))),
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
                    w if !after_plus => kinds |= 1 << good(w)? as u8,
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
