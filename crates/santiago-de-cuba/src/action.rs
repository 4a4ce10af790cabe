//! Actions and their notation (see the crate docs for the full list with examples).

use crate::rules::{BuildingEffect, Rules};
use rulesmith_game::GameError;
use rulesmith_game::game::push_number;

/// One decision of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `keep aside white`: the roller leaves this die off the ship.
    KeepAside(u8),
    /// `drive 3`: move the car this many stops clockwise.
    Drive(u8),
    /// El Zorro's victim: `give peso`, `give vp`, `give sugar`.
    Give(Gift),
    /// Pablo: `take rum`.
    Take(u8),
    /// Alonso: `claim bank`.
    Claim(u8),
    /// Use a building's action (the pawn's, or an own building through Alonso):
    /// `use bank`, `use distillery 2`, ...
    Use(u8, Use),
    /// `pawn bank`: move the pawn to this building.
    Pawn(u8),
    /// `skip`: do not use the building (or Alonso, or nothing is possible).
    Skip,
    /// `deliver rum 2`.
    Deliver { good: u8, count: u8 },
    /// `deliver wood for rum 2`: a substitute good delivered for the die of `good`.
    DeliverFor { with: u8, good: u8, count: u8 },
    /// `pass`: leave the loading round for good.
    Pass,
}

/// What El Zorro's victim gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gift {
    Pesos,
    Vp,
    Good(u8),
}

/// The parameters of a building use, by effect kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Use {
    /// Gain, trade, newspaper without a flip: `use bank`.
    Plain,
    /// Convert this many: `use distillery 2`.
    Count(u8),
    /// Exchange: `use black_market sugar for rum`.
    Exchange {
        give: u8,
        get: u8,
    },
    /// Sell one of each good in the mask: `use cafe rum cigars`.
    Sell(u8),
    /// Clear this die: `use customs white`.
    Die(u8),
    /// Casino: `use casino buy 2` (pesos to VP), `use casino sell 1` (VP to pesos).
    BuyVp(u8),
    SellVp(u8),
    /// Harbour office: `use harbour_office right` / `left`.
    Right,
    Left,
    /// Deliver one good for fixed VP: `use office rum`.
    Ship(u8),
    /// Newspaper with a flip: `use newspaper flip maria`.
    Flip(u8),
}

/// Writes the action's notation at the end of `out` (a buffer a recorded run reuses: no
/// string of its own per decision).
pub fn write(rules: &Rules, a: Action, out: &mut String) {
    // `first second`: the pieces most actions are made of.
    fn words(out: &mut String, first: &str, second: &str) {
        out.push_str(first);
        out.push(' ');
        out.push_str(second);
    }
    match a {
        Action::KeepAside(d) => words(out, "keep aside", rules.die_name(d)),
        Action::Drive(n) => {
            out.push_str("drive ");
            push_number(out, n);
        }
        Action::Give(Gift::Pesos) => out.push_str("give peso"),
        Action::Give(Gift::Vp) => out.push_str("give vp"),
        Action::Give(Gift::Good(g)) => words(out, "give", rules.good_name(g)),
        Action::Take(g) => words(out, "take", rules.good_name(g)),
        Action::Claim(b) => words(out, "claim", rules.building_name(b)),
        Action::Pawn(b) => words(out, "pawn", rules.building_name(b)),
        Action::Skip => out.push_str("skip"),
        Action::Pass => out.push_str("pass"),
        Action::Deliver { good, count } => {
            words(out, "deliver", rules.good_name(good));
            out.push(' ');
            push_number(out, count);
        }
        Action::DeliverFor { with, good, count } => {
            words(out, "deliver", rules.good_name(with));
            words(out, " for", rules.good_name(good));
            out.push(' ');
            push_number(out, count);
        }
        Action::Use(b, u) => {
            words(out, "use", rules.building_name(b));
            match u {
                Use::Plain => {}
                Use::Count(n) => {
                    out.push(' ');
                    push_number(out, n);
                }
                Use::Exchange { give, get } => {
                    words(out, "", rules.good_name(give));
                    words(out, " for", rules.good_name(get));
                }
                Use::Sell(mask) => {
                    // `use cafe rum cigars`: the goods after one space each, the first after
                    // the space that follows the building (also when there is none).
                    out.push(' ');
                    let mut first = true;
                    for g in (0..rules.goods.len() as u8).filter(|g| mask & (1 << g) != 0) {
                        if !first {
                            out.push(' ');
                        }
                        first = false;
                        out.push_str(rules.good_name(g));
                    }
                }
                Use::Die(d) => words(out, "", rules.die_name(d)),
                Use::BuyVp(n) | Use::SellVp(n) => {
                    out.push_str(if matches!(u, Use::BuyVp(_)) { " buy " } else { " sell " });
                    push_number(out, n);
                }
                Use::Right => out.push_str(" right"),
                Use::Left => out.push_str(" left"),
                Use::Ship(g) => words(out, "", rules.good_name(g)),
                Use::Flip(c) => words(out, " flip", rules.citizen_name(c)),
            }
        }
    }
}

fn bad(text: &str, reason: impl Into<String>) -> GameError {
    GameError::Unparsable { text: text.to_string(), reason: reason.into() }
}

struct Reader<'a> {
    rules: &'a Rules,
    text: &'a str,
}

