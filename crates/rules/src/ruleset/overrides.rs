//! `--set KEY=VALUE`: edits of the effective (merged) ruleset, applied before the game
//! decodes it, so that an override is checked exactly like the same edit in a file.
//!
//! - KEY is a dotted path into the tree as `rulesmith show` prints it. An element of a
//!   list of components (an array of tables that all have an `id`) is addressed by its id
//!   (`buildings.harbor.cost`), an element of any other array by its index from 0
//!   (`setup.ships.4.0`).
//! - VALUE is TOML (`6`, `[5, 6, 8]`, `true`, `"text"`, `{ price = 5 }`); a bare word is
//!   refused with a hint to quote it, rather than guessed to be a string.
//! - The value replaces what is at KEY. A key a table does not state yet is added (a key
//!   the ruleset may leave to its default): the game then reports it if it does not
//!   know it, with the nearest known keys. A missing table on the way, an unknown id or
//!   an index past the end is an error here, naming the nearest valid names.
//!
//! Each override becomes a source file named `--set` whose text is the argument, so every
//! problem, here or in the game's checks, is shown under the argument with a marker.

use super::diag::{Diagnostics, Origin, Sources};
use super::node::{self, Entry, Kind, Node};

/// Most `--set` arguments one command takes.
pub const MAX_OVERRIDES: usize = 256;

/// The name under which an override's argument appears in messages.
pub const SOURCE_NAME: &str = "--set";

/// Applies `KEY=VALUE` overrides to a merged tree, in order; problems go to `diags`.
pub fn apply(tree: &mut Node, sets: &[String], sources: &mut Sources, diags: &mut Diagnostics) {
    if sets.len() > MAX_OVERRIDES {
        diags.error_at(None, format!("{} --set arguments: at most {MAX_OVERRIDES} are taken", sets.len()));
        return;
    }
    for arg in sets {
        let file = sources.add(SOURCE_NAME, arg.clone());
        apply_one(tree, arg, file, diags);
    }
}

/// The key of a `KEY=VALUE` argument, if it has one.
pub fn key_of(arg: &str) -> Option<&str> {
    arg.split_once('=').map(|(k, _)| k.trim())
}

/// The value at KEY of a tree, addressed as `--set` addresses it (components by id, other
/// arrays by index): what `sweep` takes as the ruleset's own value.
pub fn get<'a>(tree: &'a Node, key: &str) -> Option<&'a Node> {
    key.split('.').map(str::trim).try_fold(tree, |n, seg| match &n.kind {
        Kind::Table(_) => n.get(seg),
        Kind::Array(items) if !items.is_empty() && items.iter().all(|i| id_of(i).is_some()) => {
            items.iter().find(|i| id_of(i) == Some(seg))
        }
        Kind::Array(items) => seg.parse::<usize>().ok().and_then(|k| items.get(k)),
        _ => None,
    })
}

/// A value as TOML text, as VALUE of `--set` takes it (`8`, `[5, 6, 7]`, `"x"`).
pub fn value_text(n: &Node) -> String {
    n.to_toml().to_string()
}

