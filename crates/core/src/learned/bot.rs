//! The `learned` bot: a [`Policy`] playing a seat from that seat's observation.
//!
//! A policy is bound once to each table it plays (a game's ruleset at a player count):
//! its inputs to the table's seat-relative features by name, its tokens to the table's
//! action ids. A decision then encodes the seat's observation ([`Encode::observation`]:
//! only what the seat may see), runs the two hidden layers (the first over the non-zero
//! features only) and scores the legal actions alone, in buffers kept per thread: nothing
//! is allocated per decision.

use super::policy::{Policy, PolicyError, activation, tokens_of};
use crate::encode::{ActionSpace, Encode, SeatRelative};
use crate::game::{Seat, ToMove};
use crate::rng::Rng;
use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

/// A policy ready to play: the input scales folded into the first layer.
#[derive(Debug)]
pub struct Net {
    pub policy: Policy,
    /// `w1[j] / scale[j]`, row by row.
    w1: Vec<f32>,
}

impl Net {
    pub fn new(policy: Policy) -> Self {
        let h = policy.hidden;
        let mut w1 = policy.w1.clone();
        for (row, &s) in w1.chunks_exact_mut(h.max(1)).zip(&policy.scale) {
            for w in row {
                *w /= s;
            }
        }
        Net { policy, w1 }
    }
}

/// The policies shipped with rulesmith, by game id: `--bots learned` plays the one of the
/// ruleset's game (a house rule of a bundled game included: features and actions are
/// matched by name). Each was trained by the command in its `trained` metadata
/// (docs/learned.md lists them with their strength).
const BUNDLED: &[(&str, &[u8])] = &[
    ("puerto-rico", include_bytes!("../../policies/puerto-rico.safetensors")),
    ("puerto-rico-expansion", include_bytes!("../../policies/puerto-rico-expansion.safetensors")),
    ("santiago-de-cuba", include_bytes!("../../policies/santiago-de-cuba.safetensors")),
    ("mundo-163", include_bytes!("../../policies/mundo-163.safetensors")),
];

/// The bundled policy of `game`, read once per process.
pub fn bundled(game: &str) -> Option<Result<&'static Arc<Net>, PolicyError>> {
    type Read = Vec<(&'static str, Result<Arc<Net>, PolicyError>)>;
    static READ: OnceLock<Read> = OnceLock::new();
    let all = READ.get_or_init(|| {
        BUNDLED.iter().map(|&(g, bytes)| (g, Policy::from_bytes(bytes).map(|p| Arc::new(Net::new(p))))).collect()
    });
    all.iter().find(|(g, _)| *g == game).map(|(_, p)| p.as_ref().map_err(Clone::clone))
}

/// The games with a bundled policy.
pub fn bundled_games() -> Vec<&'static str> {
    BUNDLED.iter().map(|&(g, _)| g).collect()
}

/// A policy bound to one table.
pub(crate) struct Binding<A> {
    pub(crate) obs_len: usize,
    /// For each seat: (the absolute feature's index, the policy input's row), for every
    /// input the table has.
    pub(crate) inputs: Vec<Vec<(u32, u32)>>,
    pub(crate) space: ActionSpace<A>,
    /// Each action id's tokens (rows of the policy's token tables): `tokens[starts[id]..starts[id + 1]]`.
    pub(crate) starts: Vec<u32>,
    pub(crate) tokens: Vec<u32>,
}

pub(crate) fn bind<G: Encode>(net: &Net, game: &G, players: usize) -> Result<Binding<G::Action>, String> {
    let p = &net.policy;
    if p.meta.game != game.game_id() {
        return Err(format!(
            "the policy plays {} (trained on `{}`), not {}",
            p.meta.game,
            p.meta.ruleset,
            game.game_id()
        ));
    }
    let names = game.observation_names(players);
    let relative = SeatRelative::new(&names, players)?;
    let index: HashMap<&str, usize> = relative.names().iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let mut inputs = vec![Vec::new(); players];
    let mut found = 0;
    for (j, name) in p.inputs.iter().enumerate() {
        let Some(&r) = index.get(name.as_str()) else { continue };
        found += 1;
        for (seat, row) in inputs.iter_mut().enumerate() {
            if let Some(a) = relative.source(seat as Seat, r) {
                row.push((a as u32, j as u32));
            }
        }
    }
    // Most of a policy's inputs must be there: one trained on another kind of table
    // would play blind.
    if found * 2 < p.inputs.len() {
        return Err(format!(
            "the policy reads {} observation features and this table ({players} players of `{}`) has only {found} of them",
            p.inputs.len(),
            p.meta.ruleset
        ));
    }
    let space = ActionSpace::new(game, players)?;
    let start = game.new_game(players, 0).map_err(|e| format!("cannot set up a {players}-player game: {e}"))?;
    let token_row: HashMap<&str, u32> = p.tokens.iter().enumerate().map(|(i, t)| (t.as_str(), i as u32)).collect();
    let (mut starts, mut tokens, mut words) = (Vec::with_capacity(space.len() + 1), Vec::new(), Vec::new());
    starts.push(0);
    for &a in space.actions() {
        tokens_of(&game.format_action(&start, a), true, &mut words);
        tokens.extend(words.iter().filter_map(|w| token_row.get(w.as_str()).copied()));
        starts.push(tokens.len() as u32);
    }
    Ok(Binding { obs_len: names.len(), inputs, space, starts, tokens })
}

