//! Runs every scenario file of `tests/scenarios/santiago-de-cuba/` with a small runner
//! that follows spec/product.md "Scenario files", so the files stay valid while the
//! shared runner is written: every `play` parses and is legal, every pointer exists.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests may fail loudly

mod common;

use common::*;
use rulesmith_core::game::play_text;
use rulesmith_core::{Game, ToMove};
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios/santiago-de-cuba")
}

fn json(v: &toml::Value) -> Value {
    serde_json::to_value(v).unwrap()
}

fn strings(v: &toml::Value) -> Vec<String> {
    match v {
        toml::Value::String(s) => vec![s.clone()],
        toml::Value::Array(a) => a.iter().map(|x| x.as_str().expect("a string").to_string()).collect(),
        other => panic!("expected a string or a list of strings, found {other}"),
    }
}

fn run(path: &PathBuf) -> Result<(), String> {
    let g = game();
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let doc: toml::Table = toml::from_str(&text).map_err(|e| e.to_string())?;
    for key in doc.keys() {
        if !["description", "ruleset", "players", "seed", "set", "step"].contains(&key.as_str()) {
            return Err(format!("unknown key `{key}`"));
        }
    }
    let desc = doc.get("description").and_then(|d| d.as_str()).ok_or("no description")?;
    if !desc.contains("S002:L") && !desc.contains("C.6") {
        return Err("the description must cite its source (S002:Lnnn or C.6.n)".into());
    }
    if doc.get("ruleset").and_then(|r| r.as_str()) != Some("santiago-de-cuba") {
        return Err("ruleset must be `santiago-de-cuba`".into());
    }
    let players = doc.get("players").and_then(|p| p.as_integer()).ok_or("no players")? as usize;
    let seed = doc.get("seed").and_then(|p| p.as_integer()).unwrap_or(0) as u64;
    let mut s = g.new_game(players, seed).map_err(|e| e.to_string())?;
    if let Some(set) = doc.get("set").and_then(|s| s.as_table()) {
        let mut j = g.state_to_json(&s);
        for (p, v) in set {
            *j.pointer_mut(p).ok_or(format!("[set]: no `{p}` in the state"))? = json(v);
        }
        s = g.state_from_json(j).map_err(|e| format!("[set] refused: {e}"))?;
    }
    let steps = doc.get("step").and_then(|s| s.as_array()).cloned().unwrap_or_default();
    for (i, step) in steps.iter().enumerate() {
        let n = i + 1;
        let step = step.as_table().ok_or("a step must be a table")?;
        for key in step.keys() {
            if !["play", "by", "expect"].contains(&key.as_str()) {
                return Err(format!("step {n}: unknown key `{key}`"));
            }
        }
        if let Some(by) = step.get("by").and_then(|b| b.as_integer()) {
            if g.to_move(&s) != ToMove::Seat(by as u8) {
                return Err(format!("step {n}: expected seat {by} to move, found {:?}", g.to_move(&s)));
            }
        }
        if let Some(p) = step.get("play") {
            for a in strings(p) {
                play_text(&g, &mut s, &a).map_err(|e| format!("step {n}: `{a}`: {e}"))?;
                g.check_state(&s).map_err(|e| format!("step {n}: after `{a}`: {e}"))?;
            }
        }
        let Some(expect) = step.get("expect").and_then(|e| e.as_table()) else { continue };
        let legal = legal(&g, &s);
        let j = g.state_to_json(&s);
        for (key, v) in expect {
            match key.as_str() {
                "to_move" => {
                    let want = ToMove::Seat(v.as_integer().ok_or("to_move: a seat")? as u8);
                    if g.to_move(&s) != want {
                        return Err(format!("step {n}: expected {want:?} to move, found {:?}", g.to_move(&s)));
                    }
                }
                "legal_includes" => {
                    for a in strings(v) {
                        if !legal.contains(&a) {
                            return Err(format!("step {n}: `{a}` is not legal; legal: {legal:?}"));
                        }
                    }
                }
                "legal_excludes" => {
                    for a in strings(v) {
                        if legal.contains(&a) {
                            return Err(format!("step {n}: `{a}` is legal; legal: {legal:?}"));
                        }
                    }
                }
                "legal" => {
                    let mut want = strings(v);
                    let mut have = legal.clone();
                    want.sort();
                    have.sort();
                    if want != have {
                        return Err(format!("step {n}: expected legal {want:?}, found {have:?}"));
                    }
                }
                "state" => {
                    for (p, want) in v.as_table().ok_or("state: a table")? {
                        let have = j.pointer(p).ok_or(format!("step {n}: no `{p}` in the state"))?;
                        if *have != json(want) {
                            return Err(format!("step {n}: `{p}` is {have}, expected {}", json(want)));
                        }
                    }
                }
                "rejects" => {
                    for a in strings(v) {
                        // Refused as illegal: it must read as an action of the game.
                        g.parse_action(&s, &a).map_err(|e| format!("step {n}: rejects `{a}` does not parse: {e}"))?;
                        let mut t = s.clone();
                        if play_text(&g, &mut t, &a).is_ok() {
                            return Err(format!("step {n}: `{a}` was accepted"));
                        }
                    }
                }
                "over" => {
                    if g.outcome(&s).is_some() != v.as_bool().ok_or("over: a boolean")? {
                        return Err(format!("step {n}: over is {}", g.outcome(&s).is_some()));
                    }
                }
                "scores" => {
                    let o = g.outcome(&s).ok_or(format!("step {n}: the game is not over"))?;
                    let want: Vec<i32> =
                        v.as_array().ok_or("scores")?.iter().map(|x| x.as_integer().unwrap() as i32).collect();
                    if o.scores != want {
                        return Err(format!("step {n}: scores {:?}, expected {want:?}", o.scores));
                    }
                }
                "winner" => {
                    let o = g.outcome(&s).ok_or(format!("step {n}: the game is not over"))?;
                    let want = v.as_integer().ok_or("winner: a seat")? as u8;
                    if o.winners() != vec![want] {
                        return Err(format!("step {n}: winners {:?}, expected {want}", o.winners()));
                    }
                }
                other => return Err(format!("step {n}: unknown expectation `{other}`")),
            }
        }
    }
    Ok(())
}

#[test]
fn every_scenario_passes() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 30, "expected the scenario files, found {}", files.len());
    let mut failed = Vec::new();
    for f in &files {
        if let Err(e) = run(f) {
            failed.push(format!("FAIL {}: {e}", f.file_name().unwrap().to_string_lossy()));
        }
    }
    assert!(failed.is_empty(), "{} of {} scenarios failed:\n{}", failed.len(), files.len(), failed.join("\n"));
}
