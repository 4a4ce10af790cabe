//! Figures that rest on few games: a component's owners' figures (its owner − non-owner
//! win share, its effect in a sweep, a value `tune` finds) mean little where players
//! seldom take it up. A study says so beside the figure, in words:
//! "the harbor is built in 1.1% of seat-games (9 of 800) at buildings.harbor.cost = 9:
//! players stop taking it up, so its owners' figures there are no sign that it is fair".
//!
//! A component rests on few games where its owners' seat-games are fewer than
//! [`FEW_SHARE`] of all seat-games (finished games × players) or fewer than
//! [`FEW_SEAT_GAMES`].

use crate::metrics::Kind;
use crate::sim::Report;
use serde::{Deserialize, Serialize};

/// Below this share of seat-games with an owner, a component's owners' figures rest on
/// few games.
pub const FEW_SHARE: f64 = 0.05;

/// Below this many seat-games with an owner, whatever the share, likewise.
pub const FEW_SEAT_GAMES: u64 = 50;

/// A component whose figures rest on few games at one ruleset or value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Note {
    /// Where: the ruleset (`compare`) or `KEY = VALUE` (`sweep`, `tune`).
    pub at: String,
    /// The component, as figures name it (`building: harbor`).
    pub item: String,
    /// Seat-games in which some seat owned (built, picked, …) it, and all seat-games.
    pub seat_games: u64,
    pub of: u64,
    pub share: f64,
    /// The note in words.
    pub text: String,
}

/// Whether `with` of `of` seat-games is too few to judge a component by.
pub fn is_few(with: u64, of: u64) -> bool {
    with < FEW_SEAT_GAMES || (with as f64) < FEW_SHARE * of as f64
}

/// The notes of the components named `item` (every group: `harbor` is a building) in a
/// report, at `at`; every component when `item` is `None`.
pub fn notes(r: &Report, item: Option<&str>, at: &str) -> Vec<Note> {
    let m = &r.tally.metrics;
    let of = m.games.saturating_mul(r.players as u64);
    if of == 0 {
        return Vec::new();
    }
    m.defs
        .iter()
        .zip(&m.sums)
        .filter(|(d, _)| item.is_none_or(|i| d.name == i))
        .filter_map(|(d, s)| {
            let Kind::Event { verb, .. } = &d.kind else { return None };
            if !is_few(s.seats_with, of) {
                return None;
            }
            let share = s.seats_with as f64 / of as f64;
            let text = if s.seats_with == 0 {
                format!(
                    "the {} is never {verb} ({of} seat-games) at {at}: players stop taking it up, so its owners' figures there are no sign that it is fair",
                    d.name
                )
            } else if share < FEW_SHARE {
                format!(
                    "the {} is {verb} in {:.1}% of seat-games ({} of {of}) at {at}: players stop taking it up, so its owners' figures there are no sign that it is fair",
                    d.name,
                    100.0 * share,
                    s.seats_with
                )
            } else {
                format!(
                    "the {} is {verb} in {:.1}% of seat-games but only {} of {of} at {at}: too few games to judge it by (play more games)",
                    d.name,
                    100.0 * share,
                    s.seats_with
                )
            };
            Some(Note { at: at.to_string(), item: format!("{}: {}", d.group, d.name), seat_games: s.seats_with, of, share, text })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{MetricDef, MetricSums, MetricTally};
    use crate::sim::{SimOptions, Tally};

    fn report(seats_with: u64, games: u64) -> Report {
        let mut tally = Tally::new(4);
        tally.games = games;
        tally.metrics = MetricTally::new(vec![MetricDef::event("building", "harbor", "built", "owner")]);
        tally.metrics.games = games;
        tally.metrics.sums = vec![MetricSums { seats_with, ..Default::default() }];
        let opts = SimOptions {
            players: 4,
            games,
            from: 0,
            seed: 1,
            bots: Vec::new(),
            shard: None,
            record: false,
            progress: None,
            rotate_seats: false,
            metrics: true,
        };
        Report::new("puerto-rico", "", "puerto-rico", &opts, tally, 0.0)
    }

    #[test]
    fn a_component_few_players_take_up_is_named_in_words() {
        // 200 games × 4 seats: 9 seat-games with a harbor is 1.1%.
        let n = notes(&report(9, 200), Some("harbor"), "buildings.harbor.cost = 9");
        assert_eq!(n.len(), 1);
        assert_eq!(
            n[0].text,
            "the harbor is built in 1.1% of seat-games (9 of 800) at buildings.harbor.cost = 9: players stop taking it up, so its owners' figures there are no sign that it is fair"
        );
        assert_eq!((n[0].seat_games, n[0].of), (9, 800));
        assert!(notes(&report(0, 200), None, "x")[0].text.starts_with("the harbor is never built (800 seat-games)"));
    }

    #[test]
    fn the_thresholds_are_five_percent_of_seat_games_and_fifty_seat_games() {
        // 2000 seat-games: 5% is 100.
        assert!(notes(&report(99, 500), None, "x").len() == 1);
        assert!(notes(&report(100, 500), None, "x").is_empty());
        // 400 seat-games: 5% is 20, but fewer than 50 is few all the same.
        let few = notes(&report(49, 100), None, "x");
        assert_eq!(
            few[0].text,
            "the harbor is built in 12.2% of seat-games but only 49 of 400 at x: too few games to judge it by (play more games)"
        );
        assert!(notes(&report(50, 100), None, "x").is_empty());
        assert!(notes(&report(9, 200), Some("wharf"), "x").is_empty());
    }
}
