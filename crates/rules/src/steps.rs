//! Turn-structure primitives shared by the games.
//!
//! - [`clockwise`], [`seat_after`], [`next_seat`]: seat order around the table; the games
//!   write no seat arithmetic of their own. [`stop_after`]: the same on any closed track
//!   (Santiago de Cuba's street).
//! - [`Rotation`]: each player acts once, in seat order from a starting seat (the
//!   chooser of a role, the player who stopped the car at the port, …).
//! - [`PassRound`]: players act in turn, again and again, until every player has
//!   passed; a pass is final for the round (Santiago's loading round), or a player is
//!   skipped while they cannot act (Puerto Rico's captain phase).
//! - [`RoleBoard`]: a row of role cards with coins on them: a chooser takes the coins,
//!   unchosen roles gain coins at the end of the round.
//! - [`reverse_setup_first`], [`reverse_setup_next`]: setup choices in reverse seat
//!   order, the last seat first (Mundo 163's capitals).
//!
//! Their fields are private: a state edited by a scenario (`[set]`) or read from JSON is
//! validated with their `check`, so an edit cannot make them point past the table.

use crate::game::Seat;
use serde::{Deserialize, Serialize};

/// Every seat once, clockwise from `start` (`start` first).
pub fn clockwise(start: Seat, players: usize) -> impl Iterator<Item = Seat> {
    (0..players).map(move |k| seat_after(start, k, players))
}

/// The seat `k` places clockwise after `seat`; `k` may go round the table more than once
/// (dealing colonists one at a time).
pub fn seat_after(seat: Seat, k: usize, players: usize) -> Seat {
    ((usize::from(seat) + k) % players.max(1)) as Seat
}

/// The stop `k` steps on from `stop` along a closed track of `stops` stops (Santiago de
/// Cuba's street, the port being stop 0): the track a table's seats also form.
pub fn stop_after(stop: u8, k: usize, stops: usize) -> u8 {
    ((usize::from(stop) + k) % stops.max(1)) as u8
}

/// How many places clockwise `seat` sits after `from` (0 for `from` itself): the inverse
/// of [`seat_after`].
pub fn places_after(from: Seat, seat: Seat, players: usize) -> usize {
    let n = players.max(1);
    (usize::from(seat) % n + n - usize::from(from) % n) % n
}

/// The next seat clockwise.
pub fn next_seat(seat: Seat, players: usize) -> Seat {
    seat_after(seat, 1, players)
}

/// The seat that makes the first setup choice in reverse seat order: the last one.
pub fn reverse_setup_first(players: usize) -> Seat {
    players.saturating_sub(1) as Seat
}

/// The seat choosing after `seat` in reverse seat order, or `None` after the first seat
/// (seat 0, the starting player, chooses last).
pub fn reverse_setup_next(seat: Seat) -> Option<Seat> {
    seat.checked_sub(1)
}

/// Each of `players` seats acts once, starting at `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rotation {
    start: Seat,
    /// How many seats have finished acting.
    done: u8,
    players: u8,
}

impl Rotation {
    pub fn new(start: Seat, players: usize) -> Self {
        Rotation { start, done: 0, players: players as u8 }
    }

    /// The seat acting now, or `None` once everybody has acted.
    pub fn current(&self) -> Option<Seat> {
        (self.done < self.players).then(|| (self.start + self.done) % self.players)
    }

    /// The seat that started the rotation.
    pub fn start(&self) -> Seat {
        self.start
    }

    /// Whether the seat acting now is the one who started the rotation.
    pub fn is_starter(&self) -> bool {
        self.done == 0
    }

    /// Whether an (edited) rotation fits a game of `players`: the same count, a seat that
    /// exists, at most everybody done.
    pub fn check(&self, players: usize) -> Result<(), String> {
        if usize::from(self.players) != players {
            return Err(format!("the rotation counts {} players, the game has {players}", self.players));
        }
        if usize::from(self.start) >= players || self.done > self.players {
            return Err(format!("the rotation starts at seat {} with {} done, of {players}", self.start, self.done));
        }
        Ok(())
    }

