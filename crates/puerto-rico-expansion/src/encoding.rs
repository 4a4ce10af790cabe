//! The action space and observation layout of the expansion
//! ([`rulesmith_game::encode`]): the base game's
//! ([`rulesmith_puerto_rico::encoding`]) with the draft added.
//!
//! **Actions**, in id order: `draft BUILDING` for each draft candidate (the violet
//! buildings, in ruleset order), then every action of the base game's space, in its order.
//!
//! **Observation**: the base game's features (what it keeps for the extension named as
//! the expansion names it, [`crate::extension::FOREST_NAMES`]: `forest_tiles.GOOD`,
//! `seatN.forests`), then `draft.over` and, per draft candidate, `draft.picked.BUILDING`
//! (1 once drafted).

use crate::action::Action;
use crate::rules::Rules;
use crate::state::State;
use rulesmith_game::Seat;
use rulesmith_game::encode::{Features, ObservationMemo};
use rulesmith_puerto_rico::encoding as base;

fn candidates(rules: &Rules) -> impl Iterator<Item = usize> + '_ {
    (0..rules.base.buildings.len().min(64)).filter(|&b| rules.draft.candidates & (1 << b) != 0)
}

pub fn action_space(rules: &Rules, players: usize) -> Vec<Action> {
    candidates(rules)
        .map(|b| Action::Setup(b as u8))
        .chain(base::action_space(&rules.base, players).into_iter().map(Action::Play))
        .collect()
}

/// The base game's key of a move ([`base::action_key`]), and a draft's after every key
/// of the base game's.
pub fn action_key(a: &Action) -> Option<u32> {
    match *a {
        Action::Setup(b) => (b < 64).then(|| base::ACTION_KEYS + u32::from(b)),
        Action::Play(a) => base::action_key(&a),
    }
}

pub fn observation_names(rules: &Rules, players: usize) -> Vec<String> {
    let mut names = base::observation_names(&rules.base, players);
    names.push("draft.over".into());
    names.extend(
        candidates(rules).filter_map(|b| rules.base.buildings.get(b)).map(|b| format!("draft.picked.{}", b.id)),
    );
    names
}

pub fn observe(rules: &Rules, s: &State, seat: Seat, out: &mut [f32]) {
    let mut f = Features::new(out);
    base::observe(&rules.base, &s.base, seat, &mut f);
    draft(rules, s, &mut f);
}

/// `draft.over`, `draft.picked.BUILDING`.
fn draft(rules: &Rules, s: &State, f: &mut Features<'_>) {
    f.flag(s.draft.over);
    let picked = s.draft.picked();
    for b in candidates(rules) {
        f.flag(picked & (1 << b) != 0);
    }
}

/// [`observe`] into a buffer holding what the last call with `memo` wrote: the base
/// game's parts that did not change are left as they are
/// ([`rulesmith_puerto_rico::encoding::observe_update`]), the draft's few written again.
pub fn observe_update(rules: &Rules, s: &State, seat: Seat, out: &mut [f32], memo: &mut ObservationMemo) {
    let end = base::observe_update(&rules.base, &s.base, seat, out, memo);
    draft(rules, s, &mut Features::new(out.get_mut(end..).unwrap_or_default()));
}
