//! Learning speed: the observation encoder per game (every decision of two random 4-player
//! games, the seat to move's observation) and a batched step of 64 random 4-player Puerto
//! Rico games (`rulesmith_core::batch`, what `rulesmith.vector.VectorEnv` steps).
//! Run: `cargo bench --bench learning`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rulesmith::core::Rng;
use rulesmith::core::encode::Encode;
use rulesmith::core::game::{Game, ToMove};
use rulesmith::core::ruleset::{self, Diagnostics, Node};
use std::hint::black_box;

fn typed<G>(name: &str, decode: fn(&Node, &mut Diagnostics) -> Option<G>) -> Option<G> {
    let loaded = ruleset::load(name, rulesmith::BUNDLED).ok()?;
    decode(&loaded.tree, &mut Diagnostics::default())
}

/// Every decision of two random 4-player games: the state and the seat to move.
fn positions<G: Game>(game: &G) -> Vec<(G::State, u8)> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 1..=2 {
        let Ok(mut s) = game.new_game(4, seed) else { return out };
        let mut rng = Rng::from_seed(seed);
        while let ToMove::Seat(seat) = game.to_move(&s) {
            out.push((s.clone(), seat));
            game.legal_actions(&s, &mut legal);
            let a = legal[rng.index(legal.len())];
            game.apply_legal(&mut s, a);
        }
    }
    out
}

/// Encodes every position once per iteration (throughput: observations).
fn encoder<G: Encode>(c: &mut Criterion, name: &str, game: Option<G>) {
    let Some(game) = game else { return };
    let all = positions(&game);
    let mut obs = vec![0f32; game.observation_names(4).len()];
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function("observation_4p", |b| {
        b.iter(|| {
            for (s, seat) in &all {
                game.observation(black_box(s), *seat, &mut obs);
                black_box(&obs);
            }
        })
    });
    group.finish();
}

fn encoders(c: &mut Criterion) {
    encoder(c, "puerto-rico", typed("puerto-rico", rulesmith_puerto_rico::decode));
    encoder(c, "puerto-rico-expansion", typed("puerto-rico-expansion", rulesmith_puerto_rico_expansion::decode));
    encoder(c, "santiago-de-cuba", typed("santiago-de-cuba", rulesmith_santiago_de_cuba::decode));
    encoder(c, "mundo-163", typed("mundo-163", rulesmith_mundo_163::decode));
}

/// One step of `n` random 4-player Puerto Rico games (`rulesmith_core::batch`) on
/// `threads` threads: a random legal id per env, then the step (throughput: decisions).
fn batched_step(c: &mut Criterion, n: usize, threads: usize) {
    use rulesmith::core::batch::{Batch, BatchOptions};
    let Ok(r) = rulesmith::load("puerto-rico") else { return };
    let opts = BatchOptions { players: 4, num_envs: n, seed: 1, threads, ..BatchOptions::default() };
    let Ok(mut batch) = Batch::new(&*r.game, opts, None) else { return };
    if batch.reset(None).is_err() {
        return;
    }
    let mut rng = Rng::from_seed(1);
    let mut actions = vec![0u32; n];
    let mut group = c.benchmark_group("batch");
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function(format!("step_puerto_rico_4p_{n}_envs_{threads}_threads"), |b| {
        b.iter(|| {
            for (k, a) in actions.iter_mut().enumerate() {
                let ids = batch.legal_ids(k).unwrap_or(&[]);
                *a = ids.get(rng.index(ids.len().max(1))).copied().unwrap_or(0);
            }
            black_box(batch.step(&actions).is_ok())
        })
    });
    group.finish();
}

fn batched(c: &mut Criterion) {
    batched_step(c, 64, 1);
    batched_step(c, 256, 1);
    batched_step(c, 256, 2);
}

criterion_group!(benches, encoders, batched);
criterion_main!(benches);
