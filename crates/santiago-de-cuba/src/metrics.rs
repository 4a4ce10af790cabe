//! Designer metrics of Santiago de Cuba.
//!
//! | group | name | figures | how |
//! |---|---|---|---|
//! | `citizen` | each citizen's id | visited share, visited per game, mean round, visitor / non-visitor win share | the car stopping at the citizen after `drive N` |
//! | `building` | each building's id | claimed share, claimed per game, mean round, claimer / non-claimer win share | Alonso's `claim …` |
//! | `building` | each building's id | used per game | `use …` decisions (the pawn's building, or an own building through Alonso) |
//! | `vp` | `deliveries` | VP per game | VP gained in `deliver …` decisions (the ship) |
//! | `vp` | `citizens and buildings` | VP per game | VP gained (or given away) in every other decision |
//! | `vp` | `end of game` | VP per game | the final score minus the VP held at the end (goods, pesos and property converted) |

use crate::action::Action;
use crate::rules::Rules;
use crate::state::State;
use rulesmith_game::game::ToMove;
use rulesmith_game::metrics::{MetricDef, MetricSheet, SCRATCH};

/// Scratch cells: what the decision was, who made it, then each seat's VP before it.
const KIND: usize = 0;
const WHO: usize = 1;
const VP_BEFORE: usize = 2;
const DRIVE: i64 = 1;
const DELIVER: i64 = 2;

fn claims(r: &Rules) -> usize {
    r.citizens.len()
}

fn uses(r: &Rules) -> usize {
    claims(r) + r.buildings.len()
}

fn vp_base(r: &Rules) -> usize {
    uses(r) + r.buildings.len()
}

pub(crate) fn list(r: &Rules) -> Vec<MetricDef> {
    let mut d: Vec<MetricDef> =
        r.citizens.iter().map(|c| MetricDef::event("citizen", &c.id, "visited", "visitor")).collect();
    d.extend(r.buildings.iter().map(|b| MetricDef::event("building", &b.id, "claimed", "claimer")));
    d.extend(r.buildings.iter().map(|b| MetricDef::count("building", &b.id, "used")));
    for name in ["deliveries", "citizens and buildings", "end of game"] {
        d.push(MetricDef::count("vp", name, "VP"));
    }
    d
}

pub(crate) fn count(r: &Rules) -> usize {
    vp_base(r) + 3
}

#[inline]
/// `mover`: who makes decision `a` (the game's `to_move`).
pub(crate) fn decision(r: &Rules, mover: ToMove, s: &State, a: Action, m: &mut MetricSheet) {
    let ToMove::Seat(seat) = mover else { return };
    let seat = usize::from(seat);
    let round = s.turn.round;
    m.scratch[KIND] = match a {
        Action::Drive(_) => DRIVE,
        Action::Deliver { .. } | Action::DeliverFor { .. } => DELIVER,
        _ => 0,
    };
    m.scratch[WHO] = seat as i64;
    match a {
        Action::Claim(b) => m.event(seat, claims(r) + usize::from(b), round),
        Action::Use(b, _) => m.add(seat, uses(r) + usize::from(b), 1),
        _ => {}
    }
    for (p, player) in s.players.iter().enumerate().take(SCRATCH - VP_BEFORE) {
        m.scratch[VP_BEFORE + p] = i64::from(player.vp);
    }
}

#[inline]
pub(crate) fn applied(r: &Rules, s: &State, m: &mut MetricSheet) {
    if m.scratch[KIND] == DRIVE {
        if let Some(c) = s.car_citizen() {
            m.event(m.scratch[WHO] as usize, usize::from(c), s.turn.round);
        }
    }
    let source = if m.scratch[KIND] == DELIVER { vp_base(r) } else { vp_base(r) + 1 };
    for (p, player) in s.players.iter().enumerate().take(SCRATCH - VP_BEFORE) {
        let gained = i64::from(player.vp) - m.scratch[VP_BEFORE + p];
        if gained != 0 {
            m.add(p, source, gained);
        }
    }
}

pub(crate) fn end(r: &Rules, s: &State, m: &mut MetricSheet) {
    if !s.is_over() {
        return;
    }
    // The scores alone, not the ranked outcome (the run scores the game once for that).
    for seat in s.players.seats() {
        let score = i64::from(crate::scoring::score(r, s, seat));
        m.add(usize::from(seat), vp_base(r) + 2, score - i64::from(s.players[seat].vp));
    }
}
