//! The update of a batch: minibatches of its decisions, each one step of Adam on a
//! phase's loss (PPO's clipped surrogate, the imitation phase's cross-entropy).

use super::games::{Batch, Scratch, Span};

use super::net::{Adam, Back, Grads, backward, clip_norm, forward, log_softmax};
use crate::learned::bot::Binding;
use crate::learned::policy::Policy;
use crate::rng::Rng;

/// One learner decision kept for PPO's update.
pub(super) struct Step {
    pub(super) at: Span,
    pub(super) chosen: u32,
    pub(super) logp: f32,
    pub(super) value: f32,
    /// The shaping potential of the seat at this decision.
    pub(super) potential: f32,
    pub(super) advantage: f32,
    pub(super) ret: f32,
}

/// One labelled decision of the imitation phase.
pub(super) struct Labelled {
    pub(super) at: Span,
    /// The index in its legal actions of the teacher's choice.
    pub(super) label: u32,
    pub(super) potential: f32,
    pub(super) ret: f32,
}

/// A recorded decision: where its inputs and legal actions lie in its batch.
pub(super) trait Recorded {
    fn at(&self) -> Span;
}

impl Recorded for Step {
    fn at(&self) -> Span {
        self.at
    }
}

impl Recorded for Labelled {
    fn at(&self) -> Span {
        self.at
    }
}

/// What an update minimises, decision by decision.
pub(super) trait Objective<S> {
    /// Called before each minibatch (`minibatch`: its decisions' indices in `steps`).
    fn start(&mut self, _steps: &[S], _minibatch: &[usize]) {}

    /// The derivatives of a decision's share of the minibatch's loss (`m` decisions) by
    /// its legal actions' logits, into `dlogits`, from their log-probabilities `logp`;
    /// returns the derivative by its value.
    fn derivatives(&mut self, s: &S, logp: &[f32], value: f32, m: f32, dlogits: &mut Vec<f32>) -> f32;
}

/// PPO's loss: the clipped surrogate (ratio within 0.8 to 1.2) of the minibatch's
/// normalised advantages, an entropy bonus of 0.01, and half the value's squared error.
pub(super) struct Clipped {
    /// The minibatch's advantages' mean and standard deviation.
    pub(super) mean: f32,
    pub(super) sd: f32,
}

impl Objective<Step> for Clipped {
    fn start(&mut self, steps: &[Step], minibatch: &[usize]) {
        let m = minibatch.len() as f32;
        let advantage = |k: usize| steps.get(k).map_or(0.0, |s| s.advantage);
        self.mean = minibatch.iter().map(|&k| advantage(k)).sum::<f32>() / m;
        let var = minibatch.iter().map(|&k| (advantage(k) - self.mean).powi(2)).sum::<f32>() / m;
        self.sd = var.sqrt() + 1e-8;
    }

    fn derivatives(&mut self, s: &Step, logp: &[f32], value: f32, m: f32, dlogits: &mut Vec<f32>) -> f32 {
        let a = s.chosen as usize;
        let adv = (s.advantage - self.mean) / self.sd;
        let ratio = (logp.get(a).copied().unwrap_or(0.0) - s.logp).exp();
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
        0.5 * 2.0 * (value - s.ret) / m
    }
}

/// The imitation phase's loss: the cross-entropy with the teacher's choice, and half the
/// value's squared error; it sums the cross-entropy it has seen.
pub(super) struct CrossEntropy {
    pub(super) loss: f64,
}

impl Objective<Labelled> for CrossEntropy {
    fn derivatives(&mut self, s: &Labelled, logp: &[f32], value: f32, m: f32, dlogits: &mut Vec<f32>) -> f32 {
        let label = s.label as usize;
        self.loss -= f64::from(logp.get(label).copied().unwrap_or(0.0));
        dlogits.clear();
        dlogits.extend(logp.iter().enumerate().map(|(i, &l)| {
            let p = l.exp();
            (if i == label { p - 1.0 } else { p }) / m
        }));
        (value - s.ret) / m
    }
}

/// The update of one batch: `epochs` passes over its decisions, each in a new order cut
/// into `minibatches`; a minibatch's mean loss (`objective`) is one step of Adam at `lr`,
/// its gradient clipped to a norm of 0.5.
#[allow(clippy::too_many_arguments)]
pub(super) fn descend<A, S: Recorded>(
    policy: &mut Policy,
    binding: &Binding<A>,
    batch: &Batch<S>,
    epochs: usize,
    minibatches: usize,
    lr: f32,
    rng: &mut Rng,
    adam: &mut Adam,
    objective: &mut impl Objective<S>,
    scratch: &mut Scratch,
) {
    let n = batch.steps.len();
    let mut order: Vec<usize> = (0..n).collect();
    let mut grads = Grads::zeros(policy);
    let mut back = Back::new(policy.hidden);
    let mut dlogits = Vec::new();
    let Scratch { pass, logp, .. } = scratch;
    for _ in 0..epochs {
        rng.shuffle(&mut order);
        let per = n.div_ceil(minibatches.max(1)).max(1);
        for mb in order.chunks(per) {
            let m = mb.len() as f32;
            objective.start(&batch.steps, mb);
            for g in grads.parts() {
                g.fill(0.0);
            }
            for s in mb.iter().filter_map(|&k| batch.steps.get(k)) {
                let (x, ids) = batch.of(s.at());
                forward(policy, binding, x, ids, pass);
                log_softmax(&pass.logits, logp);
                let dvalue = objective.derivatives(s, logp, pass.value, m, &mut dlogits);
                backward(policy, binding, x, ids, pass, &dlogits, dvalue, &mut grads, &mut back);
            }
            clip_norm(&mut grads, 0.5);
            adam.step(policy, &mut grads, lr);
        }
    }
}
