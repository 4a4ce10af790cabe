//! Every invariant of a state: after scenario edits, states read from JSON, and in the
//! conformance tests.

use crate::rules::{MAX_CITIZENS, MAX_DICE, MAX_GOODS, Rules};
use crate::state::{Phase, State};
use rulesmith_game::cargo::{self, Tally};
use rulesmith_game::{GameError, OptId, Seat};

/// Pesos and VP above this are surely an editing mistake (and could overflow).
const MOST: u16 = 30_000;

fn invalid(msg: impl Into<String>) -> Result<(), GameError> {
    Err(GameError::InvalidState(msg.into()))
}

/// Every invariant of a state: components conserved, indices and counts in range,
/// the phase consistent with the board.
pub fn check_state(r: &Rules, s: &State) -> Result<(), GameError> {
    let n = s.player_count();
    if n < r.min_players || n > r.max_players {
        return invalid(format!("{n} players: this ruleset allows {} to {}", r.min_players, r.max_players));
    }
    let (ng, nd, nc, nb) = (r.goods.len(), r.dice.len(), r.citizens.len(), r.buildings.len());

    // Players and pawns.
    for seat in s.players.seats() {
        let p = &s.players[seat];
        if p.pesos > MOST || p.vp > MOST {
            return invalid(format!("player {seat}: pesos and VP must be at most {MOST}"));
        }
        if p.goods[ng..].iter().any(|&g| g != 0) {
            return invalid(format!("player {seat} holds goods the ruleset does not have"));
        }
        let Some(pawn) = p.pawn.get() else { continue };
        if usize::from(pawn) >= nb {
            return invalid(format!("player {seat}: the pawn is on an unknown building"));
        }
        if s.players.seats().any(|o| o != seat && s.players[o].pawn == p.pawn) {
            return invalid(format!("two pawns on the {}", r.building_name(pawn)));
        }
    }

    // Goods are conserved: supply plus holdings is the ruleset's count (S002:L194).
    let places = [None].into_iter().chain(s.players.seats().map(Some)).collect::<Vec<Option<Seat>>>();
    let count = |place: &Option<Seat>, g: usize| match place {
        None => s.supply.count(g),
        Some(seat) => s.players[*seat].goods.count(g),
    };
    if let Err((g, total, expected)) = cargo::conserved(r.goods.len(), |g| u32::from(r.goods[g].supply), &places, count)
    {
        let held: u32 = s.players.iter().map(|p| u32::from(p.goods[g])).sum();
        return invalid(format!(
            "{}: the supply ({}) and the players ({held}) hold {total}, but the game has {expected}",
            r.goods[g].id, s.supply[g]
        ));
    }
    if s.supply[ng..MAX_GOODS].iter().any(|&g| g != 0) {
        return invalid("the supply holds goods the ruleset does not have");
    }

    // The street: each citizen on one stop.
    let mut seen = 0u32;
    for &c in &s.street[..nc] {
        if usize::from(c) >= nc || seen & (1 << c) != 0 {
            return invalid("the street must hold each citizen exactly once");
        }
        seen |= 1 << c;
    }
    if s.street[nc..MAX_CITIZENS].iter().any(|&c| c != 0) {
        return invalid("the street has more stops than citizens");
    }
    if u32::from(s.inactive) >> nc != 0 {
        return invalid("an unknown citizen is inactive");
    }
    if s.car >= r.stops() {
        return invalid("the car is off the street");
    }

    // Buildings: each flower colour has its number of spaces; owners have markers.
    for (f, flower) in r.flowers.iter().enumerate() {
        let count = s.flower[..nb].iter().filter(|&&x| usize::from(x) == f).count();
        if count != usize::from(flower.spaces) {
            return invalid(format!(
                "{count} buildings stand under the {} flower, which has {} spaces",
                flower.id, flower.spaces
            ));
        }
    }
    if s.flower[..nb].iter().any(|&f| usize::from(f) >= r.flowers.len()) || s.flower[nb..].iter().any(|&f| f != 0) {
        return invalid("a building stands under an unknown flower");
    }
    if s.owner[..nb].iter().any(|o| o.get().is_some_and(|o| usize::from(o) >= n))
        || s.owner[nb..].iter().any(|o| o.is_some())
    {
        return invalid("a building is owned by an unknown player");
    }
    for seat in s.players.seats() {
        if s.owned_by(seat, nb) > usize::from(r.property_markers) {
            return invalid(format!("player {seat} owns more buildings than their {} markers", r.property_markers));
        }
    }

    // The ship.
    let ship = &s.ship;
    let over = matches!(s.phase, Phase::Over);
    if over != (ship.departed >= r.ships) {
        return invalid(format!("the game is over exactly when ship {} has left", r.ships));
    }
    if ship.departed > r.ships {
        return invalid(format!("only {} ships leave", r.ships));
    }
    if usize::from(ship.marker) >= r.value_track.len() {
        return invalid("the value marker is past the last flag");
    }
    if u32::from(ship.aside) >> nd != 0 || ship.dice.as_array()[nd..MAX_DICE].iter().any(|&d| d != 0) {
        return invalid("the ship shows dice the ruleset does not have");
    }
    for d in 0..nd as u8 {
        let v = ship.dice.open(usize::from(d));
        if v > r.die_max(d) {
            return invalid(format!("the {} die shows {v}, more than its highest face", r.die_name(d)));
        }
        if !s.on_ship(d) && v != 0 {
            return invalid(format!("the {} die is set aside but shows a demand", r.die_name(d)));
        }
    }
    let aside = ship.aside.count_ones() as usize;
    let wanted = nd - usize::from(r.ship_dice);
    if ship.awaiting_demand {
        if !matches!(s.phase, Phase::Demand) && aside != 0 {
            return invalid("a ship awaiting its demand has no dice set aside");
        }
    } else {
        if aside != wanted {
            return invalid(format!("{aside} dice are set aside; the ship takes {}", r.ship_dice));
        }
        if (0..nd as u8).all(|d| !s.on_ship(d) || ship.dice.open(usize::from(d)) == 0) && !over {
            return invalid("the ship's demand is met, so it should have left");
        }
    }

    // Whose turn, and what is awaited.
    if usize::from(s.turn.player) >= n {
        return invalid("the turn belongs to an unknown player");
    }
    if s.turn.citizen.get().is_some_and(|c| usize::from(c) >= nc) {
        return invalid("the turn's citizen is unknown");
    }
    let needs_citizen =
        matches!(s.phase, Phase::Pickpocket { .. } | Phase::ChooseGood | Phase::Lawyer | Phase::Pawn { .. });
    if needs_citizen && s.turn.citizen.is_none() {
        return invalid("this step needs the citizen the car stopped at (`/turn/citizen`)");
    }
    match s.phase {
        Phase::Demand => {
            if !ship.awaiting_demand || aside >= wanted.max(1) {
                return invalid("the demand step needs a rolled ship awaiting its demand with dice to set aside");
            }
        }
        Phase::Pickpocket { victim } => {
            if usize::from(victim) >= n || victim == s.turn.player {
                return invalid("El Zorro's victim must be another player");
            }
        }
        Phase::Use { building } => {
            if s.players[s.turn.player].pawn != OptId::some(building) {
                return invalid("only the building the pawn stands on can be used");
            }
        }
        Phase::Loading { round } => {
            if let Err(e) = round.check(n) {
                return invalid(format!("the loading round: {e}"));
            }
            if s.car != 0 {
                return invalid("a loading round needs the car at the port");
            }
        }
        Phase::Pawn { to } => {
            if to != crate::engine::destinations(r, s) {
                return invalid("the pawn step's destinations (`to`) do not match the citizen's free buildings");
            }
        }
        Phase::Drive | Phase::ChooseGood | Phase::Lawyer | Phase::Over => {}
    }
    if !matches!(s.phase, Phase::Demand | Phase::Over) && ship.awaiting_demand && !s.turn.roll_pending {
        return invalid("a ship awaits its demand but nobody is due to roll it");
    }
    Ok(())
}
