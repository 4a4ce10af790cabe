//! Training a policy: masked PPO (the recipe of the reference trainer
//! `python -m rulesmith.train`) by self-play and against the built-in bots, on one
//! thread, reproducible from its seed.
//!
//! The learner plays one seat of each game (a random one) and, later, some of the other
//! seats too (self-play). Its opponents are `random` for the first part of the run
//! ([`TrainOptions::random_share`]), then `greedy`, frozen snapshots of the learner and the
//! learner itself. Each game pays every learner seat at its end: its win share plus half
//! its score margin over the others' mean, squashed into [-1, 1] on the scale of the
//! table's scores (a denser signal than winning alone). Advantages are GAE (γ = 1,
//! λ = 0.95) over each seat's whole game; the loss is PPO's clipped surrogate with an
//! entropy bonus and a value loss; the gradients are written by hand (a two-layer network
//! needs no autodiff framework), Adam applies them with a learning rate falling to 0.
//!
//! Every few updates the policy plays seat-rotated games against two `greedy` players
//! (always the same seeds): the learning curve.

use super::bot::{Binding, Net, Pick, bind, pick_index};
use super::policy::{Meta, Policy, WHOLE_ACTIONS_UP_TO, activation, activation_slope, tokens_of};
use crate::bots::{self, BotSpec, Evaluate};
use crate::encode::{ActionSpace, Encode, SeatRelative};
use crate::game::{Seat, ToMove};
use crate::rng::{Rng, derive_seed};
use std::collections::BTreeSet;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// The table trained at.
    pub players: usize,
    pub seed: u64,
    /// Learner decisions to train for.
    pub steps: u64,
    /// Width of both hidden layers.
    pub hidden: usize,
    /// Learner decisions per update.
    pub batch: usize,
    /// Passes over each batch, and minibatches per pass.
    pub epochs: usize,
    pub minibatches: usize,
    pub learning_rate: f32,
    /// The share of the steps played against `random` opponents only, at the start.
    pub random_share: f64,
    /// After that, the share of opponent seats played by `greedy` (the rest: frozen
    /// snapshots of the learner, `random` and the learner itself, as 5 : 2 : 3).
    pub greedy_share: f64,
    /// Labelled decisions of the imitation phase before PPO (0: none): the policy learns
    /// to choose as `teacher` does, in games where the teacher plays every seat but one,
    /// which the policy plays more and more often as the phase goes on (DAgger).
    pub imitate_steps: u64,
    pub teacher: BotSpec,
    /// Weight of the shaping reward: the change of the seat's heuristic margin over the
    /// others (the greedy bot's evaluation, [`Evaluate::heuristic`]) between two of its
    /// decisions, a potential-based shaping that keeps the best policy the same (0: none).
    pub shaping: f32,
    /// The temperature the written policy plays at: its action logits are divided by it
    /// when training ends, before the last point of the curve (1: as trained; below 1:
    /// sharper, nearer the most likely action).
    pub temperature: f64,
    /// Learner decisions between two points of the learning curve (0: only at the end).
    pub eval_every: u64,
    /// Games of each point of the curve (seats rotated, against two `greedy`), and of the
    /// last point.
    pub eval_games: u64,
    pub final_eval_games: u64,
    /// What the policy file says about its ruleset and how it was made.
    pub ruleset: String,
    pub digest: String,
    pub command: String,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            players: 3,
            seed: 1,
            steps: 1_000_000,
            hidden: 128,
            batch: 4096,
            epochs: 4,
            minibatches: 8,
            learning_rate: 1.5e-3,
            random_share: 0.1,
            greedy_share: 0.5,
            imitate_steps: 0,
            teacher: BotSpec::Greedy,
            shaping: 0.0,
            temperature: 1.0,
            eval_every: 100_000,
            eval_games: 90,
            final_eval_games: 300,
            ruleset: String::new(),
            digest: String::new(),
            command: String::new(),
        }
    }
}

/// One point of the learning curve.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CurvePoint {
    /// Learner decisions trained on so far.
    pub steps: u64,
    /// Seconds of training so far (wall clock, evaluations left out).
    pub seconds: f64,
    /// Win share against two `greedy` players (a tie for first counts its share), over
    /// `games` seat-rotated games, with its 95% Wilson interval.
    pub win_share: f64,
    pub low: f64,
    pub high: f64,
    pub games: u64,
}

/// What a training run reports as it goes.
#[derive(Clone, Debug)]
pub enum Event {
    /// An update: steps so far, games finished since the last, the learner's win share in
    /// them, seconds so far.
    Update { steps: u64, games: u64, win_share: f64, seconds: f64 },
    /// An update of the imitation phase: labelled decisions so far, the mean cross-entropy
    /// with the teacher's choices, the share of the policy's own moves that the teacher
    /// would have made too, seconds so far.
    Imitation { steps: u64, loss: f64, agreement: f64, seconds: f64 },
    /// A point of the learning curve.
    Point(CurvePoint),
}

/// One learner decision kept for the update.
struct Step {
    /// Its non-zero scaled inputs: `(input row, value)`, in `Batch::inputs`.
    inputs: (u32, u32),
    /// Its legal actions' ids, in `Batch::legal`.
    legal: (u32, u32),
    chosen: u32,
    logp: f32,
    value: f32,
    /// The shaping potential of the seat at this decision.
    potential: f32,
    advantage: f32,
    ret: f32,
}

