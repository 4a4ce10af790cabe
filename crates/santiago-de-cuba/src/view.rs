//! Invariants, scoring, hidden information and the greedy bot's heuristic.

use crate::rules::{BuildingEffect, MAX_BUILDINGS, MAX_CITIZENS, MAX_DICE, MAX_GOODS, NONE, Rules, TieBreak};
use crate::state::{Phase, State};
use rulesmith_core::cargo::{self, Tally};
use rulesmith_core::{GameError, Outcome, Rng, Seat};

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
        if p.pawn != NONE && usize::from(p.pawn) >= nb {
            return invalid(format!("player {seat}: the pawn is on an unknown building"));
        }
        if p.pawn != NONE && s.players.seats().any(|o| o != seat && s.players[o].pawn == p.pawn) {
            return invalid(format!("two pawns on the {}", r.building_name(p.pawn)));
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
    if s.owner[..nb].iter().any(|&o| o != NONE && usize::from(o) >= n) || s.owner[nb..].iter().any(|&o| o != NONE) {
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
    if s.turn.citizen != NONE && usize::from(s.turn.citizen) >= nc {
        return invalid("the turn's citizen is unknown");
    }
    let needs_citizen = matches!(s.phase, Phase::Pickpocket { .. } | Phase::ChooseGood | Phase::Lawyer | Phase::Pawn);
    if needs_citizen && s.turn.citizen == NONE {
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
            if s.players[s.turn.player].pawn != building {
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
        Phase::Drive | Phase::ChooseGood | Phase::Lawyer | Phase::Pawn | Phase::Over => {}
    }
    if !matches!(s.phase, Phase::Demand | Phase::Over) && ship.awaiting_demand && !s.turn.roll_pending {
        return invalid("a ship awaits its demand but nobody is due to roll it");
    }
    Ok(())
}

/// Leftover goods, wood included (S002:L408).
fn leftover(s: &State, seat: Seat) -> i32 {
    s.players[seat].goods_total() as i32
}

/// Final scores once the last ship has left: VP plus 1 per 3 leftover goods; ties go to
/// the most leftover goods, then the most money (S002:L406-412).
pub fn outcome(r: &Rules, s: &State) -> Option<Outcome> {
    if !s.is_over() {
        return None;
    }
    let mut scores = Vec::new();
    let mut ties = Vec::new();
    for seat in s.players.seats() {
        let p = &s.players[seat];
        let bonus = if r.goods_per_vp > 0 { leftover(s, seat) / i32::from(r.goods_per_vp) } else { 0 };
        scores.push(i32::from(p.vp) + bonus);
        ties.push(
            r.tiebreaks
                .iter()
                .map(|t| match t {
                    TieBreak::LeftoverGoods => leftover(s, seat),
                    TieBreak::Pesos => i32::from(p.pesos),
                })
                .collect(),
        );
    }
    Some(Outcome::ranked(scores, ties, "last_ship_departed"))
}

/// What `seat` sees: other players' pesos and VP are hidden (shown as 0), and their goods
/// are dealt out in turn order from the part of the supply they hold together (which
/// the open supply reveals), so the view stays a valid state without telling who holds
/// what. The dice to come are hidden by a fixed generator.
pub fn observe(r: &Rules, s: &State, seat: Seat) -> State {
    let mut v = s.clone();
    let others: Vec<Seat> = s.players.seats().filter(|&o| o != seat).collect();
    for g in 0..r.goods.len() {
        let total: u32 = others.iter().map(|&o| u32::from(s.players[o].goods[g])).sum();
        for &o in &others {
            v.players[o].goods[g] = 0;
        }
        for &o in others.iter().cycle().take(total as usize) {
            v.players[o].goods[g] += 1;
        }
    }
    for &o in &others {
        v.players[o].pesos = 0;
        v.players[o].vp = 0;
    }
    v.rng = Rng::from_seed(0);
    v
}

/// What `seat` receives as JSON: the observed state without the generator, other
/// players' goods, pesos and VP (behind their screens, VP tokens face down: S002:L100,
/// data sheet C.1) marked `"hidden"`.
pub fn view_json(r: &Rules, s: &State, seat: Seat) -> serde_json::Value {
    let mut v = crate::json::to_json(r, &observe(r, s, seat));
    if let Some(m) = v.as_object_mut() {
        m.remove("rng");
        if let Some(players) = m.get_mut("players").and_then(serde_json::Value::as_array_mut) {
            for (o, p) in players.iter_mut().enumerate() {
                if o == usize::from(seat) {
                    continue;
                }
                for key in ["goods", "pesos", "vp"] {
                    if let Some(x) = p.get_mut(key) {
                        *x = serde_json::json!("hidden");
                    }
                }
            }
        }
    }
    v
}

/// A full state consistent with what `seat` knows. Every peso and VP change in this game
/// happens in the open, so opponents' pesos and VP are kept (perfect recall); which
/// opponent holds which goods is redealt at random, keeping how many goods each holds and
/// how many of each kind they hold together (the open supply shows that). The dice to
/// come are drawn from a fresh generator.
pub fn determinize(r: &Rules, s: &State, seat: Seat, rng: &mut Rng) -> State {
    let mut v = s.clone();
    let mut pool = [0u8; 8 * 255];
    let mut len = 0;
    for o in s.players.seats().filter(|&o| o != seat) {
        for g in 0..r.goods.len() {
            for _ in 0..s.players[o].goods[g] {
                if len < pool.len() {
                    pool[len] = g as u8;
                    len += 1;
                }
            }
        }
    }
    rng.shuffle(&mut pool[..len]);
    let mut next = 0;
    for o in s.players.seats().filter(|&o| o != seat) {
        let count = s.players[o].goods_total() as usize;
        v.players[o].goods = [0; MAX_GOODS];
        for &g in pool.get(next..next + count).unwrap_or(&[]) {
            v.players[o].goods[usize::from(g)] += 1;
        }
        next += count;
    }
    v.rng = Rng::from_seed(rng.next_u64());
    v
}

/// VP, plus what the rest is likely worth: pesos at half the casino's rate (they buy VP
/// there only at that rate, and buy goods and buildings' uses otherwise; at the full rate
/// greedy hoarded pesos and beat random players in 91% of 4-player games instead of 97%),
/// goods the ship wants now at 0.8 of the marker's value (the marker may move before they
/// are loaded), other goods 1.2 VP (a later ship or a building turns them into VP), a
/// substitute good 0.9 of its VP, and 2 VP per owned building for the visits it will
/// bring.
pub fn heuristic(r: &Rules, s: &State, seat: Seat) -> f64 {
    if let Some(o) = outcome(r, s) {
        return f64::from(o.scores.get(usize::from(seat)).copied().unwrap_or(0));
    }
    let p = &s.players[seat];
    let marker = f64::from(r.value_track.get(usize::from(s.ship.marker)).copied().unwrap_or(0));
    let pesos_per_vp = r
        .buildings
        .iter()
        .find_map(|b| match b.effect {
            BuildingEffect::Casino { pesos_per_vp } => Some(f64::from(pesos_per_vp)),
            _ => None,
        })
        // A ruleset without a casino: pesos still buy goods and buildings' uses; value them
        // as at the bundled casino's 3 pesos a VP (an evaluation weight, not a rule).
        .unwrap_or(3.0);
    let mut value = f64::from(p.vp) + 0.5 * f64::from(p.pesos) / pesos_per_vp;
    for (g, good) in r.goods.iter().enumerate() {
        let held = f64::from(p.goods[g]);
        value += match (good.substitute_vp, r.die_of_good(g as u8)) {
            (Some(vp), _) => held * f64::from(vp) * 0.9,
            (None, Some(d)) if s.on_ship(d) && !s.ship.awaiting_demand => {
                let now = held.min(f64::from(s.ship.dice.open(usize::from(d))));
                now * marker * 0.8 + (held - now) * 1.2
            }
            _ => held * 1.2,
        };
    }
    value + 2.0 * s.owned_by(seat, r.buildings.len().min(MAX_BUILDINGS)) as f64
}
