//! Actions and their notation: the base game's (see [`rulesmith_puerto_rico::action`],
//! with the expansion effects' actions) and the draft pick.
//!
//! | action | notation | when |
//! |---|---|---|
//! | pick a building in the draft | `draft library` (the building's id) | setup, before the first role |
//! | every other action | as in the base game: `settler`, `forest`, `use small-wharf`, `load 3 corn`, `guest to library`, `return colonist from san-juan`, … | the game proper |

use crate::rules::Rules;
use rulesmith_game::GameError;

/// A draft pick (`Setup`: a building index, for an empty slot of its cost), then an
/// action of the game proper (`Play`).
pub type Action = rulesmith_game::staged::Staged<u8, rulesmith_puerto_rico::Action>;

pub fn write_draft(rules: &Rules, b: u8, out: &mut String) {
    out.push_str("draft ");
    match rules.base.buildings.get(usize::from(b)) {
        Some(x) => out.push_str(&x.id),
        None => {
            out.push_str("building-");
            rulesmith_game::game::push_number(out, b);
        }
    }
}

/// Reads `draft ID`; `None` if the text is not a draft pick.
pub fn parse_draft(rules: &Rules, text: &str) -> Option<Result<u8, GameError>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["draft", id] => Some(rules.base.building_index(id).map(|i| i as u8).ok_or_else(|| GameError::Unparsable {
            text: text.to_string(),
            reason: format!("`{id}` is not a building of this ruleset"),
        })),
        ["draft", ..] => {
            Some(Err(GameError::Unparsable { text: text.to_string(), reason: "expected `draft BUILDING`".to_string() }))
        }
        _ => None,
    }
}
