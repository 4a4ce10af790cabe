//! Actions and their notation (lowercase words; see the crate docs for the full list).

use crate::rules::Rules;
use rulesmith_game::GameError;
use rulesmith_game::game::push_number;

/// Which trolley upgrade (REF §2.4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Track {
    Movement,
    Cargo,
}

/// One decision of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `capital 5`: choose a city as capital (setup).
    Capital(u8),
    /// `buy i-8 for 20` / `buy i-8 for 0`: buy a privilege of that type at that price.
    BuyPrivilege { kind: u8, free: bool },
    /// `no privilege`: the price token moves to the right end of the row.
    NoPrivilege,
    /// `upgrade movement` / `upgrade cargo`.
    Upgrade(Track),
    /// `no upgrade`.
    NoUpgrade,
    /// `buy resident c4`: buy one resident onto a tile.
    BuyResident(u8),
    /// `end purchase`: exhausted residents stand up; 3 D begins.
    EndPurchase,
    /// `move c4 e6`: an active resident moves along own roads (stays active).
    Move { from: u8, to: u8 },
    /// `step c4 c5`: an active resident steps onto an adjacent tile and is exhausted
    /// (or becomes a settlement there).
    Step { from: u8, to: u8 },
    /// `road c4 c5 pay 2 1 lose c4`: build a road paid by active residents, `from_a` on
    /// tile `a` and `from_b` on `b` (`a` < `b`); one of them returns to storage from
    /// tile `a` when `lose_a`, else from `b`.
    Road { a: u8, b: u8, from_a: u8, from_b: u8, lose_a: bool },
    /// `free road c4 c5`: privilege III (9).
    FreeRoad { a: u8, b: u8 },
    /// `again c4`: privilege II (11), an exhausted resident on the tile acts once more.
    Again(u8),
    /// `end residents`.
    EndResidents,
    /// `go d6`: the trolley moves to an adjacent tile.
    Go(u8),
    /// `load wheat`.
    Load(u8),
    /// `load resident`.
    LoadResident,
    /// `unload wheat` (delivered if the city here demands it).
    Unload(u8),
    /// `unload resident`.
    UnloadResident,
    /// `end trolley`: income is paid and the next player's turn begins.
    EndTrolley,
}

impl Track {
    pub fn name(self) -> &'static str {
        match self {
            Track::Movement => "movement",
            Track::Cargo => "cargo",
        }
    }
}

/// Writes the action's notation at the end of `out` (a buffer a recorded run reuses: no
/// string of its own per decision).
pub fn write(rules: &Rules, action: Action, out: &mut String) {
    // `first name`, `first name name`: the pieces most actions are made of.
    fn words(out: &mut String, first: &str, names: &[&str]) {
        out.push_str(first);
        for name in names {
            out.push(' ');
            out.push_str(name);
        }
    }
    let tile = |t: u8| rules.tile_name(t);
    match action {
        Action::Capital(c) => words(out, "capital", &[rules.cities.get(usize::from(c)).map_or("?", |c| c.id.as_str())]),
        Action::BuyPrivilege { kind, free } => {
            words(out, "buy", &[rules.privileges.get(usize::from(kind)).map_or("?", |p| p.id.as_str())]);
            out.push_str(" for ");
            push_number(out, if free { 0 } else { rules.market.price });
        }
        Action::NoPrivilege => out.push_str("no privilege"),
        Action::Upgrade(t) => words(out, "upgrade", &[t.name()]),
        Action::NoUpgrade => out.push_str("no upgrade"),
        Action::BuyResident(t) => words(out, "buy resident", &[tile(t)]),
        Action::EndPurchase => out.push_str("end purchase"),
        Action::Move { from, to } => words(out, "move", &[tile(from), tile(to)]),
        Action::Step { from, to } => words(out, "step", &[tile(from), tile(to)]),
        Action::Road { a, b, from_a, from_b, lose_a } => {
            words(out, "road", &[tile(a), tile(b)]);
            out.push_str(" pay ");
            push_number(out, from_a);
            out.push(' ');
            push_number(out, from_b);
            if rules.roads.residents_returned > 0 && from_a + from_b > 0 {
                words(out, " lose", &[tile(if lose_a { a } else { b })]);
            }
        }
        Action::FreeRoad { a, b } => words(out, "free road", &[tile(a), tile(b)]),
        Action::Again(t) => words(out, "again", &[tile(t)]),
        Action::EndResidents => out.push_str("end residents"),
        Action::Go(t) => words(out, "go", &[tile(t)]),
        Action::Load(g) => words(out, "load", &[rules.good_name(g)]),
        Action::LoadResident => out.push_str("load resident"),
        Action::Unload(g) => words(out, "unload", &[rules.good_name(g)]),
        Action::UnloadResident => out.push_str("unload resident"),
        Action::EndTrolley => out.push_str("end trolley"),
    }
}

