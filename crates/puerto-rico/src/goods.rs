//! The five goods and a map keyed by them.

use serde::{Deserialize, Serialize};

/// A kind of good (and of plantation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Good {
    Corn,
    Indigo,
    Sugar,
    Tobacco,
    Coffee,
}

impl Good {
    pub const ALL: [Good; 5] = [Good::Corn, Good::Indigo, Good::Sugar, Good::Tobacco, Good::Coffee];
    pub const NAMES: [&'static str; 5] = ["corn", "indigo", "sugar", "tobacco", "coffee"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn from_name(s: &str) -> Option<Good> {
        Self::NAMES.iter().position(|n| *n == s).map(|i| Self::ALL[i])
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// One `T` per good. Serialises as a map `{ "corn": .., "indigo": .. }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByGood<T>(pub [T; 5]);

impl<T> std::ops::Index<Good> for ByGood<T> {
    type Output = T;
    fn index(&self, g: Good) -> &T {
        &self.0[g as usize]
    }
}

impl<T> std::ops::IndexMut<Good> for ByGood<T> {
    fn index_mut(&mut self, g: Good) -> &mut T {
        &mut self.0[g as usize]
    }
}

impl<T: Copy> ByGood<T> {
    pub fn iter(&self) -> impl Iterator<Item = (Good, T)> + '_ {
        Good::ALL.iter().map(move |&g| (g, self[g]))
    }
}

impl ByGood<u8> {
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&v| u32::from(v)).sum()
    }
}

/// Barrels by good are the core's tallies (kind = [`Good::index`]): they move with
/// [`rulesmith_core::cargo::transfer`].
impl rulesmith_core::cargo::Tally for ByGood<u8> {
    fn count(&self, kind: usize) -> u32 {
        self.0.count(kind)
    }

    fn put(&mut self, kind: usize, n: u32) -> bool {
        self.0.put(kind, n)
    }

    fn take(&mut self, kind: usize, n: u32) -> bool {
        self.0.take(kind, n)
    }
}

impl<T: Serialize> Serialize for ByGood<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(5))?;
        for g in Good::ALL {
            m.serialize_entry(g.name(), &self.0[g as usize])?;
        }
        m.end()
    }
}

impl<'de, T: Deserialize<'de> + Default + Copy> Deserialize<'de> for ByGood<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map: std::collections::BTreeMap<String, T> = std::collections::BTreeMap::deserialize(d)?;
        let mut out = ByGood::<T>::default();
        for (k, v) in map {
            match Good::from_name(&k) {
                Some(g) => out[g] = v,
                None => {
                    return Err(serde::de::Error::custom(format!(
                        "unknown good `{k}`: expected one of {}{}",
                        Good::NAMES.join(", "),
                        rulesmith_core::suggest::hint(&k, Good::NAMES.iter().copied())
                    )));
                }
            }
        }
        Ok(out)
    }
}