fn apply_one(tree: &mut Node, arg: &str, file: usize, diags: &mut Diagnostics) {
    let whole = Origin::new(file, 0..arg.len());
    let Some(eq) = arg.find('=') else {
        diags.error(whole, "expected KEY=VALUE, e.g. `buildings.harbor.cost=6` (KEY as `rulesmith show` prints it)");
        return;
    };
    // Segments of the key with their byte ranges in the argument.
    let mut segments = Vec::new();
    let mut at = 0;
    for seg in arg[..eq].split('.') {
        let lead = seg.len() - seg.trim_start().len();
        let trimmed = seg.trim();
        let start = at + lead;
        segments.push((trimmed, Origin::new(file, start..start + trimmed.len())));
        at += seg.len() + 1;
    }
    if let Some((_, origin)) = segments.iter().find(|(s, _)| s.is_empty()) {
        diags.error(*origin, "empty part in KEY: expected a dotted path such as `buildings.harbor.cost`");
        return;
    }
    if segments.first().is_some_and(|(s, _)| *s == "ruleset")
        && !segments.get(1).is_some_and(|(s, _)| ["name", "description", "game"].contains(s))
    {
        let origin = segments.get(1).map_or(whole, |(_, o)| *o);
        diags.error(origin, "`--set ruleset.…` may set `ruleset.name`, `ruleset.description` or `ruleset.game` only");
        return;
    }
    let Some(value) = parse_value(arg, eq, file, diags) else {
        return;
    };
    let mut node = tree;
    let mut path = String::new();
    for (i, (seg, origin)) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let here = if path.is_empty() { "the ruleset".to_string() } else { format!("`{path}`") };
        let kind = node.type_name();
        let keyed =
            matches!(&node.kind, Kind::Array(items) if !items.is_empty() && items.iter().all(|n| id_of(n).is_some()));
        let next: &mut Node = match &mut node.kind {
            Kind::Table(entries) => match entries.iter().position(|e| e.key == *seg) {
                Some(p) => &mut entries[p].value,
                None if last => {
                    entries.push(Entry { key: seg.to_string(), key_origin: *origin, value });
                    return;
                }
                None => {
                    let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
                    diags.error(*origin, format!("{here} has no key `{seg}`: {}", names_hint(seg, &keys, "keys")));
                    return;
                }
            },
            Kind::Array(items) => {
                // Components by id, other arrays by index.
                let found = if keyed {
                    items.iter().position(|n| id_of(n) == Some(*seg))
                } else {
                    seg.parse::<usize>().ok().filter(|&k| k < items.len())
                };
                let Some(k) = found else {
                    let msg = if keyed {
                        let ids: Vec<&str> = items.iter().filter_map(id_of).collect();
                        format!(
                            "{here} has no element with id `{seg}` (--set edits, it does not add elements): {}",
                            names_hint(seg, &ids, "ids")
                        )
                    } else {
                        let len = items.len();
                        let range = if len == 0 { "it is empty".to_string() } else { format!("from 0 to {}", len - 1) };
                        format!("{here} is an array of {len}: expected an index {range}")
                    };
                    diags.error(*origin, msg);
                    return;
                };
                &mut items[k]
            }
            _ => {
                diags.error(*origin, format!("{here} is {kind}, not a table or an array: KEY cannot go into it"));
                return;
            }
        };
        if last {
            *next = value;
            return;
        }
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(seg);
        node = next;
    }
}

/// Parses the VALUE of `arg` (after the `=` at byte `eq`) as TOML, its origins inside the
/// argument.
fn parse_value(arg: &str, eq: usize, file: usize, diags: &mut Diagnostics) -> Option<Node> {
    let raw = &arg[eq + 1..];
    let value_origin = Origin::new(file, eq + 1..arg.len());
    if raw.trim().is_empty() {
        diags.error(value_origin, "expected a TOML value after `=` (a number, `true`, `\"text\"`, `[1, 2]`, …)");
        return None;
    }
    // A one-key document laid out so that its value sits at the same byte offsets as in
    // the argument: the value's origins then point into the argument.
    let text = format!("{}v={raw}", " ".repeat(eq.saturating_sub(1)));
    let mut d = Diagnostics::default();
    let parsed = node::parse(file, &text, &mut d).and_then(|t| t.get("v").cloned());
    match parsed {
        Some(v) if d.is_empty() => Some(v),
        _ => {
            let word = raw.trim();
            if word.chars().all(|c| c.is_alphanumeric() || "-_ ".contains(c)) {
                diags.error(
                    value_origin,
                    format!("`{word}` is not a TOML value: a string is quoted, e.g. --set '{}=\"{word}\"'", &arg[..eq]),
                );
            } else {
                diags.error(value_origin, format!("`{}` is not a TOML value", raw.trim()));
            }
            None
        }
    }
}

fn id_of(n: &Node) -> Option<&str> {
    n.get("id")?.as_str()
}

