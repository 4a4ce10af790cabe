//! Every bundled ruleset, at every player count it seats, keeps the contract of the
//! `Game` interface: random and greedy games end, every invariant holds after every
//! action, the state's JSON round-trips, replaying a game's actions reproduces it, the
//! same seed gives the same game (see `rulesmith_core::testing::conformance_game`).

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use rulesmith::core::bots::BotSpec;
use rulesmith::core::testing::conformance_deterministic;

/// Every bundled ruleset, plus the toy game the command-line tests use.
fn rulesets() -> Result<Vec<(String, rulesmith::Ruleset)>, String> {
    let mut names: Vec<String> = rulesmith::BUNDLED.iter().map(|b| b.name.to_string()).collect();
    names.push(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/take-away.toml").to_string());
    names
        .into_iter()
        .map(|n| match rulesmith::load(&n) {
            Ok(r) => Ok((n, r)),
            Err(e) => Err(format!("ruleset `{n}` does not load:\n{}", e.render())),
        })
        .collect()
}

fn check(seeds: impl Iterator<Item = u64> + Clone, bot: BotSpec) {
    let mut failures = Vec::new();
    for (name, r) in rulesets().unwrap() {
        for players in r.game.players() {
            for seed in seeds.clone() {
                if let Err(e) = conformance_deterministic(&*r.game, players, seed, bot.clone()) {
                    failures.push(format!("{name}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} games broke the contract:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn random_games_conform() {
    check(0..3, BotSpec::Random);
}

#[test]
fn greedy_games_conform() {
    check(100..101, BotSpec::Greedy);
}

#[test]
fn search_games_conform() {
    // Exercises `determinize` and `heuristic` through the search bot.
    let mut failures = Vec::new();
    for (name, r) in rulesets().unwrap() {
        let players = *r.game.players().start();
        if let Err(e) = conformance_deterministic(&*r.game, players, 7, BotSpec::Mcts(4)) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3))]

    #[test]
    fn any_seed_conforms(seed in any::<u64>()) {
        check(std::iter::once(seed), BotSpec::Random);
    }
}

// ------------------------------------------------------------------ hidden information

/// Loads a bundled ruleset as its typed game.
fn typed<G>(
    name: &str,
    decode: fn(&rulesmith::core::ruleset::Node, &mut rulesmith::core::ruleset::Diagnostics) -> Option<G>,
) -> G {
    let loaded = rulesmith::core::ruleset::load(name, rulesmith::BUNDLED).unwrap();
    let mut d = rulesmith::core::ruleset::Diagnostics::default();
    decode(&loaded.tree, &mut d).unwrap()
}

/// Plays random games of `g` and, every few decisions, for every seat, builds a twin that
/// differs only in what the seat may not know: `determinize` redraws the generator, the
/// face-down order (plantation stack, forests, privilege deck) and other players' hidden
/// goods; `edit` then changes other players' hidden values in the twin's JSON. The seat's
/// view must be the same for both, carry no generator, and `must_hide` must hold of it.
fn hidden_twins<G: rulesmith::core::Game>(
    name: &str,
    g: &G,
    edit: &dyn Fn(&mut serde_json::Value, u8),
    must_hide: &dyn Fn(&serde_json::Value, u8) -> Result<(), String>,
) -> Vec<String> {
    use rulesmith::core::{Rng, ToMove};
    let mut failures = Vec::new();
    for players in g.players() {
        for seed in 0..2u64 {
            let mut s = g.new_game(players, seed).unwrap();
            let mut rng = Rng::from_seed(seed ^ 0x5eed);
            let mut legal = Vec::new();
            for n in 0..600 {
                if g.to_move(&s) == ToMove::Terminal {
                    break;
                }
                if n % 9 == 0 {
                    for seat in 0..players as u8 {
                        let view = g.view_to_json(&s, seat);
                        let mut twin_json = g.state_to_json(&g.determinize(&s, seat, &mut rng));
                        edit(&mut twin_json, seat);
                        let twin = match g.state_from_json(twin_json.clone()) {
                            Ok(t) => t,
                            Err(e) => {
                                failures.push(format!("{name} {players}p seed {seed} #{n}: twin does not load: {e}"));
                                continue;
                            }
                        };
                        if twin_json.get("rng") == g.state_to_json(&s).get("rng") {
                            failures.push(format!("{name}: the twin kept the generator"));
                        }
                        // `observe` (what search bots determinise from) carries no generator either.
                        let observed_rng = |x: &G::State| g.state_to_json(&g.observe(x, seat)).get("rng").cloned();
                        if observed_rng(&twin) != observed_rng(&s) {
                            failures.push(format!("{name}: `observe` passes the generator to seat {seat}"));
                        }
                        if view.get("rng").is_some() {
                            failures.push(format!("{name}: the view of seat {seat} carries the generator"));
                        }
                        if let Err(e) = must_hide(&view, seat) {
                            failures.push(format!("{name} {players}p seed {seed} #{n} seat {seat}: {e}"));
                        }
                        if g.view_to_json(&twin, seat) != view {
                            failures.push(format!(
                                "{name} {players}p seed {seed} #{n}: seat {seat} sees a difference in hidden parts"
                            ));
                        }
                    }
                }
                g.legal_actions(&s, &mut legal);
                let a = legal[rng.index(legal.len())];
                g.apply(&mut s, a).unwrap();
            }
        }
    }
    failures
}

/// Sets `/players/o/<key>` of every other seat `o` to `f(old)`.
fn edit_others(v: &mut serde_json::Value, seat: u8, key: &str, f: impl Fn(u64) -> u64) {
    if let Some(ps) = v.get_mut("players").and_then(serde_json::Value::as_array_mut) {
        for (o, p) in ps.iter_mut().enumerate() {
            if o != usize::from(seat) {
                if let Some(x) = p.get_mut(key) {
                    *x = serde_json::json!(f(x.as_u64().unwrap()));
                }
            }
        }
    }
}

/// Every other seat's `key` in a view reads `"hidden"`.
fn others_hidden(view: &serde_json::Value, seat: u8, keys: &[&str]) -> Result<(), String> {
    for (o, p) in view["players"].as_array().ok_or("no players")?.iter().enumerate() {
        for k in keys {
            if o != usize::from(seat) && p[*k] != "hidden" {
                return Err(format!("/players/{o}/{k} shows {} to seat {seat}", p[*k]));
            }
        }
    }
    Ok(())
}

/// Hidden stays hidden (issue 9): no seat's view carries the generator or a face-down
/// order, and values the rules hide read `"hidden"`: Puerto Rico's VP chips lie face down
/// (S000:L332); Santiago de Cuba's goods and pesos are behind screens, VP tokens face down
/// (S002:L100); Mundo 163's privilege deck shows only the backs of its cards.
#[test]
fn hidden_parts_never_reach_a_view() {
    let mut failures = Vec::new();
    // Puerto Rico: VP move between other players (the chips taken stay the same).
    let pr_edit = |v: &mut serde_json::Value, seat: u8| {
        let others: Vec<usize> =
            (0..v["players"].as_array().unwrap().len()).filter(|&o| o != usize::from(seat)).collect();
        if let [a, b, ..] = others[..] {
            if v["players"][a]["vp"].as_u64().unwrap() > 0 {
                v["players"][a]["vp"] = serde_json::json!(v["players"][a]["vp"].as_u64().unwrap() - 1);
                v["players"][b]["vp"] = serde_json::json!(v["players"][b]["vp"].as_u64().unwrap() + 1);
            }
        }
    };
    let pr_hide = |view: &serde_json::Value, seat: u8| {
        others_hidden(view, seat, &["vp"])?;
        if view["stack"].get("unseen").is_none() {
            return Err("the stack shows more than its unseen goods".into());
        }
        Ok(())
    };
    let pr = typed("puerto-rico", rulesmith_puerto_rico::decode);
    failures.extend(hidden_twins("puerto-rico", &pr, &pr_edit, &pr_hide));
    let pre = typed("puerto-rico-expansion", rulesmith_puerto_rico_expansion::decode);
    failures.extend(hidden_twins("puerto-rico-expansion", &pre, &pr_edit, &pr_hide));
    // Santiago de Cuba: other players' pesos and VP change.
    let sdc = typed("santiago-de-cuba", rulesmith_santiago_de_cuba::decode);
    let sdc_edit = |v: &mut serde_json::Value, seat: u8| {
        edit_others(v, seat, "pesos", |x| x + 3);
        edit_others(v, seat, "vp", |x| x + 2);
    };
    let sdc_hide = |view: &serde_json::Value, seat: u8| others_hidden(view, seat, &["goods", "pesos", "vp"]);
    failures.extend(hidden_twins("santiago-de-cuba", &sdc, &sdc_edit, &sdc_hide));
    // Mundo 163: the privilege deck's order and make-up are hidden, its backs are not.
    let m = typed("mundo-163", rulesmith_mundo_163::decode);
    let m_hide = |view: &serde_json::Value, _seat: u8| {
        let deck = view["privilege_deck"].as_array().ok_or("no privilege deck")?;
        match deck.iter().find(|c| c["privilege"] != "hidden" || c.get("back").is_none()) {
            Some(c) => Err(format!("a deck card shows {c}")),
            None => Ok(()),
        }
    };
    failures.extend(hidden_twins("mundo-163", &m, &|_, _| {}, &m_hide));
    assert!(failures.is_empty(), "{} leaks:\n{}", failures.len(), failures.join("\n"));
}

/// Issue 11: every ruleset at every player count names its metrics once each, fills one
/// count per seat and metric in every game, and reports finite figures.
#[test]
fn metrics_are_whole_for_every_ruleset_and_player_count() {
    use rulesmith::core::sim::{Report, SimOptions};
    for (name, r) in rulesets().unwrap() {
        let defs = r.game.metric_defs();
        for (i, d) in defs.iter().enumerate() {
            assert!(!defs[..i].contains(d), "{name}: metric {d:?} twice");
        }
        for players in r.game.players() {
            let opts = SimOptions {
                players,
                games: 2,
                seed: 5,
                bots: vec![BotSpec::Greedy; players],
                shard: None,
                record: false,
                progress: None,
                rotate_seats: false,
            };
            let tally = r
                .game
                .simulate(&opts, &mut |g| {
                    assert_eq!(g.metrics.len(), players * defs.len() * 2, "{name} at {players}");
                })
                .unwrap();
            let report = Report::new(&name, "d", r.game.game_id(), &opts, tally, 0.0);
            for f in &report.metrics {
                assert!(f.value.is_finite(), "{name} at {players}: {f:?}");
            }
        }
    }
}
