//! Rulesets as data: loading with `extends`, diagnostics, and the merged tree.
//!
//! A ruleset file is TOML with a `[ruleset]` table (`name`, `game`, `description`,
//! optional `extends`) and the game's own tables. Loading resolves `extends` (a bundled
//! name, or a path relative to the extending file), deep-merges (see [`merge`]), and
//! returns the effective tree with every value's origin. The game crate's typed rules
//! then read themselves from the tree with [`de`], with the checks across sections after;
//! the hand reader [`decode`] reads only `[ruleset]` and scenario files.

pub mod de;
pub mod decode;
pub mod diag;
pub mod merge;
pub mod node;
pub mod overrides;

pub use decode::Table;
pub use diag::{Diagnostic, Diagnostics, Origin, Sources};
pub use node::{Entry, Kind, Node};

use sha2::{Digest as _, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A ruleset shipped inside the binary.
#[derive(Clone, Copy, Debug)]
pub struct Bundled {
    /// The name users type: `puerto-rico`.
    pub name: &'static str,
    /// Where it lives in the repository, for messages: `rulesets/puerto-rico.toml`.
    pub path: &'static str,
    pub text: &'static str,
}

/// The effective ruleset: the merged tree and the files it came from.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub sources: Sources,
    pub tree: Node,
    /// `[ruleset] name` (or the file stem when a file leaves it out).
    pub name: String,
    /// `[ruleset] game`.
    pub game: String,
    pub description: String,
    /// The `--set KEY=VALUE` overrides applied to the merged tree, in order.
    pub overrides: Vec<String>,
}

/// A ruleset that could not be loaded: the diagnostics and the files to render them.
#[derive(Clone, Debug)]
pub struct LoadFailure {
    pub sources: Sources,
    pub diagnostics: Diagnostics,
}

impl LoadFailure {
    pub fn render(&self) -> String {
        self.diagnostics.render(&self.sources)
    }
}

impl std::fmt::Display for LoadFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.render().trim_end())
    }
}

impl std::error::Error for LoadFailure {}

impl Loaded {
    /// A digest of the effective ruleset: records carry it so that a replay against a
    /// changed ruleset is refused.
    pub fn digest(&self) -> String {
        digest_of(&self.tree)
    }

    /// A digest of the rules alone (the tree without the name, description and `extends`
    /// of its `[ruleset]` table; the game stays): two rulesets with the same one play the
    /// same games.
    pub fn rules_digest(&self) -> String {
        let mut tree = self.tree.clone();
        if let Kind::Table(entries) = &mut tree.kind {
            for e in entries.iter_mut().filter(|e| e.key == "ruleset") {
                if let Kind::Table(meta) = &mut e.value.kind {
                    meta.retain(|m| !["name", "description", "extends"].contains(&m.key.as_str()));
                }
            }
        }
        digest_of(&tree)
    }

    /// The effective ruleset as TOML text.
    pub fn to_toml_string(&self) -> String {
        let mut tree = self.tree.clone();
        // `extends` has been applied; showing it would apply it twice.
        if let Kind::Table(entries) = &mut tree.kind {
            if let Some(r) = entries.iter_mut().find(|e| e.key == "ruleset") {
                if let Kind::Table(meta) = &mut r.value.kind {
                    meta.retain(|e| e.key != "extends");
                }
            }
        }
        toml::to_string_pretty(&tree.to_toml()).unwrap_or_default()
    }
}

/// SHA-256 of the canonical JSON (sorted keys) of a tree, as hex.
pub fn digest_of(tree: &Node) -> String {
    let mut canonical = Vec::new();
    canonical_json(&tree.to_json(), &mut canonical);
    let hash = Sha256::digest(&canonical);
    let mut hex = String::with_capacity(2 * hash.len());
    for b in hash {
        // Writing to a `String` cannot fail.
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

/// Appends `v` as compact JSON with every object's keys sorted, into one buffer (every
/// run digests its ruleset: no string per value).
fn canonical_json(v: &serde_json::Value, out: &mut Vec<u8>) {
    use serde_json::Value as J;
    match v {
        J::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push(b'{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                // Writing to a `Vec` cannot fail, and a string always serializes.
                let _ = serde_json::to_writer(&mut *out, k);
                out.push(b':');
                canonical_json(&map[k.as_str()], out);
            }
            out.push(b'}');
        }
        J::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                canonical_json(item, out);
            }
            out.push(b']');
        }
        // Scalars as `Value`'s `Display` writes them (the same compact serializer).
        other => {
            let _ = serde_json::to_writer(&mut *out, other);
        }
    }
}

