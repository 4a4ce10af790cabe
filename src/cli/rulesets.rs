//! `rulesets`, `show`, `validate`, `diff`.

use super::common::{Failure, Format, bad, emit, emit_json, error, load, range_text, say};
use rulesmith::core::ruleset::{self, LoadFailure, Node};
use serde_json::json;

/// `rulesmith rulesets`.
pub fn list(f: Format) -> Result<u8, Failure> {
    let mut rows = Vec::new();
    for b in rulesmith::BUNDLED {
        match rulesmith::load(b.name) {
            Ok(r) => {
                let range = r.game.players();
                rows.push(json!({
                    "name": b.name,
                    "game": r.game.game_id(),
                    "players": [range.start(), range.end()],
                    "description": r.loaded.description,
                    "path": b.path,
                }));
            }
            Err(e) => rows.push(json!({
                "name": b.name,
                "path": b.path,
                "error": e.render().lines().next().unwrap_or_default(),
            })),
        }
    }
    if f == Format::Json {
        emit_json(&rows);
        return Ok(0);
    }
    let width = rows.iter().filter_map(|r| r["name"].as_str()).map(str::len).max().unwrap_or(4).max(4);
    let gwidth = rows.iter().filter_map(|r| r["game"].as_str()).map(str::len).max().unwrap_or(4).max(4);
    say(format!("{:width$}  {:gwidth$}  {:7}  description", "name", "game", "players"));
    for r in &rows {
        let name = r["name"].as_str().unwrap_or_default();
        match r["error"].as_str() {
            Some(e) => say(format!("{name:width$}  (does not load: {e})")),
            None => {
                let range = match (r["players"][0].as_u64(), r["players"][1].as_u64()) {
                    (Some(lo), Some(hi)) => range_text(&(lo as usize..=hi as usize)),
                    _ => String::new(),
                };
                say(format!(
                    "{name:width$}  {:gwidth$}  {range:7}  {}",
                    r["game"].as_str().unwrap_or_default(),
                    r["description"].as_str().unwrap_or_default()
                ));
            }
        }
    }
    Ok(0)
}

/// `rulesmith show RULESET`.
pub fn show(arg: &str, sets: &[String], f: Format) -> Result<u8, Failure> {
    let r = load(arg, sets)?;
    match f {
        Format::Json => emit_json(&r.loaded.tree.to_json()),
        Format::Text => emit(&r.loaded.to_toml_string()),
    }
    Ok(0)
}

fn diagnostics_json(e: &LoadFailure) -> Vec<serde_json::Value> {
    e.diagnostics
        .resolved(&e.sources)
        .iter()
        .map(|d| match d.origin {
            Some(o) => {
                let (line, column) = e.sources.line_col(o.file as usize, o.start);
                json!({ "file": e.sources.name(o.file as usize), "line": line, "column": column, "message": d.message })
            }
            None => json!({ "message": d.message }),
        })
        .collect()
}

/// `rulesmith validate RULESET...`: exit 2 if any is invalid.
pub fn validate(args: &[String], sets: &[String], f: Format) -> Result<u8, Failure> {
    let mut any_bad = false;
    let mut out = Vec::new();
    for arg in args {
        match rulesmith::load_with(arg, sets) {
            Ok(r) => {
                let range = r.game.players();
                if f == Format::Text {
                    say(format!("ok {arg}"));
                }
                // A complete new element whose id is close to one of the base's: valid, but
                // most likely a misspelt id that adds a building instead of changing one.
                let s = &r.loaded.sources;
                let warnings: Vec<String> = s
                    .near_misses()
                    .map(|(origin, id, near)| {
                        format!(
                            "{}: new element `{id}` is not in the base ruleset; did you mean `{near}`?",
                            s.locate(origin)
                        )
                    })
                    .collect();
                if f == Format::Text {
                    for w in &warnings {
                        super::common::note(&format!("warning: {w}"));
                    }
                }
                out.push(json!({
                    "ruleset": arg, "ok": true, "name": r.name(), "game": r.game.game_id(),
                    "players": [range.start(), range.end()], "digest": r.digest(), "warnings": warnings,
                }));
            }
            Err(e) => {
                any_bad = true;
                if f == Format::Text {
                    error(&(e.render() + &super::common::scenario_hint(arg)));
                }
                out.push(json!({ "ruleset": arg, "ok": false, "diagnostics": diagnostics_json(&e) }));
            }
        }
    }
    if f == Format::Json {
        emit_json(&out);
    }
    if any_bad && f == Format::Text {
        let n = out.iter().filter(|o| o["ok"] == false).count();
        super::common::note(&format!("{n} of {} rulesets invalid", out.len()));
    }
    Ok(if any_bad { 2 } else { 0 })
}

