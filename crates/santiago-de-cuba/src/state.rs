//! The game state: plain fixed-size data, cheap to clone.
//!
//! Indices refer to the ruleset's lists (goods, dice, citizens, buildings, flowers).
//! [`crate::json`] turns the state into the named JSON that `rulesmith state` prints.

use crate::rules::{Goods, MAX_BUILDINGS, MAX_CITIZENS, MAX_DICE, MAX_GOODS};
use rulesmith_game::cargo::Demand;
use rulesmith_game::steps::PassRound;
use rulesmith_game::{ByPlayer, OptId, Rng, Seat};
use serde::{Deserialize, Serialize};

/// One player's holdings (behind the screen, except the pawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub pesos: u16,
    pub vp: u16,
    pub goods: Goods,
    /// The building the pawn stands on (none before its first visit).
    pub pawn: OptId,
}

impl Default for Player {
    fn default() -> Self {
        Player { pesos: 0, vp: 0, goods: [0; MAX_GOODS], pawn: OptId::NONE }
    }
}

impl Player {
    pub fn goods_total(&self) -> u32 {
        self.goods.iter().map(|&g| u32::from(g)).sum()
    }
}

/// The ship in port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ship {
    /// Ships that have left so far.
    pub departed: u8,
    /// Index of the value marker's flag in the value track.
    pub marker: u8,
    /// The demand shown by each die (0 for dice set aside): the core's demand, which
    /// deliveries cover.
    pub dice: Demand<MAX_DICE>,
    /// Bit `d` set when die `d` is set aside (not on the ship).
    pub aside: u8,
    /// The ship has arrived but its demand is not rolled and placed yet.
    pub awaiting_demand: bool,
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "step")]
pub enum Phase {
    /// The player whose turn it is has rolled the dice and sets dice aside.
    Demand,
    /// The player must drive the car.
    Drive,
    /// El Zorro: `victim` chooses what to give the player whose turn it is.
    Pickpocket { victim: Seat },
    /// Pablo: the player chooses a good.
    ChooseGood,
    /// Alonso: claim a building, use an own building, or skip.
    Lawyer,
    /// The pawn must move to a building under the citizen's flower: `to` has bit `b` set
    /// for each building it may move to, found once when the step begins (the rules
    /// engine's cache; the state check requires it to match the position).
    Pawn { to: u16 },
    /// The pawn's building may be used (or skipped).
    Use { building: u8 },
    /// The loading round at the port.
    Loading { round: PassRound },
    /// The last ship has left.
    Over,
}

/// Facts about the turn in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The player whose turn it is (during setup: the player who rolls the first demand).
    pub player: Seat,
    /// The round, counted from 1 when the start player takes their first turn.
    pub round: u32,
    /// The citizen the car stopped at this turn (none at the port or before driving).
    pub citizen: OptId,
    /// The pawn moved to a building this turn (a visit).
    pub visited: bool,
    /// This player made a ship leave: they roll the new demand at the end of the turn.
    pub roll_pending: bool,
}

/// The whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: ByPlayer<Player>,
    /// The citizen at each street stop after the port, clockwise.
    pub street: [u8; MAX_CITIZENS],
    /// The car's stop: 0 is the port, `1 + i` is `street[i]`.
    pub car: u8,
    /// Bit `c` set while citizen `c` is face down (Periódico, S002:L374).
    pub inactive: u16,
    /// The flower colour of the space each building was placed on.
    pub flower: [u8; MAX_BUILDINGS],
    /// Each building's owner (none while it is free).
    pub owner: [OptId; MAX_BUILDINGS],
    pub ship: Ship,
    /// Goods left in the general supply.
    pub supply: Goods,
    pub turn: Turn,
    pub phase: Phase,
    pub rng: Rng,
}

impl State {
    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    /// The citizen at the car's stop, if the car is not at the port.
    pub fn car_citizen(&self) -> Option<u8> {
        (self.car > 0).then(|| self.street.get(self.car as usize - 1).copied()).flatten()
    }

    pub fn is_inactive(&self, c: u8) -> bool {
        self.inactive & (1 << c) != 0
    }

    pub fn on_ship(&self, d: u8) -> bool {
        self.ship.aside & (1 << d) == 0
    }

    /// The seat whose pawn stands on building `b`, if any.
    pub fn pawn_on(&self, b: u8) -> Option<Seat> {
        self.players.seats().find(|&s| self.players[s].pawn == OptId::some(b))
    }

    /// Bit `b` set for each building a pawn stands on (one pass over the players, for
    /// loops over the buildings).
    #[inline]
    pub fn pawn_mask(&self) -> u32 {
        // Without a branch: a pawn off the buildings (none, the byte past every building)
        // adds no bit.
        self.players.iter().fold(0, |m, p| {
            let b = usize::from(p.pawn.to_bits());
            m | u32::from(b < MAX_BUILDINGS) << (b % MAX_BUILDINGS)
        })
    }

    /// How many buildings `seat` owns.
    #[inline]
    pub fn owned_by(&self, seat: Seat, buildings: usize) -> usize {
        let owner = self.owner.get(..buildings).unwrap_or(&self.owner);
        owner.iter().filter(|&&o| o == OptId::some(seat)).count()
    }

    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }
}
