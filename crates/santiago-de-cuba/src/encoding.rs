//! The action space and the observation layout of a ruleset at a player count
//! ([`rulesmith_game::encode`]), derived from the ruleset's goods, dice, citizens,
//! buildings (with their effects), flowers and numbers.
//!
//! **Actions**, in id order (`GOOD`, `DIE`, `CITIZEN`, `BUILDING` in ruleset order):
//! 1. `keep aside DIE`; `drive N` for N from 1 to `max_steps`;
//! 2. `give peso`, `give vp`, `give GOOD`; `take GOOD`; `claim BUILDING`;
//! 3. for each building, its uses by effect: `use B` (gain, trade, newspaper's pesos);
//!    `use B N` for N from 1 to the fewer of the two goods' counts (convert);
//!    `use B GIVE for GET` for each pair of goods not excepted (exchange);
//!    `use B GOODS…` for each non-empty set of the goods it buys, as a bit set in
//!    increasing order (sell); `use B DIE` (clear a die); `use B buy N` and
//!    `use B sell N`, N from 1 to 255 (casino); `use B right`, `use B left`
//!    (marker); `use B GOOD` for each good not excepted (fixed delivery);
//!    `use B flip CITIZEN` (newspaper);
//! 4. `pawn BUILDING`; `skip`;
//! 5. `deliver GOOD N` for each die's good and N from 1 to the good's count;
//!    `deliver SUBSTITUTE for GOOD N` for each substitute good, each die's good and N
//!    from 1 to the substitute's count; `pass`.
//!
//! **Observation** (names; `N` each seat, `K` each street stop from 1, `F` each flower):
//! `round`; one-hots `to_move.seatN`, `turn.player.seatN`, `phase.PHASE`,
//! `pickpocket.victim.seatN`, `use.BUILDING` (the building that may be used),
//! `turn.citizen.CITIZEN`, `car.port`, `car.stopK`; `turn.visited`, `turn.roll_pending`;
//! `loading.passed.seatN`; `street.stopK.CITIZEN` (one-hot per stop);
//! `citizen.CITIZEN.inactive`; per building `building.B.flower.F` and
//! `building.B.owner.seatN`; `ship.departed`, `ship.awaiting_demand`,
//! `ship.marker.flagI` (one-hot over the value track), per die `ship.DIE.demand` and
//! `ship.DIE.aside`; `supply.GOOD`; per seat `seatN.pawn.BUILDING` (one-hot),
//! and, behind the screens (the observer's own; 0 for the others until the game is over,
//! S002:L100, L408): `seatN.goods_total`, `seatN.pesos`, `seatN.vp`, `seatN.goods.GOOD`.

use crate::action::{Action, Gift, Use};
use crate::rules::{BuildingEffect, Rules};
use crate::state::{Phase, State};
use rulesmith_game::Seat;
use rulesmith_game::encode::{Features, Names};

const PHASES: [&str; 9] = ["demand", "drive", "pickpocket", "choose_good", "lawyer", "pawn", "use", "loading", "over"];

fn phase_index(p: &Phase) -> usize {
    match p {
        Phase::Demand => 0,
        Phase::Drive => 1,
        Phase::Pickpocket { .. } => 2,
        Phase::ChooseGood => 3,
        Phase::Lawyer => 4,
        Phase::Pawn { .. } => 5,
        Phase::Use { .. } => 6,
        Phase::Loading { .. } => 7,
        Phase::Over => 8,
    }
}

fn good_count(r: &Rules, g: u8) -> u8 {
    r.goods.get(usize::from(g)).map_or(0, |g| g.supply)
}

