//! Random games end, keep every invariant after every action, and their states
//! round-trip through JSON; every legal action's notation reads back; the shared
//! conformance checks of the `Game` contract hold with every bot.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::game;
use rulesmith_core::bots::BotSpec;
use rulesmith_core::prelude::*;
use rulesmith_core::sim::MAX_DECISIONS;
use rulesmith_core::{Game, Rng, ToMove};
use rulesmith_mundo_163::Mundo163;
use rulesmith_testkit::conformance_deterministic;
use std::collections::BTreeSet;

/// Games per player count: 200 by default so `cargo test` stays quick on 2 cores;
/// `RULESMITH_GAMES=2000 cargo test --release -p rulesmith-mundo-163 --test it conformance::`
/// runs the long check.
fn games() -> u64 {
    std::env::var("RULESMITH_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(200)
}

/// Plays one random game: `check_state` after every action, the JSON round trip every
/// 97 decisions and at the end. Returns the number of decisions.
fn random_game(g: &Mundo163, players: usize, seed: u64) -> u64 {
    let mut s = g.new_game(players, seed).unwrap();
    let mut rng = Rng::from_seed(seed ^ 0x5eed);
    let mut buf = Vec::new();
    let mut n = 0u64;
    let round_trip = |s: &rulesmith_mundo_163::State, n: u64| {
        let json = g.state_to_json(s);
        let back = g.state_from_json(json.clone()).unwrap_or_else(|e| panic!("seed {seed}, decision {n}: {e}"));
        assert_eq!(g.state_to_json(&back), json, "seed {seed}, decision {n}: JSON round trip");
        assert!(&back == s, "seed {seed}, decision {n}: the state read back differs");
    };
    while let ToMove::Seat(_) = g.to_move(&s) {
        g.legal_actions(&s, &mut buf);
        assert!(!buf.is_empty(), "seed {seed}, decision {n}: no legal action");
        let a = buf[rng.index(buf.len())];
        g.apply(&mut s, a).unwrap_or_else(|e| panic!("seed {seed}, decision {n}: {e}"));
        g.check_state(&s).unwrap_or_else(|e| panic!("{players} players, seed {seed}, decision {n}: {e}"));
        n += 1;
        assert!(n < MAX_DECISIONS, "seed {seed}: the game did not end");
        if n % 97 == 0 {
            round_trip(&s, n);
        }
    }
    round_trip(&s, n);
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.scores.len(), players);
    n
}

fn many_random_games(players: usize) {
    let g = game();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4) as u64;
    let total: u64 = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let g = &g;
                scope.spawn(move || {
                    (k..games()).step_by(threads as usize).map(|seed| random_game(g, players, seed)).sum::<u64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let mean = total / games();
    assert!(mean < 5_000, "random games should be far shorter than the limit: {mean} decisions");
}

#[test]
fn two_player_random_games() {
    many_random_games(2);
}

#[test]
fn three_player_random_games() {
    many_random_games(3);
}

#[test]
fn four_player_random_games() {
    many_random_games(4);
}

/// Notation: `parse(format(a)) == a` for every legal action of every position of random
/// games, and no two legal actions print the same.
#[test]
fn every_legal_action_reads_back() {
    let g = game();
    for players in 2..=4 {
        for seed in 0..30 {
            let mut s = g.new_game(players, seed).unwrap();
            let mut rng = Rng::from_seed(seed);
            let mut buf = Vec::new();
            while let ToMove::Seat(_) = g.to_move(&s) {
                g.legal_actions(&s, &mut buf);
                let mut seen = BTreeSet::new();
                for &a in &buf {
                    let text = g.format_action(&s, a);
                    assert_eq!(g.parse_action(&s, &text).unwrap(), a, "{text}");
                    assert!(text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || " -".contains(c)));
                    assert!(seen.insert(text.clone()), "two legal actions print `{text}`");
                }
                let a = buf[rng.index(buf.len())];
                g.apply(&mut s, a).unwrap();
            }
        }
    }
}

