//! No module of any crate of the workspace (every `crates/*/src`, and the binary's `src`)
//! depends on a module that depends on it (issue 10: the phases
//! of Puerto Rico once called each other in cycles). Read from the sources: a module
//! depends on another when its code (comments and `#[cfg(test)]` parts aside) names it
//! through `crate::…`, `super::…`, or a child module by its bare name; an item named at the
//! crate root counts as the module the root re-exports it from, or the root itself.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every source folder of the workspace: each crate's `src` (`crates/*/src`) and the
/// binary's library (`src/`; `main.rs` names it as `rulesmith::`, an outside crate), found
/// on disk, not listed by hand, so that a new crate is checked from its first commit.
fn source_folders(root: &Path) -> std::io::Result<Vec<String>> {
    let mut out = vec!["src".to_string()];
    for entry in std::fs::read_dir(root.join("crates"))? {
        let dir = entry?.path();
        if let (true, Some(name)) = (dir.join("src").is_dir(), dir.file_name()) {
            out.push(format!("crates/{}/src", name.to_string_lossy()));
        }
    }
    out.sort();
    Ok(out)
}

/// Module path (`""` for the root, `phases::settler`) → its code without comments and tests.
fn modules(src: &Path) -> std::io::Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let Ok(rel) = path.strip_prefix(src) else { continue };
            let rel = rel.with_extension("");
            let rel = rel.to_string_lossy().replace('\\', "/");
            let name = match rel.as_str() {
                "lib" => String::new(),
                r => r.strip_suffix("/mod").unwrap_or(r).replace('/', "::"),
            };
            let text = std::fs::read_to_string(&path)?;
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let code: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
            out.insert(name, code.join("\n"));
        }
    }
    Ok(out)
}

fn parent(m: &str) -> &str {
    m.rfind("::").map_or("", |i| &m[..i])
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() { b.to_string() } else { format!("{a}::{b}") }
}

/// Every path written after `prefix` (`crate::`, `super::`, `name::`), with `{a, b::c}`
/// groups expanded, as lists of segments.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(i) = code[from..].find(prefix) {
        let at = from + i;
        from = at + prefix.len();
        // A whole word only (`xcrate::` or `a.crate::` are not ours).
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
            continue;
        }
        let rest = &code[from..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(0)];
            for part in inner.split(',') {
                let segs: Vec<String> = part.trim().split("::").map(|s| s.trim().to_string()).collect();
                if segs.first().is_some_and(|s| !s.is_empty()) {
                    out.push(segs);
                }
            }
            continue;
        }
        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
        let segs: Vec<String> = rest[..end].split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
        if !segs.is_empty() {
            out.push(segs);
        }
    }
    out
}

/// The module a path (segments from `base`) names: its longest module prefix; an item of
/// the root counts as the module the root re-exports it from.
fn resolve(
    mods: &BTreeMap<String, String>,
    reexports: &BTreeMap<String, String>,
    base: &str,
    segs: &[String],
) -> String {
    // `super::super::x`: each further `super` is one level up.
    let (mut base, mut segs) = (base, segs);
    while let Some(rest) = segs.strip_prefix(&["super".to_string()]) {
        (base, segs) = (parent(base), rest);
    }
    let mut found = base.to_string();
    let mut at = base.to_string();
    for (k, s) in segs.iter().enumerate() {
        let next = join(&at, s);
        if mods.contains_key(&next) {
            found = next.clone();
            at = next;
        } else {
            if k == 0 && base.is_empty() {
                if let Some(m) = reexports.get(s) {
                    return m.clone();
                }
            }
            break;
        }
    }
    found
}

fn graph(src: &Path) -> std::io::Result<BTreeMap<String, BTreeSet<String>>> {
    let mods = modules(src)?;
    // `pub use action::{Action, Group};` at the root: Action → action.
    let mut reexports = BTreeMap::new();
    for line in mods.get("").map_or("", String::as_str).lines().filter(|l| l.starts_with("pub use ")) {
        let path = line.trim_start_matches("pub use ").trim_end_matches(';');
        let Some((module, items)) = path.split_once("::") else { continue };
        // Re-exported from another crate (the harness re-exports the rules core's
        // modules): a node of its own, outside this crate's graph.
        let module = if mods.contains_key(module) { module.to_string() } else { format!("extern {module}") };
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            let item = item.trim().rsplit("::").next().unwrap_or("").to_string();
            reexports.insert(item, module.clone());
        }
    }
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, code) in &mods {
        let mut deps = BTreeSet::new();
        for segs in paths_after(code, "crate::") {
            deps.insert(resolve(&mods, &reexports, "", &segs));
        }
        // `super::` on an indented line of a file with inline modules (`mod serde_x {`)
        // is the file's own module, seen from inside one of them.
        let inline = code.lines().any(|l| l.trim_start().starts_with("mod ") && l.trim_end().ends_with('{'));
        for line in code.lines() {
            let own = inline && line.starts_with(char::is_whitespace);
            for segs in paths_after(line, "super::") {
                deps.insert(resolve(&mods, &reexports, if own { m } else { parent(m) }, &segs));
            }
        }
        for child in mods.keys().filter(|c| !c.is_empty() && parent(c) == m) {
            let bare = child.rsplit("::").next().unwrap_or(child);
            if !paths_after(code, &format!("{bare}::")).is_empty() {
                deps.insert(child.clone());
            }
        }
        deps.remove(m);
        g.insert(m.clone(), deps);
    }
    Ok(g)
}