/// The uses of building `b` its effect can ever allow.
fn uses(r: &Rules, effect: BuildingEffect, out: &mut Vec<Use>) {
    let goods = r.goods.len() as u8;
    match effect {
        BuildingEffect::Gain(_) | BuildingEffect::Trade { .. } => out.push(Use::Plain),
        BuildingEffect::Convert { from, to } => {
            out.extend((1..=good_count(r, from).min(good_count(r, to))).map(Use::Count));
        }
        BuildingEffect::Exchange { except } => {
            for give in (0..goods).filter(|&g| except & (1 << g) == 0) {
                for get in (0..goods).filter(|&g| g != give && except & (1 << g) == 0) {
                    out.push(Use::Exchange { give, get });
                }
            }
        }
        BuildingEffect::Sell { goods: sold, .. } => {
            let sold = sold & ((1u16 << goods) - 1) as u8;
            out.extend((1..=u8::MAX).filter(|m| m & !sold == 0).map(Use::Sell));
        }
        BuildingEffect::ClearDie => out.extend((0..r.dice.len() as u8).map(Use::Die)),
        BuildingEffect::Casino { .. } => {
            out.extend((1..=u8::MAX).map(Use::BuyVp));
            out.extend((1..=u8::MAX).map(Use::SellVp));
        }
        BuildingEffect::MoveMarker => out.extend([Use::Right, Use::Left]),
        BuildingEffect::DeliverFixed { except, .. } => {
            out.extend((0..goods).filter(|&g| except & (1 << g) == 0).map(Use::Ship));
        }
        BuildingEffect::Newspaper { .. } => {
            out.push(Use::Plain);
            out.extend((0..r.citizens.len() as u8).map(Use::Flip));
        }
    }
}

/// The action space (see the module docs for the order).
pub fn action_space(r: &Rules, _players: usize) -> Vec<Action> {
    let goods = r.goods.len() as u8;
    let buildings = r.buildings.len() as u8;
    let mut out = Vec::new();
    out.extend((0..r.dice.len() as u8).map(Action::KeepAside));
    out.extend((1..=r.max_steps).map(Action::Drive));
    out.extend([Action::Give(Gift::Pesos), Action::Give(Gift::Vp)]);
    out.extend((0..goods).map(|g| Action::Give(Gift::Good(g))));
    out.extend((0..goods).map(Action::Take));
    out.extend((0..buildings).map(Action::Claim));
    let mut buf = Vec::new();
    for (b, building) in r.buildings.iter().enumerate() {
        buf.clear();
        uses(r, building.effect, &mut buf);
        out.extend(buf.iter().map(|&u| Action::Use(b as u8, u)));
    }
    out.extend((0..buildings).map(Action::Pawn));
    out.push(Action::Skip);
    // Each good once, though two dice may demand it.
    let mut demanded = 0u16;
    for die in &r.dice {
        if demanded & (1 << die.good) == 0 {
            demanded |= 1 << die.good;
            out.extend((1..=good_count(r, die.good)).map(|count| Action::Deliver { good: die.good, count }));
        }
    }
    for (w, good) in r.goods.iter().enumerate() {
        if good.substitute_vp.is_none() {
            continue;
        }
        for g in (0..goods).filter(|&g| demanded & (1 << g) != 0) {
            out.extend((1..=good.supply).map(|count| Action::DeliverFor { with: w as u8, good: g, count }));
        }
    }
    out.push(Action::Pass);
    out
}

/// The observation's names (see the module docs).
pub fn observation_names(r: &Rules, players: usize) -> Vec<String> {
    let goods: Vec<&str> = r.goods.iter().map(|g| g.id.as_str()).collect();
    let citizens: Vec<&str> = r.citizens.iter().map(|c| c.id.as_str()).collect();
    let buildings: Vec<&str> = r.buildings.iter().map(|b| b.id.as_str()).collect();
    let seats: Vec<String> = (0..players).map(|s| format!("seat{s}")).collect();
    let seats = || seats.iter().map(String::as_str);
    let mut n = Names::default();
    n.push("round");
    n.each("to_move", seats());
    n.each("turn.player", seats());
    n.each("phase", PHASES);
    n.each("pickpocket.victim", seats());
    n.each("use", buildings.iter().copied());
    n.each("turn.citizen", citizens.iter().copied());
    n.push("car.port");
    for k in 1..=citizens.len() {
        n.push(format!("car.stop{k}"));
    }
    n.each("turn", ["visited", "roll_pending"]);
    n.each("loading.passed", seats());
    for k in 1..=citizens.len() {
        n.each(&format!("street.stop{k}"), citizens.iter().copied());
    }
    for c in &citizens {
        n.push(format!("citizen.{c}.inactive"));
    }
    for b in &buildings {
        n.each(&format!("building.{b}.flower"), r.flowers.iter().map(|f| f.id.as_str()));
        n.each(&format!("building.{b}.owner"), seats());
    }
    n.each("ship", ["departed", "awaiting_demand"]);
    for i in 0..r.value_track.len() {
        n.push(format!("ship.marker.flag{i}"));
    }
    for d in &r.dice {
        n.push(format!("ship.{}.demand", d.id));
        n.push(format!("ship.{}.aside", d.id));
    }
    n.each("supply", goods.iter().copied());
    for s in seats() {
        n.each(&format!("{s}.pawn"), buildings.iter().copied());
        n.each(s, ["goods_total", "pesos", "vp"]);
        n.each(&format!("{s}.goods"), goods.iter().copied());
    }
    n.into_vec()
}

