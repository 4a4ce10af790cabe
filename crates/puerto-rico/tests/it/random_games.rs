#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Random games for every player count: they end, every invariant holds after every
//! action, the notation round-trips, and the state survives JSON.

use rulesmith_core::game::Game;
use rulesmith_core::prelude::*;

#[test]
fn random_games_end_and_keep_invariants() {
    let rules = crate::common::rules();
    for players in 2..=5 {
        for seed in 0..150 {
            let (log, s) = crate::common::random_game(&rules, players, seed);
            let o = rules.outcome(&s).expect("over");
            assert_eq!(o.scores.len(), players);
            assert!(!o.end.is_empty(), "{log:?}");
            let json = rules.state_to_json(&s);
            let back = rules.state_from_json(json.clone()).unwrap();
            assert_eq!(back, s);
        }
    }
}

/// The designer metrics add up: every seat's final score is its VP sources' sum; every
/// barrel produced is traded, shipped or spoiled, or kept; the text section is stable.
#[test]
fn metrics_account_for_scores_and_goods() {
    use rulesmith_core::metrics::{self, Kind};
    use rulesmith_core::sim::{self, Report, SimOptions};
    let rules = crate::common::rules();
    let defs = rules.metric_defs();
    assert_eq!(defs.len(), rules.metric_len());
    let at = |group: &str, name: &str, kind: &str| {
        defs.iter()
            .position(|d| {
                d.group == group
                    && d.name == name
                    && match &d.kind {
                        Kind::Count { unit } => unit == kind,
                        Kind::Event { verb, .. } => verb == kind,
                    }
            })
            .unwrap()
    };
    let bots = rulesmith_core::bots::parse_bots("random", 4).unwrap();
    for seed in 0..20 {
        let g =
            sim::play_game(&rules, &bots, &sim::PlayOptions { index: seed, ..sim::PlayOptions::new(4, seed) }).unwrap();
        let len = defs.len();
        let count = |s, m| metrics::seat_count(&g.metrics, len, s, m);
        for s in 0..4 {
            let vp: i64 =
                ["shipping", "buildings", "large-building bonuses"].iter().map(|n| count(s, at("vp", n, "VP"))).sum();
            assert_eq!(vp, i64::from(g.outcome.scores[s]), "seed {seed} seat {s}");
            for good in ["corn", "indigo", "sugar", "tobacco", "coffee"] {
                let left = count(s, at("goods", good, "shipped or spoiled"));
                assert!(left >= 0, "seed {seed} seat {s} {good}: {left}");
            }
        }
        // Each role is picked as often as the game had role choices.
        let picks: i64 =
            rules.roles.iter().map(|r| (0..4).map(|s| count(s, at("role", &r.id, "picked"))).sum::<i64>()).sum();
        assert!(picks >= i64::from(g.rounds) * 4 - 4 && picks <= i64::from(g.rounds) * 4, "{picks} {}", g.rounds);
    }
    let opts = SimOptions {
        players: 4,
        games: 12,
        from: 0,
        seed: 3,
        bots,
        shard: None,
        record: false,
        progress: None,
        rotate_seats: true,
        metrics: true,
    };
    let tally = sim::simulate(&rules, &opts, |_| {}).unwrap();
    let report = Report::new("puerto-rico", "d", "puerto-rico", &opts, tally, 0.0);
    insta::assert_snapshot!("metrics_text", metrics::text(&report.metrics));
}

/// VP chips lie face down during the game (S000:L332) and are counted in the open at its
/// end (S000:L418-420): a seat's view of a finished game shows every player's VP.
#[test]
fn a_finished_games_view_shows_every_players_vp() {
    use rulesmith_core::json::StateJson;
    let rules = crate::common::rules();
    for seed in 0..5 {
        let (_, s) = crate::common::random_game(&rules, 4, seed);
        for seat in 0..4u8 {
            let view = rules.view_to_json(&s, seat);
            for (o, p) in s.players.iter().enumerate() {
                assert_eq!(view["players"][o]["vp"], serde_json::json!(p.vp), "seed {seed}, seat {seat} sees seat {o}");
            }
        }
    }
}