/// The legal list is exactly what `apply` accepts: every listed action applies, and
/// actions that are not listed are refused without changing the state.
#[test]
fn legal_list_matches_apply() {
    let g = game();
    for players in [2, 4] {
        for seed in 0..6 {
            let mut s = g.new_game(players, seed).unwrap();
            let mut rng = Rng::from_seed(seed + 50);
            let mut buf = Vec::new();
            let mut seen: BTreeSet<String> = BTreeSet::new();
            while let ToMove::Seat(_) = g.to_move(&s) {
                g.legal_actions(&s, &mut buf);
                let legal: BTreeSet<String> = buf.iter().map(|&a| g.format_action(&s, a)).collect();
                for text in seen.iter().filter(|t| !legal.contains(t.as_str())).take(40) {
                    let a = g.parse_action(&s, text).unwrap();
                    let mut c = s.clone();
                    assert!(g.apply(&mut c, a).is_err(), "`{text}` is not listed but applies");
                    assert_eq!(c, s);
                }
                seen.extend(legal);
                let a = buf[rng.index(buf.len())];
                g.apply(&mut s, a).unwrap();
            }
        }
    }
}

/// The legal lists, built over bit sets of tiles and edges, are exactly the actions of the
/// action space that the one-by-one checks (`is_legal`) accept, in every phase of random
/// games; and the trolley's reach, found by cost levels, is the cheapest cost by a plain
/// Dijkstra over the entry costs one step at a time (`enter_cost`).
#[test]
fn legal_lists_are_the_checked_actions() {
    use rulesmith_core::encode::Encode;
    use rulesmith_mundo_163::trolley::{enter_cost, reach};
    let g = game();
    for players in 2..=4 {
        let space = g.action_space(players);
        for seed in 0..4 {
            let mut s = g.new_game(players, seed).unwrap();
            let mut rng = Rng::from_seed(seed + 70);
            let mut buf = Vec::new();
            let mut n = 0u64;
            while let ToMove::Seat(_) = g.to_move(&s) {
                g.legal_actions(&s, &mut buf);
                if n % 3 == 0 {
                    let listed: BTreeSet<_> = buf.iter().map(|&a| g.format_action(&s, a)).collect();
                    let checked: BTreeSet<_> =
                        space.iter().filter(|&&a| g.is_legal(&s, a)).map(|&a| g.format_action(&s, a)).collect();
                    assert_eq!(listed, checked, "{players} players, seed {seed}, decision {n}");
                    assert_eq!(listed.len(), buf.len(), "a legal action is listed twice");
                }
                if s.phase == rulesmith_mundo_163::Phase::Trolley {
                    let p = s.cur();
                    let tiles = g.rules.tiles();
                    let mut dist = vec![u16::MAX; tiles];
                    let mut done = vec![false; tiles];
                    dist[usize::from(p.trolley.tile.get().unwrap())] = 0;
                    while let Some(t) = (0..tiles).filter(|&t| !done[t] && dist[t] != u16::MAX).min_by_key(|&t| dist[t])
                    {
                        done[t] = true;
                        let enterable =
                            |to: u8| !g.rules.trolley.needs_own_tile || p.trolley.residents > 0 || p.owns(to);
                        for (to, _) in &g.rules.adjacency[t] {
                            let Some(c) = enter_cost(&g.rules, &s, p, t as u8, *to).filter(|_| enterable(*to)) else {
                                continue;
                            };
                            let total = dist[t] + u16::from(c);
                            if total <= u16::from(p.trolley.half_mp) && total < dist[usize::from(*to)] {
                                dist[usize::from(*to)] = total;
                            }
                        }
                    }
                    let fast = reach(&g.rules, &s);
                    for t in 0..tiles {
                        let want = if dist[t] == u16::MAX { u8::MAX } else { dist[t] as u8 };
                        assert_eq!(fast[t], want, "{players} players, seed {seed}, decision {n}, tile {t}");
                    }
                }
                let a = buf[rng.index(buf.len())];
                g.apply(&mut s, a).unwrap();
                n += 1;
            }
        }
    }
}

/// The shared contract checks (JSON at every decision, refusals, replay, same seed same
/// game) with the random, greedy and search bots.
#[test]
fn shared_conformance_checks() {
    let g = game();
    for players in 2..=4 {
        conformance_deterministic(&g, players, 1, BotSpec::Random).unwrap();
    }
    conformance_deterministic(&g, 2, 2, BotSpec::Greedy).unwrap();
    conformance_deterministic(&g, 2, 3, BotSpec::Mcts(3)).unwrap();
}

