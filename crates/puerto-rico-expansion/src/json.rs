//! The expansion's names in state JSON for what the base game stores generically: the
//! island spaces the extension's tiles fill are `/players/N/forests` (the base game's
//! `extension_tiles`), the tiles it holds face down `/forest_tiles` (`held_tiles`).

use rulesmith_core::game::GameError;
use serde_json::Value;

/// (the base game's key, the expansion's) at the top of the state, and in each player.
const TOP: (&str, &str) = ("held_tiles", "forest_tiles");
const PLAYER: (&str, &str) = ("extension_tiles", "forests");

/// The base game's JSON with the expansion's names.
pub fn rename_out(v: &mut Value) {
    rename(v, TOP.0, TOP.1, false);
    each_player(v, |p| rename(p, PLAYER.0, PLAYER.1, false));
}

/// The expansion's JSON with the base game's names (before the base game reads it).
pub fn rename_in(v: &mut Value) {
    rename(v, TOP.1, TOP.0, true);
    each_player(v, |p| rename(p, PLAYER.1, PLAYER.0, true));
}

/// A message of the base game's check or reader, naming the expansion's keys.
pub fn rename_error(e: GameError) -> GameError {
    match e {
        GameError::InvalidState(m) => GameError::InvalidState(rename_message(&m)),
        e => e,
    }
}

fn rename_message(m: &str) -> String {
    m.replace(&format!("/{}", TOP.0), &format!("/{}", TOP.1))
        .replace(&format!("/{}", PLAYER.0), &format!("/{}", PLAYER.1))
}

/// Moves `from` to `to`. `strict`: a `to` already there without `from` is dropped (a
/// state read in the expansion's names gives no meaning to the base game's).
fn rename(v: &mut Value, from: &str, to: &str, strict: bool) {
    if let Some(m) = v.as_object_mut() {
        match m.remove(from) {
            Some(x) => {
                m.insert(to.into(), x);
            }
            None if strict => {
                m.remove(to);
            }
            None => {}
        }
    }
}

fn each_player(v: &mut Value, mut f: impl FnMut(&mut Value)) {
    if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
        players.iter_mut().for_each(&mut f);
    }
}
