//! Runs every scenario file of `tests/scenarios/mundo-163/` with the shared scenario
//! runner (spec/product.md "Scenario files"); each description cites its source.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rulesmith_core::erased::AnyGame;
use rulesmith_core::scenario;
use std::path::PathBuf;
use std::sync::Arc;

#[test]
fn every_scenario_passes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios/mundo-163");
    let game: Arc<dyn AnyGame> = Arc::new(crate::common::game());
    let (count, failed) = scenario::run_folder(&dir, "mundo-163", game, &["S004:L", "REF §"]);
    assert!(count >= 45, "expected the scenario files, found {count}");
    assert!(failed.is_empty(), "{} of {count} scenarios failed:\n{}", failed.len(), failed.join("\n"));
}
