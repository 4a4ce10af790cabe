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
//!
//! Both phases, the optional imitation first and then PPO, play their games through one
//! loop (`games`: the phase decides for the seats it plays and keeps what it learns
//! from), record into one kind of batch, and update through one loop (`update`, each
//! phase with its loss); `net` is the network's forward and backward passes and Adam.

mod games;
mod net;
mod update;

use super::bot::{Binding, Net, Pick, bind, pick_index};
use super::policy::{Meta, Policy, WHOLE_ACTIONS_UP_TO, tokens_of};
use crate::bots::{self, BotSpec, Evaluate};
use crate::encode::{ActionSpace, Encode, SeatRelative};
use crate::game::ToMove;
use crate::rng::{Rng, derive_seed};
use games::{Batch, GAME_CAP, Played, Scratch, encode, pay, play_training_game, potential};
use net::{Adam, forward, log_softmax};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use update::{Clipped, CrossEntropy, Labelled, Step, descend};

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
    let mut run = Run {
        rng,
        adam: Adam::new(&policy),
        game_index: 0,
        curve: Vec::new(),
        started: Instant::now(),
        evaluating: Duration::ZERO,
    };
    let imitated =
        if opts.imitate_steps > 0 { imitate(game, opts, &mut policy, &binding, &mut run, report)? } else { 0 };
    ppo(game, opts, &mut policy, &binding, &mut run, imitated, report)?;
    Ok((policy, run.curve))
}

/// What the phases of a run share: its generator, the optimiser, the count of training
/// games (each one's seed), the learning curve and the clock.
struct Run {
    rng: Rng,
    adam: Adam,
    game_index: u64,
    curve: Vec<CurvePoint>,
    started: Instant,
    /// Time spent on the curve's points, left out of the training's seconds.
    evaluating: Duration,
}

impl Run {
    /// The seed of the next training game.
    fn next_game(&mut self, opts: &TrainOptions) -> u64 {
        let seed = derive_seed("train-game", &[opts.seed, self.game_index]);
        self.game_index += 1;
        seed
    }

    /// Seconds of training so far, evaluations left out.
    fn seconds(&self) -> f64 {
        (self.started.elapsed() - self.evaluating).as_secs_f64()
    }

    /// A point of the learning curve at `steps`: `games` seat-rotated games against two
    /// `greedy` players, reported and kept.
    #[allow(clippy::too_many_arguments)]
    fn point<G: Evaluate + Encode>(
        &mut self,
        game: &G,
        policy: &Policy,
        opts: &TrainOptions,
        games: u64,
        steps: u64,
        seconds: f64,
        report: &mut dyn FnMut(&Event),
    ) -> Result<(), String> {
        let t = Instant::now();
        let point = against(game, policy, opts.players, games, opts.seed, &BotSpec::Greedy)?;
        let point = CurvePoint { steps, seconds, ..point };
        self.evaluating += t.elapsed();
        report(&Event::Point(point.clone()));
        self.curve.push(point);
        Ok(())
    }
}

/// When the learning curve's next point is due: every `every` steps (0: never).
struct Schedule {
    next: u64,
    every: u64,
}

impl Schedule {
    /// Whether a point is due at `steps`; if it is, the next one is set past them.
    fn due(&mut self, steps: u64) -> bool {
        if self.every == 0 || steps < self.next {
            return false;
        }
        while self.next <= steps {
            self.next += self.every;
        }
        true
    }
}

/// The PPO phase: `opts.steps` learner decisions, in batches of `opts.batch` from whole
/// games, after the `imitated` decisions of the imitation phase (which the curve's steps
/// count first). The curve's last point is the written policy's, at its temperature.
fn ppo<G: Evaluate + Encode>(
    game: &G,
    opts: &TrainOptions,
    policy: &mut Policy,
    binding: &Binding<G::Action>,
    run: &mut Run,
    imitated: u64,
    report: &mut dyn FnMut(&Event),
) -> Result<(), String> {
    let total_updates = opts.steps.div_ceil(opts.batch.max(1) as u64).max(1);
    let (mut steps, mut updates) = (0u64, 0u64);
    let mut schedule = Schedule { next: imitated + opts.eval_every, every: opts.eval_every };
    let mut scratch = Scratch::new(binding.obs_len, policy.hidden);
    let mut snapshots: Vec<Policy> = Vec::new();
    while steps < opts.steps {
        let against_random = (steps as f64) < opts.random_share * opts.steps as f64;
        let (batch, won, games) =
            ppo_batch(game, opts, policy, &snapshots, binding, run, against_random, &mut scratch)?;
        steps += batch.steps.len() as u64;
        let frac = 1.0 - updates as f32 / total_updates as f32;
        let lr = opts.learning_rate * frac.max(0.0);
        let mut objective = Clipped { mean: 0.0, sd: 1.0 };
        descend(
            policy,
            binding,
            &batch,
            opts.epochs.max(1),
            opts.minibatches,
            lr,
            &mut run.rng,
            &mut run.adam,
            &mut objective,
            &mut scratch,
        );
        updates += 1;
        // A frozen copy every fifth update, the last four kept.
        if updates % 5 == 0 {
            snapshots.push(policy.clone());
            if snapshots.len() > 4 {
                snapshots.remove(0);
            }
        }
        let seconds = run.seconds();
        let share = if games > 0 { won / games as f64 } else { f64::NAN };
        report(&Event::Update { steps: imitated + steps, games, win_share: share, seconds });
        let last = steps >= opts.steps;
        let due = schedule.due(imitated + steps);
        if last || due {
            if last {
                sharpen(policy, opts.temperature);
            }
            let games = if last { opts.final_eval_games } else { opts.eval_games };
            run.point(game, policy, opts, games, imitated + steps, seconds, report)?;
        }
    }
    Ok(())
}

