//! Playout speed: random 4-player games of Puerto Rico (games/s), state clone, and
//! legal-action generation. Run: `cargo bench --bench playouts`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rulesmith::core::Rng;
use rulesmith::core::game::{Game, ToMove};
use rulesmith::core::ruleset::{self, Diagnostics};
use std::hint::black_box;

fn rules() -> Option<rulesmith_puerto_rico::Rules> {
    let loaded = ruleset::load("puerto-rico", rulesmith::BUNDLED).ok()?;
    rulesmith_puerto_rico::decode(&loaded.tree, &mut Diagnostics::default())
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

criterion_group!(benches, bench);
criterion_main!(benches);
