//! Playout speed: one random game of each bundled game (4 players where the game seats 4,
//! else its minimum), and for Puerto Rico the state clone and legal-action generation.
//! Run: `cargo bench --bench playouts` (CI runs it once in test mode: `cargo test --benches`).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rulesmith::core::Rng;
use rulesmith::core::game::{Game, ToMove};
use rulesmith::core::ruleset::{self, Diagnostics, Node};
use std::hint::black_box;

fn typed<G>(name: &str, decode: fn(&Node, &mut Diagnostics) -> Option<G>) -> Option<G> {
    let loaded = ruleset::load(name, rulesmith::BUNDLED).ok()?;
    decode(&loaded.tree, &mut Diagnostics::default())
}

fn rules() -> Option<rulesmith_puerto_rico::Rules> {
    typed("puerto-rico", rulesmith_puerto_rico::decode)
}

/// One random playout; returns the number of decisions.
fn playout<G: Game>(game: &G, players: usize, seed: u64, buf: &mut Vec<G::Action>) -> usize {
    let Ok(mut s) = game.new_game(players, seed) else { return 0 };
    let mut rng = Rng::from_seed(seed);
    let mut n = 0;
    while let ToMove::Seat(_) = game.to_move(&s) {
        game.legal_actions(&s, buf);
        let a = buf[rng.index(buf.len())];
        game.apply_legal(&mut s, a);
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let Some(rules) = rules() else { return };
    let mut group = c.benchmark_group("puerto-rico");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    let mut buf = Vec::with_capacity(64);
    group.bench_function("random_playout_4p", |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout(&rules, 4, seed, &mut buf))
        })
    });
    // A mid-game position for clone and legal-action generation.
    let Ok(mut s) = rules.new_game(4, 3) else { return };
    let mut rng = Rng::from_seed(3);
    for _ in 0..150 {
        rules.legal_actions(&s, &mut buf);
        if buf.is_empty() {
            break;
        }
        let a = buf[rng.index(buf.len())];
        let _ = rules.apply(&mut s, a);
    }
    group.bench_function("state_clone", |b| b.iter(|| black_box(black_box(&s).clone())));
    group.bench_function("legal_actions", |b| {
        b.iter(|| {
            rules.legal_actions(black_box(&s), &mut buf);
            black_box(buf.len())
        })
    });
    group.finish();
}

/// `random_playout` of one game: a random game from a new seed each iteration (the
/// figure is per game; the mean decisions a game is in the book's speed table, `docs/speed.md`).
fn one<G: Game>(c: &mut Criterion, name: &str, game: Option<G>) {
    let Some(game) = game else { return };
    let players = rulesmith::core::sim::default_players(&game.players());
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(1));
    // Mundo 163's random games run to the round cap: fewer samples keep the run short.
    group.sample_size(if name == "mundo-163" { 10 } else { 50 });
    let mut seed = 0u64;
    let mut buf = Vec::with_capacity(64);
    group.bench_function(format!("random_playout_{players}p"), |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout(&game, players, seed, &mut buf))
        })
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    one(c, "puerto-rico-expansion", typed("puerto-rico-expansion", rulesmith_puerto_rico_expansion::decode));
    one(c, "santiago-de-cuba", typed("santiago-de-cuba", rulesmith_santiago_de_cuba::decode));
    one(c, "mundo-163", typed("mundo-163", rulesmith_mundo_163::decode));
}

criterion_group!(benches, bench, games);
criterion_main!(benches);
