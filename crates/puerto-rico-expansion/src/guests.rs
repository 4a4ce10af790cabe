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
//! turn's action (`on_own_turn`). Where guests move on own turns too, the window at the
//! start of such a phase offers only the buildings whose effect is settled as the phase
//! begins (the union hall, the captain's lighthouse:
//! [`rulesmith_puerto_rico::phases::settled_at_start`]): any other move there is the same
//! outcome as making it on the owner's turn. Each move uses up a guest, so phases stay
//! finite; the guests of one window or turn go to targets in listing order
//! (`/pending/guest_floor`), so each outcome has one spelling.

use rulesmith_game::Seat;
use rulesmith_game::game::push_number;
use rulesmith_puerto_rico::Good;
use rulesmith_puerto_rico::action::{Action, Group};
use rulesmith_puerto_rico::extension::Checkpoint;
use rulesmith_puerto_rico::notation;
use rulesmith_puerto_rico::phases::settled_at_start;
use rulesmith_puerto_rico::rules::{Effect, RoleKind, Rules, kind};
use rulesmith_puerto_rico::state::{Player, State};

/// The guests' side of the expansion's extension ([`crate::extension::Expansion`]).
pub struct Guests;

impl Guests {
    /// A window opens if anybody can move a guest now.
    pub fn window_opens(&self, rules: &Rules, s: &State, at: Checkpoint) -> bool {
        rules.has_effect(kind::GUESTS) && s.players.seats().any(|seat| can_move(rules, s, seat, at, 0))
    }

    pub fn can_act_in_window(&self, rules: &Rules, s: &State) -> bool {
        can_move(rules, s, s.current, s.pending.window.at, s.pending.window.mark)
    }

    pub fn window_actions(&self, rules: &Rules, s: &State, f: &mut dyn FnMut(Action)) {
        let seat = s.current;
        let when = When::Window(s.pending.window.at);
        let Some(slot) = guest_slot(rules, &s.players[seat], when) else { return };
        let mut any = false;
        window_targets(rules, s, seat, slot, when, &mut |g| {
            if rank(rules, g) >= s.pending.window.mark {
                f(Action::Extension(u16::from(rank(rules, g))));
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
            if rank(rules, g) >= s.pending.window.mark {
                f(Action::Extension(u16::from(rank(rules, g))));
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
        (0..(rules.good_count() + 1 + rules.buildings.len()) as u16).collect()
    }

    pub fn write(&self, rules: &Rules, code: u16, out: &mut String) {
        out.push_str("guest to ");
        match group_of(rules, code) {
            Some(g) => notation::write_group(rules, g, out),
            None => {
                out.push_str("target-");
                push_number(out, code);
            }
        }
    }

    pub fn parse(&self, rules: &Rules, words: &[&str]) -> Option<Result<u16, String>> {
        let ["guest", "to", what] = words else { return None };
        Some(notation::parse_group(rules, what).map(|g| u16::from(rank(rules, g))))
    }

    pub fn window_label(&self) -> &'static str {
        "moving guests"
    }
}

/// The target of a move code (see [`Guests::codes`]).
fn group_of(rules: &Rules, code: u16) -> Option<Group> {
    let goods = rules.good_count() as u16;
    match code {
        c if c < goods => Some(Group::Plantation(Good::at(usize::from(c)))),
        c if c == goods => Some(Group::Quarry),
        c => u8::try_from(c - goods - 1).ok().filter(|&b| usize::from(b) < rules.buildings.len()).map(Group::Building),
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
fn rank(rules: &Rules, g: Group) -> u8 {
    let goods = rules.good_count() as u8;
    match g {
        Group::Plantation(x) => x.index() as u8,
        Group::Quarry => goods,
        Group::Building(b) => (goods + 1).saturating_add(b),
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

/// Where a guest of `seat` (on city slot `slot`) may go in this window or turn: every
/// target, except in the window at the start of a phase where the same guests also move
/// on their owner's turn, which offers only buildings settled as the phase begins.
fn window_targets(rules: &Rules, s: &State, seat: Seat, slot: usize, when: When, f: &mut impl FnMut(Group)) {
    let p = &s.players[seat];
    if !(when_is_turn_phase_start(rules, s, when) && moves_on_own_turn(rules, p, slot)) {
        targets(rules, p, f);
        return;
    }
    targets(rules, p, &mut |g| {
        let settled = match g {
            Group::Building(b) => {
                rules.buildings.get(usize::from(b)).is_some_and(|x| settled_at_start(rules, s, seat, &x.effect))
            }
            _ => false,
        };
        if settled {
            f(g)
        }
    });
}

/// The window at the start of a phase where players act in turn.
fn when_is_turn_phase_start(rules: &Rules, s: &State, when: When) -> bool {
    let turns = rules.roles.get(usize::from(s.role)).is_some_and(|r| {
        matches!(r.kind, RoleKind::Settler | RoleKind::Builder | RoleKind::Trader | RoleKind::Captain)
    });
    turns && matches!(when, When::Window(Checkpoint::PhaseStart))
}

/// Whether the guests on city slot `slot` also move on their owner's own turn.
fn moves_on_own_turn(rules: &Rules, p: &Player, slot: usize) -> bool {
    let building = p.city.slots.get(slot).map(|b| b.building);
    building.and_then(|b| rules.buildings.get(usize::from(b))).is_some_and(|x| window_allows(&x.effect, When::OwnTurn))
}

/// Where a guest may go: an unoccupied plantation or quarry, or an empty circle of a
/// building other than a guests building.
fn targets(rules: &Rules, p: &Player, f: &mut impl FnMut(Group)) {
    for g in rules.goods() {
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

/// Whether `seat` has a guest to move in this window, to a target of rank `floor` or later.
fn can_move(rules: &Rules, s: &State, seat: Seat, after: Checkpoint, floor: u8) -> bool {
    let when = When::Window(after);
    let Some(slot) = guest_slot(rules, &s.players[seat], when) else { return false };
    let mut any = false;
    window_targets(rules, s, seat, slot, when, &mut |g| any |= rank(rules, g) >= floor);
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
    s.pending.window.mark = rank(rules, target);
}