/// One batch of PPO: whole games until `opts.batch` learner decisions are kept, each seat
/// but a random one (the learner's) played by an opponent of the mix
/// ([`TrainOptions::greedy_share`]; `random` only while `against_random`), the learner's
/// decisions given their advantages and returns. Also returns the learner's wins and
/// games against the mix.
#[allow(clippy::too_many_arguments)]
fn ppo_batch<G: Evaluate + Encode>(
    game: &G,
    opts: &TrainOptions,
    policy: &Policy,
    snapshots: &[Policy],
    binding: &Binding<G::Action>,
    run: &mut Run,
    against_random: bool,
    scratch: &mut Scratch,
) -> Result<(Batch<Step>, f64, u64), String> {
    let players = opts.players;
    let mut batch = Batch::new();
    let (mut won, mut games) = (0.0f64, 0u64);
    while batch.steps.len() < opts.batch {
        let seed = run.next_game(opts);
        let learner = run.rng.index(players);
        let seats: Vec<Player> =
            (0..players).map(|s| seat_player(s == learner, against_random, opts, snapshots, &mut run.rng)).collect();
        let rng = &mut run.rng;
        let played = play_training_game(game, players, seed, &mut batch, |batch, d, bot_rng| {
            match seats[usize::from(d.seat)] {
                Player::Bot(BuiltIn::Random) => (d.legal[bot_rng.index(d.legal.len())], None),
                Player::Bot(BuiltIn::Greedy) => (bots::choose(game, &BotSpec::Greedy, d.state, d.legal, bot_rng), None),
                who => {
                    let start = scratch.look(game, binding, &policy.scale, &d, &mut batch.inputs);
                    let net = match who {
                        Player::Snapshot(k) => &snapshots[k],
                        _ => policy,
                    };
                    forward(net, binding, &batch.inputs[start..], &scratch.ids, &mut scratch.pass);
                    let i = pick_index(&scratch.pass.logits, Pick::Sample, rng);
                    if who != Player::Learner {
                        batch.inputs.truncate(start);
                        return (d.legal[i], None);
                    }
                    log_softmax(&scratch.pass.logits, &mut scratch.logp);
                    let step = Step {
                        at: batch.keep(start, &scratch.ids),
                        chosen: i as u32,
                        logp: scratch.logp[i],
                        value: scratch.pass.value,
                        potential: potential(game, d.state, d.seat, opts.shaping),
                        advantage: 0.0,
                        ret: 0.0,
                    };
                    (d.legal[i], Some(step))
                }
            }
        })?;
        let Some(Played { outcome, trajectories }) = played else { continue };
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
            advantages(&mut batch.steps, t, paid[seat]);
        }
    }
    Ok((batch, won, games))
}

