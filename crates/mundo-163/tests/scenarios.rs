//! Runs every scenario file of `tests/scenarios/mundo-163/` with the shared scenario
//! runner (spec/product.md "Scenario files"); each description cites its source.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use rulesmith_core::erased::AnyGame;
use rulesmith_core::scenario::{self, Verdict};
use std::path::PathBuf;
use std::sync::Arc;

fn files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios/mundo-163");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_scenario_passes() {
    let files = files();
    assert!(files.len() >= 45, "expected the scenario files, found {}", files.len());
    let game: Arc<dyn AnyGame> = Arc::new(common::game());
    let mut load =
        |arg: &str| if arg == "mundo-163" { Ok(game.clone()) } else { Err(format!("unexpected ruleset `{arg}`")) };
    let mut failed = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let s = match scenario::read(f) {
            Ok(s) => s,
            Err(e) => {
                failed.push(format!("FAIL {name}: {}", e.render()));
                continue;
            }
        };
        if !s.description.contains("S004:L") && !s.description.contains("REF §") {
            failed.push(format!("FAIL {name}: the description must cite its source (S004:Lnn or REF §n)"));
        }
        let v = scenario::run(&s, &mut load);
        if v != Verdict::Pass {
            failed.push(v.line(&name));
        }
    }
    assert!(failed.is_empty(), "{} of {} scenarios failed:\n{}", failed.len(), files.len(), failed.join("\n"));
}
