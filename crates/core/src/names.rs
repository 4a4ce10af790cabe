//! The ruleset's names in state JSON. Games keep counts and flags by index (goods,
//! buildings, tiles, privileges …); their state JSON shows them as maps keyed by the
//! ruleset's names, so that scenarios can point at `/players/0/goods/sugar`. Every game
//! writes and reads those maps here, with every error at the JSON Pointer of the key:
//! `/players/0/goods/rum: unknown key (expected one of corn, sugar)`.

use std::collections::BTreeMap;

/// `{ name: value }` over a ruleset list, in its order (values past the names ignored).
pub fn map<T: Copy>(names: impl IntoIterator<Item = impl Into<String>>, values: &[T]) -> BTreeMap<String, T> {
    names.into_iter().zip(values).map(|(n, &v)| (n.into(), v)).collect()
}

/// Reads a map that names every one of `names` and nothing else (at `path`): its values
/// in the order of `names`.
pub fn every<'m, 'a, T>(
    path: &str,
    map: &'m BTreeMap<String, T>,
    names: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<Vec<&'m T>, String> {
    only_known(path, map, names.clone())?;
    names.into_iter().map(|name| map.get(name).ok_or_else(|| format!("{path}/{name}: missing"))).collect()
}

/// [`every`] into an array by index (the places past the names take the default).
pub fn every_array<'a, T: Copy + Default, const N: usize>(
    path: &str,
    map: &BTreeMap<String, T>,
    names: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<[T; N], String> {
    let mut out = [T::default(); N];
    for (slot, &v) in out.iter_mut().zip(every(path, map, names)?) {
        *slot = v;
    }
    Ok(out)
}

/// Reads a map whose keys are some of `names` (at `path`) into an array by index; the
/// names left out, and the places past them, take the default.
pub fn some<'a, T: Copy + Default, const N: usize>(
    path: &str,
    map: &BTreeMap<String, T>,
    names: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<[T; N], String> {
    only_known(path, map, names.clone())?;
    let mut out = [T::default(); N];
    for (slot, name) in out.iter_mut().zip(names) {
        if let Some(&v) = map.get(name) {
            *slot = v;
        }
    }
    Ok(out)
}

/// The index of `name` among `names` (a `what`, at `path`).
pub fn index<'a>(
    path: &str,
    what: &str,
    name: &str,
    names: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<usize, String> {
    names
        .clone()
        .into_iter()
        .position(|k| k == name)
        .ok_or_else(|| format!("{path}: unknown {what} `{name}` (expected one of {})", listing(names)))
}

fn only_known<'a, T>(
    path: &str,
    map: &BTreeMap<String, T>,
    names: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<(), String> {
    match map.keys().find(|k| !names.clone().into_iter().any(|n| n == k.as_str())) {
        Some(k) => Err(format!("{path}/{k}: unknown key (expected one of {})", listing(names))),
        None => Ok(()),
    }
}

/// The names for a message: all of them, or the first [`LISTED`] and how many there are
/// (a map's 61 tiles would bury the message).
fn listing<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let all: Vec<&str> = names.into_iter().collect();
    if all.len() <= LISTED {
        all.join(", ")
    } else {
        format!("{}, … ({} in all)", all[..LISTED].join(", "), all.len())
    }
}

/// Most names a message lists.
const LISTED: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_both_ways_with_errors_at_their_pointer() {
        let goods = ["corn", "sugar"];
        let m = map(goods, &[3u8, 0, 9]);
        assert_eq!(m, BTreeMap::from([("corn".to_string(), 3), ("sugar".to_string(), 0)]));
        assert_eq!(every("/supply", &m, goods), Ok(vec![&3, &0]));
        assert_eq!(some::<u8, 3>("/supply", &m, goods), Ok([3, 0, 0]));
        assert_eq!(every_array::<u8, 3>("/supply", &m, goods), Ok([3, 0, 0]));
        let part = BTreeMap::from([("sugar".to_string(), 2u8)]);
        assert_eq!(some::<u8, 2>("/p/0/goods", &part, goods), Ok([0, 2]));
        assert_eq!(every("/p/0/goods", &part, goods), Err("/p/0/goods/corn: missing".to_string()));
        let rum = BTreeMap::from([("rum".to_string(), 1u8)]);
        let unknown = "/p/0/goods/rum: unknown key (expected one of corn, sugar)".to_string();
        assert_eq!(some::<u8, 2>("/p/0/goods", &rum, goods), Err(unknown.clone()));
        assert_eq!(every("/p/0/goods", &rum, goods), Err(unknown));
        assert_eq!(index("/car", "citizen", "sugar", goods), Ok(1));
        let many: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
        let e = index("/tile", "tile", "x", many.iter().map(String::as_str));
        assert_eq!(
            e,
            Err(format!("/tile: unknown tile `x` (expected one of {}, … (20 in all))", many[..16].join(", ")))
        );
        assert_eq!(
            index("/car", "citizen", "rum", goods),
            Err("/car: unknown citizen `rum` (expected one of corn, sugar)".to_string())
        );
    }
}