#[derive(Default)]
struct Batch {
    inputs: Vec<(u32, f32)>,
    legal: Vec<u32>,
    steps: Vec<Step>,
}

/// Activations of one forward pass.
struct Pass {
    z1: Vec<f32>,
    h1: Vec<f32>,
    z2: Vec<f32>,
    h2: Vec<f32>,
    logits: Vec<f32>,
    value: f32,
}

impl Pass {
    fn new(h: usize) -> Self {
        Pass { z1: vec![0.0; h], h1: vec![0.0; h], z2: vec![0.0; h], h2: vec![0.0; h], logits: Vec::new(), value: 0.0 }
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f32>() + ra.iter().zip(rb).map(|(x, y)| x * y).sum::<f32>()
}

fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// The tokens of an action id, through the binding.
fn tokens_of_id<A>(b: &Binding<A>, id: u32) -> &[u32] {
    let id = id as usize;
    match (b.starts.get(id), b.starts.get(id + 1)) {
        (Some(&s), Some(&e)) => b.tokens.get(s as usize..e as usize).unwrap_or_default(),
        _ => &[],
    }
}

/// The forward pass of one decision: `inputs` scaled, `legal` as ids.
fn forward<A>(p: &Policy, b: &Binding<A>, inputs: &[(u32, f32)], legal: &[u32], pass: &mut Pass) {
    let h = p.hidden;
    pass.z1.copy_from_slice(&p.b1);
    for &(j, v) in inputs {
        let j = j as usize;
        axpy(&mut pass.z1, v, &p.w1[j * h..(j + 1) * h]);
    }
    for (y, &z) in pass.h1.iter_mut().zip(&pass.z1) {
        *y = activation(z);
    }
    pass.z2.copy_from_slice(&p.b2);
    for (i, &v) in pass.h1.iter().enumerate() {
        axpy(&mut pass.z2, v, &p.w2[i * h..(i + 1) * h]);
    }
    for (y, &z) in pass.h2.iter_mut().zip(&pass.z2) {
        *y = activation(z);
    }
    pass.logits.clear();
    for &id in legal {
        let mut z = 0.0;
        for &t in tokens_of_id(b, id) {
            let t = t as usize;
            z += p.bt[t] + dot(&pass.h2, &p.wt[t * h..(t + 1) * h]);
        }
        pass.logits.push(z);
    }
    pass.value = p.bv[0] + dot(&pass.h2, &p.wv);
}

/// Log-probabilities of the logits (softmax), into `out`.
fn log_softmax(logits: &[f32], out: &mut Vec<f32>) {
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|&z| (z - top).exp()).sum();
    let log_sum = sum.ln() + top;
    out.clear();
    out.extend(logits.iter().map(|&z| z - log_sum));
}

/// The policy's gradients (same shapes as its tensors).
struct Grads {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    wt: Vec<f32>,
    bt: Vec<f32>,
    wv: Vec<f32>,
    bv: Vec<f32>,
}

impl Grads {
    fn zeros(p: &Policy) -> Self {
        Grads {
            w1: vec![0.0; p.w1.len()],
            b1: vec![0.0; p.b1.len()],
            w2: vec![0.0; p.w2.len()],
            b2: vec![0.0; p.b2.len()],
            wt: vec![0.0; p.wt.len()],
            bt: vec![0.0; p.bt.len()],
            wv: vec![0.0; p.wv.len()],
            bv: vec![0.0; 1],
        }
    }
    fn parts(&mut self) -> [&mut Vec<f32>; 8] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2, &mut self.wt, &mut self.bt, &mut self.wv, &mut self.bv]
    }
}

/// Buffers of one backward pass.
struct Back {
    dh2: Vec<f32>,
    dz2: Vec<f32>,
    dh1: Vec<f32>,
}

impl Back {
    fn new(h: usize) -> Self {
        Back { dh2: vec![0.0; h], dz2: vec![0.0; h], dh1: vec![0.0; h] }
    }
}

/// Adds to `grads` the gradients of one decision's loss, given the loss's derivatives by
/// its legal actions' logits (`dlogits`, in the order of `ids`) and by its value.
#[allow(clippy::too_many_arguments)]
fn backward<A>(
    policy: &Policy,
    binding: &Binding<A>,
    x: &[(u32, f32)],
    ids: &[u32],
    pass: &Pass,
    dlogits: &[f32],
    dvalue: f32,
    grads: &mut Grads,
    back: &mut Back,
) {
    let h = policy.hidden;
    let Back { dh2, dz2, dh1 } = back;
    dh2.fill(0.0);
    for (&id, &d) in ids.iter().zip(dlogits) {
        for &t in tokens_of_id(binding, id) {
            let t = t as usize;
            let row = t * h..(t + 1) * h;
            axpy(dh2, d, &policy.wt[row.clone()]);
            axpy(&mut grads.wt[row], d, &pass.h2);
            grads.bt[t] += d;
        }
    }
    axpy(dh2, dvalue, &policy.wv);
    axpy(&mut grads.wv, dvalue, &pass.h2);
    grads.bv[0] += dvalue;
    for ((d, &g), &z) in dz2.iter_mut().zip(dh2.iter()).zip(&pass.z2) {
        *d = g * activation_slope(z);
    }
    axpy(&mut grads.b2, 1.0, dz2);
    for (i, &v) in pass.h1.iter().enumerate() {
        axpy(&mut grads.w2[i * h..(i + 1) * h], v, dz2);
        dh1[i] = dot(&policy.w2[i * h..(i + 1) * h], dz2) * activation_slope(pass.z1[i]);
    }
    axpy(&mut grads.b1, 1.0, dh1);
    for &(j, v) in x {
        let j = j as usize;
        axpy(&mut grads.w1[j * h..(j + 1) * h], v, dh1);
    }
}

