//! Deep merge for `extends`: a house-rule file states only what differs.
//!
//! - Tables merge key by key, recursively; a table whose value is a table with
//!   `remove = true` deletes the base's entry of that key (`[goods.coffee] remove = true`).
//! - Arrays of tables whose elements all have an `id` merge by `id`: an element with a
//!   known id is merged into the base's element, a new id is appended, and an element
//!   with `remove = true` deletes the base's element of that id.
//! - Anything else in the child replaces the base's value.

use super::diag::{Diagnostics, Sources};
use super::node::{Entry, Kind, Node};
use std::collections::HashMap;

/// Merges `child` over `base`. A new element whose id is close to one of the base's (a
/// misspelling, most likely) is noted in `sources`, so that the keys it then lacks are
/// reported as one problem with a suggestion.
pub fn merge(base: Node, child: Node, diags: &mut Diagnostics, sources: &mut Sources) -> Node {
    match (base.kind, child.kind) {
        (Kind::Table(mut base_entries), Kind::Table(child_entries)) => {
            // Keys looked up by hash: a file with many keys merges in linear time.
            let mut at: HashMap<String, usize> =
                base_entries.iter().enumerate().map(|(i, e)| (e.key.clone(), i)).collect();
            // Removed entries leave an empty slot until the end, so positions stay valid.
            let mut removed = vec![false; base_entries.len()];
            for entry in child_entries {
                if is_removal(&entry.value) {
                    match at.remove(&entry.key) {
                        Some(i) => removed[i] = true,
                        None => diags.error(
                            entry.value.origin,
                            format!(
                                "cannot remove `{}`: the base ruleset has no such entry{}",
                                entry.key,
                                crate::suggest::hint(&entry.key, at.keys().map(String::as_str))
                            ),
                        ),
                    }
                    continue;
                }
                match at.get(&entry.key) {
                    Some(&i) => {
                        let old = std::mem::replace(&mut base_entries[i].value, placeholder());
                        base_entries[i].value = merge(old, entry.value, diags, sources);
                        base_entries[i].key_origin = entry.key_origin;
                    }
                    None => {
                        at.insert(entry.key.clone(), base_entries.len());
                        base_entries.push(strip_removals(entry, diags));
                    }
                }
            }
            let kept = base_entries.into_iter().enumerate().filter(|(i, _)| !removed.get(*i).copied().unwrap_or(false));
            Node { kind: Kind::Table(kept.map(|(_, e)| e).collect()), origin: child.origin }
        }
        (Kind::Array(base_items), Kind::Array(child_items))
            if is_keyed(&base_items) && is_keyed(&child_items) && !base_items.is_empty() =>
        {
            // Removed elements leave an empty slot until the end, so positions stay valid.
            let mut items: Vec<Option<Node>> = base_items.into_iter().map(Some).collect();
            let mut at: HashMap<String, usize> = HashMap::new();
            for (i, item) in items.iter().enumerate() {
                if let Some(id) = item.as_ref().and_then(id_of) {
                    at.entry(id.to_string()).or_insert(i);
                }
            }
            for item in child_items {
                let Some(id) = id_of(&item).map(str::to_string) else {
                    continue;
                };
                let pos = at.get(&id).copied();
                if is_removal(&item) {
                    match pos {
                        Some(i) => {
                            items[i] = None;
                            at.remove(&id);
                        }
                        None => diags.error(
                            item.origin,
                            format!(
                                "cannot remove `{id}`: the base ruleset has no element with that id{}",
                                crate::suggest::hint(&id, items.iter().flatten().filter_map(id_of))
                            ),
                        ),
                    }
                    continue;
                }
                match pos.and_then(|i| items[i].take().map(|old| (i, old))) {
                    Some((i, old)) => items[i] = Some(merge(old, item, diags, sources)),
                    None => {
                        if let Some(near) = crate::suggest::closest(&id, items.iter().flatten().filter_map(id_of)) {
                            if !is_variant(&id, near) {
                                sources.near_miss(item.origin, &id, near);
                            }
                        }
                        at.insert(id, items.len());
                        items.push(Some(item));
                    }
                }
            }
            Node { kind: Kind::Array(items.into_iter().flatten().collect()), origin: child.origin }
        }
        (_, kind) => Node { kind, origin: child.origin },
    }
}

/// Whether `id` names a deliberate variant of `base`, `base` with a part joined by `-` or
/// `_` or a number (`settler-2`, `big_harbor`, `city11`): a new element, not a misspelling.
fn is_variant(id: &str, base: &str) -> bool {
    let joined = |rest: &str, at_end: bool| {
        let c = if at_end { rest.chars().next() } else { rest.chars().last() };
        c.is_some_and(|c| c == '-' || c == '_' || c.is_ascii_digit())
    };
    id.strip_prefix(base).is_some_and(|rest| joined(rest, true))
        || id.strip_suffix(base).is_some_and(|rest| joined(rest, false))
}

/// A file with no base still may not say `remove = true`: report it instead of
/// silently keeping an element the author meant to delete.
fn strip_removals(entry: Entry, diags: &mut Diagnostics) -> Entry {
    if let Kind::Array(items) = &entry.value.kind {
        if is_keyed(items) {
            for item in items.iter().filter(|i| is_removal(i)) {
                diags.error(
                    item.origin,
                    format!("cannot remove `{}`: the base ruleset has no `{}`", id_of(item).unwrap_or("?"), entry.key),
                );
            }
        }
    }
    entry
}

fn placeholder() -> Node {
    Node { kind: Kind::Bool(false), origin: Default::default() }
}

fn id_of(node: &Node) -> Option<&str> {
    node.get("id")?.as_str()
}

fn is_keyed(items: &[Node]) -> bool {
    items.iter().all(|i| id_of(i).is_some())
}

fn is_removal(node: &Node) -> bool {
    matches!(node.get("remove").map(|n| &n.kind), Some(Kind::Bool(true)))
}

/// Removes `remove = true` markers left in a tree that had nothing to remove from.
pub fn drop_removed(node: &mut Node) {
    match &mut node.kind {
        Kind::Table(entries) => entries.iter_mut().for_each(|e| drop_removed(&mut e.value)),
        Kind::Array(items) => {
            items.retain(|i| !is_removal(i));
            items.iter_mut().for_each(drop_removed);
        }
        _ => {}
    }
}
