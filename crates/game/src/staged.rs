//! The capabilities of games made of setup decisions, then a base game
//! ([`rulesmith_rules::staged`]): such a game keeps the base game's metrics and the bots'
//! settings.

pub use rulesmith_rules::staged::*;

use crate::evaluate::{Evaluate, RolloutPolicy};
use crate::game::Seat;
use crate::metrics::{MetricDef, MetricSheet, Metrics, SeatFigures};

/// The metrics are the base game's: the setup is not play.
impl<T: SetupThenBase> Metrics for T
where
    T::Base: Metrics,
{
    fn metric_defs(&self) -> Vec<MetricDef> {
        self.base().metric_defs()
    }

    fn metric_len(&self) -> usize {
        self.base().metric_len()
    }

    #[inline]
    fn metric_before(&self, s: &T::State, a: Self::Action, m: &mut MetricSheet) -> bool {
        match a {
            Staged::Play(a) => self.base().metric_before(self.base_state(s), a, m),
            // The decision that ends the setup lets the base game look at its start.
            _ => true,
        }
    }

    #[inline]
    fn metric_after(&self, s: &T::State, m: &mut MetricSheet) {
        if self.setup_over(s) {
            self.base().metric_after(self.base_state(s), m);
        }
    }

    #[inline]
    fn standing(&self, s: &T::State, seat: Seat) -> f64 {
        self.base().standing(self.base_state(s), seat)
    }

    #[inline]
    fn standings_scratch(&self) -> Box<dyn std::any::Any> {
        self.base().standings_scratch()
    }

    #[inline]
    fn standings(&self, s: &T::State, m: &mut MetricSheet, scratch: &mut dyn std::any::Any, out: &mut [f64]) {
        self.base().standings(self.base_state(s), m, scratch, out);
    }

    fn metric_final(&self, s: &T::State, m: &mut MetricSheet) {
        self.base().metric_final(self.base_state(s), m);
    }

    fn money_name(&self) -> Option<&'static str> {
        self.base().money_name()
    }

    fn round_figures(&self, s: &T::State, seat: Seat, standing: Option<f64>, m: &MetricSheet) -> SeatFigures {
        self.base().round_figures(self.base_state(s), seat, standing, m)
    }
}

/// The bots judge a position by the base game's heuristic and settings.
impl<T: SetupThenBase> Evaluate for T
where
    T::Base: Evaluate,
{
    fn heuristic(&self, s: &T::State, seat: Seat) -> f64 {
        self.base().heuristic(self.base_state(s), seat)
    }

    fn search_rollout_depth(&self) -> usize {
        self.base().search_rollout_depth()
    }

    fn search_rollout_policy(&self) -> RolloutPolicy {
        self.base().search_rollout_policy()
    }

    fn greedy_turn_depth(&self) -> usize {
        self.base().greedy_turn_depth()
    }
}
