//! Fixed-size numbers for learning: integer action ids with a legal-action mask, and a
//! fixed-length observation vector of a seat's view, both per ruleset and player count.
//!
//! **Action ids.** Each game enumerates, from its ruleset and the player count, every
//! action its rules can ever make legal ([`Encode::action_space`]), in an order it
//! documents; an action's id is its index there and the space's size is its length. No
//! two actions share an id, and the same action has the same id in every state.
//! [`ActionSpace`] holds that list with the reverse lookup.
//!
//! **Observations.** Each game names its features ([`Encode::observation_names`]) and
//! writes a seat's observation into a caller's `f32` buffer of that length
//! ([`Encode::observation`]), reading only what the seat may see. [`Features`] is the
//! cursor the games write with; [`Names`] builds the matching list of names.

use crate::game::{Game, Seat};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A capability: fixed-size encodings for learning.
pub trait Encode: Game {
    /// Every action the rules of this ruleset can ever make legal at a table of
    /// `players`, each once, in a stable order the game documents: an action's id is its
    /// index here. Built from the ruleset (its roles, buildings, goods, tiles …), so a
    /// house rule's new parts get ids without code.
    fn action_space(&self, players: usize) -> Vec<Self::Action>;
    /// The names of the observation's features at a table of `players`, in order: the
    /// observation has exactly this many numbers.
    fn observation_names(&self, players: usize) -> Vec<String>;
    /// Writes what `seat` may see of `state` into `out` (as long as
    /// [`Encode::observation_names`] for the state's table; entries are overwritten),
    /// feature by feature in that order. Reads nothing `seat` may not see.
    fn observation(&self, state: &Self::State, seat: Seat, out: &mut [f32]);
    /// [`Encode::observation`] into a buffer that keeps, between calls, what the last call
    /// with the same `memo` wrote there (an env's row): the game may rewrite only the
    /// features whose inputs changed since, which `memo` (the game's own record, `None` at
    /// first and whenever the buffer was written otherwise) tells it. The numbers are those
    /// of [`Encode::observation`], value for value. By default: the whole observation.
    fn observation_update(&self, state: &Self::State, seat: Seat, out: &mut [f32], memo: &mut ObservationMemo) {
        *memo = None;
        self.observation(state, seat, out);
    }
    /// A small number naming `action` (below [`MAX_ACTION_KEY`]; different actions, different
    /// numbers), by which [`ActionSpace::id`] finds its id in a table rather than by hashing
    /// (the environments' legal-id lists: most of the cost of listing the ids). `None`: by
    /// hash (the default, and for actions too many to number so, like the expansion's
    /// holdings of loose barrels).
    fn action_key(action: &Self::Action) -> Option<u32>
    where
        Self: Sized,
    {
        let _ = action;
        None
    }
}

/// The most action keys a space numbers ([`Encode::action_key`]): its table is 4 bytes a key.
pub const MAX_ACTION_KEY: u32 = 1 << 16;

/// What a game's [`Encode::observation_update`] keeps between the observations it writes
/// into one buffer (its own type, erased; `None`: nothing known, write it whole).
pub type ObservationMemo = Option<Box<dyn std::any::Any + Send>>;

/// FNV-1a: actions are a few bytes, and the lookup sits on the environments' hot path.
/// Integers (an action's discriminant and fields) are mixed in one step each rather than
/// byte by byte: the same spread for the small numbers actions hold, a third of the work.
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = h;
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0 ^ i).wrapping_mul(0x0000_0100_0000_01b3);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

/// The enumerated actions of one ruleset at one player count, with each action's id.
#[derive(Clone, Debug)]
pub struct ActionSpace<A> {
    actions: Vec<A>,
    ids: HashMap<A, u32, BuildHasherDefault<Fnv>>,
    /// The game's [`Encode::action_key`], when every key it gives the space's actions is
    /// distinct: `keyed[key]` is the id of the action with that key (`u32::MAX`: none). A
    /// key's id is taken only when its action is the one looked up, so a game's keys can
    /// make a lookup slower, never wrong.
    key: Option<fn(&A) -> Option<u32>>,
    keyed: Vec<u32>,
}

