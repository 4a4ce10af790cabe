//! The network's maths in training: the forward pass of one decision (scaled inputs,
//! the legal actions' logits through their tokens, the value), its backward pass by hand
//! (a two-layer network needs no autodiff framework), gradient clipping and Adam.

use crate::learned::bot::Binding;
use crate::learned::policy::{Policy, activation, activation_slope};

/// Activations of one forward pass.
pub(super) struct Pass {
    pub(super) z1: Vec<f32>,
    pub(super) h1: Vec<f32>,
    pub(super) z2: Vec<f32>,
    pub(super) h2: Vec<f32>,
    pub(super) logits: Vec<f32>,
    pub(super) value: f32,
}

impl Pass {
    pub(super) fn new(h: usize) -> Self {
        Pass { z1: vec![0.0; h], h1: vec![0.0; h], z2: vec![0.0; h], h2: vec![0.0; h], logits: Vec::new(), value: 0.0 }
    }
}

/// Eight lanes as the bot's `dot`, but the leftover products summed on their own before
/// being added: the shipped policies were trained with this order, and the two agree only
/// when the hidden width is a multiple of 8, so one shared `dot` would change what a recipe
/// with another `--hidden` trains.
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
pub(super) fn forward<A>(p: &Policy, b: &Binding<A>, inputs: &[(u32, f32)], legal: &[u32], pass: &mut Pass) {
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
pub(super) fn log_softmax(logits: &[f32], out: &mut Vec<f32>) {
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|&z| (z - top).exp()).sum();
    let log_sum = sum.ln() + top;
    out.clear();
    out.extend(logits.iter().map(|&z| z - log_sum));
}

/// The policy's gradients (same shapes as its tensors).
pub(super) struct Grads {
    pub(super) w1: Vec<f32>,
    pub(super) b1: Vec<f32>,
    pub(super) w2: Vec<f32>,
    pub(super) b2: Vec<f32>,
    pub(super) wt: Vec<f32>,
    pub(super) bt: Vec<f32>,
    pub(super) wv: Vec<f32>,
    pub(super) bv: Vec<f32>,
}

impl Grads {
    pub(super) fn zeros(p: &Policy) -> Self {
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
    pub(super) fn parts(&mut self) -> [&mut Vec<f32>; 8] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2, &mut self.wt, &mut self.bt, &mut self.wv, &mut self.bv]
    }
}

/// Buffers of one backward pass.
pub(super) struct Back {
    pub(super) dh2: Vec<f32>,
    pub(super) dz2: Vec<f32>,
    pub(super) dh1: Vec<f32>,
}

impl Back {
    pub(super) fn new(h: usize) -> Self {
        Back { dh2: vec![0.0; h], dz2: vec![0.0; h], dh1: vec![0.0; h] }
    }
}

/// Adds to `grads` the gradients of one decision's loss, given the loss's derivatives by
/// its legal actions' logits (`dlogits`, in the order of `ids`) and by its value.
#[allow(clippy::too_many_arguments)]
pub(super) fn backward<A>(
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
pub(super) fn clip_norm(grads: &mut Grads, max: f32) {
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
pub(super) struct Adam {
    t: i32,
    m: Grads,
    v: Grads,
}

impl Adam {
    pub(super) fn new(p: &Policy) -> Self {
        Adam { t: 0, m: Grads::zeros(p), v: Grads::zeros(p) }
    }

    pub(super) fn step(&mut self, p: &mut Policy, g: &mut Grads, lr: f32) {
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
