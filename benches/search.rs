//! Search speed: `mcts:1000` decisions (1000 iterations each) per game, 3 players, from
//! three fixed positions of one random game (the first decision with at least three legal
//! actions after 30, 90 and 150 random decisions from seed 7), the bot generator seeded
//! the same every time; and `greedy` decisions there. Iterations per millisecond are
//! 3000 / the time of one `mcts_1000` sample. Run: `cargo bench --bench search`.

use criterion::{Criterion, criterion_group, criterion_main};
use rulesmith::core::Rng;
use rulesmith::core::bots::{self, BotSpec};
use rulesmith::core::game::{Game, ToMove};
use rulesmith::core::ruleset::{self, Diagnostics, Node};
use std::hint::black_box;

fn typed<G>(name: &str, decode: fn(&Node, &mut Diagnostics) -> Option<G>) -> Option<G> {
    let loaded = ruleset::load(name, rulesmith::BUNDLED).ok()?;
    decode(&loaded.tree, &mut Diagnostics::default())
}

/// The position after `moves` random decisions of a 3-player game, then on to the first
/// with at least three legal actions, and its legal actions.
fn position<G: Game>(game: &G, moves: usize) -> Option<(G::State, Vec<G::Action>)> {
    let mut s = game.new_game(3, 7).ok()?;
    let mut rng = Rng::from_seed(7);
    let mut legal = Vec::new();
    for _ in 0..moves {
        game.legal_actions(&s, &mut legal);
        if legal.is_empty() {
            return None;
        }
        let a = legal[rng.index(legal.len())];
        game.apply_legal(&mut s, a);
    }
    // On to a decision with a real choice.
    while let ToMove::Seat(_) = game.to_move(&s) {
        game.legal_actions(&s, &mut legal);
        if legal.len() > 2 {
            return Some((s, legal));
        }
        let a = legal[rng.index(legal.len())];
        game.apply_legal(&mut s, a);
    }
    None
}

fn one<G: rulesmith::core::bots::Evaluate + rulesmith::core::Encode>(c: &mut Criterion, name: &str, game: Option<G>) {
    let Some(game) = game else { return };
    let positions: Vec<_> = [30, 90, 150].into_iter().filter_map(|m| position(&game, m)).collect();
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for (label, spec) in [("mcts_1000", BotSpec::Mcts(1000)), ("greedy", BotSpec::Greedy)] {
        group.bench_function(label, |b| {
            b.iter(|| {
                for (s, legal) in &positions {
                    let mut rng = Rng::from_seed(11);
                    black_box(bots::choose(&game, &spec, black_box(s), legal, &mut rng));
                }
            })
        });
    }
    group.finish();
}

fn bench(c: &mut Criterion) {
    one(c, "puerto-rico", typed("puerto-rico", rulesmith_puerto_rico::decode));
    one(c, "puerto-rico-expansion", typed("puerto-rico-expansion", rulesmith_puerto_rico_expansion::decode));
    one(c, "santiago-de-cuba", typed("santiago-de-cuba", rulesmith_santiago_de_cuba::decode));
    one(c, "mundo-163", typed("mundo-163", rulesmith_mundo_163::decode));
}

criterion_group!(benches, bench);
criterion_main!(benches);