fn bad(text: &str, reason: impl Into<String>) -> GameError {
    GameError::Unparsable { text: text.to_string(), reason: reason.into() }
}

pub fn parse(rules: &Rules, text: &str) -> Result<Action, GameError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let tile = |w: &str| -> Result<u8, GameError> {
        rules.tile_by_name(w).ok_or_else(|| bad(text, format!("unknown tile `{w}` (tiles are named like a1 … i5)")))
    };
    let good = |w: &str| -> Result<u8, GameError> {
        rules
            .good_by_name(w)
            .ok_or_else(|| bad(text, format!("unknown goods `{w}`: expected {}", rules.goods.join(", "))))
    };
    let count = |w: &str| -> Result<u8, GameError> {
        w.parse::<u8>().map_err(|_| bad(text, format!("expected a number of residents, found `{w}`")))
    };
    let action = match words.as_slice() {
        ["capital", c] => Action::Capital(rules.city_by_id(c).ok_or_else(|| bad(text, format!("unknown city `{c}`")))?),
        ["buy", "resident", t] => Action::BuyResident(tile(t)?),
        ["buy", p, "for", price] => {
            let kind = rules.privilege_by_id(p).ok_or_else(|| bad(text, format!("unknown privilege `{p}`")))?;
            let free = match price.parse::<i32>() {
                Ok(0) => true,
                Ok(x) if x == rules.market.price => false,
                _ => return Err(bad(text, format!("a privilege costs 0 or {}", rules.market.price))),
            };
            Action::BuyPrivilege { kind, free }
        }
        ["no", "privilege"] => Action::NoPrivilege,
        ["upgrade", "movement"] => Action::Upgrade(Track::Movement),
        ["upgrade", "cargo"] => Action::Upgrade(Track::Cargo),
        ["no", "upgrade"] => Action::NoUpgrade,
        ["end", "purchase"] => Action::EndPurchase,
        ["move", f, t] => Action::Move { from: tile(f)?, to: tile(t)? },
        ["step", f, t] => Action::Step { from: tile(f)?, to: tile(t)? },
        ["road", x, y, "pay", n, m, rest @ ..] => {
            let (x, y, n, m) = (tile(x)?, tile(y)?, count(n)?, count(m)?);
            let lose = match rest {
                [] => None,
                ["lose", l] => Some(tile(l)?),
                _ => return Err(bad(text, "expected `road A B pay N M lose A`")),
            };
            if lose.is_some_and(|l| l != x && l != y) {
                return Err(bad(text, "the resident lost must come from one of the road's two tiles"));
            }
            // The notation names the lower tile first; accept either order.
            let (a, b, from_a, from_b) = if x < y { (x, y, n, m) } else { (y, x, m, n) };
            Action::Road { a, b, from_a, from_b, lose_a: lose == Some(a) }
        }
        ["free", "road", x, y] => {
            let (x, y) = (tile(x)?, tile(y)?);
            Action::FreeRoad { a: x.min(y), b: x.max(y) }
        }
        ["again", t] => Action::Again(tile(t)?),
        ["end", "residents"] => Action::EndResidents,
        ["go", t] => Action::Go(tile(t)?),
        ["load", "resident"] => Action::LoadResident,
        ["load", g] => Action::Load(good(g)?),
        ["unload", "resident"] => Action::UnloadResident,
        ["unload", g] => Action::Unload(good(g)?),
        ["end", "trolley"] => Action::EndTrolley,
        _ => {
            return Err(bad(
                text,
                "expected one of: capital N, buy P for N, no privilege, upgrade movement|cargo, no upgrade, \
                 buy resident T, end purchase, move T T, step T T, road T T pay N N lose T, free road T T, \
                 again T, end residents, go T, load G|resident, unload G|resident, end trolley",
            ));
        }
    };
    Ok(action)
}
