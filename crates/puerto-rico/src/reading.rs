//! What the reading of a ruleset knows before it starts (player counts, the goods'
//! names, the city's spaces), for the fields' own readers of [`crate::rules`] and of the
//! effects ([`crate::effect`]), given to the pass by [`de::with_context`].

use crate::goods::MAX_GOODS;
use crate::limits::{MAX_PLAYERS, MAX_SPACES};
use rulesmith_game::ruleset::de;
use rulesmith_game::ruleset::{Kind, Node, Origin};

/// What the reading needs before it starts, taken from the tree as written (their own
/// problems are reported where they are read): the player counts the tables by count
/// cover, the goods' names (effects, buildings and the setup name goods), the city's
/// spaces (a building's most), and the origins the checks across sections report at.
#[derive(Clone, Default)]
pub(crate) struct Head {
    pub players: (usize, usize),
    /// The `[goods.*]` names in order, the first [`MAX_GOODS`].
    pub goods: Vec<String>,
    pub city_spaces: u8,
    pub at_players: Origin,
    pub at_setup: Origin,
}

impl Head {
    pub fn of(tree: &Node) -> Head {
        let at = |path: &str| tree.path(path).map_or(Origin::REPORTED, |n| n.origin);
        let int = |path: &str, range: std::ops::RangeInclusive<i64>| match tree.path(path).map(|n| &n.kind) {
            Some(Kind::Int(i)) if range.contains(i) => Some(*i),
            _ => None,
        };
        let most = MAX_PLAYERS as i64;
        // As the checks after reading have them: bounds that are wrong (reported) read 2 to 5.
        let players = match (int("players.min", 1..=most), int("players.max", 1..=most)) {
            (Some(a), Some(b)) if a <= b => (a as usize, b as usize),
            _ => (2, 5),
        };
        let goods = tree.get("goods").and_then(Node::entries).unwrap_or_default();
        Head {
            players,
            goods: goods.iter().take(MAX_GOODS).map(|e| e.key.clone()).collect(),
            city_spaces: int("board.city_spaces", 1..=MAX_SPACES as i64).map_or(0, |v| v as u8),
            at_players: at("players"),
            at_setup: at("setup"),
        }
    }

    /// The head of the reading under way.
    pub fn get() -> Head {
        de::context(Head::clone).unwrap_or_default()
    }

    pub fn counts(&self) -> std::ops::RangeInclusive<usize> {
        self.players.0..=self.players.1
    }
}

/// The goods' names of the ruleset being read (effects name goods); none outside a reading.
pub(crate) fn goods_read() -> Vec<String> {
    Head::get().goods
}
