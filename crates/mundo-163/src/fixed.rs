//! A fixed-size array that serialises as a list: serde only derives arrays up to 32
//! elements, and the state keeps one counter per map tile (up to 64).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::{Deref, DerefMut};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arr<T, const N: usize>(pub [T; N]);

impl<T: Copy + Default, const N: usize> Default for Arr<T, N> {
    fn default() -> Self {
        Arr([T::default(); N])
    }
}

impl<T, const N: usize> Deref for Arr<T, N> {
    type Target = [T; N];
    fn deref(&self) -> &[T; N] {
        &self.0
    }
}

impl<T, const N: usize> DerefMut for Arr<T, N> {
    fn deref_mut(&mut self) -> &mut [T; N] {
        &mut self.0
    }
}

impl<T: Serialize, const N: usize> Serialize for Arr<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.as_slice().serialize(s)
    }
}

impl<'de, T: Deserialize<'de> + Copy + Default, const N: usize> Deserialize<'de> for Arr<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: Vec<T> = Vec::deserialize(d)?;
        if v.len() != N {
            return Err(serde::de::Error::custom(format!("expected {N} elements, found {}", v.len())));
        }
        let mut out = Arr::default();
        out.0.copy_from_slice(&v);
        Ok(out)
    }
}