    /// Moves to the next seat; returns `false` once everybody has acted.
    pub fn advance(&mut self) -> bool {
        self.done = (self.done + 1).min(self.players);
        self.done < self.players
    }
}

/// Seats act in turn, round and round, until all have passed (or cannot act).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassRound {
    current: Seat,
    players: u8,
    /// Bit `s` is set once seat `s` has passed.
    passed: u8,
}

impl PassRound {
    pub fn new(start: Seat, players: usize) -> Self {
        PassRound { current: start, players: players as u8, passed: 0 }
    }

    /// The seat to act.
    pub fn current(&self) -> Seat {
        self.current
    }

    pub fn players(&self) -> usize {
        usize::from(self.players)
    }

    /// Whether an (edited) round fits a game of `players`: the same count, a seat to act
    /// that exists and has not passed, passes only by seats that exist.
    pub fn check(&self, players: usize) -> Result<(), String> {
        if usize::from(self.players) != players || usize::from(self.current) >= players {
            return Err(format!(
                "the round counts {} players with seat {} to act, the game has {players}",
                self.players, self.current
            ));
        }
        if u32::from(self.passed) >> players != 0 {
            return Err(format!("seats beyond the {players} players have passed"));
        }
        if self.has_passed(self.current) {
            return Err(format!("seat {} is to act but has passed", self.current));
        }
        Ok(())
    }

    pub fn has_passed(&self, seat: Seat) -> bool {
        self.passed & (1 << seat) != 0
    }

    pub fn pass(&mut self, seat: Seat) {
        self.passed |= 1 << seat;
    }

    pub fn all_passed(&self) -> bool {
        self.passed.count_ones() >= u32::from(self.players)
    }

    /// Moves to the next seat that has not passed and for which `can_act` holds; seats
    /// that cannot act are marked as passed. Returns the seat, or `None` when the round
    /// is over.
    pub fn next(&mut self, mut can_act: impl FnMut(Seat) -> bool) -> Option<Seat> {
        for step in 1..=self.players {
            let s = (self.current + step) % self.players;
            if self.has_passed(s) {
                continue;
            }
            if can_act(s) {
                self.current = s;
                return Some(s);
            }
            self.pass(s);
        }
        None
    }

    /// Like [`PassRound::next`] but starting with the current seat itself.
    pub fn first(&mut self, mut can_act: impl FnMut(Seat) -> bool) -> Option<Seat> {
        let start = self.current;
        if !self.has_passed(start) && can_act(start) {
            return Some(start);
        }
        if !self.has_passed(start) {
            self.pass(start);
        }
        self.next(can_act)
    }
}

/// Role cards with coins on them. `N` is the most roles any ruleset may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoleBoard<const N: usize> {
    /// Coins lying on each role card.
    #[serde(with = "serde_arrays")]
    coins: [u8; N],
    /// Bit `r` set while role `r` is taken this round.
    taken: u16,
    /// Bit `r` set when role `r` is in play at all (player-count dependent).
    in_play: u16,
}

mod serde_arrays {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    pub fn serialize<S: Serializer, const N: usize>(v: &[u8; N], s: S) -> Result<S::Ok, S::Error> {
        v.as_slice().serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(d: D) -> Result<[u8; N], D::Error> {
        let v: Vec<u8> = Vec::deserialize(d)?;
        let len = v.len();
        v.try_into().map_err(|_| serde::de::Error::custom(format!("expected {N} role coin counts, found {len}")))
    }
}

impl<const N: usize> RoleBoard<N> {
    pub fn new(in_play: u16) -> Self {
        RoleBoard { coins: [0; N], taken: 0, in_play }
    }

    /// Coins lying on each role card (0 on cards not in play).
    pub fn coins(&self) -> &[u8; N] {
        &self.coins
    }

    /// Bit `r` set while role `r` is taken this round.
    pub fn taken(&self) -> u16 {
        self.taken
    }

    /// Bit `r` set when role `r` is in play in this game.
    pub fn in_play(&self) -> u16 {
        self.in_play
    }

    /// Roles in play and not yet taken, one bit each.
    pub fn available_mask(&self) -> u16 {
        self.in_play & !self.taken
    }

