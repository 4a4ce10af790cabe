//! Random games for 2, 3 and 4 players: every game ends, every state keeps every
//! invariant, the state survives JSON both ways, and every legal action's notation
//! round-trips.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests may fail loudly

use crate::common::*;
use rulesmith_core::prelude::*;
use rulesmith_core::{Game, Rng};
use rulesmith_santiago_de_cuba::State;

fn check_many(players: usize, games: u64) {
    let g = game();
    for seed in 0..games {
        let mut steps = 0u64;
        let mut buf = Vec::new();
        let end = random_game(&g, players, seed, |s, _| {
            if let Err(e) = g.check_state(s) {
                panic!("seed {seed} step {steps}: {e}\n{s:?}");
            }
            if seed < 50 || steps % 64 == 0 {
                let text = serde_json::to_string(s).unwrap();
                let back: State = serde_json::from_str(&text).unwrap();
                assert_eq!(&back, s, "serde round trip, seed {seed} step {steps}");
                let named = g.state_from_json(g.state_to_json(s)).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                assert_eq!(&named, s, "named JSON round trip, seed {seed} step {steps}");
            }
            if seed < 100 {
                g.legal_actions(s, &mut buf);
                for &a in &buf {
                    let text = g.format_action(s, a);
                    assert_eq!(g.parse_action(s, &text).unwrap(), a, "`{text}` does not round-trip");
                }
                // What a player sees and a determinised state are valid states.
                let me = match g.to_move(s) {
                    rulesmith_core::ToMove::Seat(m) => m,
                    _ => 0,
                };
                g.check_state(&g.observe(s, me)).unwrap();
                let mut rng = Rng::from_seed(seed + steps);
                let det = g.determinize(s, me, &mut rng);
                g.check_state(&det).unwrap();
                assert_eq!(det.players[me], s.players[me]);
                let mut dl = Vec::new();
                g.legal_actions(&det, &mut dl);
                assert!(!dl.is_empty());
            }
            steps += 1;
        });
        g.check_state(&end).unwrap();
        let o = g.outcome(&end).expect("the game is over");
        assert_eq!(o.scores.len(), players);
        assert_eq!(end.ship.departed, 7);
        let back: State = serde_json::from_str(&serde_json::to_string(&end).unwrap()).unwrap();
        assert_eq!(back, end);
        assert_eq!(g.state_from_json(g.state_to_json(&end)).unwrap(), end);
    }
}

#[test]
fn two_player_random_games() {
    check_many(2, 2000);
}

#[test]
fn three_player_random_games() {
    check_many(3, 2000);
}

#[test]
fn four_player_random_games() {
    check_many(4, 2000);
}

/// The designer metrics add up: each seat's VP sources sum to its score less the VP it
/// started with; a game has as many citizen visits as `drive` decisions that stopped at one.
#[test]
fn metrics_account_for_the_score() {
    use rulesmith_core::metrics::seat_count;
    let g = game();
    let defs = g.metric_defs();
    assert_eq!(defs.len(), g.metric_len());
    let vp = |name: &str| defs.iter().position(|d| d.group == "vp" && d.name == name).unwrap();
    let bots = rulesmith_core::bots::parse_bots("random", 3).unwrap();
    for seed in 0..30 {
        let r = rulesmith_core::sim::play_game(
            &g,
            &bots,
            &rulesmith_core::sim::PlayOptions { index: seed, ..rulesmith_core::sim::PlayOptions::new(3, seed) },
        )
        .unwrap();
        for s in 0..3 {
            let sources: i64 = ["deliveries", "citizens and buildings", "end of game"]
                .iter()
                .map(|n| seat_count(&r.metrics, defs.len(), s, vp(n)))
                .sum();
            let score = i64::from(r.outcome.scores[s]) - i64::from(g.rules.start_vp);
            assert_eq!(sources, score, "seed {seed} seat {s}");
        }
        let visits: i64 = (0..3)
            .flat_map(|s| (0..g.rules.citizens.len()).map(move |c| (s, c)))
            .map(|(s, c)| seat_count(&r.metrics, defs.len(), s, c))
            .sum();
        assert!(visits > 0 && visits <= r.decisions as i64, "seed {seed}: {visits} visits");
    }
}

/// `has_use` answers without listing the uses (the playout path): it agrees with
/// `each_use` for every seat and building in every state of random games.
#[test]
fn has_use_agrees_with_the_listed_uses() {
    use rulesmith_santiago_de_cuba::engine::{each_use, has_use};
    let g = game();
    for players in 2..=4 {
        for seed in 0..40 {
            random_game(&g, players, seed, |s, _| {
                for seat in 0..players as u8 {
                    for b in 0..g.rules.buildings.len() as u8 {
                        let mut listed = false;
                        each_use(&g.rules, s, seat, b, &mut |_| listed = true);
                        assert_eq!(
                            has_use(&g.rules, s, seat, b),
                            listed,
                            "seed {seed}, seat {seat}, building {b}\n{s:?}"
                        );
                    }
                }
            });
        }
    }
}
