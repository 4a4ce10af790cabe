//! The expansion's observation names.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests may fail loudly

use crate::common::*;
use rulesmith_puerto_rico::extension::{BASE_JSON_NAMES, Hook};
use rulesmith_puerto_rico_expansion::encoding::observation_names;
use rulesmith_puerto_rico_expansion::extension::FOREST_NAMES;

/// The base game's features name what it keeps for the extension as the extension names
/// it in the state JSON (the forests: `forest_tiles.GOOD`, `seatN.forests`), the base
/// game's own names without an extension, feature for feature; then the draft's.
#[test]
fn the_observation_names_the_forests_as_the_json_does() {
    let r = rules();
    let mut plain = r.base.clone();
    plain.extension = Hook::none();
    for players in 2..=5 {
        let names = observation_names(&r, players);
        let base = rulesmith_puerto_rico::encoding::observation_names(&plain, players);
        let draft = names.iter().filter(|n| n.starts_with("draft.")).count();
        assert_eq!(names.len(), base.len() + draft, "{players} players");
        assert!(names[base.len()..].iter().all(|n| n.starts_with("draft.")), "{players} players");
        let mut renamed = 0;
        for (n, b) in names.iter().zip(&base) {
            if n == b {
                continue;
            }
            let held = b.strip_prefix(&format!("{}.", BASE_JSON_NAMES.held_tiles));
            let island = b.strip_suffix(&format!(".{}", BASE_JSON_NAMES.island_tiles));
            match (held, island) {
                (Some(good), _) => assert_eq!(*n, format!("{}.{good}", FOREST_NAMES.held_tiles)),
                (_, Some(seat)) => assert_eq!(*n, format!("{seat}.{}", FOREST_NAMES.island_tiles)),
                _ => panic!("`{b}` is named `{n}`"),
            }
            renamed += 1;
        }
        // Five goods held face down, and each seat's forests.
        assert_eq!(renamed, 5 + players, "{players} players");
        assert!(names.contains(&"forest_tiles.corn".to_string()) && names.contains(&"seat0.forests".to_string()));
    }
}
