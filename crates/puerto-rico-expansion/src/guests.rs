//! Guest moves ([`Effect::Guests`], the expansion's guest house, S001:L557-561): the
//! expansion's rules behind the base game's extension points
//! ([`rulesmith_puerto_rico::extension`]).
//!
//! Guests are the colonists the mayor phase put on a guests building. Outside the mayor
//! phase their owner may move them to any empty circle, plantation or quarry, where they
//! work at once and stay until the next mayor phase (which takes up every colonist
//! anyway). The rulebook allows moves "at the start, during or at the end" of any other
//! phase: in windows at the start of each phase but the mayor's (`at_phase_start`) and
//! before the captain-phase storage (`before_storage`, the rulebook's own example), where
//! each owner, from the chooser clockwise, moves guests one at a time or passes; and on
//! the owner's own turn in the settler, builder, trader and captain phases, before the
//! turn's action (`on_own_turn`). Each move uses up a guest, so phases stay finite; the
//! guests of one window or turn go to targets in listing order (`/pending/guest_floor`), so each
//! outcome has one spelling.

use rulesmith_core::Seat;
use rulesmith_puerto_rico::Good;
use rulesmith_puerto_rico::action::{Action, Group};
use rulesmith_puerto_rico::extension::Checkpoint;
use rulesmith_puerto_rico::notation::{self, group_name};
use rulesmith_puerto_rico::rules::{Effect, Rules, kind};
use rulesmith_puerto_rico::state::{Player, State};

/// The guests' side of the expansion's extension ([`crate::extension::Expansion`]).
pub struct Guests;

impl Guests {
    /// A window opens if anybody can move a guest now.
    pub fn window_opens(&self, rules: &Rules, s: &State, at: Checkpoint) -> bool {
        rules.has_effect(kind::GUESTS) && s.players.seats().any(|seat| can_move(rules, &s.players[seat], at, 0))
    }

    /// With guests moving on their owners' turns, the phases where players act in turn
    /// open no window (a move there and on the owner's turn would be one outcome twice).
    pub fn skips_turn_phase_windows(&self, rules: &Rules) -> bool {
        rules.buildings.iter().any(|b| matches!(b.effect, Effect::Guests { on_own_turn: true, .. }))
    }

    pub fn can_act_in_window(&self, rules: &Rules, s: &State) -> bool {
        can_move(rules, &s.players[s.current], s.pending.window.at, s.pending.window.mark)
    }

    pub fn window_actions(&self, rules: &Rules, s: &State, f: &mut dyn FnMut(Action)) {
        let p = &s.players[s.current];
        if guest_slot(rules, p, When::Window(s.pending.window.at)).is_none() {
            return;
        }
        let mut any = false;
        targets(rules, p, &mut |g| {
            if rank(g) >= s.pending.window.mark {
                f(Action::Extension(u16::from(rank(g))));
                any = true;
            }
        });
        if any {
            f(Action::Pass);
        }
    }

    pub fn own_turn_actions(&self, rules: &Rules, s: &State, seat: Seat, f: &mut dyn FnMut(Action)) {
        if !rules.has_effect(kind::GUESTS) {
            return;
        }
        let p = &s.players[seat];
        if guest_slot(rules, p, When::OwnTurn).is_none() {
            return;
        }
        targets(rules, p, &mut |g| {
            if rank(g) >= s.pending.window.mark {
                f(Action::Extension(u16::from(rank(g))));
            }
        });
    }

    /// Moves a guest of the player to move (in a window, or on their own turn).
    pub fn play(&self, rules: &Rules, s: &mut State, code: u16) {
        let when = if s.phase == rulesmith_puerto_rico::state::Phase::Window {
            When::Window(s.pending.window.at)
        } else {
            When::OwnTurn
        };
        if let Some(target) = group_of(rules, code) {
            move_guest(rules, s, when, target);
        }
    }

    /// One code per target: its rank (plantations by kind, the quarries, buildings by index).
    pub fn codes(&self, rules: &Rules) -> Vec<u16> {
        (0..6 + rules.buildings.len() as u16).collect()
    }