/// `did you mean `x`? (keys: a, b, c)` for an unknown name.
fn names_hint(name: &str, names: &[&str], what: &str) -> String {
    const SHOWN: usize = 24;
    let near = crate::suggest::closest(name, names.iter().copied());
    let mut list: Vec<String> = names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
    if names.len() > SHOWN {
        list.push(format!("… ({} in all)", names.len()));
    }
    let listed =
        if names.is_empty() { format!("it has no {what}") } else { format!("its {what}: {}", list.join(", ")) };
    match near {
        Some(n) => format!("did you mean `{n}`? ({listed})"),
        None => listed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> (Node, Sources) {
        let mut sources = Sources::default();
        let file = sources.add("t.toml", text);
        let mut d = Diagnostics::default();
        let t = node::parse(file, text, &mut d).expect("parses");
        (t, sources)
    }

    fn set(text: &str, sets: &[&str]) -> Result<serde_json::Value, String> {
        let (mut t, mut sources) = tree(text);
        let mut d = Diagnostics::default();
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        apply(&mut t, &sets, &mut sources, &mut d);
        if d.is_empty() { Ok(t.to_json()) } else { Err(d.render(&sources)) }
    }

    const T: &str = "[rules]\nfree = 1\n[setup]\nships = { 4 = [5, 6, 7] }\n[[b]]\nid = \"harbor\"\ncost = 8\n[[b]]\nid = \"wharf\"\ncost = 9\n";

    #[test]
    fn edits_by_key_id_and_index() {
        let j = set(T, &["rules.free=2", "b.harbor.cost=6", "setup.ships.4=[5, 6, 8]", "setup.ships.4.0=4"])
            .expect("applies");
        assert_eq!(j["rules"]["free"], 2);
        assert_eq!(j["b"][0]["cost"], 6);
        assert_eq!(j["b"][1]["cost"], 9);
        assert_eq!(j["setup"]["ships"]["4"], serde_json::json!([4, 6, 8]));
        // A key the table does not state is added (the game checks it).
        assert_eq!(set(T, &["rules.new=true"]).expect("adds")["rules"]["new"], true);
        let (t, _) = tree(T);
        assert_eq!(get(&t, "b.wharf.cost").map(value_text), Some("9".into()));
        assert_eq!(get(&t, "setup.ships.4").map(value_text), Some("[5, 6, 7]".into()));
        assert_eq!(get(&t, "b.nope"), None);
    }

    #[test]
    fn bad_keys_and_values_are_located_with_suggestions() {
        let e = set(T, &["b.harbour.cost=6"]).expect_err("unknown id");
        assert!(e.contains("--set:1:3") && e.contains("did you mean `harbor`?"), "{e}");
        let e = set(T, &["rulez.free=2"]).expect_err("unknown table");
        assert!(e.contains("did you mean `rules`?"), "{e}");
        let e = set(T, &["rules.free=two"]).expect_err("bare word");
        assert!(e.contains("a string is quoted"), "{e}");
        let e = set(T, &["setup.ships.4.3=1"]).expect_err("index");
        assert!(e.contains("from 0 to 2"), "{e}");
        let e = set(T, &["rules.free.x=1"]).expect_err("into an integer");
        assert!(e.contains("is an integer"), "{e}");
        assert!(set(T, &["rules"]).is_err());
        assert!(set(T, &["ruleset.extends=\"x\""]).is_err());
        // The value's origin lies in the argument: the game's type errors point there.
        let (mut t, mut sources) = tree(T);
        let mut d = Diagnostics::default();
        apply(&mut t, &["b.harbor.cost=\"x\"".to_string()], &mut sources, &mut d);
        let cost = t.path("b").and_then(|b| match &b.kind {
            Kind::Array(items) => items[0].get("cost").map(|c| c.origin),
            _ => None,
        });
        assert_eq!(cost.map(|o| sources.locate(o)), Some("--set:1:15".to_string()));
    }
}
