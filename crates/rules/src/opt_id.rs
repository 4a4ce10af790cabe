//! An id that may be absent, in one byte: a pawn before its first visit, a building
//! nobody owns, a turn before the car stops. Game states keep such values in fixed
//! arrays copied on every playout step, so `Option<u8>` (two bytes) would grow them and a
//! bare `u8` with a "none" value (`u8::MAX`) lets code forget to check for it.
//!
//! ```
//! use rulesmith_rules::OptId;
//!
//! let mut owner = [OptId::NONE; 4]; // nobody owns a building yet
//! owner[2] = OptId::some(1); // seat 1 buys the third
//! assert_eq!(owner[2].get(), Some(1));
//! assert_eq!(owner.iter().filter(|o| o.is_none()).count(), 3);
//! assert_eq!(OptId::from(None), OptId::NONE);
//! // As JSON: the id, or null.
//! assert_eq!(serde_json::to_string(&owner[..3]).unwrap(), "[null,null,1]");
//! assert_eq!(std::mem::size_of::<OptId>(), 1);
//! ```

use serde::de::{Error, Unexpected};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An id (a seat, or an index into one of the ruleset's lists) or none, in one byte.
///
/// Ids go up to [`OptId::MAX`]: the byte's last value stands for none, so
/// `OptId::some(u8::MAX)` is [`OptId::NONE`] (every list a ruleset may declare is far
/// shorter). Compare with `==` against [`OptId::some`] or [`OptId::NONE`], or read it with
/// [`OptId::get`]. Serialises as the id or `null`, as `Option<u8>` does; reading refuses
/// `u8::MAX`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct OptId(u8);

impl OptId {
    /// No id.
    pub const NONE: OptId = OptId(u8::MAX);
    /// The largest id an [`OptId`] holds.
    pub const MAX: u8 = u8::MAX - 1;

    /// The id `id` (none if it is above [`OptId::MAX`]).
    #[inline]
    pub const fn some(id: u8) -> OptId {
        OptId(id)
    }

    /// The id, if there is one.
    #[inline]
    pub const fn get(self) -> Option<u8> {
        if self.0 == u8::MAX { None } else { Some(self.0) }
    }

    #[inline]
    pub const fn is_some(self) -> bool {
        self.0 != u8::MAX
    }

    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == u8::MAX
    }

    /// The byte it is kept in: the id, or `u8::MAX` for none. For branch-free code over
    /// whole arrays (comparing sixteen owners at once), where [`OptId::get`] would test
    /// each one; everywhere else, use `get`.
    #[inline]
    pub const fn to_bits(self) -> u8 {
        self.0
    }
}

impl Default for OptId {
    /// None.
    fn default() -> Self {
        OptId::NONE
    }
}

impl From<Option<u8>> for OptId {
    #[inline]
    fn from(id: Option<u8>) -> Self {
        id.map_or(OptId::NONE, OptId::some)
    }
}

impl From<OptId> for Option<u8> {
    #[inline]
    fn from(id: OptId) -> Self {
        id.get()
    }
}

impl fmt::Debug for OptId {
    /// As the `Option<u8>` it stands for: `Some(3)`, `None`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl Serialize for OptId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(s)
    }
}

impl<'de> Deserialize<'de> for OptId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Option::<u8>::deserialize(d)? {
            Some(id) if id > OptId::MAX => {
                Err(D::Error::invalid_value(Unexpected::Unsigned(u64::from(id)), &"an id up to 254, or null"))
            }
            id => Ok(OptId::from(id)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn none_is_the_default_and_reads_as_none() {
        assert_eq!(OptId::default(), OptId::NONE);
        assert_eq!(OptId::NONE.get(), None);
        assert!(OptId::NONE.is_none() && !OptId::NONE.is_some());
        assert_eq!(OptId::some(0).get(), Some(0));
        assert_eq!(OptId::some(u8::MAX), OptId::NONE, "the byte's last value is none");
        assert_eq!(format!("{:?} {:?}", OptId::some(3), OptId::NONE), "Some(3) None");
        assert_eq!((OptId::some(3).to_bits(), OptId::NONE.to_bits()), (3, u8::MAX));
    }

    #[test]
    fn json_is_the_id_or_null_and_refuses_the_none_byte() {
        assert_eq!(serde_json::to_string(&OptId::NONE).unwrap(), "null");
        assert_eq!(serde_json::to_string(&OptId::some(7)).unwrap(), "7");
        assert_eq!(serde_json::from_str::<OptId>("null").unwrap(), OptId::NONE);
        assert_eq!(serde_json::from_str::<OptId>("254").unwrap(), OptId::some(254));
        let err = serde_json::from_str::<OptId>("255").unwrap_err().to_string();
        assert!(err.contains("invalid value: integer `255`, expected an id up to 254, or null"), "{err}");
        assert!(serde_json::from_str::<OptId>("256").is_err());
        assert!(serde_json::from_str::<OptId>("-1").is_err());
    }

    proptest! {
        #[test]
        fn round_trips_as_option_u8_in_one_byte(id in proptest::option::of(0..=OptId::MAX)) {
            prop_assert_eq!(std::mem::size_of::<OptId>(), 1);
            prop_assert_eq!(std::mem::size_of::<[OptId; 16]>(), 16);
            let opt = OptId::from(id);
            prop_assert_eq!(opt.get(), id);
            prop_assert_eq!(Option::<u8>::from(opt), id);
            prop_assert_eq!(opt.is_some(), id.is_some());
            let json = serde_json::to_string(&opt).unwrap();
            prop_assert_eq!(&json, &serde_json::to_string(&id).unwrap());
            prop_assert_eq!(serde_json::from_str::<OptId>(&json).unwrap(), opt);
            prop_assert_eq!(opt == OptId::NONE, id.is_none());
        }
    }
}