    pub fn format(&self, rules: &Rules, code: u16) -> String {
        match group_of(rules, code) {
            Some(g) => format!("guest to {}", group_name(rules, g)),
            None => format!("guest to target-{code}"),
        }
    }

    pub fn parse(&self, rules: &Rules, words: &[&str]) -> Option<Result<u16, String>> {
        let ["guest", "to", what] = words else { return None };
        Some(notation::parse_group(rules, what).map(|g| u16::from(rank(g))))
    }

    pub fn window_label(&self) -> &'static str {
        "moving guests"
    }
}

/// The target of a move code (see [`Guests::codes`]).
fn group_of(rules: &Rules, code: u16) -> Option<Group> {
    match code {
        0..=4 => Good::ALL.get(usize::from(code)).map(|&g| Group::Plantation(g)),
        5 => Some(Group::Quarry),
        c => u8::try_from(c - 6).ok().filter(|&b| usize::from(b) < rules.buildings.len()).map(Group::Building),
    }
}

/// When guests may move: in a window, or on the owner's own turn.
#[derive(Clone, Copy)]
enum When {
    Window(Checkpoint),
    OwnTurn,
}

fn window_allows(e: &Effect, when: When) -> bool {
    match (*e, when) {
        (Effect::Guests { at_phase_start, .. }, When::Window(Checkpoint::PhaseStart)) => at_phase_start,
        (Effect::Guests { before_storage, .. }, When::Window(Checkpoint::Storage)) => before_storage,
        (Effect::Guests { on_own_turn, .. }, When::OwnTurn) => on_own_turn,
        _ => false,
    }
}

/// A target's place in the listing order of [`targets`] (plantations, quarry, buildings
/// by index).
fn rank(g: Group) -> u8 {
    match g {
        Group::Plantation(x) => x as u8,
        Group::Quarry => 5,
        Group::Building(b) => 6u8.saturating_add(b),
        Group::SanJuan => u8::MAX,
    }
}

fn is_guests(rules: &Rules, building: u8) -> bool {
    matches!(rules.buildings.get(building as usize).map(|x| x.effect), Some(Effect::Guests { .. }))
}

/// The city slot holding guests that may move in this window.
fn guest_slot(rules: &Rules, p: &Player, when: When) -> Option<usize> {
    p.city.iter().position(|b| {
        b.colonists > 0 && rules.buildings.get(b.building as usize).is_some_and(|x| window_allows(&x.effect, when))
    })
}

/// Where a guest may go: an unoccupied plantation or quarry, or an empty circle of a
/// building other than a guests building.
fn targets(rules: &Rules, p: &Player, f: &mut impl FnMut(Group)) {
    for g in Good::ALL {
        if p.plantations[g] > p.plantations_occupied[g] {
            f(Group::Plantation(g));
        }
    }
    if p.quarries > p.quarries_occupied {
        f(Group::Quarry);
    }
    for b in p.city.iter() {
        let circles = rules.buildings.get(b.building as usize).map_or(0, |x| x.circles);
        if circles > b.colonists && !is_guests(rules, b.building) {
            f(Group::Building(b.building));
        }
    }
}

/// Whether `p` has a guest to move in this window, to a target of rank `floor` or later.
fn can_move(rules: &Rules, p: &Player, after: Checkpoint, floor: u8) -> bool {
    if guest_slot(rules, p, When::Window(after)).is_none() {
        return false;
    }
    let mut any = false;
    targets(rules, p, &mut |g| any |= rank(g) >= floor);
    any
}

/// Moves a guest of the player to move to `target`.
fn move_guest(rules: &Rules, s: &mut State, when: When, target: Group) {
    let seat = s.current;
    let Some(slot) = guest_slot(rules, &s.players[seat], when) else { return };
    let p = &mut s.players[seat];
    p.city.slots[slot].colonists -= 1;
    match target {
        Group::Plantation(g) => p.plantations_occupied[g] += 1,
        Group::Quarry => p.quarries_occupied += 1,
        Group::Building(b) => {
            if let Some(x) = p.city.iter_mut().find(|x| x.building == b) {
                x.colonists += 1;
            }
        }
        Group::SanJuan => p.san_juan += 1,
    }
    s.pending.window.mark = rank(target);
}