    /// Whether an (edited) board fits a game whose cards in play are `in_play`: the same
    /// cards, taken and coins only on those.
    pub fn check(&self, in_play: u16) -> Result<(), String> {
        if self.in_play != in_play {
            return Err(format!(
                "/roles/in_play: {:#b}, the role cards used in this game are {in_play:#b}",
                self.in_play
            ));
        }
        if self.taken & !in_play != 0 {
            return Err("/roles/taken: a role card not used in this game".into());
        }
        if let Some(r) = (0..N).find(|&r| self.coins[r] > 0 && (r >= 16 || in_play & (1 << r) == 0)) {
            return Err(format!("/roles/coins/{r}: coins on a role card not used in this game"));
        }
        Ok(())
    }

    pub fn is_available(&self, role: usize) -> bool {
        role < N && self.in_play & (1 << role) != 0 && self.taken & (1 << role) == 0
    }

    /// Takes a role; returns the coins that lay on it (none for a role past the board).
    pub fn take(&mut self, role: usize) -> u8 {
        let Some(coins) = self.coins.get_mut(role) else { return 0 };
        self.taken |= 1u16.checked_shl(role as u32).unwrap_or(0);
        std::mem::take(coins)
    }

    /// End of round: each role still available gains `coins`; all return to the board.
    pub fn end_round(&mut self, coins: u8) {
        for r in 0..N {
            if self.is_available(r) {
                self.coins[r] = self.coins[r].saturating_add(coins);
            }
        }
        self.taken = 0;
    }

    pub fn available(&self) -> impl Iterator<Item = usize> + '_ {
        (0..N).filter(|&r| self.is_available(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_after_inverts_seat_after() {
        for n in 1..=5 {
            for from in 0..n as Seat {
                for k in 0..n {
                    assert_eq!(places_after(from, seat_after(from, k, n), n), k);
                }
            }
        }
    }

    #[test]
    fn rotation_visits_each_seat_once_from_the_starter() {
        let mut r = Rotation::new(2, 4);
        let mut seen = vec![];
        while let Some(s) = r.current() {
            seen.push(s);
            r.advance();
        }
        assert_eq!(seen, [2, 3, 0, 1]);
    }

    #[test]
    fn pass_round_skips_passed_and_ends_when_all_pass() {
        let mut p = PassRound::new(1, 3);
        assert_eq!(p.first(|_| true), Some(1));
        p.pass(1);
        assert_eq!(p.next(|s| s != 0), Some(2));
        assert_eq!(p.next(|s| s != 0), Some(2)); // seat 0 cannot act: marked passed
        assert!(p.has_passed(0));
        p.pass(2);
        assert_eq!(p.next(|_| true), None);
        assert!(p.all_passed());
    }

    #[test]
    fn reverse_setup_goes_from_the_last_seat_to_the_first() {
        let mut order = vec![reverse_setup_first(4)];
        while let Some(s) = reverse_setup_next(*order.last().unwrap()) {
            order.push(s);
        }
        assert_eq!(order, [3, 2, 1, 0]);
    }

    #[test]
    fn an_edited_role_board_is_checked() {
        let mut b: RoleBoard<8> = RoleBoard::new(0b0011_1111);
        assert!(b.check(0b0011_1111).is_ok());
        assert!(b.check(0b0111_1111).unwrap_err().contains("/roles/in_play"));
        b.coins[7] = 2;
        assert!(b.check(0b0011_1111).unwrap_err().contains("/roles/coins/7"));
        b.coins[7] = 0;
        b.taken = 0b1000_0000;
        assert!(b.check(0b0011_1111).unwrap_err().contains("/roles/taken"));
        assert_eq!(b.take(99), 0, "a role past the board takes nothing");
    }

    #[test]
    fn role_board_coins_go_to_unchosen_roles() {
        let mut b: RoleBoard<8> = RoleBoard::new(0b0011_1111);
        assert_eq!(b.take(1), 0);
        b.end_round(1);
        assert_eq!(b.coins[..6], [1, 0, 1, 1, 1, 1]);
        assert_eq!(b.coins[6], 0); // not in play
        assert_eq!(b.take(0), 1);
    }
}
