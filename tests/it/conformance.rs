//! Every bundled ruleset (and the house rules of [`HOUSE_RULES`]), at every player count
//! it seats, keeps the contract of the
//! `Game` interface: random and greedy games end, every invariant holds after every
//! action, the state's JSON round-trips, replaying a game's actions reproduces it, the
//! same seed gives the same game (see `rulesmith_testkit::conformance_game`).

// Tests may unwrap and panic, helpers included.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use rulesmith::core::bots::BotSpec;
use rulesmith_testkit::conformance_deterministic;

/// House rules that change what the rules core knows nothing of by name: Puerto Rico
/// with a sixth good and with one good fewer (goods are ruleset data), and with two free
/// barrels at storage (storage then offers holdings of any kinds, `keep N GOOD …`).
const HOUSE_RULES: [&str; 3] =
    ["puerto-rico-sixth-good.toml", "puerto-rico-no-coffee.toml", "puerto-rico-two-free-barrels.toml"];

/// Every bundled ruleset, the house rules above, and the toy game the command-line tests use.
fn rulesets() -> Result<Vec<(String, rulesmith::Ruleset)>, String> {
    let mut names: Vec<String> = rulesmith::BUNDLED.iter().map(|b| b.name.to_string()).collect();
    names.extend(HOUSE_RULES.map(|f| format!("{}/tests/fixtures/house/{f}", env!("CARGO_MANIFEST_DIR"))));
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

/// One of the test kit's generic checks, run on the ruleset's typed game.
#[derive(Clone, Copy)]
enum Check {
    Encoding,
    ApplyPaths,
}

fn run_check(r: &rulesmith::Ruleset, check: Check, players: usize, seed: u64) -> Result<(), String> {
    struct Run(Check, usize, u64);
    impl rulesmith::core::erased::Visit for Run {
        type Out = Result<(), String>;
        fn visit<G: rulesmith::core::erased::Complete>(self, game: G) -> Result<(), String> {
            match self.0 {
                Check::Encoding => rulesmith_testkit::check_encoding(&game, self.1, self.2),
                Check::ApplyPaths => rulesmith_testkit::check_apply_paths(&game, self.1, self.2),
            }
        }
    }
    rulesmith::decode_with(&r.loaded, Run(check, players, seed)).map_err(|d| d.render(&r.loaded.sources))?
}

/// Fixed ids and observations for learning (issue 14): at every player count of every
/// ruleset, the action space lists each action once, every legal action of random games
/// has an id that maps back to it and is named in the space as it prints, and every seat's
/// observation fills exactly its named features, the same for states that differ only in
/// what the seat may not see (`rulesmith_testkit::check_encoding`).
#[test]
fn action_ids_and_observations_conform() {
    let mut failures = Vec::new();
    for (name, r) in rulesets().unwrap() {
        for players in r.game.players() {
            for seed in 0..2 {
                if let Err(e) = run_check(&r, Check::Encoding, players, seed) {
                    failures.push(format!("{name}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} games broke the encoding:\n{}", failures.len(), failures.join("\n"));
}

/// Each game's own `apply` (issue 10): it agrees with `apply_legal` on every legal action
/// and refuses actions that are not legal without changing the state, at every player
/// count of every ruleset (`rulesmith_testkit::check_apply_paths`).
#[test]
fn apply_agrees_with_apply_legal_and_refuses_the_illegal() {
    let mut failures = Vec::new();
    for (name, r) in rulesets().unwrap() {
        for players in r.game.players() {
            for seed in 0..2 {
                if let Err(e) = run_check(&r, Check::ApplyPaths, players, seed) {
                    failures.push(format!("{name}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} games broke `apply`:\n{}", failures.len(), failures.join("\n"));
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
/// view must be the same for both, carry no generator, and `must_hide` must hold of it;
/// and every shipped bot, for the seat to move, must choose the same in both.
fn hidden_twins<G: rulesmith::core::erased::Complete>(
    name: &str,
    g: &G,
    edit: &dyn Fn(&mut serde_json::Value, u8),
    must_hide: &dyn Fn(&serde_json::Value, u8) -> Result<(), String>,
) -> Vec<String> {
    use rulesmith::core::{Rng, ToMove};
    let mut failures = Vec::new();
    // Made once: a learned bot binds its policy to each table once, not per decision.
    let bots = shipped_bots();
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
                        // The learning observation reads only the view's parts too. Compared
                        // with the state read back from its JSON, as the twin was (the base
                        // game's JSON does not carry every field: `pending.craftsman_picks`).
                        let len = g.observation_names(players).len();
                        let (mut a, mut b) = (vec![0f32; len], vec![0f32; len]);
                        g.observation(&g.state_from_json(g.state_to_json(&s)).unwrap(), seat, &mut a);
                        g.observation(&twin, seat, &mut b);
                        if let Some(i) = (0..len).find(|&i| a[i] != b[i]) {
                            failures.push(format!(
                                "{name} {players}p seed {seed} #{n}: seat {seat}'s observation `{}` differs in \
                                 hidden parts ({} and {})",
                                g.observation_names(players)[i],
                                a[i],
                                b[i]
                            ));
                        }
                        if g.view_to_json(&twin, seat) != view {
                            failures.push(format!(
                                "{name} {players}p seed {seed} #{n}: seat {seat} sees a difference in hidden parts"
                            ));
                        }
                        // Issue 30: every shipped bot decides from what its seat sees. The
                        // seat to move, given the same bot generator, chooses the same in
                        // both states.
                        if g.to_move(&s) == ToMove::Seat(seat) {
                            let real = g.state_from_json(g.state_to_json(&s)).unwrap();
                            let (mut la, mut lb) = (Vec::new(), Vec::new());
                            g.legal_actions(&real, &mut la);
                            g.legal_actions(&twin, &mut lb);
                            if la != lb {
                                failures.push(format!(
                                    "{name} {players}p seed {seed} #{n}: seat {seat}'s legal actions differ in hidden parts"
                                ));
                                continue;
                            }
                            for spec in &bots {
                                let pick = |x: &G::State| {
                                    let mut r = Rng::from_seed(seed ^ n);
                                    match rulesmith::core::bots::try_choose(g, spec, x, &la, &mut r) {
                                        Ok(a) => g.format_action(x, a),
                                        Err(e) => format!("cannot choose: {e}"),
                                    }
                                };
                                let (a, b) = (pick(&real), pick(&twin));
                                if a.starts_with("cannot choose") {
                                    failures.push(format!("{name}: `{spec}` {a}"));
                                } else if a != b {
                                    failures.push(format!(
                                        "{name} {players}p seed {seed} #{n}: `{spec}` for seat {seat} plays `{a}`, \
                                         and `{b}` in a state that differs only in what the seat cannot see"
                                    ));
                                }
                            }
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

/// Every bot the project ships, at a small budget: the twin-state test runs each (the
/// learned bot with the bundled policy of each game).
fn shipped_bots() -> Vec<rulesmith::core::bots::BotSpec> {
    use rulesmith::core::bots::BotSpec;
    vec![BotSpec::Random, BotSpec::Greedy, BotSpec::Mcts(24), "learned".parse().unwrap()]
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

/// Issue 15: no input makes a real game panic. A scenario's `[set]` may put any value at
/// any place of any game's state: the edit is refused with a message, or the game plays on
/// to its end (or a decision cap) with every action answered; records with edited actions
/// and arbitrary bytes fed to every reader (ruleset, scenario, record, report) are refused
/// or accepted, never a panic.
mod never_panics {
    use super::*;
    use rulesmith::core::ToMove;
    use serde_json::{Value, json};
    use std::sync::OnceLock;

    fn games() -> &'static [(String, rulesmith::Ruleset)] {
        static G: OnceLock<Vec<(String, rulesmith::Ruleset)>> = OnceLock::new();
        G.get_or_init(|| rulesets().unwrap().into_iter().filter(|(n, _)| !n.ends_with(".toml")).collect())
    }

    /// Every JSON pointer in a value, containers included.
    fn pointers(v: &Value, at: &str, out: &mut Vec<String>) {
        out.push(at.to_string());
        match v {
            Value::Object(m) => m.iter().for_each(|(k, x)| pointers(x, &format!("{at}/{k}"), out)),
            Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| pointers(x, &format!("{at}/{i}"), out)),
            _ => {}
        }
    }

    /// What a scenario author might write: edge numbers, wrong types, other seats, a copy
    /// of the old value with one element more or less.
    fn edit(old: &Value, how: u8, n: i64) -> Value {
        match how % 12 {
            0 => json!(n),
            1 => json!(-1),
            2 => json!(0),
            3 => json!(u64::MAX),
            4 => json!(9),
            5 => json!("x"),
            6 => json!(null),
            7 => json!([]),
            8 => json!({}),
            9 => match old {
                Value::Array(a) if !a.is_empty() => Value::Array(a[..a.len() - 1].to_vec()),
                Value::Array(a) => Value::Array(a.clone()),
                other => json!([other.clone()]),
            },
            10 => match old {
                Value::Array(a) => Value::Array(a.iter().chain(a.first()).cloned().collect()),
                Value::Number(_) => json!(n.rem_euclid(300)),
                other => other.clone(),
            },
            _ => json!(true),
        }
    }

    /// Game `game` of [`games`] at a player count and after up to `steps` random decisions,
    /// all drawn from `seed`: its name, player count and session.
    fn random_position(
        game: usize,
        seed: u64,
        steps: usize,
    ) -> (&'static str, usize, Box<dyn rulesmith::core::erased::AnySession + Send + 'static>) {
        let (name, r) = &games()[game];
        let range = r.game.players();
        let players = range.start() + (seed as usize) % (range.end() - range.start() + 1);
        let mut s = r.game.start(players, seed).unwrap();
        let mut rng = rulesmith::core::Rng::from_seed(seed);
        for _ in 0..steps {
            if s.to_move() == ToMove::Terminal {
                break;
            }
            let legal = s.legal();
            s.play(&legal[rng.index(legal.len())]).unwrap();
        }
        (name, players, s)
    }

    fn play_on(s: &mut dyn rulesmith::core::erased::AnySession, pick: u64) -> Result<(), String> {
        let mut rng = rulesmith::core::Rng::from_seed(pick);
        for _ in 0..3000 {
            match s.to_move() {
                ToMove::Terminal => break,
                ToMove::Seat(seat) => {
                    let _ = s.view_json(seat);
                    let legal = s.legal();
                    if legal.is_empty() {
                        return Err("the game goes on but the player to move has no action".into());
                    }
                    let _ = s.play("no such action");
                    s.play(&legal[rng.index(legal.len())]).map_err(|e| format!("a legal action was refused: {e}"))?;
                }
            }
        }
        let _ = s.outcome();
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("RULESMITH_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96)
        ))]

        #[test]
        fn set_edits_on_every_game(
            game in 0usize..4, seed in any::<u64>(), steps in 0usize..300,
            at in any::<prop::sample::Index>(), how in any::<u8>(), n in any::<i64>(),
        ) {
            let (name, players, mut s) = random_position(game, seed, steps);
            let mut state = s.state_json();
            let mut all = Vec::new();
            pointers(&state, "", &mut all);
            let p = at.get(&all).clone();
            let old = state.pointer(&p).cloned().unwrap_or(Value::Null);
            let new = edit(&old, how, n);
            if let Some(slot) = state.pointer_mut(&p) {
                *slot = new.clone();
            }
            // As `[set]` does: a state in which the player to move has no action is refused.
            let stuck = |s: &dyn rulesmith::core::erased::AnySession| matches!(s.to_move(), ToMove::Seat(_)) && s.legal().is_empty();
            if s.set_state_json(state).is_ok() && !stuck(&*s) {
                let r = play_on(&mut *s, seed ^ 1);
                prop_assert!(r.is_ok(), "{name} {players}p seed {seed}: `{p}` = {new} accepted, then: {}", r.unwrap_err());
            }
        }

        /// Several edits at once (a scenario's `[set]` has many lines): values checked
        /// against each other (a seat against the player count, an index against a list's
        /// length) may each be valid alone and still meet before the check that relates them.
        #[test]
        fn several_set_edits_on_every_game(
            game in 0usize..4, seed in any::<u64>(), steps in 0usize..300,
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), any::<i64>()), 2..5),
        ) {
            let (name, players, mut s) = random_position(game, seed, steps);
            let mut state = s.state_json();
            let mut done = Vec::new();
            for (at, how, n) in edits {
                // Numbers and lists only, edited into values of their kind: a wrong type is
                // refused at once and would hide the edits that meet.
                let mut all = Vec::new();
                pointers(&state, "", &mut all);
                all.retain(|p| state.pointer(p).is_some_and(|v| v.is_number() || v.is_array()));
                if all.is_empty() {
                    continue;
                }
                let p = at.get(&all).clone();
                let old = state.pointer(&p).cloned().unwrap_or(Value::Null);
                let new = edit(&old, [0, 2, 4, 9, 10, 10][usize::from(how) % 6], n);
                if let Some(slot) = state.pointer_mut(&p) {
                    *slot = new.clone();
                }
                done.push(format!("`{p}` = {new}"));
            }
            let stuck = |s: &dyn rulesmith::core::erased::AnySession| matches!(s.to_move(), ToMove::Seat(_)) && s.legal().is_empty();
            if s.set_state_json(state).is_ok() && !stuck(&*s) {
                let r = play_on(&mut *s, seed ^ 1);
                prop_assert!(r.is_ok(), "{name} {players}p seed {seed}: {} accepted, then: {}", done.join(", "), r.unwrap_err());
            }
        }
    }

    /// The reader fuzz loop: arbitrary byte edits of real files (a bundled ruleset, a
    /// scenario, a record, a report) through every reader, in process.
    fn mutate(base: &[u8], cuts: &[(usize, Vec<u8>)]) -> Vec<u8> {
        let mut b = base.to_vec();
        for (at, insert) in cuts {
            let at = at % (b.len() + 1);
            let end = (at + insert.len() % 5).min(b.len());
            b.splice(at..end, insert.iter().copied());
        }
        b
    }

    fn samples() -> &'static [(&'static str, Vec<u8>)] {
        static S: OnceLock<Vec<(&'static str, Vec<u8>)>> = OnceLock::new();
        S.get_or_init(|| {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let read = |p: &str| std::fs::read(root.join(p)).unwrap();
            let ruleset = rulesmith::load("santiago-de-cuba").unwrap();
            let opts = rulesmith::core::sim::SimOptions {
                players: 3,
                games: 2,
                from: 0,
                seed: 1,
                bots: rulesmith::core::bots::parse_bots("random", 3).unwrap(),
                shard: None,
                record: true,
                progress: None,
                rotate_seats: false,
                metrics: true,
            };
            let id = rulesmith::core::record::RulesetId {
                name: ruleset.name().to_string(),
                source: "santiago-de-cuba".into(),
                digest: ruleset.digest(),
                game: "santiago-de-cuba".into(),
                overrides: Vec::new(),
            };
            let mut record = String::new();
            let tally = ruleset
                .game
                .simulate(&opts, &mut |g| {
                    record += &rulesmith::core::record::Record::of_sim(&id, 3, 1, &opts.bots, g).to_line();
                    record.push('\n');
                })
                .unwrap();
            let report = rulesmith::core::sim::Report::new(
                ruleset.name(),
                &ruleset.digest(),
                "santiago-de-cuba",
                &opts,
                tally,
                0.0,
            );
            vec![
                ("ruleset", read("rulesets/house-rules/puerto-rico-no-hacienda.toml")),
                ("bundled", read("rulesets/mundo-163.toml")),
                ("scenario", read("tests/scenarios/puerto-rico/captain-largest-ship.toml")),
                ("record", record.into_bytes()),
                ("report", serde_json::to_vec_pretty(&report).unwrap()),
            ]
        })
    }

    /// The two shards' reports of a real run (puerto-rico, 3 players, rotated seats).
    fn shard_reports() -> &'static (rulesmith::core::sim::Report, rulesmith::core::sim::Report) {
        static S: OnceLock<(rulesmith::core::sim::Report, rulesmith::core::sim::Report)> = OnceLock::new();
        S.get_or_init(|| {
            let r = rulesmith::load("puerto-rico").unwrap();
            let shard = |k| {
                let opts = rulesmith::core::sim::SimOptions {
                    players: 3,
                    games: 6,
                    from: 0,
                    seed: 2,
                    bots: rulesmith::core::bots::parse_bots("random", 3).unwrap(),
                    shard: Some((k, 2)),
                    record: false,
                    progress: None,
                    rotate_seats: true,
                    metrics: true,
                };
                let tally = r.game.simulate(&opts, &mut |_| {}).unwrap();
                rulesmith::core::sim::Report::new(r.name(), &r.digest(), "puerto-rico", &opts, tally, 0.0)
            };
            (shard(0), shard(1))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("RULESMITH_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(160)
        ))]

        /// `merge` accepts only tallies real games can make (#28): numbers of a shard's
        /// tally replaced by arbitrary ones are refused, or give a report whose figures
        /// are possible (rates in [0, 1], no negative variance, finite means).
        #[test]
        fn merge_on_edited_tallies(
            edits in proptest::collection::vec((0usize..10, 0usize..3, prop_oneof![any::<i64>(), -100i64..2000]), 1..4),
        ) {
            let (a, b) = shard_reports();
            let mut a = a.clone();
            for (field, s, v) in edits {
                let t = &mut a.tally;
                let u = v as u64;
                match field {
                    0 => t.games = u,
                    1 => t.unfinished = u,
                    2 => t.wins[s][0] = u,
                    3 => t.score_sum[s] = v,
                    4 => t.score_sum_sq[s] = u,
                    5 => t.rounds_sum = u,
                    6 => t.decisions_sum = u,
                    7 => t.bots[s].score_sum = v,
                    8 => t.bots[s].score_sum_sq = u,
                    _ => t.bots[s].wins = u,
                }
            }
            if let Ok(m) = rulesmith::core::sim::merge_reports(&[("a".into(), a), ("b".into(), b.clone())]) {
                let n = m.tally.finished().max(1) as f64;
                for (s, seat) in m.seats.iter().chain(&m.by_bot).enumerate() {
                    prop_assert!((0.0..=1.0).contains(&seat.win_rate), "seat {s}: {seat:?}");
                    prop_assert!(seat.score_mean.is_finite() && seat.score_sd.is_finite(), "{seat:?}");
                }
                for s in 0..m.players {
                    let mean = m.tally.score_sum[s] as f64 / n;
                    let sq = m.tally.score_sum_sq[s] as f64 / n;
                    prop_assert!(sq - mean * mean >= -1e-6 * sq.max(1.0), "seat {s}: a negative variance accepted");
                }
                prop_assert!(m.rounds_mean <= f64::from(u32::MAX) && m.decisions_mean.is_finite());
            }
        }

        #[test]
        fn readers_on_edited_files(
            which in 0usize..5,
            cuts in proptest::collection::vec((any::<usize>(), proptest::collection::vec(any::<u8>(), 0..6)), 1..4),
        ) {
            let (kind, base) = &samples()[which];
            let bytes = mutate(base, &cuts);
            let dir = std::env::temp_dir().join(format!("rulesmith-fuzz-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join(format!("{kind}.toml"));
            std::fs::write(&file, &bytes).unwrap();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            match *kind {
                "ruleset" | "bundled" => {
                    // A bundled ruleset's edit is read as a file extending nothing.
                    if let Ok(r) = rulesmith::load(&file.to_string_lossy()) {
                        let range = r.game.players();
                        for p in range {
                            if let Ok(mut s) = r.game.start(p, 3) {
                                prop_assert!(play_on(&mut *s, 3).is_ok(), "{kind}: an accepted ruleset plays");
                            }
                        }
                    }
                }
                "scenario" => {
                    if let Ok(sc) = rulesmith::core::scenario::parse(&file, &text) {
                        let _ = rulesmith::core::scenario::run(&sc, &mut |arg| {
                            rulesmith::load(arg)
                                .map(|r| std::sync::Arc::<dyn rulesmith::core::erased::AnyGame>::from(r.game))
                                .map_err(|e| e.render())
                        });
                    }
                }
                "record" => {
                    let _ = rulesmith::core::record::replay(
                        &text,
                        rulesmith::core::record::ReplayOptions { check_bots: true },
                        &mut |rec: &rulesmith::core::record::Record| {
                            rulesmith::load(&rec.source)
                                .map(|r| {
                                    let digest = r.digest();
                                    (std::sync::Arc::<dyn rulesmith::core::erased::AnyGame>::from(r.game), digest)
                                })
                                .map_err(|e| e.render())
                        },
                    );
                }
                _ => {
                    if let Ok(report) = serde_json::from_slice::<rulesmith::core::sim::Report>(&bytes) {
                        let original = serde_json::from_slice::<rulesmith::core::sim::Report>(base).unwrap();
                        let _ = rulesmith::core::sim::merge_reports(&[("a".into(), report.clone()), ("b".into(), original)]);
                        let _ = rulesmith::core::sim::merge_reports(&[("a".into(), report)]);
                    }
                }
            }
        }
    }
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
                from: 0,
                seed: 5,
                bots: vec![BotSpec::Greedy; players],
                shard: None,
                record: false,
                progress: None,
                rotate_seats: false,
                metrics: true,
            };
            let tally = r
                .game
                .simulate(&opts, &mut |g| {
                    assert_eq!(g.metrics.len(), players * defs.len() * 2, "{name} at {players}");
                })
                .unwrap();
            let report = Report::new(&name, "d", r.game.game_id(), &opts, tally, 0.0);
            // Undefined figures (the owners' win share of a building nobody built) are NaN,
            // written `null`, and have no interval; every other figure is a number.
            for f in &report.metrics {
                assert!(f.value.is_finite() || f.ci95.is_none(), "{name} at {players}: {f:?}");
            }
        }
    }
}

/// Issue 31: the observation encoders are rewritten for speed, never for content. Every
/// seat's observation at each of the first 300 decisions of two games per ruleset and
/// player count (the id at `(31·n + 7) mod` the legal count, a policy Python can replay),
/// digested (SHA-256 of the float32s, little-endian), equals the digest taken with the
/// encoders before (the same from the Python package: `Game.observation` and `legal_ids`).
#[test]
fn observations_stay_the_same() {
    use rulesmith::core::ToMove;
    use sha2::{Digest as _, Sha256};
    let mut lines = Vec::new();
    for (name, r) in rulesets().unwrap() {
        let name = name.rsplit('/').next().unwrap_or(&name).to_string();
        for players in r.game.players() {
            let mut h = Sha256::new();
            let mut decisions = 0;
            for seed in 0..2 {
                let mut s = r.game.start(players, seed).unwrap();
                let len = s.encodings().unwrap().observation_names().len();
                let (mut obs, mut ids) = (vec![0f32; len], Vec::new());
                let mut n = 0;
                while s.to_move() != ToMove::Terminal && n < 300 {
                    for seat in 0..players as u8 {
                        obs.fill(f32::NAN);
                        s.encodings().unwrap().observation(seat, &mut obs);
                        for x in &obs {
                            h.update(x.to_le_bytes());
                        }
                    }
                    s.encodings().unwrap().legal_ids(&mut ids).unwrap();
                    s.encodings().unwrap().play_legal_id_unrecorded(ids[(n * 31 + 7) % ids.len()]).unwrap();
                    n += 1;
                }
                decisions += n;
            }
            let hex: String = h.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
            lines.push(format!("{name} {players}: {decisions} decisions, {hex}"));
        }
    }
    insta::assert_snapshot!(lines.join("\n"));
}

/// Issue 46: the batched env's rows are written with `observation_update`, which rewrites
/// only what changed since the row's last observation. At every decision of random games of
/// every ruleset and house rule (whole games of Puerto Rico and its variants, the first 400
/// decisions of the others), the row's observation, updated for the seat to move, then for
/// another seat every third decision, and left alone for a few decisions now and then (a
/// batch whose bots play in between), is the full observation, number for number.
#[test]
fn updated_observations_are_the_full_ones() {
    use rulesmith::core::ToMove;
    use rulesmith::core::encode::ObservationMemo;
    for (name, r) in rulesets().unwrap() {
        let cap = if name.contains("puerto-rico") { usize::MAX } else { 400 };
        for players in r.game.players() {
            for seed in 0..3 {
                let mut s = r.game.start(players, seed).unwrap();
                let len = s.encodings().unwrap().observation_names().len();
                let (mut row, mut full, mut ids) = (vec![f32::NAN; len], vec![0f32; len], Vec::new());
                let mut memo: ObservationMemo = None;
                let mut n = 0;
                while let ToMove::Seat(mover) = s.to_move() {
                    if n >= cap {
                        break;
                    }
                    if n % 7 != 3 {
                        let seat = if n % 3 == 2 { (mover + 1) % players as u8 } else { mover };
                        s.encodings().unwrap().observation_update(seat, &mut row, &mut memo);
                        s.encodings().unwrap().observation(seat, &mut full);
                        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                        if bits(&row) != bits(&full) {
                            let names = s.encodings().unwrap().observation_names();
                            let i = (0..len).find(|&i| row[i].to_bits() != full[i].to_bits()).unwrap();
                            panic!(
                                "{name} {players}p seed {seed} decision {n}, seat {seat}: `{}` is {} updated, {} in full",
                                names[i], row[i], full[i]
                            );
                        }
                    }
                    s.encodings().unwrap().legal_ids(&mut ids).unwrap();
                    s.encodings().unwrap().play_legal_id_unrecorded(ids[(n * 31 + 7) % ids.len()]).unwrap();
                    n += 1;
                }
            }
        }
    }
}