/// Greedy bots reach the real end rule (REF §2.9: 19 goods delivered in total with 2
/// players), not the `max_rounds` safety bound, in most games: the heuristic must make
/// moving to a delivery beat ending the turn (the turn's income is paid either way) and
/// must not credit two goods aboard to one city's single demand space (REF §2.6).
#[test]
fn greedy_games_end_by_deliveries() {
    let g = game();
    let mut by_rule = 0;
    let games = 10u64;
    for seed in 1..=games {
        let mut s = g.new_game(2, seed).unwrap();
        let mut rng = Rng::from_seed(seed);
        let mut buf = Vec::new();
        while let ToMove::Seat(_) = g.to_move(&s) {
            g.legal_actions(&s, &mut buf);
            let a = rulesmith_core::bots::choose(&g, &BotSpec::Greedy, &s, &buf, &mut rng);
            g.apply(&mut s, a).unwrap();
        }
        if g.outcome(&s).unwrap().end == "delivered_goods" {
            by_rule += 1;
        }
    }
    println!("{by_rule} of {games} greedy games ended by deliveries");
    assert!(by_rule >= 7, "only {by_rule} of {games} greedy games ended by deliveries");
}

/// The search's cache of trolley distances only saves work: with one scratch kept through
/// whole games (as one search keeps it through its leaves), the evaluation in search is
/// the plain heuristic's value for every seat at every position.
#[test]
fn the_search_scratch_changes_no_value() {
    use rulesmith_core::bots::Evaluate;
    let g = game();
    for (players, seed) in [(2, 5), (3, 6), (4, 7)] {
        let mut scratch = g.search_scratch();
        let mut s = g.new_game(players, seed).unwrap();
        let mut rng = Rng::from_seed(seed);
        let mut buf = Vec::new();
        while let ToMove::Seat(_) = g.to_move(&s) {
            for seat in 0..players as rulesmith_core::Seat {
                let plain = g.heuristic(&s, seat);
                assert_eq!(g.heuristic_in_search(&s, seat, &mut *scratch).to_bits(), plain.to_bits());
            }
            g.legal_actions(&s, &mut buf);
            let a = rulesmith_core::bots::choose(&g, &BotSpec::Greedy, &s, &buf, &mut rng);
            g.apply(&mut s, a).unwrap();
        }
    }
}

/// Issue 11: the money metrics account for every coin (their sum per seat is the money at
/// the end less the starting money), and the deliveries are those of the final state.
#[test]
fn metrics_account_for_money_and_deliveries() {
    use rulesmith_core::Rng;
    use rulesmith_core::bots::{self, Bot, BotError, BotSpec};
    use rulesmith_core::metrics::seat_count;
    use rulesmith_mundo_163::{Mundo163, state::State};

    /// The greedy bot, keeping the final state.
    struct Keep(std::rc::Rc<std::cell::RefCell<Option<State>>>);
    impl Bot<Mundo163> for Keep {
        fn name(&self) -> String {
            "greedy".into()
        }
        fn choose(
            &mut self,
            g: &Mundo163,
            s: &State,
            legal: &[rulesmith_mundo_163::action::Action],
            rng: &mut Rng,
        ) -> Result<rulesmith_mundo_163::action::Action, BotError> {
            Ok(bots::choose(g, &BotSpec::Greedy, s, legal, rng))
        }
        fn game_over(&mut self, _g: &Mundo163, s: &State) {
            *self.0.borrow_mut() = Some(s.clone());
        }
    }
    let g = crate::common::game();
    let defs = g.metric_defs();
    let at = |group: &str, name: &str| defs.iter().position(|d| d.group == group && d.name == name).unwrap();
    for seed in 0..2 {
        let end = std::rc::Rc::new(std::cell::RefCell::new(None));
        let mut seats: Vec<Box<dyn Bot<Mundo163>>> = (0..2).map(|_| Box::new(Keep(end.clone())) as _).collect();
        let r = rulesmith_core::sim::play_game(
            &g,
            &mut seats,
            &rulesmith_core::sim::PlayOptions { index: seed, ..rulesmith_core::sim::PlayOptions::new(2, seed) },
        )
        .unwrap();
        let s = end.borrow().clone().unwrap();
        assert!(r.decisions > 50 && s.p.iter().any(|p| p.money != g.rules.setup.starting_money), "seed {seed}");
        for (p, player) in s.p.iter().enumerate() {
            let money: i64 = ["income", "privileges", "residents", "upgrades", "other"]
                .iter()
                .map(|m| seat_count(&r.metrics, defs.len(), p, at("money", m)))
                .sum();
            assert_eq!(money, i64::from(player.money - g.rules.setup.starting_money), "seed {seed} seat {p}");
            for (k, good) in g.rules.goods.iter().enumerate() {
                let n = seat_count(&r.metrics, defs.len(), p, at("delivery", good));
                assert_eq!(n, i64::from(player.delivered[k]), "seed {seed} seat {p} {good}");
            }
        }
    }
}