/// Scales the gradients down to a global norm of at most `max`.
fn clip_norm(grads: &mut Grads, max: f32) {
    let norm: f32 = grads.parts().iter().map(|g| g.iter().map(|x| x * x).sum::<f32>()).sum::<f32>().sqrt();
    if norm > max {
        let c = max / norm;
        for g in grads.parts() {
            for x in g.iter_mut() {
                *x *= c;
            }
        }
    }
}

fn params(p: &mut Policy) -> [&mut Vec<f32>; 8] {
    [&mut p.w1, &mut p.b1, &mut p.w2, &mut p.b2, &mut p.wt, &mut p.bt, &mut p.wv, &mut p.bv]
}

/// Adam's moments.
struct Adam {
    t: i32,
    m: Grads,
    v: Grads,
}

impl Adam {
    fn step(&mut self, p: &mut Policy, g: &mut Grads, lr: f32) {
        self.t += 1;
        let (b1, b2) = (0.9f32, 0.999f32);
        let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
        for (((w, g), m), v) in params(p).into_iter().zip(g.parts()).zip(self.m.parts()).zip(self.v.parts()) {
            for (((w, g), m), v) in w.iter_mut().zip(g.iter()).zip(m.iter_mut()).zip(v.iter_mut()) {
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-5);
            }
        }
    }
}

/// Who plays a seat of a training game.
#[derive(Clone, Copy, PartialEq)]
enum Player {
    Learner,
    Bot(BuiltIn),
    Snapshot(usize),
}

#[derive(Clone, Copy, PartialEq)]
enum BuiltIn {
    Random,
    Greedy,
}

/// The table's inputs, tokens and the scales of its inputs, measured on random games.
fn layout<G: Evaluate + Encode>(game: &G, players: usize, seed: u64) -> Result<(Vec<String>, Vec<String>), String> {
    let names = game.observation_names(players);
    let relative = SeatRelative::new(&names, players)?;
    let space = ActionSpace::new(game, players)?;
    let start = game.new_game(players, seed).map_err(|e| e.to_string())?;
    let whole = space.len() <= WHOLE_ACTIONS_UP_TO;
    let mut tokens = BTreeSet::new();
    let mut words = Vec::new();
    for &a in space.actions() {
        tokens_of(&game.format_action(&start, a), whole, &mut words);
        tokens.extend(words.drain(..));
    }
    Ok((relative.names().to_vec(), tokens.into_iter().collect()))
}

/// The learner's scaled non-zero inputs for `seat`, appended to `out`.
fn encode<G: Encode>(
    game: &G,
    b: &Binding<G::Action>,
    scale: &[f32],
    state: &G::State,
    seat: Seat,
    obs: &mut [f32],
    out: &mut Vec<(u32, f32)>,
) {
    game.observation(state, seat, obs);
    for &(a, j) in b.inputs.get(usize::from(seat)).map_or(&[][..], Vec::as_slice) {
        let v = obs[a as usize];
        if v != 0.0 {
            out.push((j, v / scale[j as usize]));
        }
    }
}

/// Each seat's pay at the end: win share plus half the score margin over the others' mean,
/// on the scale of the table's scores, within [-1, 1].
fn pay(outcome: &crate::game::Outcome) -> Vec<f32> {
    let shares = outcome.win_shares();
    let n = outcome.scores.len().max(1) as f64;
    let total: f64 = outcome.scores.iter().map(|&s| f64::from(s)).sum();
    let spread = 1.0 + 0.25 * (outcome.scores.iter().map(|&s| f64::from(s).abs()).sum::<f64>() / n);
    outcome
        .scores
        .iter()
        .zip(shares)
        .map(|(&s, w)| {
            let others = (total - f64::from(s)) / (n - 1.0).max(1.0);
            (w + 0.5 * ((f64::from(s) - others) / spread).clamp(-1.0, 1.0)) as f32
        })
        .collect()
}

/// The most decisions a training game may take before it is dropped (a game that does not end).
const GAME_CAP: usize = 20_000;

