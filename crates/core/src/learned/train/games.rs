//! Training games: one game loop for both phases ([`play_training_game`], the phase
//! deciding for the policy's seats), the batch its decisions are recorded into, and what
//! a game pays each seat (at its end, and the shaping potential along the way).

use super::net::Pass;
use crate::bots::Evaluate;
use crate::encode::Encode;
use crate::game::{Seat, ToMove};
use crate::learned::bot::Binding;
use crate::rng::{Rng, derive_seed};

/// Where one decision's data lies in its [`Batch`]: its non-zero scaled inputs
/// (`(input row, value)`) in `Batch::inputs`, its legal actions' ids in `Batch::legal`.
#[derive(Clone, Copy)]
pub(super) struct Span {
    inputs: (u32, u32),
    legal: (u32, u32),
}

/// The decisions collected for one update: each one's inputs and legal actions' ids in
/// two shared buffers, and what the phase keeps of it (`S`: a PPO `Step` or an
/// imitation phase's `Labelled` decision).
pub(super) struct Batch<S> {
    pub(super) inputs: Vec<(u32, f32)>,
    pub(super) legal: Vec<u32>,
    pub(super) steps: Vec<S>,
}

impl<S> Batch<S> {
    pub(super) fn new() -> Self {
        Batch { inputs: Vec::new(), legal: Vec::new(), steps: Vec::new() }
    }

    /// The scaled inputs and legal actions' ids of the decision at `at`.
    pub(super) fn of(&self, at: Span) -> (&[(u32, f32)], &[u32]) {
        let x = self.inputs.get(at.inputs.0 as usize..at.inputs.1 as usize).unwrap_or_default();
        let ids = self.legal.get(at.legal.0 as usize..at.legal.1 as usize).unwrap_or_default();
        (x, ids)
    }

    /// Keeps a decision whose inputs were appended from `start` on, with its legal
    /// actions' ids: where both lie.
    pub(super) fn keep(&mut self, start: usize, ids: &[u32]) -> Span {
        let l0 = self.legal.len() as u32;
        self.legal.extend_from_slice(ids);
        Span { inputs: (start as u32, self.inputs.len() as u32), legal: (l0, self.legal.len() as u32) }
    }

    /// The buffers' lengths, to [`Batch::truncate`] back to.
    fn mark(&self) -> [usize; 3] {
        [self.inputs.len(), self.legal.len(), self.steps.len()]
    }

    fn truncate(&mut self, [inputs, legal, steps]: [usize; 3]) {
        self.inputs.truncate(inputs);
        self.legal.truncate(legal);
        self.steps.truncate(steps);
    }
}

/// The learner's scaled non-zero inputs for `seat`, appended to `out`.
pub(super) fn encode<G: Encode>(
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
pub(super) fn pay(outcome: &crate::game::Outcome) -> Vec<f32> {
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
pub(super) const GAME_CAP: usize = 20_000;

/// Buffers of the policy's decisions in training games.
pub(super) struct Scratch {
    obs: Vec<f32>,
    /// The legal actions' ids of the decision last looked at.
    pub(super) ids: Vec<u32>,
    pub(super) pass: Pass,
    pub(super) logp: Vec<f32>,
}

impl Scratch {
    pub(super) fn new(obs_len: usize, hidden: usize) -> Self {
        Scratch { obs: vec![0f32; obs_len], ids: Vec::new(), pass: Pass::new(hidden), logp: Vec::new() }
    }

    /// Appends the seat's scaled non-zero inputs to `inputs` and sets [`Scratch::ids`] to
    /// its legal actions' ids; returns where its inputs start.
    pub(super) fn look<G: Encode>(
        &mut self,
        game: &G,
        binding: &Binding<G::Action>,
        scale: &[f32],
        d: &Decision<'_, G>,
        inputs: &mut Vec<(u32, f32)>,
    ) -> usize {
        let start = inputs.len();
        encode(game, binding, scale, d.state, d.seat, &mut self.obs, inputs);
        self.ids.clear();
        self.ids.extend(d.legal.iter().map(|a| binding.space.id(a).unwrap_or(u32::MAX)));
        start
    }
}

/// A decision of a training game with more than one legal action.
pub(super) struct Decision<'a, G: Encode> {
    pub(super) state: &'a G::State,
    pub(super) seat: Seat,
    pub(super) legal: &'a [G::Action],
}

/// A training game played to its end: its outcome and each seat's decisions recorded in
/// the batch (their indices in `Batch::steps`, in order).
pub(super) struct Played {
    pub(super) outcome: crate::game::Outcome,
    pub(super) trajectories: Vec<Vec<usize>>,
}

/// Plays one training game from `seed`, recording into `batch`. A decision with one legal
/// action is taken; each other one is `decide`'s (given the bots' generator, seeded from the
/// game's): it returns the action, and the decision to record for the seat when it keeps
/// one (having appended its inputs and legal ids to the batch). A game that does not end
/// within [`GAME_CAP`] decisions or gets stuck gives no result to learn from: its
/// decisions are taken back out of the batch and `None` is returned.
pub(super) fn play_training_game<G: Encode, S>(
    game: &G,
    players: usize,
    seed: u64,
    batch: &mut Batch<S>,
    mut decide: impl FnMut(&mut Batch<S>, Decision<'_, G>, &mut Rng) -> (G::Action, Option<S>),
) -> Result<Option<Played>, String> {
    let mut state = game.new_game(players, seed).map_err(|e| e.to_string())?;
    let mut bot_rng = Rng::from_seed(derive_seed("train-bots", &[seed]));
    let mut trajectories: Vec<Vec<usize>> = vec![Vec::new(); players];
    let mut legal = Vec::new();
    let mark = batch.mark();
    let mut decisions = 0;
    let outcome = loop {
        let ToMove::Seat(seat) = game.to_move(&state) else { break game.outcome(&state) };
        decisions += 1;
        if decisions > GAME_CAP {
            break None;
        }
        game.legal_actions(&state, &mut legal);
        let action = match legal.as_slice() {
            [] => break None,
            &[only] => only,
            legal => {
                let (action, kept) = decide(batch, Decision { state: &state, seat, legal }, &mut bot_rng);
                if let Some(step) = kept {
                    if let Some(t) = trajectories.get_mut(usize::from(seat)) {
                        t.push(batch.steps.len());
                    }
                    batch.steps.push(step);
                }
                action
            }
        };
        game.apply_legal(&mut state, action);
    };
    let Some(outcome) = outcome else {
        batch.truncate(mark);
        return Ok(None);
    };
    Ok(Some(Played { outcome, trajectories }))
}

/// The shaping potential of `seat`: `weight` times half its heuristic margin over the
/// others' mean, on the scale of the heuristics, within [-1, 1] (the end's pay on the same
/// scale). Read from the true state: it is a reward, never an input of the policy.
pub(super) fn potential<G: Evaluate>(game: &G, state: &G::State, seat: Seat, weight: f32) -> f32 {
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