/// Buffers of one thread's decisions.
#[derive(Default)]
struct Scratch {
    obs: Vec<f32>,
    h1: Vec<f32>,
    h2: Vec<f32>,
    logits: Vec<f32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// `h2` (the second hidden layer) of `seat`'s observation `obs`, through `inputs`.
#[inline]
fn hidden(net: &Net, inputs: &[(u32, u32)], obs: &[f32], h1: &mut [f32], h2: &mut [f32]) {
    let p = &net.policy;
    let h = p.hidden;
    h1.copy_from_slice(&p.b1);
    for &(a, j) in inputs {
        let v = obs.get(a as usize).copied().unwrap_or(0.0);
        if v != 0.0 {
            let j = j as usize;
            let Some(row) = net.w1.get(j * h..(j + 1) * h) else { continue };
            for (x, w) in h1.iter_mut().zip(row) {
                *x += v * w;
            }
        }
    }
    for x in h1.iter_mut() {
        *x = activation(*x);
    }
    h2.copy_from_slice(&p.b2);
    for (&v, row) in h1.iter().zip(p.w2.chunks_exact(h)) {
        for (x, w) in h2.iter_mut().zip(row) {
            *x += v * w;
        }
    }
    for x in h2.iter_mut() {
        *x = activation(*x);
    }
}

#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight lanes, so that the compiler keeps eight sums and vectorises the loop.
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut s: f32 = acc.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

/// The logit of each legal action, into `logits`. An action without an id scores as one
/// without tokens (0).
fn score<A: Copy + Eq + std::hash::Hash>(net: &Net, b: &Binding<A>, h2: &[f32], legal: &[A], logits: &mut Vec<f32>) {
    let p = &net.policy;
    let h = p.hidden;
    logits.clear();
    for a in legal {
        let mut z = 0.0;
        if let Some(id) = b.space.id(a) {
            let id = id as usize;
            let (s, e) = (b.starts[id] as usize, b.starts[id + 1] as usize);
            for &t in &b.tokens[s..e] {
                let t = t as usize;
                z += p.bt[t] + dot(h2, &p.wt[t * h..(t + 1) * h]);
            }
        }
        logits.push(z);
    }
}

/// How the bot picks from its policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// A draw from the policy's distribution (with the bot generator), as it was trained.
    Sample,
    /// The most likely action.
    Best,
}

/// Draws an index from the softmax of `logits` (not empty), or takes the largest.
pub(crate) fn pick_index(logits: &[f32], pick: Pick, rng: &mut Rng) -> usize {
    let (mut best, mut top) = (0, f32::NEG_INFINITY);
    for (i, &z) in logits.iter().enumerate() {
        if z > top {
            top = z;
            best = i;
        }
    }
    if pick == Pick::Best {
        return best;
    }
    let total: f64 = logits.iter().map(|&z| f64::from(z - top).exp()).sum();
    let mut u = rng.unit() * total;
    for (i, &z) in logits.iter().enumerate() {
        u -= f64::from(z - top).exp();
        if u <= 0.0 {
            return i;
        }
    }
    best
}

/// Where a `learned` bot's policy comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// The bundled policy of the table's game.
    Bundled,
    /// A policy file, read when the bot was named.
    File { path: String, net: Arc<Net> },
}

type Key = (TypeId, usize, usize);
type Bound = Result<Arc<dyn Any + Send + Sync>, String>;

/// A `learned` bot as named (`learned`, `learned:FILE`), with its bindings to the tables it
/// has played (shared by every clone of the bot's spec).
#[derive(Debug)]
pub struct Learned {
    pub source: Source,
    pub pick: Pick,
    bound: RwLock<Vec<(Key, Bound)>>,
}

impl Learned {
    /// The bundled policy of whichever game it plays.
    pub fn bundled() -> Self {
        Learned { source: Source::Bundled, pick: Pick::Sample, bound: RwLock::default() }
    }

    /// The policy of a file, read and checked now.
    pub fn file(path: &str) -> Result<Self, PolicyError> {
        let policy = Policy::read(std::path::Path::new(path))?;
        Ok(Learned::with_policy(path, policy))
    }