/// A cycle through `start`, if any (depth-first).
fn cycle_from(g: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in g.get(&at).into_iter().flatten() {
            if next == start {
                let mut c = path.clone();
                c.push(start.to_string());
                return Some(c);
            }
            if seen.insert(next.clone()) {
                let mut p = path.clone();
                p.push(next.clone());
                stack.push((next.clone(), p));
            }
        }
    }
    None
}

#[test]
fn no_module_cycle_in_any_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folders = source_folders(root).unwrap();
    assert!(folders.len() >= 12, "found only {folders:?}");
    for must in
        ["src", "crates/core/src", "crates/serve/src", "crates/testkit/src", "crates/game/src", "crates/python/src"]
    {
        assert!(folders.iter().any(|f| f == must), "{must} not walked: {folders:?}");
    }
    let mut cycles = Vec::new();
    for krate in &folders {
        let g = graph(&root.join(krate)).unwrap();
        assert!(!g.is_empty(), "{krate}: read no module");
        for m in g.keys() {
            if let Some(c) = cycle_from(&g, m) {
                let names: Vec<&str> = c.iter().map(|x| if x.is_empty() { "(root)" } else { x.as_str() }).collect();
                cycles.push(format!("{krate}: {}", names.join(" → ")));
                break;
            }
        }
    }
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_cycle_check_sees_a_cycle() {
    let dir = std::env::temp_dir().join(format!("rulesmith-modules-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("phases")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
    write("lib.rs", "pub mod phases;\npub mod rules;\npub use rules::Rules;\n");
    write("rules.rs", "// crate::phases in a comment does not count\npub struct Rules;\n");
    write("phases/mod.rs", "mod other;\nmod settler;\npub fn legal() { settler::legal() }\n");
    write("phases/settler.rs", "use crate::{Rules, phases::legal};\npub fn legal() {}\n");
    // `super::super::rules` from `phases::other` is the root's `rules`, not `phases`.
    write("phases/other.rs", "pub fn f() { super::super::rules::f() }\n");
    let g = graph(&dir).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(g["phases::settler"], BTreeSet::from(["rules".to_string(), "phases".to_string()]));
    assert_eq!(g["phases::other"], BTreeSet::from(["rules".to_string()]));
    assert_eq!(g["rules"], BTreeSet::new());
    assert!(cycle_from(&g, "phases").is_some());
    assert!(cycle_from(&g, "rules").is_none());
}

/// Issue 29: production code calls no test helper. The test kit is its own crate,
/// `rulesmith-testkit`, which every crate names only among its dev-dependencies; the
/// harness's `testing` module is the toy game, which no other harness module reaches
/// outside tests. The rules core depends on nothing of the harness.
#[test]
fn production_code_calls_no_test_helper() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut manifests = vec![root.join("Cargo.toml")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let path = entry.unwrap().path().join("Cargo.toml");
        if path.is_file() {
            manifests.push(path);
        }
    }
    for path in &manifests {
        let text = std::fs::read_to_string(path).unwrap();
        let manifest: toml::Table = toml::from_str(&text).unwrap();
        for section in ["dependencies", "build-dependencies"] {
            let deps = manifest.get(section).and_then(toml::Value::as_table);
            assert!(
                deps.is_none_or(|d| !d.contains_key("rulesmith-testkit")),
                "{}: the test kit among its {section}",
                path.display()
            );
        }
    }
    let g = graph(&root.join("crates/core/src")).unwrap();
    let offenders: Vec<&String> = g
        .iter()
        .filter(|(m, deps)| {
            !m.starts_with("testing") && !m.ends_with("tests") && deps.iter().any(|d| d.starts_with("testing"))
        })
        .map(|(m, _)| m)
        .collect();
    assert!(offenders.is_empty(), "modules that reach the toy game outside tests: {offenders:?}");
    let manifest = std::fs::read_to_string(root.join("crates/rules/Cargo.toml")).unwrap();
    assert!(!manifest.contains("rulesmith-core"), "crates/rules depends on the harness");
}

/// Issue 44: the erased layer is split by capability, no trait object of it larger than
/// 15 methods (a front end asks for the part it needs: play, views, bots, encodings).
#[test]
fn no_erased_trait_has_more_than_15_methods() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("crates/core/src/erased.rs")).unwrap();
    let mut counts = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("pub trait ") {
            let name = rest.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("").to_string();
            counts.insert(name.clone(), 0);
            current = Some(name);
        } else if line == "}" {
            current = None;
        } else if let Some(name) = &current {
            if line.trim_start().starts_with("fn ") {
                *counts.get_mut(name).unwrap() += 1;
            }
        }
    }
    for must in ["AnyGame", "AnySession", "SessionViews", "SessionBots", "SessionEncodings"] {
        assert!(counts.get(must).is_some_and(|&n| n > 0), "{must} not read: {counts:?}");
    }
    let large: Vec<_> = counts.iter().filter(|(_, n)| **n > 15).collect();
    assert!(large.is_empty(), "erased traits with more than 15 methods: {large:?}");
}