/// Trains a policy of `game` at `opts.players`; `report` hears each update and each point
/// of the curve. The same options give the same policy.
pub fn train<G: Evaluate + Encode>(
    game: &G,
    opts: &TrainOptions,
    report: &mut dyn FnMut(&Event),
) -> Result<(Policy, Vec<CurvePoint>), String> {
    let players = opts.players;
    if !game.players().contains(&players) {
        return Err(format!("{} seats {:?} players, not {players}", game.game_id(), game.players()));
    }
    let mut rng = Rng::from_seed(derive_seed("train", &[opts.seed]));
    let (inputs, tokens) = layout(game, players, opts.seed)?;
    let meta = Meta {
        game: game.game_id().to_string(),
        ruleset: opts.ruleset.clone(),
        digest: opts.digest.clone(),
        players,
        trained: opts.command.clone(),
    };
    let mut policy = Policy::new(meta, inputs, tokens, opts.hidden.max(1), &mut rng);
    let binding = bind(&Net::new(policy.clone()), game, players)?;
    policy.scale = measure_scales(game, &binding, players, policy.inputs.len(), opts.seed)?;
    let h = policy.hidden;
    let mut adam = Adam { t: 0, m: Grads::zeros(&policy), v: Grads::zeros(&policy) };
    let mut snapshots: Vec<Policy> = Vec::new();
    let mut curve = Vec::new();
    let started = std::time::Instant::now();
    let mut evaluating = std::time::Duration::ZERO;
    let total_updates = opts.steps.div_ceil(opts.batch.max(1) as u64).max(1);
    let (mut steps, mut updates, mut game_index) = (0u64, 0u64, 0u64);
    let mut next_eval = opts.eval_every;
    let mut obs = vec![0f32; binding.obs_len];
    let mut pass = Pass::new(h);
    let mut legal = Vec::new();
    let mut ids = Vec::new();
    let mut logp = Vec::new();
    let mut curve_base = 0;
    if opts.imitate_steps > 0 {
        let mut phase = Phase {
            rng: &mut rng,
            adam: &mut adam,
            game_index: &mut game_index,
            curve: &mut curve,
            started,
            evaluating: &mut evaluating,
        };
        curve_base = imitate(game, opts, &mut policy, &binding, &mut phase, report)?;
        next_eval = curve_base + opts.eval_every;
    }
    while steps < opts.steps {
        // Collect whole games until the batch is full.
        let mut batch = Batch::default();
        let (mut won, mut games) = (0.0f64, 0u64);
        while batch.steps.len() < opts.batch {
            let seed = derive_seed("train-game", &[opts.seed, game_index]);
            game_index += 1;
            let mut state = game.new_game(players, seed).map_err(|e| e.to_string())?;
            let against_random = (steps as f64) < opts.random_share * opts.steps as f64;
            let learner = rng.index(players);
            let seats: Vec<Player> = (0..players)
                .map(|s| {
                    if s == learner {
                        return Player::Learner;
                    }
                    if against_random {
                        return Player::Bot(BuiltIn::Random);
                    }
                    let u = rng.unit();
                    let (g, rest) = (opts.greedy_share, 1.0 - opts.greedy_share);
                    if u < g {
                        Player::Bot(BuiltIn::Greedy)
                    } else if u < g + 0.5 * rest && !snapshots.is_empty() {
                        Player::Snapshot(rng.index(snapshots.len()))
                    } else if u < g + 0.7 * rest {
                        Player::Bot(BuiltIn::Random)
                    } else {
                        Player::Learner
                    }
                })
                .collect();
            let mut bot_rng = Rng::from_seed(derive_seed("train-bots", &[seed]));
            let mut trajectories: Vec<Vec<usize>> = vec![Vec::new(); players];
            let mut decisions = 0;
            let outcome = loop {
                let ToMove::Seat(seat) = game.to_move(&state) else { break game.outcome(&state) };
                decisions += 1;
                if decisions > GAME_CAP {
                    break None;
                }
                game.legal_actions(&state, &mut legal);
                if legal.is_empty() {
                    break None;
                }
                let action = match seats[usize::from(seat)] {
                    _ if legal.len() == 1 => legal[0],
                    Player::Bot(BuiltIn::Random) => legal[bot_rng.index(legal.len())],
                    Player::Bot(BuiltIn::Greedy) => bots::choose(game, &BotSpec::Greedy, &state, &legal, &mut bot_rng),
                    who => {
                        let start = batch.inputs.len();
                        encode(game, &binding, &policy.scale, &state, seat, &mut obs, &mut batch.inputs);
                        ids.clear();
                        ids.extend(legal.iter().map(|a| binding.space.id(a).unwrap_or(u32::MAX)));
                        let net = match who {
                            Player::Snapshot(k) => &snapshots[k],
                            _ => &policy,
                        };
                        forward(net, &binding, &batch.inputs[start..], &ids, &mut pass);
                        let i = pick_index(&pass.logits, Pick::Sample, &mut rng);
                        if who == Player::Learner {
                            log_softmax(&pass.logits, &mut logp);
                            let l0 = batch.legal.len() as u32;
                            batch.legal.extend_from_slice(&ids);
                            trajectories[usize::from(seat)].push(batch.steps.len());
                            batch.steps.push(Step {
                                inputs: (start as u32, batch.inputs.len() as u32),
                                legal: (l0, batch.legal.len() as u32),
                                chosen: i as u32,
                                logp: logp[i],
                                value: pass.value,
                                potential: potential(game, &state, seat, opts.shaping),
                                advantage: 0.0,
                                ret: 0.0,
                            });
                        } else {
                            batch.inputs.truncate(start);
                        }
                        legal[i]
                    }
                };
                game.apply_legal(&mut state, action);
            };
            let Some(outcome) = outcome else {
                // No result to learn from: the game's decisions are dropped.
                let first = trajectories.iter().flatten().min().copied();
                if let Some(first) = first {
                    let s = &batch.steps[first];
                    batch.inputs.truncate(s.inputs.0 as usize);
                    batch.legal.truncate(s.legal.0 as usize);
                    batch.steps.truncate(first);
                }
                continue;
            };
            let paid = pay(&outcome);
            let shares = outcome.win_shares();
            for (seat, t) in trajectories.iter().enumerate() {
                if t.is_empty() {
                    continue;
                }
                if seat == learner && !against_random {
                    won += shares[seat];
                    games += 1;
                }
                // GAE with γ = 1: the pay at the end, and the shaping reward (the change of
                // the potential; the last decision's reward takes its potential back out).
                let mut next_value = 0.0f32;
                let mut next_potential = 0.0f32;
                let mut reward = paid[seat];
                let mut running = 0.0f32;
                for &k in t.iter().rev() {
                    let s = &mut batch.steps[k];
                    let delta = reward + next_potential - s.potential + next_value - s.value;
                    running = delta + 0.95 * running;
                    s.advantage = running;
                    s.ret = running + s.value;
                    next_value = s.value;
                    next_potential = s.potential;
                    reward = 0.0;
                }
            }
        }
        let n = batch.steps.len();
        steps += n as u64;
        // The update.
        let frac = 1.0 - updates as f32 / total_updates as f32;
        let lr = opts.learning_rate * frac.max(0.0);
        let mut order: Vec<usize> = (0..n).collect();
        let mut grads = Grads::zeros(&policy);
        let mut back = Back::new(h);
        let mut dlogits = Vec::new();
        for _ in 0..opts.epochs.max(1) {
            rng.shuffle(&mut order);
            let per = n.div_ceil(opts.minibatches.max(1)).max(1);
            for mb in order.chunks(per) {
                let m = mb.len() as f32;
                let mean = mb.iter().map(|&k| batch.steps[k].advantage).sum::<f32>() / m;
                let var = mb.iter().map(|&k| (batch.steps[k].advantage - mean).powi(2)).sum::<f32>() / m;
                let sd = var.sqrt() + 1e-8;
                for g in grads.parts() {
                    g.fill(0.0);
                }
                for &k in mb {
                    let s = &batch.steps[k];
                    let x = &batch.inputs[s.inputs.0 as usize..s.inputs.1 as usize];
                    let ids = &batch.legal[s.legal.0 as usize..s.legal.1 as usize];
                    forward(&policy, &binding, x, ids, &mut pass);
                    log_softmax(&pass.logits, &mut logp);
                    let a = s.chosen as usize;
                    let adv = (s.advantage - mean) / sd;
                    let ratio = (logp[a] - s.logp).exp();
                    let clipped = (ratio < 0.8 && adv < 0.0) || (ratio > 1.2 && adv > 0.0);
                    let dlogp = if clipped { 0.0 } else { -ratio * adv / m };
                    let entropy: f32 = -logp.iter().map(|&l| l.exp() * l).sum::<f32>();
                    dlogits.clear();
                    for (i, &l) in logp.iter().enumerate() {
                        let p = l.exp();
                        let mut d = -p * dlogp + 0.01 * p * (l + entropy) / m;
                        if i == a {
                            d += dlogp;
                        }
                        dlogits.push(d);
                    }
                    let dvalue = 0.5 * 2.0 * (pass.value - s.ret) / m;
                    backward(&policy, &binding, x, ids, &pass, &dlogits, dvalue, &mut grads, &mut back);
                }
                clip_norm(&mut grads, 0.5);
                adam.step(&mut policy, &mut grads, lr);
            }
        }
        updates += 1;
        // A frozen copy every fifth update, the last four kept.
        if updates % 5 == 0 {
            snapshots.push(policy.clone());
            if snapshots.len() > 4 {
                snapshots.remove(0);
            }
        }
        let seconds = (started.elapsed() - evaluating).as_secs_f64();
        let share = if games > 0 { won / games as f64 } else { f64::NAN };
        report(&Event::Update { steps: curve_base + steps, games, win_share: share, seconds });
        let last = steps >= opts.steps;
        if last || (opts.eval_every > 0 && curve_base + steps >= next_eval) {
            while next_eval <= curve_base + steps && opts.eval_every > 0 {
                next_eval += opts.eval_every;
            }
            if last {
                sharpen(&mut policy, opts.temperature);
            }
            let t = std::time::Instant::now();
            let games = if last { opts.final_eval_games } else { opts.eval_games };
            let point = against(game, &policy, players, games, opts.seed, &BotSpec::Greedy)?;
            let point = CurvePoint { steps: curve_base + steps, seconds, ..point };
            evaluating += t.elapsed();
            report(&Event::Point(point.clone()));
            curve.push(point);
        }
    }
    Ok((policy, curve))
}