/// Resolves a ruleset argument: a bundled name, or a path to a `.toml` file.
pub fn load(arg: &str, bundled: &[Bundled]) -> Result<Loaded, LoadFailure> {
    load_with(arg, bundled, &[])
}

/// [`load`], then the `--set KEY=VALUE` overrides applied to the merged tree (see
/// [`overrides`]) before anything reads it.
pub fn load_with(arg: &str, bundled: &[Bundled], sets: &[String]) -> Result<Loaded, LoadFailure> {
    let mut sources = Sources::default();
    let mut diags = Diagnostics::default();
    let tree = load_rec(arg, None, None, bundled, &mut sources, &mut diags, &mut Vec::new());
    let failure = |sources: Sources, diagnostics: Diagnostics| LoadFailure { sources, diagnostics };
    let Some(mut tree) = tree else {
        return Err(failure(sources, diags));
    };
    merge::drop_removed(&mut tree);
    // Overrides edit a tree that loaded cleanly (an error in a file is reported first).
    if diags.is_empty() {
        overrides::apply(&mut tree, sets, &mut sources, &mut diags);
    }
    let stem = Path::new(arg).file_stem().and_then(|s| s.to_str()).unwrap_or(arg).to_string();
    let meta = |key: &str| tree.path(&format!("ruleset.{key}")).and_then(Node::as_str).map(str::to_string);
    let name = meta("name").unwrap_or(stem);
    let description = meta("description").unwrap_or_default();
    let Some(game) = meta("game") else {
        diags.error(
            tree.origin,
            "missing `[ruleset] game`: expected the game this ruleset plays (e.g. \"puerto-rico\")",
        );
        return Err(failure(sources, diags));
    };
    if !diags.is_empty() {
        return Err(failure(sources, diags));
    }
    Ok(Loaded { sources, tree, name, game, description, overrides: sets.to_vec() })
}

/// How many files an `extends` chain may hold (the file itself included).
pub const MAX_EXTENDS_DEPTH: usize = 16;

/// Reads `arg` and what it extends. `named_at` is the `extends` value that named `arg` (none
/// for the file given on the command line): its problems are located there.
fn load_rec(
    arg: &str,
    named_at: Option<Origin>,
    from_dir: Option<&Path>,
    bundled: &[Bundled],
    sources: &mut Sources,
    diags: &mut Diagnostics,
    chain: &mut Vec<String>,
) -> Option<Node> {
    let (display, text, dir, is_bundled) = match read(arg, from_dir, bundled) {
        Ok(found) => found,
        Err(msg) => {
            diags.error_at(named_at, msg);
            return None;
        }
    };
    if chain.contains(&display) {
        diags.error_at(named_at, format!("`extends` loops: {} → {display}", chain.join(" → ")));
        return None;
    }
    if chain.len() >= MAX_EXTENDS_DEPTH {
        diags.error_at(
            named_at,
            format!(
                "`extends` chain longer than the limit of {MAX_EXTENDS_DEPTH} files: {} → {display}",
                chain.join(" → ")
            ),
        );
        return None;
    }
    chain.push(display.clone());
    let file = if is_bundled { sources.add_bundled(display, text.clone()) } else { sources.add(display, text.clone()) };
    let mut tree = node::parse(file, &text, diags)?;
    check_meta(&tree, diags);
    let parent = tree.path("ruleset.extends").cloned();
    let result = match parent {
        None => Some(tree),
        Some(p) => match p.as_str() {
            Some(parent_arg) => {
                let base = load_rec(parent_arg, Some(p.origin), dir.as_deref(), bundled, sources, diags, chain);
                // A child's `name` and `description` are its own; a missing one must not
                // inherit the base's name.
                if let Kind::Table(entries) = &mut tree.kind {
                    if let Some(r) = entries.iter_mut().find(|e| e.key == "ruleset") {
                        if let Kind::Table(meta) = &mut r.value.kind {
                            if !meta.iter().any(|e| e.key == "name") {
                                let origin = r.value.origin;
                                meta.push(Entry {
                                    key: "name".into(),
                                    key_origin: origin,
                                    value: Node { kind: Kind::Str(file_stem(sources.name(file))), origin },
                                });
                            }
                        }
                    }
                }
                base.map(|b| merge::merge(b, tree, diags, sources))
            }
            None => {
                diags.error(
                    p.origin,
                    format!("expected a string (a bundled ruleset name or a path), found {}", p.type_name()),
                );
                None
            }
        },
    };
    chain.pop();
    result
}