impl<A: Copy + Eq + Hash> ActionSpace<A> {
    /// The space of `game` at a table of `players`. An action listed twice is an error of
    /// the game's enumeration (it would have two ids).
    pub fn new<G: Encode<Action = A>>(game: &G, players: usize) -> Result<Self, String>
    where
        A: std::fmt::Debug,
    {
        let actions = game.action_space(players);
        let mut ids = HashMap::with_capacity_and_hasher(actions.len(), BuildHasherDefault::default());
        for (i, &a) in actions.iter().enumerate() {
            if let Some(first) = ids.insert(a, i as u32) {
                return Err(format!("{} lists {a:?} twice (ids {first} and {i})", game.game_id()));
            }
        }
        let mut keyed = Vec::new();
        let mut key = Some(G::action_key as fn(&A) -> Option<u32>);
        for (i, a) in actions.iter().enumerate() {
            let Some(k) = G::action_key(a).filter(|&k| k < MAX_ACTION_KEY) else { continue };
            let k = k as usize;
            if keyed.len() <= k {
                keyed.resize(k + 1, u32::MAX);
            }
            if keyed[k] != u32::MAX {
                // Two actions share a key: the game's keys are not to be trusted, by hash only.
                (key, keyed) = (None, Vec::new());
                break;
            }
            keyed[k] = i as u32;
        }
        if keyed.is_empty() {
            key = None;
        }
        Ok(ActionSpace { actions, ids, key, keyed })
    }

    /// How many ids there are.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The id of `action`, `None` if the enumeration lacks it.
    #[inline]
    pub fn id(&self, action: &A) -> Option<u32> {
        if let Some(key) = self.key
            && let Some(&id) = key(action).and_then(|k| self.keyed.get(k as usize))
            && self.actions.get(id as usize) == Some(action)
        {
            return Some(id);
        }
        self.ids.get(action).copied()
    }

    /// The action with this id.
    pub fn action(&self, id: u32) -> Option<A> {
        self.actions.get(id as usize).copied()
    }

    /// Every action, in id order.
    pub fn actions(&self) -> &[A] {
        &self.actions
    }
}

/// Writes an observation feature by feature, in the order of the game's names. Writes
/// past the buffer's end are dropped (the conformance suite checks the lengths agree).
///
/// Every method is `#[inline]`: the games' encoders call them once per feature, and a call
/// per feature cost more than the feature (issue 31). A one-hot clears its block at once
/// and sets one number; [`Features::zeros`] and [`Features::set`] let an encoder clear a
/// block and fill only its non-zero features (a seat's buildings). A run of small one-hots
/// clears its blocks in one go with [`Features::clear_ahead`] (a clear each was a call to
/// `memset` for a handful of numbers).
pub struct Features<'a> {
    out: &'a mut [f32],
    at: usize,
    /// The features before this one are cleared already ([`Features::clear_ahead`]).
    cleared: usize,
}