/// The shaping potential of `seat`: `weight` times half its heuristic margin over the
/// others' mean, on the scale of the heuristics, within [-1, 1] (the end's pay on the same
/// scale). Read from the true state: it is a reward, never an input of the policy.
fn potential<G: Evaluate>(game: &G, state: &G::State, seat: Seat, weight: f32) -> f32 {
    if weight == 0.0 {
        return 0.0;
    }
    let n = game.player_count(state);
    let values: Vec<f64> = (0..n).map(|s| game.heuristic(state, s as Seat)).collect();
    let me = values.get(usize::from(seat)).copied().unwrap_or(0.0);
    let total: f64 = values.iter().sum();
    let others = (total - me) / (n as f64 - 1.0).max(1.0);
    let spread = 1.0 + 0.25 * values.iter().map(|v| v.abs()).sum::<f64>() / (n as f64).max(1.0);
    weight * (0.5 * ((me - others) / spread).clamp(-1.0, 1.0)) as f32
}

/// Divides the policy's action logits by `temperature`: its token weights and biases
/// times `1 / temperature` (rounded to `f32` once), the same file as scaling them afterwards.
fn sharpen(policy: &mut Policy, temperature: f64) {
    if temperature == 1.0 {
        return;
    }
    let factor = (1.0 / temperature) as f32;
    for w in policy.wt.iter_mut().chain(policy.bt.iter_mut()) {
        *w *= factor;
    }
}

