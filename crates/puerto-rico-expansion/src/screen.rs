//! The play screen: the base game's board (forests and guests included) and, while the
//! draft runs, its slots with the buildings picked so far.

use crate::action::Action;
use crate::rules::Rules;
use crate::state::State;
use rulesmith_game::Seat;
use rulesmith_game::screen::{Style, wrap};
use std::fmt::Write as _;

/// The screen for `seat` of a state already observed by `seat`.
pub fn draw(rules: &Rules, s: &State, seat: Seat, style: &Style) -> String {
    let doing = (!s.draft.over).then(|| ("building draft", crate::draft::seat(s)));
    let mut out =
        rulesmith_puerto_rico::screen::draw_titled(&rules.base, &s.base, seat, style, "PR EXPANSION I", doing);
    if !s.draft.over {
        let slots: Vec<String> = rules
            .draft
            .slots
            .iter()
            .enumerate()
            .map(|(i, cost)| {
                let b = s.draft.slots.get(i).copied().flatten();
                match b.and_then(|b| rules.base.buildings.get(usize::from(b))) {
                    Some(x) => format!("${cost} {}", style.colour("magenta", &x.id)),
                    None => style.dim(&format!("${cost} -")),
                }
            })
            .collect();
        out.push('\n');
        let _ = writeln!(out, "{}", style.bold("Building draft"));
        wrap(&style.dim("Slots "), &slots, "  ", &mut out);
    }
    out
}

/// What an action costs or gives, for the menu of `play`.
pub fn annotate(rules: &Rules, s: &State, a: Action) -> Option<String> {
    match a {
        Action::Play(a) => rulesmith_puerto_rico::screen::annotate(&rules.base, &s.base, a),
        Action::Setup(b) => rules.base.buildings.get(usize::from(b)).map(|x| format!("{} VP, costs {}", x.vp, x.cost)),
    }
}