fn file_stem(path: &str) -> String {
    Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or(path).to_string()
}

/// The `[ruleset]` table takes exactly these keys.
fn check_meta(tree: &Node, diags: &mut Diagnostics) {
    let Some(meta) = tree.get("ruleset") else {
        return;
    };
    let Some(mut t) = Table::new(meta, diags) else {
        return;
    };
    for key in ["name", "description", "extends", "game"] {
        if let Some(n) = t.get(key) {
            decode::str_of(n, diags);
        }
    }
    t.finish(diags);
}

/// What [`read`] found: display name, text, directory for relative `extends`, and
/// whether it is a bundled ruleset.
type Read = (String, String, Option<PathBuf>, bool);

/// Reads a bundled ruleset or a file.
fn read(arg: &str, from_dir: Option<&Path>, bundled: &[Bundled]) -> Result<Read, String> {
    let looks_like_path = arg.ends_with(".toml") || arg.contains('/') || arg.contains('\\');
    if !looks_like_path {
        return match bundled.iter().find(|b| b.name == arg) {
            Some(b) => Ok((b.path.to_string(), b.text.to_string(), None, true)),
            None => {
                let names: Vec<&str> = bundled.iter().map(|b| b.name).collect();
                Err(format!(
                    "unknown ruleset `{arg}`: expected a bundled ruleset ({}) or a path to a .toml file{}",
                    names.join(", "),
                    crate::suggest::hint(arg, names.iter().copied())
                ))
            }
        };
    }
    let path = match from_dir {
        Some(dir) => dir.join(arg),
        None => PathBuf::from(arg),
    };
    match crate::input::read_text(&path) {
        Ok(text) => Ok((path.display().to_string(), text, path.parent().map(Path::to_path_buf), false)),
        Err(crate::input::InputError::Io { path, message }) => {
            Err(format!("cannot read ruleset file `{path}`: {message}"))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// One difference between two effective rulesets.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Difference {
    /// Dotted path; elements of arrays keyed by `id` appear as `buildings[hacienda]`.
    pub key: String,
    /// `None` when the key is only in the other ruleset.
    pub a: Option<serde_json::Value>,
    pub b: Option<serde_json::Value>,
}

/// The effective differences between two rulesets, key by key, in a stable order.
pub fn diff(a: &Node, b: &Node) -> Vec<Difference> {
    let mut fa = Vec::new();
    let mut fb = Vec::new();
    flatten(a, String::new(), &mut fa);
    flatten(b, String::new(), &mut fb);
    let mut out = Vec::new();
    for (k, va) in &fa {
        match fb.iter().find(|(kb, _)| kb == k) {
            Some((_, vb)) if vb == va => {}
            Some((_, vb)) => out.push(Difference { key: k.clone(), a: Some(va.clone()), b: Some(vb.clone()) }),
            None => out.push(Difference { key: k.clone(), a: Some(va.clone()), b: None }),
        }
    }
    for (k, vb) in &fb {
        if !fa.iter().any(|(ka, _)| ka == k) {
            out.push(Difference { key: k.clone(), a: None, b: Some(vb.clone()) });
        }
    }
    out
}

fn flatten(n: &Node, prefix: String, out: &mut Vec<(String, serde_json::Value)>) {
    let join = |p: &str, k: &str| {
        if p.is_empty() { k.to_string() } else { format!("{p}.{k}") }
    };
    match &n.kind {
        Kind::Table(entries) => {
            for e in entries {
                flatten(&e.value, join(&prefix, &e.key), out);
            }
        }
        Kind::Array(items)
            if !items.is_empty() && items.iter().all(|i| i.get("id").and_then(Node::as_str).is_some()) =>
        {
            for i in items {
                let id = i.get("id").and_then(Node::as_str).unwrap_or_default();
                flatten(i, format!("{prefix}[{id}]"), out);
            }
        }
        _ => out.push((prefix, n.to_json())),
    }
}

#[cfg(test)]
mod tests;
