//! Forests ([`Effect::ForestTiles`], the expansion's forest house, S001:L517-533): the
//! expansion's island tiles, behind the base game's extension points
//! ([`rulesmith_puerto_rico::extension`]).
//!
//! In the settler phase the owner of an occupied forest house may place a forest instead
//! of a plantation or quarry: a plantation tile laid face down, from the stack
//! (`from_face_up = false`: the tile's good is never seen, views hide it) or from the
//! face-up row (`forest GOOD`). A forest fills an island space, has no circle (a hospice's
//! colonist goes to San Juan, S001:L531) and produces nothing; every `forests_per_doubloon`
//! forests take a doubloon off any building, with no column limit (S001:L521-523). With a
//! hacienda too, the owner looks at the drawn tile first and plants it or lays it as a
//! forest (S001:L527).
//!
//! The base game keeps the counts it needs for its own rules: the island spaces forests
//! fill (`Player::extension_tiles`, the JSON's `/players/N/forests`) and the tiles lying
//! face down (`State::held_tiles`, the JSON's `/forest_tiles`).

use rulesmith_game::Seat;
use rulesmith_puerto_rico::Good;
use rulesmith_puerto_rico::action::Action;
use rulesmith_puerto_rico::board;
use rulesmith_puerto_rico::extension::Played;
use rulesmith_puerto_rico::goods::MAX_GOODS;
use rulesmith_puerto_rico::rules::{Effect, Rules, kind};
use rulesmith_puerto_rico::state::{Player, State};

/// The move code of a forest from the stack, or of the tile drawn with the hacienda; a
/// forest from the face-up row is `FOREST + 1 + good`. Apart from the guests' codes
/// (below 256).
const FOREST: u16 = 0x100;

/// The forests' side of the expansion's extension ([`crate::extension::Expansion`]).
pub struct Forests;

impl Forests {
    /// A forest instead of the turn's tile, or of the tile drawn with the hacienda.
    pub fn settler_actions(&self, rules: &Rules, s: &State, seat: Seat, f: &mut dyn FnMut(Action)) {
        if s.pending.settler.drawn.is_some() {
            f(Action::Extension(FOREST));
            return;
        }
        match from_face_up(rules, &s.players[seat]) {
            Some(false) if s.stack.len > 0 || s.discards.total() > 0 => f(Action::Extension(FOREST)),
            Some(true) => {
                for g in rules.goods() {
                    if s.face_up[g] > 0 {
                        f(Action::Extension(FOREST + 1 + g.index() as u16));
                    }
                }
            }
            _ => {}
        }
    }

    /// With a forest house the hacienda's tile is looked at first (S001:L527).
    pub fn looks_at_drawn_tile(&self, rules: &Rules, s: &State, seat: Seat) -> bool {
        from_face_up(rules, &s.players[seat]).is_some()
    }

    pub fn drawn_tiles_looked_at(&self, rules: &Rules) -> bool {
        rules.has_effect(kind::FOREST_TILES)
    }

    /// 1 doubloon off per `forests_per_doubloon` forests, with no column limit
    /// (S001:L521-523); `discount_when_unoccupied`: the forest house need not be manned.
    pub fn build_discount(&self, rules: &Rules, p: &Player) -> u8 {
        if p.extension_tiles == 0 {
            return 0;
        }
        board::owned_effects(rules, p)
            .filter_map(|(e, occupied)| match *e {
                Effect::ForestTiles { forests_per_doubloon, discount_when_unoccupied, .. }
                    if occupied || discount_when_unoccupied =>
                {
                    Some(p.extension_tiles / forests_per_doubloon.max(1))
                }
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// Forests from the stack were never seen.
    pub fn held_tiles_hidden(&self, rules: &Rules) -> bool {
        rules.buildings.iter().any(|b| matches!(b.effect, Effect::ForestTiles { from_face_up: false, .. }))
    }

    /// Whether `code` is a forest's.
    pub fn owns(&self, code: u16) -> bool {
        (FOREST..=FOREST + MAX_GOODS as u16).contains(&code)
    }

    /// Lays a forest for the player to move.
    pub fn play(&self, rules: &Rules, s: &mut State, code: u16) -> Played {
        let seat = s.current;
        if code == FOREST {
            if let Some(g) = s.pending.settler.drawn.take() {
                lay(s, seat, g);
                // The drawn tile is placed; the turn goes on (another tile may be taken).
                return Played::TurnGoesOn;
            }
        }
        let tile = match face_up_good(rules, code) {
            Some(g) if s.face_up[g] > 0 => {
                s.face_up[g] -= 1;
                Some(g)
            }
            Some(_) => None,
            None => s.draw_face_down(),
        };
        if let Some(g) = tile {
            lay(s, seat, g);
        }
        Played::TileWithoutCircle
    }

    /// Every forest code, in the action space's order (when a forest house is in the
    /// ruleset).
    pub fn codes(&self, rules: &Rules) -> Vec<u16> {
        if rules.has_effect(kind::FOREST_TILES) {
            (FOREST..=FOREST + rules.good_count() as u16).collect()
        } else {
            vec![]
        }
    }

    pub fn write(&self, rules: &Rules, code: u16, out: &mut String) {
        out.push_str("forest");
        if let Some(g) = face_up_good(rules, code) {
            out.push(' ');
            out.push_str(rules.good_name(g));
        }
    }

    pub fn parse(&self, rules: &Rules, words: &[&str]) -> Option<Result<u16, String>> {
        match words {
            ["forest"] => Some(Ok(FOREST)),
            ["forest", g] => Some(rules.good(g).map(|g| FOREST + 1 + g.index() as u16).ok_or_else(|| {
                let names: Vec<&str> = rules.good_names().map(String::as_str).collect();
                format!("`{g}` is not a good ({})", names.join(", "))
            })),
            _ => None,
        }
    }

    /// Forests on the islands are the tiles lying face down.
    pub fn check(&self, s: &State) -> Result<(), String> {
        let forests: u32 = s.players.iter().map(|p| u32::from(p.extension_tiles)).sum();
        if forests != s.held_tiles.total() {
            return Err(format!(
                "forests: {forests} on the islands, but {} tiles lie face down as forests (/forest_tiles)",
                s.held_tiles.total()
            ));
        }
        Ok(())
    }
}

/// The forest effect the player can place forests with (occupied), if any: whether its
/// tiles come from the face-up row.
fn from_face_up(rules: &Rules, p: &Player) -> Option<bool> {
    board::find(rules, p, |e| match *e {
        Effect::ForestTiles { from_face_up, .. } => Some(from_face_up),
        _ => None,
    })
}

fn lay(s: &mut State, seat: Seat, g: Good) {
    s.held_tiles[g] += 1;
    s.players[seat].extension_tiles += 1;
}

/// The good of a forest from the face-up row (`FOREST + 1 + good`).
fn face_up_good(rules: &Rules, code: u16) -> Option<Good> {
    let i = usize::from(code.checked_sub(FOREST + 1)?);
    (i < rules.good_count()).then_some(Good::at(i))
}