/// `rulesmith diff A B`.
pub fn diff(a: &str, b: &str, sets: &[String], f: Format) -> Result<u8, Failure> {
    // `--set` applies to both: what it changes shows only where the two differ.
    let (ra, rb) = match (rulesmith::load_with(a, sets), rulesmith::load_with(b, sets)) {
        (Ok(ra), Ok(rb)) => (ra, rb),
        (ea, eb) => {
            let msgs: Vec<String> = [ea.err(), eb.err()].into_iter().flatten().map(|e| e.render()).collect();
            return Err(bad(msgs.join("")));
        }
    };
    let diffs: Vec<ruleset::Difference> =
        ruleset::diff(&ra.loaded.tree, &rb.loaded.tree).into_iter().filter(|d| d.key != "ruleset.extends").collect();
    let diffs = collapse(diffs, &ra.loaded.tree, &rb.loaded.tree);
    if f == Format::Json {
        emit_json(&json!({ "a": a, "b": b, "differences": diffs }));
        return Ok(0);
    }
    say(format!("--- {a} ({})", ra.name()));
    say(format!("+++ {b} ({})", rb.name()));
    if diffs.is_empty() {
        say("no differences");
    }
    let show = |v: &Option<serde_json::Value>| v.as_ref().map_or("(absent)".to_string(), |v| v.to_string());
    for d in &diffs {
        say(format!("{}: {} → {}", d.key, show(&d.a), show(&d.b)));
    }
    Ok(0)
}

/// The element a diff key such as `buildings[hacienda]` or `map.tiles[a1]` names, if present.
fn element<'n>(tree: &'n Node, key: &str) -> Option<&'n Node> {
    let (path, id) = key.strip_suffix(']')?.split_once('[')?;
    let list = path.split('.').try_fold(tree, |n, k| n.get(k))?;
    match &list.kind {
        ruleset::Kind::Array(items) => items.iter().find(|i| i.get("id").and_then(Node::as_str) == Some(id)),
        _ => None,
    }
}

/// An element of an id-keyed list that only one ruleset has is one difference (the whole
/// element), not one per field.
fn collapse(diffs: Vec<ruleset::Difference>, a: &Node, b: &Node) -> Vec<ruleset::Difference> {
    let mut out: Vec<ruleset::Difference> = Vec::new();
    for d in diffs {
        // The first `name[id]` of the key, when it is a whole element of only one side.
        let whole = d.key.find(']').map(|end| &d.key[..=end]).filter(|k| !k[..k.len() - 1].contains(']'));
        let one_sided = whole.and_then(|k| match (element(a, k), element(b, k)) {
            (Some(x), None) => Some((k, Some(x.to_json()), None)),
            (None, Some(y)) => Some((k, None, Some(y.to_json()))),
            _ => None,
        });
        match one_sided {
            Some((k, x, y)) => {
                if out.last().is_none_or(|l| l.key != k) {
                    out.push(ruleset::Difference { key: k.to_string(), a: x, b: y });
                }
            }
            None => out.push(d),
        }
    }
    out
}