/// What the imitation phase shares with the rest of the run.
struct Phase<'a> {
    rng: &'a mut Rng,
    adam: &'a mut Adam,
    game_index: &'a mut u64,
    curve: &'a mut Vec<CurvePoint>,
    started: std::time::Instant,
    evaluating: &'a mut std::time::Duration,
}

/// One labelled decision of the imitation phase.
struct Labelled {
    inputs: (u32, u32),
    legal: (u32, u32),
    /// The index in its legal actions of the teacher's choice.
    label: u32,
    potential: f32,
    ret: f32,
}

/// The learning rate of the imitation phase (constant).
const IMITATION_LEARNING_RATE: f32 = 1e-3;

/// The imitation phase: `opts.imitate_steps` decisions labelled by `opts.teacher`, in
/// games where the teacher plays every seat but one, played by the policy with a
/// probability rising from 0 to 1 over the phase (and by the teacher otherwise). Every
/// seat's decisions are learned from: the policy's logits by cross-entropy with the
/// teacher's choice, its value by the seat's return (the pay at the end, less the shaping
/// potential of the decision, as PPO's value learns it). Returns the decisions learned from.
fn imitate<G: Evaluate + Encode>(
    game: &G,
    opts: &TrainOptions,
    policy: &mut Policy,
    binding: &Binding<G::Action>,
    phase: &mut Phase<'_>,
    report: &mut dyn FnMut(&Event),
) -> Result<u64, String> {
    let players = opts.players;
    let h = policy.hidden;
    let mut obs = vec![0f32; binding.obs_len];
    let mut pass = Pass::new(h);
    let (mut legal, mut ids, mut logp, mut dlogits) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut grads = Grads::zeros(policy);
    let mut back = Back::new(h);
    let mut done = 0u64;
    let mut next_eval = opts.eval_every;
    while done < opts.imitate_steps {
        let mut inputs: Vec<(u32, f32)> = Vec::new();
        let mut legal_ids: Vec<u32> = Vec::new();
        let mut steps: Vec<Labelled> = Vec::new();
        let (mut agreed, mut decided) = (0u64, 0u64);
        while steps.len() < opts.batch {
            let seed = derive_seed("train-game", &[opts.seed, *phase.game_index]);
            *phase.game_index += 1;
            let mut state = game.new_game(players, seed).map_err(|e| e.to_string())?;
            let learner = phase.rng.index(players);
            let own_share = (done + steps.len() as u64) as f64 / opts.imitate_steps as f64;
            let mut bot_rng = Rng::from_seed(derive_seed("train-bots", &[seed]));
            let mut trajectories: Vec<Vec<usize>> = vec![Vec::new(); players];
            let mut decisions = 0;
            let outcome = loop {
                let ToMove::Seat(seat) = game.to_move(&state) else { break game.outcome(&state) };
                decisions += 1;
                if decisions > GAME_CAP {
                    break None;
                }
                game.legal_actions(&state, &mut legal);
                if legal.is_empty() {
                    break None;
                }
                if legal.len() == 1 {
                    game.apply_legal(&mut state, legal[0]);
                    continue;
                }
                let taught = bots::choose(game, &opts.teacher, &state, &legal, &mut bot_rng);
                let label = legal.iter().position(|&a| a == taught).unwrap_or(0);
                let start = inputs.len();
                encode(game, binding, &policy.scale, &state, seat, &mut obs, &mut inputs);
                ids.clear();
                ids.extend(legal.iter().map(|a| binding.space.id(a).unwrap_or(u32::MAX)));
                let mut action = taught;
                if usize::from(seat) == learner && phase.rng.unit() < own_share {
                    forward(policy, binding, &inputs[start..], &ids, &mut pass);
                    let i = pick_index(&pass.logits, Pick::Sample, phase.rng);
                    decided += 1;
                    if i == label {
                        agreed += 1;
                    }
                    action = legal[i];
                }
                let l0 = legal_ids.len() as u32;
                legal_ids.extend_from_slice(&ids);
                trajectories[usize::from(seat)].push(steps.len());
                steps.push(Labelled {
                    inputs: (start as u32, inputs.len() as u32),
                    legal: (l0, legal_ids.len() as u32),
                    label: label as u32,
                    potential: potential(game, &state, seat, opts.shaping),
                    ret: 0.0,
                });
                game.apply_legal(&mut state, action);
            };
            let Some(outcome) = outcome else {
                let first = trajectories.iter().flatten().min().copied();
                if let Some(first) = first {
                    let s = &steps[first];
                    inputs.truncate(s.inputs.0 as usize);
                    legal_ids.truncate(s.legal.0 as usize);
                    steps.truncate(first);
                }
                continue;
            };
            let paid = pay(&outcome);
            for (seat, t) in trajectories.iter().enumerate() {
                for &k in t {
                    steps[k].ret = paid[seat] - steps[k].potential;
                }
            }
        }
        let n = steps.len();
        done += n as u64;
        let mut order: Vec<usize> = (0..n).collect();
        let mut loss = 0.0f64;
        for _ in 0..2 {
            phase.rng.shuffle(&mut order);
            let per = n.div_ceil(opts.minibatches.max(1)).max(1);
            for mb in order.chunks(per) {
                let m = mb.len() as f32;
                for g in grads.parts() {
                    g.fill(0.0);
                }
                for &k in mb {
                    let s = &steps[k];
                    let x = &inputs[s.inputs.0 as usize..s.inputs.1 as usize];
                    let ids = &legal_ids[s.legal.0 as usize..s.legal.1 as usize];
                    forward(policy, binding, x, ids, &mut pass);
                    log_softmax(&pass.logits, &mut logp);
                    let label = s.label as usize;
                    loss -= f64::from(logp.get(label).copied().unwrap_or(0.0));
                    dlogits.clear();
                    dlogits.extend(logp.iter().enumerate().map(|(i, &l)| {
                        let p = l.exp();
                        (if i == label { p - 1.0 } else { p }) / m
                    }));
                    let dvalue = (pass.value - s.ret) / m;
                    backward(policy, binding, x, ids, &pass, &dlogits, dvalue, &mut grads, &mut back);
                }
                clip_norm(&mut grads, 0.5);
                phase.adam.step(policy, &mut grads, IMITATION_LEARNING_RATE);
            }
        }
        let seconds = (phase.started.elapsed() - *phase.evaluating).as_secs_f64();
        report(&Event::Imitation {
            steps: done,
            loss: loss / (2 * n.max(1)) as f64,
            agreement: if decided > 0 { agreed as f64 / decided as f64 } else { f64::NAN },
            seconds,
        });
        if opts.eval_every > 0 && done >= next_eval {
            while next_eval <= done {
                next_eval += opts.eval_every;
            }
            let t = std::time::Instant::now();
            let point = against(game, policy, players, opts.eval_games, opts.seed, &BotSpec::Greedy)?;
            let point = CurvePoint { steps: done, seconds, ..point };
            *phase.evaluating += t.elapsed();
            report(&Event::Point(point.clone()));
            phase.curve.push(point);
        }
    }
    Ok(done)
}

