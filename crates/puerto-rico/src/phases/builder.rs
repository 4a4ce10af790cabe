//! Builder phase (S000:L200-244, L451-457; university L596-600).

use crate::action::Action;
use crate::board;
use crate::rules::{Effect, Rules};
use crate::state::{END_CITY, State};
use rulesmith_core::Seat;

fn privilege(rules: &Rules, s: &State, seat: Seat) -> u8 {
    if seat == s.chooser { super::round::privilege(rules, s) } else { 0 }
}

pub fn legal(rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let seat = s.current;
    let p = &s.players[seat];
    let free = rules.city_spaces.saturating_sub(board::city_spaces_used(rules, p));
    let discount = privilege(rules, s, seat);
    let mut any = false;
    for (i, b) in rules.buildings.iter().enumerate() {
        // One of each building per player (L453); large ones need two spaces (L455).
        if s.buildings[i] == 0 || p.city.has(i as u8) || b.spaces > free {
            continue;
        }
        if board::build_cost(rules, p, i, discount) <= p.doubloons {
            f(Action::Build(i as u8));
            any = true;
        }
    }
    if any {
        f(Action::Pass);
    }
}

pub fn play(rules: &Rules, s: &mut State, a: Action) {
    let seat = s.current;
    if let Action::Build(b) = a {
        let cost = board::build_cost(rules, &s.players[seat], b as usize, privilege(rules, s, seat));
        s.buildings[b as usize] -= 1;
        let university = board::has(rules, &s.players[seat], |e| matches!(e, Effect::ColonistOnNewBuilding));
        let p = &mut s.players[seat];
        p.doubloons -= cost;
        p.city.insert(b, 0);
        // University: one colonist from the supply, else the ship (L598-600); a building
        // with no circle sends it to San Juan.
        if university && super::settler::take_colonist(s) {
            let circles = rules.buildings.get(b as usize).map_or(0, |x| x.circles);
            let p = &mut s.players[seat];
            match p.city.iter_mut().find(|x| x.building == b) {
                Some(x) if circles > 0 => x.colonists = 1,
                _ => p.san_juan += 1,
            }
        }
        if board::city_spaces_used(rules, &s.players[seat]) >= rules.city_spaces {
            s.end_triggers |= END_CITY;
        }
    }
    next(rules, s);
}

pub fn step(rules: &Rules, s: &mut State) -> bool {
    let mut any = false;
    legal(rules, s, &mut |_| any = true);
    if any {
        return true;
    }
    next(rules, s);
    false
}

fn next(rules: &Rules, s: &mut State) {
    if s.rotation.advance() {
        s.current = s.rotation.current().unwrap_or(s.chooser);
    } else {
        super::round::end_phase(rules, s);
    }
}