impl<'a> Features<'a> {
    #[inline]
    pub fn new(out: &'a mut [f32]) -> Self {
        Features { out, at: 0, cleared: 0 }
    }
    /// Clears the next `n` features at once, so that the one-hots and zeros among them need
    /// not, and a [`Features::block`] among them starts at 0. Every one of the `n` must be
    /// the layout's: the conformance suite's check for writes past the names catches an `n`
    /// that runs past its end.
    #[inline]
    pub fn clear_ahead(&mut self, n: usize) {
        let end = self.at.saturating_add(n);
        let len = self.out.len();
        if let Some(block) = self.out.get_mut(self.at.min(len)..end.min(len)) {
            block.fill(0.0);
        }
        self.cleared = self.cleared.max(end);
    }
    /// The next feature.
    #[inline]
    pub fn push(&mut self, v: impl Into<f64>) {
        if let Some(x) = self.out.get_mut(self.at) {
            *x = v.into() as f32;
        }
        self.at += 1;
    }
    /// The next feature: 1 when `b`, else 0.
    #[inline]
    pub fn flag(&mut self, b: bool) {
        if let Some(x) = self.out.get_mut(self.at) {
            *x = f32::from(u8::from(b));
        }
        self.at += 1;
    }
    /// The next `N` features, in order: one bounds check for the block, and a block the
    /// compiler converts several numbers at a time.
    #[inline]
    pub fn extend<T: Into<f64> + Copy, const N: usize>(&mut self, values: [T; N]) {
        let at = self.at;
        self.at += N;
        match self.out.get_mut(at..at + N) {
            Some(block) => {
                for (x, v) in block.iter_mut().zip(values) {
                    *x = v.into() as f32;
                }
            }
            None => {
                for (i, v) in values.into_iter().enumerate() {
                    self.set(at + i, v);
                }
            }
        }
    }
    /// `n` features: 1 at `hot` (if below `n`), else 0.
    #[inline]
    pub fn one_hot(&mut self, n: usize, hot: Option<usize>) {
        let at = self.at;
        self.zeros(n);
        if let Some(h) = hot
            && h < n
        {
            self.set(at + h, 1u8);
        }
    }
    /// `n` features of 0.
    #[inline]
    pub fn zeros(&mut self, n: usize) {
        let end = self.at.saturating_add(n);
        if end > self.cleared {
            let len = self.out.len();
            if let Some(block) = self.out.get_mut(self.at.min(len)..end.min(len)) {
                block.fill(0.0);
            }
        }
        self.at = end;
    }
    /// The next `n` features as a slice to fill (every entry, unless
    /// [`Features::clear_ahead`] cleared them), the part past the buffer's end left out: an
    /// encoder writing a block through it pays one bounds check for the block.
    #[inline]
    pub fn block(&mut self, n: usize) -> &mut [f32] {
        let len = self.out.len();
        let (start, end) = (self.at.min(len), self.at.saturating_add(n).min(len));
        self.at = self.at.saturating_add(n);
        self.out.get_mut(start..end).unwrap_or_default()
    }
    /// Where the next feature goes (for [`Features::set`]).
    #[inline]
    pub fn position(&self) -> usize {
        self.at
    }
    /// Overwrites the feature at `index` (one already written, e.g. in a block of
    /// [`Features::zeros`]); dropped past the buffer's end.
    #[inline]
    pub fn set(&mut self, index: usize, v: impl Into<f64>) {
        if let Some(x) = self.out.get_mut(index) {
            *x = v.into() as f32;
        }
    }
}

/// Builds the list of feature names: `prefix.name`, with nested prefixes.
#[derive(Default)]
pub struct Names {
    names: Vec<String>,
}

impl Names {
    pub fn push(&mut self, name: impl Into<String>) {
        self.names.push(name.into());
    }
    /// `prefix.name` for each name.
    pub fn each<'s>(&mut self, prefix: &str, names: impl IntoIterator<Item = &'s str>) {
        for n in names {
            self.names.push(format!("{prefix}.{n}"));
        }
    }
    pub fn into_vec(self) -> Vec<String> {
        self.names
    }
}

/// Seat-relative observations: the same features, each per-seat one (a name with a
/// `seatN` part, the games' naming convention) moved so that the observer's come first:
/// `seatN` is renamed by the seat's place after the observer's in turn order, `me` for the
/// observer, `seat+1` for the next seat, `seat+2` … A policy shared by every seat then
/// finds its own features, and each opponent's by place, at the same index whichever seat
/// it plays; the numbers are those of the absolute observation, moved, nothing else.
#[derive(Clone, Debug)]
pub struct SeatRelative {
    names: Vec<String>,
    /// For each observer seat, the absolute index of each relative feature.
    from: Vec<Vec<u32>>,
}