/// Each input's scale: its root mean square over the learner-seat observations of a few
/// random games, at least 1 (flags and small counts stay as they are).
fn measure_scales<G: Evaluate + Encode>(
    game: &G,
    b: &Binding<G::Action>,
    players: usize,
    count: usize,
    seed: u64,
) -> Result<Vec<f32>, String> {
    let mut sum = vec![0f64; count];
    let mut seen = 0u64;
    let mut obs = vec![0f32; b.obs_len];
    let mut legal = Vec::new();
    let mut x = Vec::new();
    let ones = vec![1f32; count];
    for g in 0..8u64 {
        let mut state = game.new_game(players, derive_seed("train-scales", &[seed, g])).map_err(|e| e.to_string())?;
        let mut rng = Rng::from_seed(derive_seed("train-scales-bots", &[seed, g]));
        for _ in 0..GAME_CAP {
            let ToMove::Seat(seat) = game.to_move(&state) else { break };
            game.legal_actions(&state, &mut legal);
            if legal.is_empty() {
                break;
            }
            x.clear();
            encode(game, b, &ones, &state, seat, &mut obs, &mut x);
            for &(j, v) in &x {
                sum[j as usize] += f64::from(v) * f64::from(v);
            }
            seen += 1;
            let a = legal[rng.index(legal.len())];
            game.apply_legal(&mut state, a);
        }
    }
    Ok(sum.iter().map(|&s| ((s / seen.max(1) as f64).sqrt() as f32).max(1.0)).collect())
}