/// A wrong name in a state read back is refused at its JSON Pointer, naming what would do
/// (the core's names layer, shared with Santiago de Cuba).
#[test]
fn wrong_names_in_state_json_are_named_at_their_pointer() {
    let g = game();
    let s = g.new_game(3, 1).unwrap();
    let json = g.state_to_json(&s);
    let refused = |pointer: &str, value| rulesmith_testkit::kit::refused_json(&g, &json, pointer, value);
    let e = refused("/players/1/trolley/goods/rum", 1.into());
    assert!(e.contains("/players/1/trolley/goods/rum: unknown key (expected one of "), "{e}");
    let e = refused("/players/0/settlements", serde_json::json!(["z9"]));
    assert!(e.contains("/players/0/settlements/0: unknown tile `z9` (expected one of "), "{e}");
    assert!(e.contains("… (61 in all)"), "{e}");
    let e = refused("/privilege_row/0/privilege", "flying".into());
    assert!(e.contains("/privilege_row/0/privilege: unknown privilege `flying`"), "{e}");
    // The phase and the end reason are read in the same pass: named where they stand.
    let e = refused("/phase", "flying".into());
    assert!(e.contains("/phase: unknown variant `flying`, expected one of `capital`, "), "{e}");
    let e = refused("/end", "bored".into());
    assert!(e.contains("/end: unknown variant `bored`, expected `delivered_goods` or `round_limit`"), "{e}");
}

/// The edges open for a road (`Player::open_roads`), kept as settlements and roads are
/// placed, equal at every decision of random games a scan of every pair of adjacent own
/// tiles (no own road there, an end on the network or, before the first road, the
/// capital); a state whose kept edges are stale is refused by the state check.
#[test]
fn open_road_edges_are_kept_exactly() {
    let g = game();
    let mut stale_refused = false;
    for players in 2..=4 {
        for seed in 0..6 {
            let mut s = g.new_game(players, seed).unwrap();
            let mut rng = Rng::from_seed(seed + 90);
            let mut buf = Vec::new();
            while let ToMove::Seat(_) = g.to_move(&s) {
                for p in s.p.iter() {
                    let connected = if p.network != 0 {
                        p.network
                    } else if let Some(c) = p.capital.get().filter(|&c| c < 64) {
                        1 << c
                    } else {
                        0
                    };
                    let mut want = [0u64; 3];
                    for (a, near) in g.rules.adjacency.iter().enumerate() {
                        for &(b, e) in near {
                            let (a, b) = (a as u8, b);
                            let ends = 1u64 << a | 1u64 << b;
                            if a < b && p.owns(a) && p.owns(b) && connected & ends != 0 && !p.has_road(e) {
                                want[usize::from(e) / 64] |= 1 << (e % 64);
                            }
                        }
                    }
                    assert_eq!(p.open_roads, want, "{players} players, seed {seed}");
                }
                if !stale_refused && s.cur().open_roads != [0; 3] {
                    let mut stale = s.clone();
                    stale.cur_mut().open_roads = [0; 3];
                    let err = g.check_state(&stale).unwrap_err().to_string();
                    assert!(err.contains("open road edges cache is stale"), "{err}");
                    stale_refused = true;
                }
                g.legal_actions(&s, &mut buf);
                let a = buf[rng.index(buf.len())];
                g.apply(&mut s, a).unwrap();
            }
        }
    }
    assert!(stale_refused, "no game opened an edge for a road");
}