    /// A policy already in memory, named `path` in reports.
    pub fn with_policy(path: &str, policy: Policy) -> Self {
        Learned {
            source: Source::File { path: path.to_string(), net: Arc::new(Net::new(policy)) },
            pick: Pick::Sample,
            bound: RwLock::default(),
        }
    }

    /// The bot's name: `learned` or `learned:FILE`.
    pub fn name(&self) -> String {
        match &self.source {
            Source::Bundled => "learned".to_string(),
            Source::File { path, .. } => format!("learned:{path}"),
        }
    }

    fn net_for(&self, game_id: &str) -> Result<Arc<Net>, String> {
        match &self.source {
            Source::File { net, .. } => Ok(Arc::clone(net)),
            Source::Bundled => match bundled(game_id) {
                Some(Ok(net)) => Ok(Arc::clone(net)),
                Some(Err(e)) => Err(format!("the bundled policy of {game_id} does not read: {e}")),
                None => {
                    let have = bundled_games();
                    Err(format!(
                        "{game_id} has no bundled policy (policies are bundled for {}); train one with \
                         `rulesmith train RULESET --out FILE` and play it with `learned:FILE`",
                        if have.is_empty() { "no game".to_string() } else { have.join(", ") }
                    ))
                }
            },
        }
    }

    /// The policy bound to this table, bound on first use.
    fn binding<G: Encode>(&self, game: &G, players: usize) -> Result<(Arc<Net>, Arc<dyn Any + Send + Sync>), String> {
        let key = (TypeId::of::<G>(), std::ptr::from_ref(game) as usize, players);
        let net = self.net_for(game.game_id())?;
        let find = |all: &[(Key, Bound)]| all.iter().find(|(k, _)| *k == key).map(|(_, b)| b.clone());
        if let Some(found) = self.bound.read().ok().and_then(|all| find(&all)) {
            return found.map(|b| (net, b));
        }
        let made: Bound = bind(&net, game, players).map(|b| Arc::new(b) as Arc<dyn Any + Send + Sync>);
        if let Ok(mut all) = self.bound.write() {
            if let Some(found) = find(&all) {
                return found.map(|b| (net, b));
            }
            all.push((key, made.clone()));
        }
        made.map(|b| (net, b))
    }

    /// Why this bot could not play a table it was asked to, if it could not (the first
    /// such reason).
    pub fn problem(&self) -> Option<String> {
        let all = self.bound.read().ok()?;
        all.iter().find_map(|(_, b)| b.as_ref().err().cloned())
    }

    /// Whether this bot can play `game` at `players`: the reason when it cannot (no
    /// bundled policy, a policy of another game or table).
    pub fn check<G: Encode>(&self, game: &G, players: usize) -> Result<(), String> {
        self.binding(game, players).map(|_| ())
    }

    /// The action the policy picks for the player to move, from that seat's observation.
    pub fn choose<G: Encode>(
        &self,
        game: &G,
        state: &G::State,
        legal: &[G::Action],
        rng: &mut Rng,
    ) -> Result<G::Action, String> {
        let Some(&first) = legal.first() else { return Err("no legal action to choose".into()) };
        let ToMove::Seat(me) = game.to_move(state) else { return Ok(first) };
        if legal.len() == 1 {
            return Ok(first);
        }
        let players = game.player_count(state);
        let (net, any) = self.binding(game, players)?;
        let b = any.downcast_ref::<Binding<G::Action>>().ok_or("the policy's binding is of another game")?;
        let h = net.policy.hidden;
        let i = SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            let Scratch { obs, h1, h2, logits } = &mut *s;
            obs.resize(b.obs_len, 0.0);
            h1.resize(h, 0.0);
            h2.resize(h, 0.0);
            game.observation(state, me, obs);
            let inputs = b.inputs.get(usize::from(me)).map_or(&[][..], Vec::as_slice);
            hidden(&net, inputs, obs, h1, h2);
            score(&net, b, h2, legal, logits);
            pick_index(logits, self.pick, rng)
        });
        Ok(legal.get(i).copied().unwrap_or(first))
    }
}

impl Clone for Learned {
    fn clone(&self) -> Self {
        Learned { source: self.source.clone(), pick: self.pick, bound: RwLock::default() }
    }
}

impl PartialEq for Learned {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name() && self.pick == other.pick
    }
}

impl Eq for Learned {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_policy_reads() {
        assert_eq!(bundled_games(), ["puerto-rico", "puerto-rico-expansion", "santiago-de-cuba", "mundo-163"]);
        for g in bundled_games() {
            let net = bundled(g).unwrap().unwrap();
            assert_eq!(net.policy.meta.game, g);
        }
        assert!(bundled("take-away").is_none());
    }
}