fn seat_hot(f: &mut Features<'_>, players: usize, seat: Option<Seat>) {
    f.one_hot(players, seat.map(usize::from));
}

/// Writes `seat`'s observation of `s` (see the module docs).
pub fn observe(r: &Rules, s: &State, seat: Seat, out: &mut [f32]) {
    let mut f = Features::new(out);
    let players = s.player_count();
    let (ng, nc, nb) = (r.goods.len(), r.citizens.len(), r.buildings.len());
    f.push(s.turn.round);
    // The one-hots up to the car's, cleared at once (a clear each cost more than its
    // numbers).
    f.clear_ahead(3 * players + PHASES.len() + nb + 2 * nc + 1);
    let to_move = match s.phase {
        Phase::Over => None,
        Phase::Pickpocket { victim } => Some(victim),
        Phase::Loading { round } => Some(round.current()),
        _ => Some(s.turn.player),
    };
    seat_hot(&mut f, players, to_move);
    seat_hot(&mut f, players, Some(s.turn.player));
    f.one_hot(PHASES.len(), Some(phase_index(&s.phase)));
    seat_hot(&mut f, players, if let Phase::Pickpocket { victim } = s.phase { Some(victim) } else { None });
    f.one_hot(nb, if let Phase::Use { building } = s.phase { Some(usize::from(building)) } else { None });
    f.one_hot(nc, s.turn.citizen.get().map(usize::from));
    f.one_hot(nc + 1, Some(usize::from(s.car)));
    f.flag(s.turn.visited);
    f.flag(s.turn.roll_pending);
    let round = if let Phase::Loading { round } = s.phase { Some(round) } else { None };
    for o in 0..players {
        f.flag(round.is_some_and(|r| r.has_passed(o as u8)));
    }
    f.clear_ahead(nc * nc);
    for k in 0..nc {
        f.one_hot(nc, s.street.get(k).map(|&c| usize::from(c)));
    }
    for c in 0..nc {
        f.flag(s.inactive & (1 << c) != 0);
    }
    f.clear_ahead(nb * (r.flowers.len() + players));
    for b in 0..nb {
        f.one_hot(r.flowers.len(), s.flower.get(b).map(|&flower| usize::from(flower)));
        f.one_hot(players, s.owner.get(b).and_then(|o| o.get()).map(usize::from));
    }
    f.push(s.ship.departed);
    f.flag(s.ship.awaiting_demand);
    f.one_hot(r.value_track.len(), Some(usize::from(s.ship.marker)));
    for d in 0..r.dice.len() {
        f.push(s.ship.dice.open(d));
        f.flag(s.ship.aside & (1 << d) != 0);
    }
    for g in 0..ng {
        f.push(s.supply[g]);
    }
    for (o, p) in s.players.iter().enumerate() {
        f.one_hot(nb, p.pawn.get().map(usize::from));
        // Behind the screen, counts included: only the observer's own (S002:L100), and
        // everyone's once the screens come down at the end (S002:L408).
        let mine = o == usize::from(seat) || s.is_over();
        f.push(if mine { p.goods_total() } else { 0 });
        f.push(if mine { p.pesos } else { 0 });
        f.push(if mine { p.vp } else { 0 });
        for g in 0..ng {
            f.push(if mine { p.goods[g] } else { 0 });
        }
    }
}