/// The policy's win share against `players - 1` bots of `opponent` over `games` games,
/// the policy's seat rotated, sampling its moves as in play.
pub fn against<G: Evaluate + Encode>(
    game: &G,
    policy: &Policy,
    players: usize,
    games: u64,
    seed: u64,
    opponent: &BotSpec,
) -> Result<CurvePoint, String> {
    let bot = super::Learned::with_policy("training", policy.clone());
    let mut won = 0.0;
    let mut legal = Vec::new();
    for g in 0..games {
        let learner = (g % players as u64) as usize;
        let game_seed = derive_seed("train-eval", &[seed, g / players as u64]);
        let mut state = game.new_game(players, game_seed).map_err(|e| e.to_string())?;
        let mut rng = Rng::from_seed(derive_seed("train-eval-bots", &[seed, g]));
        let mut outcome = None;
        for _ in 0..GAME_CAP {
            let ToMove::Seat(seat) = game.to_move(&state) else {
                outcome = game.outcome(&state);
                break;
            };
            game.legal_actions(&state, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = if usize::from(seat) == learner {
                bot.choose(game, &state, &legal, &mut rng)?
            } else {
                bots::choose(game, opponent, &state, &legal, &mut rng)
            };
            game.apply_legal(&mut state, a);
        }
        if let Some(o) = outcome {
            won += o.win_shares()[learner];
        }
    }
    let share = won / games.max(1) as f64;
    let [low, high] = crate::metrics::wilson(share, games);
    Ok(CurvePoint { steps: 0, seconds: 0.0, win_share: share, low, high, games })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn tiny() -> TrainOptions {
        TrainOptions {
            players: 3,
            seed: 5,
            steps: 6_000,
            hidden: 16,
            batch: 500,
            minibatches: 4,
            random_share: 1.0,
            eval_every: 0,
            final_eval_games: 30,
            learning_rate: 3e-3,
            ..TrainOptions::default()
        }
    }

    /// A few seconds of training against random players on the toy game (take the most
    /// stones) is enough to beat them; and the same options train the same policy.
    #[test]
    fn a_tiny_policy_trained_for_seconds_beats_random_players() {
        let game = crate::testing::take_away().unwrap();
        let (policy, curve) = train(&game, &tiny(), &mut |_| {}).unwrap();
        assert_eq!(curve.len(), 1);
        let vs_random = against(&game, &policy, 3, 300, 77, &BotSpec::Random).unwrap();
        // Random play wins a third of 3-player games.
        assert!(vs_random.win_share > 0.5 && vs_random.low > 1.0 / 3.0, "{vs_random:?}");
        let untrained =
            Policy::new(policy.meta.clone(), policy.inputs.clone(), policy.tokens.clone(), 16, &mut Rng::from_seed(1));
        let before = against(&game, &untrained, 3, 300, 77, &BotSpec::Random).unwrap();
        assert!(vs_random.win_share > before.win_share + 0.1, "{before:?} then {vs_random:?}");
        let (again, _) = train(&game, &tiny(), &mut |_| {}).unwrap();
        assert_eq!(again, policy);
    }

    /// `--temperature 0.5` doubles every action's logit (the values stay), so the written
    /// policy plays sharper than it trained; 1 leaves the file as it was.
    #[test]
    fn a_temperature_divides_the_logits() {
        let game = crate::testing::take_away().unwrap();
        let (policy, _) =
            train(&game, &TrainOptions { steps: 500, final_eval_games: 3, ..tiny() }, &mut |_| {}).unwrap();
        let binding = bind(&Net::new(policy.clone()), &game, 3).unwrap();
        let state = game.new_game(3, 9).unwrap();
        let mut legal = Vec::new();
        game.legal_actions(&state, &mut legal);
        let ids: Vec<u32> = legal.iter().map(|a| binding.space.id(a).unwrap()).collect();
        let (mut obs, mut x) = (vec![0f32; binding.obs_len], Vec::new());
        encode(&game, &binding, &policy.scale, &state, 0, &mut obs, &mut x);
        let mut before = Pass::new(policy.hidden);
        forward(&policy, &binding, &x, &ids, &mut before);
        let mut sharp = policy.clone();
        sharpen(&mut sharp, 0.5);
        let mut after = Pass::new(policy.hidden);
        forward(&sharp, &binding, &x, &ids, &mut after);
        assert!(legal.len() > 1 && before.logits.iter().any(|&z| z != 0.0));
        for (b, a) in before.logits.iter().zip(&after.logits) {
            assert!((2.0 * b - a).abs() < 1e-5, "{before:?} {after:?}", before = before.logits, after = after.logits);
        }
        assert_eq!(before.value, after.value);
        let mut same = policy.clone();
        sharpen(&mut same, 1.0);
        assert_eq!(same, policy);
    }

    /// The imitation phase alone (PPO's one batch at a negligible rate) teaches the policy
    /// greedy's play: it then beats random players as the untrained policy does not, and
    /// the shaping reward's run reproduces too.
    #[test]
    fn imitating_greedy_beats_random_players() {
        let game = crate::testing::take_away().unwrap();
        let opts = TrainOptions {
            imitate_steps: 6_000,
            steps: 500,
            learning_rate: 1e-9,
            random_share: 0.0,
            greedy_share: 1.0,
            shaping: 1.0,
            ..tiny()
        };
        let mut imitated = Vec::new();
        let (policy, curve) = train(&game, &opts, &mut |e| {
            if let Event::Imitation { steps, loss, .. } = e {
                imitated.push((*steps, *loss));
            }
        })
        .unwrap();
        assert_eq!(curve.last().map(|p| p.steps), Some(imitated.last().unwrap().0 + 500));
        assert!(imitated.len() >= 12 && imitated.last().unwrap().0 >= 6_000, "{imitated:?}");
        // The cross-entropy with greedy's choices falls.
        assert!(imitated.last().unwrap().1 < imitated[0].1 - 0.1, "{imitated:?}");
        let vs_random = against(&game, &policy, 3, 300, 77, &BotSpec::Random).unwrap();
        assert!(vs_random.win_share > 0.5 && vs_random.low > 1.0 / 3.0, "{vs_random:?}");
        let (again, _) = train(&game, &opts, &mut |_| {}).unwrap();
        assert_eq!(again, policy);
    }
}
