//! Runs every scenario file under `tests/scenarios/` (rulebook examples and rule edge
//! cases, one folder per ruleset). A failure names each failing file and why.
//!
//! Also checks the scenario runner itself on `tests/fixtures/scenarios/`: every file
//! under `pass/` passes, every file under `fail/` and `invalid/` does not.

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith::core::erased::AnyGame;
use rulesmith::core::scenario::{self, Verdict};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn verdicts(folder: &str) -> Vec<(PathBuf, Verdict)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    if !dir.exists() {
        return Vec::new();
    }
    let files = scenario::collect_files(&[dir]).unwrap();
    let mut games: HashMap<String, Result<Arc<dyn AnyGame>, String>> = HashMap::new();
    let mut load = |arg: &str| {
        games
            .entry(arg.to_string())
            .or_insert_with(|| rulesmith::load(arg).map(|r| Arc::from(r.game)).map_err(|e| e.render()))
            .clone()
    };
    files
        .into_iter()
        .map(|f| {
            let v = match scenario::read(&f) {
                Ok(s) => scenario::run(&s, &mut load),
                Err(e) => Verdict::Invalid(e.render()),
            };
            (f, v)
        })
        .collect()
}

#[test]
fn every_scenario_passes() {
    let results = verdicts("tests/scenarios");
    let failures: Vec<String> =
        results.iter().filter(|(_, v)| *v != Verdict::Pass).map(|(f, v)| v.line(&f.display().to_string())).collect();
    println!("{} scenarios run", results.len());
    assert!(failures.is_empty(), "{} of {} scenarios failed:\n{}", failures.len(), results.len(), failures.join("\n"));
}

#[test]
fn every_scenario_has_a_description_citing_its_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    if !root.exists() {
        return;
    }
    let mut missing = Vec::new();
    for f in scenario::collect_files(&[root]).unwrap() {
        if let Ok(s) = scenario::read(&f) {
            if s.description.trim().is_empty() {
                missing.push(f.display().to_string());
            }
        }
    }
    assert!(missing.is_empty(), "scenarios without a description:\n{}", missing.join("\n"));
}

#[test]
fn the_runner_tells_pass_from_fail() {
    let results = verdicts("tests/fixtures/scenarios");
    assert!(results.len() >= 6);
    for (f, v) in results {
        let name = f.display().to_string();
        let expected_pass = name.contains("/pass/");
        assert_eq!(v == Verdict::Pass, expected_pass, "{}", v.line(&name));
        if name.contains("/invalid/") {
            assert!(matches!(v, Verdict::Invalid(_)), "{}", v.line(&name));
            // One message, not a rendered `error:` nested inside the scenario's own.
            assert!(!v.line(&name).contains(": error:"), "{}", v.line(&name));
        }
        if name.contains("/fail/") {
            assert!(matches!(v, Verdict::Fail { .. }), "{}", v.line(&name));
        }
    }
}

/// Issue 44: each game is one registry entry (`rulesmith::GAMES`): its bundled rulesets
/// load as that game, its scenario library is where the entry says, and the bundled
/// rulesets are exactly the entries' own.
#[test]
fn every_registered_game_has_its_parts() {
    let mut bundled = 0;
    for entry in rulesmith::GAMES {
        assert!(crate::root().join(entry.scenarios).is_dir(), "{}: no folder {}", entry.id, entry.scenarios);
        assert!(!entry.rulesets.is_empty(), "{}: no bundled ruleset", entry.id);
        for b in entry.rulesets {
            let r = rulesmith::load(b.name).unwrap_or_else(|e| panic!("{}: {}", b.name, e.render()));
            assert_eq!(r.game.game_id(), entry.id, "{} is bundled with the wrong game", b.name);
            bundled += 1;
        }
    }
    assert_eq!(rulesmith::GAMES.len(), 4);
    assert_eq!(rulesmith::BUNDLED.len(), bundled, "a bundled ruleset outside the registry");
}
