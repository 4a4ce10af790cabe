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

use crate::goods::Good;
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
    }
}

fn building_name(rules: &Rules, b: u8) -> String {
    rules.buildings.get(b as usize).map_or_else(|| format!("building-{b}"), |b| b.id.clone())
}

fn group_name(rules: &Rules, g: Group) -> String {
    match g {
        Group::Plantation(g) => g.name().into(),
        Group::Quarry => "quarry".into(),
        Group::Building(b) => building_name(rules, b),
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
            let group = match *what {
                "quarry" => Group::Quarry,
                w => match Good::from_name(w) {
                    Some(g) => Group::Plantation(g),
                    None => Group::Building(building(w)?),
                },
            };
            Ok(Action::Place { group, count })
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