impl Reader<'_> {
    fn good(&self, w: &str) -> Result<u8, GameError> {
        self.rules.good_index(w).ok_or_else(|| {
            let known: Vec<&str> = self.rules.goods.iter().map(|g| g.id.as_str()).collect();
            bad(self.text, format!("unknown good `{w}` (goods: {})", known.join(", ")))
        })
    }
    fn die(&self, w: &str) -> Result<u8, GameError> {
        self.rules.die_index(w).ok_or_else(|| {
            let known: Vec<&str> = self.rules.dice.iter().map(|g| g.id.as_str()).collect();
            bad(self.text, format!("unknown die `{w}` (dice: {})", known.join(", ")))
        })
    }
    fn building(&self, w: &str) -> Result<u8, GameError> {
        self.rules.building_index(w).ok_or_else(|| {
            let known: Vec<&str> = self.rules.buildings.iter().map(|g| g.id.as_str()).collect();
            bad(self.text, format!("unknown building `{w}` (buildings: {})", known.join(", ")))
        })
    }
    fn citizen(&self, w: &str) -> Result<u8, GameError> {
        self.rules.citizen_index(w).ok_or_else(|| {
            let known: Vec<&str> = self.rules.citizens.iter().map(|g| g.id.as_str()).collect();
            bad(self.text, format!("unknown citizen `{w}` (citizens: {})", known.join(", ")))
        })
    }
    /// A count; 0 reads (and is then refused as illegal, like any count too high).
    fn count(&self, w: &str) -> Result<u8, GameError> {
        w.parse::<u8>().map_err(|_| bad(self.text, format!("expected a count from 0 to 255, found `{w}`")))
    }
}

const FORMS: &str = "expected one of: keep aside DIE, drive N, give peso|vp|GOOD, take GOOD, claim BUILDING, \
                     pawn BUILDING, use BUILDING ..., skip, deliver GOOD N, deliver GOOD for GOOD N, pass";

pub fn parse(rules: &Rules, text: &str) -> Result<Action, GameError> {
    let r = Reader { rules, text };
    let lower = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    Ok(match words.as_slice() {
        ["keep", "aside", d] => Action::KeepAside(r.die(d)?),
        ["drive", n] => Action::Drive(r.count(n)?),
        ["give", "peso"] => Action::Give(Gift::Pesos),
        ["give", "vp"] => Action::Give(Gift::Vp),
        ["give", g] => Action::Give(Gift::Good(r.good(g)?)),
        ["take", g] => Action::Take(r.good(g)?),
        ["claim", b] => Action::Claim(r.building(b)?),
        ["pawn", b] => Action::Pawn(r.building(b)?),
        ["skip"] => Action::Skip,
        ["pass"] => Action::Pass,
        ["deliver", g, n] => Action::Deliver { good: r.good(g)?, count: r.count(n)? },
        ["deliver", w, "for", g, n] => Action::DeliverFor { with: r.good(w)?, good: r.good(g)?, count: r.count(n)? },
        ["use", b, rest @ ..] => {
            let b = r.building(b)?;
            let effect = rules.buildings.get(b as usize).map(|x| x.effect);
            Action::Use(b, parse_use(&r, effect, rest)?)
        }
        _ => return Err(bad(text, FORMS)),
    })
}

fn parse_use(r: &Reader<'_>, effect: Option<BuildingEffect>, rest: &[&str]) -> Result<Use, GameError> {
    use BuildingEffect as E;
    let Some(effect) = effect else { return Err(bad(r.text, "unknown building")) };
    let wrong = |form: &str| Err(bad(r.text, format!("this building is used as `{form}`")));
    match (effect, rest) {
        (E::Gain(_) | E::Trade { .. }, []) => Ok(Use::Plain),
        (E::Gain(_) | E::Trade { .. }, _) => wrong("use BUILDING"),
        (E::Newspaper { .. }, []) => Ok(Use::Plain),
        (E::Newspaper { .. }, ["flip", c]) => Ok(Use::Flip(r.citizen(c)?)),
        (E::Newspaper { .. }, _) => wrong("use BUILDING or use BUILDING flip CITIZEN"),
        (E::Convert { .. }, [n]) => Ok(Use::Count(r.count(n)?)),
        (E::Convert { .. }, _) => wrong("use BUILDING N"),
        (E::Exchange { .. }, [g, "for", h]) => Ok(Use::Exchange { give: r.good(g)?, get: r.good(h)? }),
        (E::Exchange { .. }, _) => wrong("use BUILDING GOOD for GOOD"),
        (E::Sell { .. }, goods) if !goods.is_empty() => {
            let mut mask = 0u8;
            let mut last = None;
            for g in goods {
                let g = r.good(g)?;
                // One spelling per action: goods in ruleset order, each once.
                if last.is_some_and(|l| g <= l) {
                    return Err(bad(r.text, "list the goods once each, in the ruleset's order"));
                }
                last = Some(g);
                mask |= 1 << g;
            }
            Ok(Use::Sell(mask))
        }
        (E::Sell { .. }, _) => wrong("use BUILDING GOOD [GOOD]"),
        (E::ClearDie, [d]) => Ok(Use::Die(r.die(d)?)),
        (E::ClearDie, _) => wrong("use BUILDING DIE"),
        (E::Casino { .. }, ["buy", n]) => Ok(Use::BuyVp(r.count(n)?)),
        (E::Casino { .. }, ["sell", n]) => Ok(Use::SellVp(r.count(n)?)),
        (E::Casino { .. }, _) => wrong("use BUILDING buy N or use BUILDING sell N"),
        (E::MoveMarker, ["right"]) => Ok(Use::Right),
        (E::MoveMarker, ["left"]) => Ok(Use::Left),
        (E::MoveMarker, _) => wrong("use BUILDING right or use BUILDING left"),
        (E::DeliverFixed { .. }, [g]) => Ok(Use::Ship(r.good(g)?)),
        (E::DeliverFixed { .. }, _) => wrong("use BUILDING GOOD"),
    }
}