/// The seat a name's part names (`seat3` → 3), when below `players`.
fn seat_part(part: &str, players: usize) -> Option<usize> {
    let n = part.strip_prefix("seat")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || (n.len() > 1 && n.starts_with('0')) {
        return None;
    }
    n.parse().ok().filter(|&s| s < players)
}

/// `name` with each seat part `seatN` replaced by `label(N)`.
fn relabel(name: &str, players: usize, label: impl Fn(usize) -> String) -> String {
    name.split('.').map(|p| seat_part(p, players).map_or_else(|| p.to_string(), &label)).collect::<Vec<_>>().join(".")
}

impl SeatRelative {
    /// The seat-relative layout of a game whose absolute features are `names` at a table of
    /// `players`. Each per-seat feature must exist for every seat (a layout that names
    /// `seat0.x` must name `seat1.x` …), else the features could not be rotated: an error
    /// naming the missing one.
    pub fn new(names: &[String], players: usize) -> Result<Self, String> {
        let index: HashMap<&str, u32> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i as u32)).collect();
        let relative = |n: &str| relabel(n, players, |s| if s == 0 { "me".to_string() } else { format!("seat+{s}") });
        let mut from = Vec::with_capacity(players);
        for observer in 0..players {
            let mut row = Vec::with_capacity(names.len());
            for n in names {
                let absolute = relabel(n, players, |s| format!("seat{}", (s + observer) % players));
                let Some(&i) = index.get(absolute.as_str()) else {
                    return Err(format!(
                        "feature `{n}` has no `{absolute}` for seat {observer}: per-seat features must exist for every seat"
                    ));
                };
                row.push(i);
            }
            from.push(row);
        }
        Ok(SeatRelative { names: names.iter().map(|n| relative(n)).collect(), from })
    }

    /// The relative features' names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The absolute index of relative feature `relative` for `observer` (where
    /// [`SeatRelative::write`] reads it from).
    pub fn source(&self, observer: Seat, relative: usize) -> Option<usize> {
        self.from.get(usize::from(observer))?.get(relative).map(|&i| i as usize)
    }

    /// Writes `observer`'s seat-relative observation into `out` from its absolute one.
    pub fn write(&self, observer: Seat, absolute: &[f32], out: &mut [f32]) {
        let Some(row) = self.from.get(usize::from(observer)) else { return };
        for (x, &i) in out.iter_mut().zip(row) {
            *x = absolute.get(i as usize).copied().unwrap_or(0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn seat_relative_rotates_per_seat_features() {
        let n =
            names(&["round", "to_move.seat0", "to_move.seat1", "to_move.seat2", "seat0.vp", "seat1.vp", "seat2.vp"]);
        let r = SeatRelative::new(&n, 3).unwrap();
        assert_eq!(
            r.names(),
            names(&["round", "to_move.me", "to_move.seat+1", "to_move.seat+2", "me.vp", "seat+1.vp", "seat+2.vp"])
        );
        let absolute = [7.0, 0.0, 0.0, 1.0, 10.0, 11.0, 12.0];
        let mut out = [0.0; 7];
        r.write(1, &absolute, &mut out);
        // Seat 1 observes: itself, then seat 2, then seat 0.
        assert_eq!(out, [7.0, 0.0, 1.0, 0.0, 11.0, 12.0, 10.0]);
        r.write(0, &absolute, &mut out);
        assert_eq!(out, absolute);
    }

    #[test]
    fn seat_relative_refuses_a_feature_missing_for_a_seat() {
        let n = names(&["seat0.vp", "seat1.vp", "seat0.only"]);
        let e = SeatRelative::new(&n, 2).unwrap_err();
        assert!(e.contains("`seat0.only` has no `seat1.only`"), "{e}");
        // `seat12` at a 3-player table, `seats` and `seat01` are not seat parts.
        assert!(SeatRelative::new(&names(&["seat12.x", "seats.y", "seat01.z"]), 3).is_ok());
    }
}
