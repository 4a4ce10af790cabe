//! The colonist a hospice (S000:L556-560) or university (S000:L596-600) offers: the
//! owner *may* take it, from the supply, else from the colonist ship. It is a decision,
//! since one colonist fewer in the supply can end the game a round earlier (S000:L412).
//! The offer interrupts the settler or builder phase, which resumes afterwards.

use super::flow::Flow;
use crate::action::Action;
use crate::rules::Rules;
use crate::state::{Offer, Phase, State};

/// Offers the current player a colonist for `to`, if there is one to take; remembers the
/// phase to resume. Returns whether the offer was made.
pub fn open(s: &mut State, to: Offer) -> bool {
    if s.colonist_supply == 0 && s.colonist_ship == 0 {
        return false;
    }
    s.colonist_offer = Some(to);
    s.pending.resume = Some(s.phase);
    s.phase = Phase::ColonistOffer;
    true
}

pub fn legal(_rules: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    if s.colonist_offer.is_some() {
        f(Action::TakeColonist);
        f(Action::Pass);
    }
}

pub fn play(s: &mut State, a: Action) -> Flow {
    let seat = s.current;
    if let (Action::TakeColonist, Some(to)) = (a, s.colonist_offer) {
        if super::supply::take_colonist(s) {
            let p = &mut s.players[seat];
            match to {
                Offer::Plantation(g) => p.plantations_occupied[g] += 1,
                Offer::Quarry => p.quarries_occupied += 1,
                Offer::SanJuan => p.san_juan += 1,
                Offer::Building(b) => match p.city.iter_mut().find(|x| x.building == b) {
                    Some(x) => x.colonists += 1,
                    None => p.san_juan += 1,
                },
            }
        }
    }
    s.colonist_offer = None;
    Flow::Resume
}