/// Who plays a seat of a PPO game: the learner at its seat; elsewhere `random` while
/// `against_random`, then an opponent of the mix, drawn from `rng`: `greedy` (its share),
/// a frozen snapshot, `random` or the learner itself (the rest as 5 : 2 : 3).
fn seat_player(
    learner: bool,
    against_random: bool,
    opts: &TrainOptions,
    snapshots: &[Policy],
    rng: &mut Rng,
) -> Player {
    if learner {
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
}

/// GAE with γ = 1 over one seat's decisions (`trajectory`, indices in `steps`): the pay at
/// the end, and the shaping reward (the change of the potential; the last decision's reward
/// takes its potential back out).
fn advantages(steps: &mut [Step], trajectory: &[usize], pay: f32) {
    let mut next_value = 0.0f32;
    let mut next_potential = 0.0f32;
    let mut reward = pay;
    let mut running = 0.0f32;
    for &k in trajectory.iter().rev() {
        let Some(s) = steps.get_mut(k) else { continue };
        let delta = reward + next_potential - s.potential + next_value - s.value;
        running = delta + 0.95 * running;
        s.advantage = running;
        s.ret = running + s.value;
        next_value = s.value;
        next_potential = s.potential;
        reward = 0.0;
    }
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
    run: &mut Run,
    report: &mut dyn FnMut(&Event),
) -> Result<u64, String> {
    let mut scratch = Scratch::new(binding.obs_len, policy.hidden);
    let mut done = 0u64;
    let mut schedule = Schedule { next: opts.eval_every, every: opts.eval_every };
    while done < opts.imitate_steps {
        let (batch, agreement) = labelled_batch(game, opts, policy, binding, run, done, &mut scratch)?;
        let n = batch.steps.len();
        done += n as u64;
        let mut objective = CrossEntropy { loss: 0.0 };
        descend(
            policy,
            binding,
            &batch,
            2,
            opts.minibatches,
            IMITATION_LEARNING_RATE,
            &mut run.rng,
            &mut run.adam,
            &mut objective,
            &mut scratch,
        );
        let seconds = run.seconds();
        report(&Event::Imitation { steps: done, loss: objective.loss / (2 * n.max(1)) as f64, agreement, seconds });
        if schedule.due(done) {
            run.point(game, policy, opts, opts.eval_games, done, seconds, report)?;
        }
    }
    Ok(done)
}

/// One batch of the imitation phase: whole games until `opts.batch` decisions are
/// labelled, every decision of more than one action labelled with the teacher's choice
/// and, at the policy's seat, played by the policy with a chance of the phase's share
/// done (`done` decisions before this batch). Also returns the share of the policy's own
/// moves that the teacher would have made too.
fn labelled_batch<G: Evaluate + Encode>(
    game: &G,
    opts: &TrainOptions,
    policy: &Policy,
    binding: &Binding<G::Action>,
    run: &mut Run,
    done: u64,
    scratch: &mut Scratch,
) -> Result<(Batch<Labelled>, f64), String> {
    let players = opts.players;
    let mut batch = Batch::new();
    let (mut agreed, mut decided) = (0u64, 0u64);
    while batch.steps.len() < opts.batch {
        let seed = run.next_game(opts);
        let learner = run.rng.index(players);
        let own_share = (done + batch.steps.len() as u64) as f64 / opts.imitate_steps as f64;
        let rng = &mut run.rng;
        let played = play_training_game(game, players, seed, &mut batch, |batch, d, bot_rng| {
            let taught = bots::choose(game, &opts.teacher, d.state, d.legal, bot_rng);
            let label = d.legal.iter().position(|&a| a == taught).unwrap_or(0);
            let start = scratch.look(game, binding, &policy.scale, &d, &mut batch.inputs);
            let mut action = taught;
            if usize::from(d.seat) == learner && rng.unit() < own_share {
                forward(policy, binding, &batch.inputs[start..], &scratch.ids, &mut scratch.pass);
                let i = pick_index(&scratch.pass.logits, Pick::Sample, rng);
                decided += 1;
                if i == label {
                    agreed += 1;
                }
                action = d.legal[i];
            }
            let step = Labelled {
                at: batch.keep(start, &scratch.ids),
                label: label as u32,
                potential: potential(game, d.state, d.seat, opts.shaping),
                ret: 0.0,
            };
            (action, Some(step))
        })?;
        let Some(Played { outcome, trajectories }) = played else { continue };
        let paid = pay(&outcome);
        for (seat, t) in trajectories.iter().enumerate() {
            for &k in t {
                if let Some(s) = batch.steps.get_mut(k) {
                    s.ret = paid[seat] - s.potential;
                }
            }
        }
    }
    let agreement = if decided > 0 { agreed as f64 / decided as f64 } else { f64::NAN };
    Ok((batch, agreement))
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
    use super::net::Pass;
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

    /// A short run's policy, byte for byte (its SHA-256): imitation with shaping, then PPO
    /// against every kind of opponent (the random start, greedy, frozen snapshots past the
    /// four kept, self-play) and a temperature. A refactoring of the trainer must train the
    /// same bytes (the shipped policies are what their recipes make); a change of the
    /// recipe changes this digest on purpose. The maths is `f32` in a fixed order, but
    /// `exp` and `ln` come from the platform's libm: pinned on x86-64 Linux.
    #[test]
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    fn a_short_run_trains_the_same_bytes() {
        use sha2::{Digest as _, Sha256};
        let game = crate::testing::take_away().unwrap();
        let opts = TrainOptions {
            imitate_steps: 1_500,
            steps: 13_500,
            shaping: 1.0,
            temperature: 0.5,
            random_share: 0.1,
            greedy_share: 0.4,
            final_eval_games: 3,
            ..tiny()
        };
        let (policy, curve) = train(&game, &opts, &mut |_| {}).unwrap();
        assert_eq!(curve.len(), 1);
        let digest: String = Sha256::digest(policy.to_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(digest, "6b81c5d8fbb44826ee3980d6b0b29b5a267111a09aada8ceceb212bb44790048");
    }
}
