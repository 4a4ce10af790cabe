//! `replay RECORD`.

use super::common::{Failure, Format, bad, emit_json, say};
use rulesmith::core::erased::AnyGame;
use rulesmith::core::record::{self, Record, ReplayOptions};
use rulesmith::core::scenario::looks_like_path;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

type Resolved = Result<(Arc<dyn AnyGame>, String), String>;

/// Replays every game of a record file: exit 1 on a mismatch, 2 on a record that cannot
/// be replayed (corrupt line, changed ruleset, illegal action).
pub fn replay(path: &Path, ruleset: Option<&str>, check_bots: bool, f: Format) -> Result<u8, Failure> {
    let lines = rulesmith::core::input::lines(path).map_err(|e| bad(format!("the record: {e}")))?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut cache: HashMap<String, Resolved> = HashMap::new();
    let mut resolve = |rec: &Record| -> Resolved {
        let mut arg = ruleset.unwrap_or(&rec.source).to_string();
        // A path recorded relative to where `simulate` ran may also be found next to the record.
        if looks_like_path(&arg) && !Path::new(&arg).exists() && dir.join(&arg).exists() {
            arg = dir.join(&arg).display().to_string();
        }
        // The record's `--set` overrides apply again (to `--ruleset` too).
        let sets = &rec.overrides;
        cache
            .entry(format!("{arg}\0{}", sets.join("\0")))
            .or_insert_with(|| {
                rulesmith::load_with(&arg, sets).map(|r| (Arc::from(r.game), r.loaded.digest())).map_err(|e| e.render())
            })
            .clone()
    };
    let lines = lines.map(|l| l.map_err(|e| record::BadRecord { line: 0, message: e.to_string() }));
    let report = record::replay_lines(lines, ReplayOptions { check_bots }, &mut resolve).map_err(|e| match e.line {
        0 => bad(format!("{}: {}", path.display(), e.message)),
        line => bad(format!("{}:{line}: {}", path.display(), e.message)),
    })?;
    match f {
        Format::Json => emit_json(&report),
        Format::Text => {
            for m in &report.mismatches {
                // The message quotes the record (its ruleset's name, its moves): never coloured.
                say(super::common::shown(&format!("{}:{}: {}", path.display(), m.line, m.message)));
            }
            if report.mismatches.is_empty() {
                say(format!(
                    "replayed {} games ({} actions){}: all reproduce exactly",
                    report.games,
                    report.actions,
                    if check_bots { ", bots re-run" } else { "" }
                ));
            } else {
                say(format!("replayed {} games: {} mismatches", report.games, report.mismatches.len()));
            }
        }
    }
    Ok(if report.mismatches.is_empty() { 0 } else { 1 })
}
