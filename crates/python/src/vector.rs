//! `VectorEnv`: N games stepped per call, in Rust, into flat buffers that Python wraps
//! with `numpy.frombuffer` (no numpy crate: the buffers are `bytes`).
//!
//! Env `k` plays games `k`, `k + N`, `k + 2N`, … of the run seeded `seed` (game seeds
//! `game_seed(seed, k + j·N)`), so with one env the games are those of
//! `rulesmith simulate --seed`. A finished game restarts in the same step (Gymnasium's
//! "same_step" autoreset): the row then shows the next game, and the finished one's reward
//! and final observation are in their own buffers.

use super::{SimulationError, load, share};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rulesmith::core::bots::BotSpec;
use rulesmith::core::erased::AnySession;
use rulesmith::core::rng::{Rng, game_seed};
use rulesmith::core::{Seat, ToMove};
use std::sync::Mutex;

/// Most envs in one `VectorEnv` (each holds a game: bound what an argument allocates).
const MAX_ENVS: usize = 1 << 16;
/// Most bytes of output buffers one `VectorEnv` holds (the expansion's mask alone is
/// about 159 kB a game).
const MAX_BUFFER_BYTES: usize = 1 << 30;
/// Most threads one `VectorEnv` steps with.
const MAX_THREADS: usize = 256;
/// Most fresh games one reset may find already over before a decision (a ruleset whose
/// bots end every game at once would otherwise loop).
const MAX_EMPTY_GAMES: u32 = 16;

type Session = Box<dyn AnySession + Send>;

/// One env: its game and where it is in its run.
struct Slot {
    session: Session,
    /// Which game of this env (0, 1, …): its seed is `game_seed(seed, k + episode·N)`.
    episode: u64,
    /// The legal ids of the row's decision, checked against the next action.
    ids: Vec<u32>,
    /// Decisions played in this game, for the bots' seeds (as `rulesmith.gym` seeds them).
    decision: u64,
}

/// What every env shares.
struct Table {
    ruleset: &'static rulesmith::Ruleset,
    players: usize,
    num_envs: u64,
    seed: u64,
    obs_len: usize,
    action_count: usize,
    /// The learner's seat and every seat's bot (the learner's unused), or none: every seat
    /// is played by the caller.
    learner: Option<(Seat, Vec<BotSpec>)>,
    space: std::sync::Arc<dyn std::any::Any + Send + Sync>,
}

/// One env's rows of the output buffers.
struct Rows<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [u8],
    to_move: &'a mut [i64],
    reward: &'a mut [f32],
    terminated: &'a mut [u8],
    final_obs: &'a mut [f32],
}

impl<'a> Rows<'a> {
    /// The rows of the first `n` envs and those of the rest.
    fn split(self, n: usize, t: &Table) -> (Rows<'a>, Rows<'a>) {
        let (o1, o2) = self.obs.split_at_mut(n * t.obs_len);
        let (m1, m2) = self.mask.split_at_mut(n * t.action_count);
        let (s1, s2) = self.to_move.split_at_mut(n);
        let (r1, r2) = self.reward.split_at_mut(n * t.players);
        let (d1, d2) = self.terminated.split_at_mut(n);
        let (f1, f2) = self.final_obs.split_at_mut(n * t.obs_len);
        (
            Rows { obs: o1, mask: m1, to_move: s1, reward: r1, terminated: d1, final_obs: f1 },
            Rows { obs: o2, mask: m2, to_move: s2, reward: r2, terminated: d2, final_obs: f2 },
        )
    }
}

#[derive(Default)]
struct Buffers {
    obs: Vec<f32>,
    mask: Vec<u8>,
    to_move: Vec<i64>,
    reward: Vec<f32>,
    terminated: Vec<u8>,
    final_obs: Vec<f32>,
}

impl Buffers {
    fn rows(&mut self) -> Rows<'_> {
        Rows {
            obs: &mut self.obs,
            mask: &mut self.mask,
            to_move: &mut self.to_move,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            final_obs: &mut self.final_obs,
        }
    }
}

impl Table {
    fn game_seed(&self, k: u64, episode: u64) -> u64 {
        game_seed(self.seed, k.wrapping_add(episode.wrapping_mul(self.num_envs)))
    }

    fn start(&self, k: u64, episode: u64) -> Result<Slot, String> {
        let mut session: Session =
            self.ruleset.game.start(self.players, self.game_seed(k, episode)).map_err(|e| e.to_string())?;
        session.adopt_action_space(self.space.clone());
        let mut slot = Slot { session, episode, ids: Vec::new(), decision: 0 };
        self.play_bots(&mut slot, k)?;
        Ok(slot)
    }

    /// Lets the bots play up to the learner's decision (learner mode only).
    fn play_bots(&self, slot: &mut Slot, k: u64) -> Result<(), String> {
        let Some((seat, bots)) = &self.learner else { return Ok(()) };
        let gseed = self.game_seed(k, slot.episode);
        while let ToMove::Seat(s) = slot.session.to_move() {
            if s == *seat {
                break;
            }
            let spec = bots.get(usize::from(s)).cloned().unwrap_or(BotSpec::Random);
            let mut rng = Rng::from_seed(game_seed(gseed, slot.decision));
            let Some(action) = slot.session.bot_choice(spec, &mut rng) else { break };
            slot.session.play(&action).map_err(|e| e.to_string())?;
            slot.decision += 1;
        }
        Ok(())
    }

    /// Plays `action` (already checked legal) in env `k`, restarts a finished game and
    /// writes the env's rows.
    fn step_one(&self, k: u64, slot: &mut Slot, action: Option<u32>, rows: Rows<'_>) -> Result<(), String> {
        rows.reward.fill(0.0);
        if rows.terminated[0] != 0 {
            rows.final_obs.fill(0.0);
            rows.terminated[0] = 0;
        }
        if let Some(id) = action {
            let mover = match slot.session.to_move() {
                ToMove::Seat(s) => s,
                ToMove::Terminal => 0,
            };
            // Nobody reads a batched game's history: not formatting each action's
            // notation saves about a tenth of a step.
            slot.session.play_legal_id_unrecorded(id).map_err(|e| e.to_string())?;
            slot.decision += 1;
            self.play_bots(slot, k)?;
            let mut empty = 0;
            while slot.session.to_move() == ToMove::Terminal {
                // The game the step ended (not one that a restart found over at once).
                if rows.terminated[0] == 0 {
                    if let Some(out) = slot.session.outcome()
                        && !out.unfinished
                    {
                        let winners = out.ranks.iter().filter(|&&r| r == 0).count().max(1);
                        for (r, &rank) in rows.reward.iter_mut().zip(&out.ranks) {
                            if rank == 0 {
                                *r = 1.0 / winners as f32;
                            }
                        }
                    }
                    let seat = self.learner.as_ref().map_or(mover, |(s, _)| *s);
                    slot.session.observation(seat, rows.final_obs);
                    rows.terminated[0] = 1;
                }
                empty += 1;
                if empty > MAX_EMPTY_GAMES {
                    return Err(format!("{MAX_EMPTY_GAMES} games in a row ended before a decision"));
                }
                *slot = self.start(k, slot.episode + 1)?;
            }
        }
        self.write(slot, rows)
    }

    /// Writes the decision of env `slot`: the observation and mask of the seat to move.
    fn write(&self, slot: &mut Slot, rows: Rows<'_>) -> Result<(), String> {
        let seat = match slot.session.to_move() {
            ToMove::Seat(s) => s,
            ToMove::Terminal => return Err("a game is over before its first decision".to_string()),
        };
        rows.to_move[0] = i64::from(seat);
        slot.session.observation(seat, rows.obs);
        slot.session.legal_ids(&mut slot.ids).map_err(|e| e.to_string())?;
        rows.mask.fill(0);
        for &id in &slot.ids {
            if let Some(b) = rows.mask.get_mut(id as usize) {
                *b = 1;
            }
        }
        Ok(())
    }

    /// Steps envs `first..first + slots.len()` in this thread.
    fn step_range(&self, first: u64, slots: &mut [Slot], actions: &[u32], mut rows: Rows<'_>) -> Result<(), String> {
        for (i, slot) in slots.iter_mut().enumerate() {
            let (one, rest) = rows.split(1, self);
            rows = rest;
            self.step_one(first + i as u64, slot, actions.get(i).copied(), one)
                .map_err(|e| format!("env {}: {e}", first + i as u64))?;
        }
        Ok(())
    }

    /// Steps every env, in chunks of consecutive envs on `pool`'s threads (none: on this
    /// one): each env's game depends on its own seed and actions only, so the results are
    /// the same for any thread count.
    fn step_all(
        &self,
        slots: &mut [Slot],
        actions: &[u32],
        pool: Option<&rayon::ThreadPool>,
        rows: Rows<'_>,
    ) -> Result<(), String> {
        let Some(pool) = pool else { return self.step_range(0, slots, actions, rows) };
        // A few chunks per thread, so that a thread slowed by other work does not hold up
        // the step; the pool's threads live as long as the env (spawning per step costs more
        // than a small step).
        let chunk = slots.len().div_ceil(pool.current_num_threads() * 4).max(1);
        let mut tasks = Vec::new();
        let (mut rows, mut rest_slots, mut first) = (rows, slots, 0);
        while !rest_slots.is_empty() {
            let take = chunk.min(rest_slots.len());
            let (mine, later) = rest_slots.split_at_mut(take);
            rest_slots = later;
            let (one, rest) = rows.split(take, self);
            rows = rest;
            let acts = actions.get(first..(first + take).min(actions.len())).unwrap_or(&[]);
            tasks.push((first as u64, mine, acts, one));
            first += take;
        }
        pool.install(|| {
            use rayon::prelude::*;
            tasks.into_par_iter().try_for_each(|(at, mine, acts, one)| self.step_range(at, mine, acts, one))
        })
    }
}

/// N games of one ruleset stepped together (see the module docs of `rulesmith.vector`).
#[pyclass(module = "rulesmith._rulesmith")]
pub(crate) struct VectorEnv {
    table: Table,
    threads: usize,
    /// The threads of a step, when more than one.
    pool: Option<rayon::ThreadPool>,
    /// A reset has been made: one without a seed moves every env to its next game.
    started: bool,
    /// Behind a lock so that the class is `Sync`; one call steps at a time.
    state: Mutex<(Vec<Slot>, Buffers)>,
}

fn f32_bytes<'py>(py: Python<'py>, v: &[f32]) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, v.len() * 4, |buf| {
        for (c, x) in buf.chunks_exact_mut(4).zip(v) {
            c.copy_from_slice(&x.to_le_bytes());
        }
        Ok(())
    })
}

/// `(obs, mask, to_move, reward, terminated, final_obs)`; `final_obs` is `None` when no
/// game ended in the step (it would be all zeros: not worth a copy each step).
type Batch<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyBytes>>,
);

impl VectorEnv {
    fn batch<'py>(py: Python<'py>, b: &Buffers) -> PyResult<Batch<'py>> {
        let to_move = PyBytes::new_with(py, b.to_move.len() * 8, |buf| {
            for (c, x) in buf.chunks_exact_mut(8).zip(&b.to_move) {
                c.copy_from_slice(&x.to_le_bytes());
            }
            Ok(())
        })?;
        Ok((
            f32_bytes(py, &b.obs)?,
            PyBytes::new(py, &b.mask),
            to_move,
            f32_bytes(py, &b.reward)?,
            PyBytes::new(py, &b.terminated),
            if b.terminated.contains(&1) { Some(f32_bytes(py, &b.final_obs)?) } else { None },
        ))
    }
}

#[pymethods]
impl VectorEnv {
    /// `num_envs` games of `ruleset` (a bundled name or a TOML path) at `players` seats.
    /// With `seat` given, that seat is the learner's and `opponents` (one bot name per seat,
    /// the learner's ignored) play the others; without, the caller plays every seat.
    #[new]
    #[pyo3(signature = (ruleset, players, num_envs, seed, num_threads=None, seat=None, opponents=None))]
    fn new(
        ruleset: &str,
        players: usize,
        num_envs: usize,
        seed: u64,
        num_threads: Option<usize>,
        seat: Option<usize>,
        opponents: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let r = load(ruleset)?;
        let range = r.game.players();
        if !range.contains(&players) {
            return Err(PyValueError::new_err(format!(
                "{players} players is not supported by `{}` (it allows {}–{})",
                r.name(),
                range.start(),
                range.end()
            )));
        }
        if !(1..=MAX_ENVS).contains(&num_envs) {
            return Err(PyValueError::new_err(format!("num_envs={num_envs}: expected 1 to {MAX_ENVS}")));
        }
        let threads = num_threads.unwrap_or(1);
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(PyValueError::new_err(format!("num_threads={threads}: expected 1 to {MAX_THREADS}")));
        }
        let learner = match seat {
            None => None,
            Some(s) if s >= players => {
                return Err(PyValueError::new_err(format!("seat {s} is not at a {players}-player table")));
            }
            Some(s) => {
                let names = opponents.unwrap_or_else(|| vec!["random".to_string(); players]);
                if names.len() != players {
                    return Err(PyValueError::new_err(format!(
                        "{} opponents for {players} seats (give one per seat)",
                        names.len()
                    )));
                }
                let mut specs = Vec::new();
                for (i, name) in names.iter().enumerate() {
                    if i == s {
                        specs.push(BotSpec::Random);
                        continue;
                    }
                    let spec: BotSpec =
                        name.parse().map_err(|e| PyValueError::new_err(format!("opponent `{name}`: {e}")))?;
                    if spec.is_external() {
                        return Err(PyValueError::new_err(format!(
                            "opponent `{name}`: a bot program (`exec:`) cannot play here; choose random, greedy or mcts:N"
                        )));
                    }
                    specs.push(spec);
                }
                Some((s as Seat, specs))
            }
        };
        let mut probe = r.game.start(players, seed).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let (action_count, obs_len) = share(r, players, &mut *probe)?;
        let space = probe.action_space_handle().map_err(|e| SimulationError::new_err(e.to_string()))?;
        let row = 8 * obs_len + action_count + 8 + 4 * players + 1;
        if num_envs.saturating_mul(row) > MAX_BUFFER_BYTES {
            return Err(PyValueError::new_err(format!(
                "num_envs={num_envs}: its batches would take {} MB ({row} bytes a game: {obs_len} numbers \
                 of observation twice, {action_count} of mask); at most {} MB, {} games of this table",
                num_envs.saturating_mul(row) >> 20,
                MAX_BUFFER_BYTES >> 20,
                MAX_BUFFER_BYTES / row
            )));
        }
        let table =
            Table { ruleset: r, players, num_envs: num_envs as u64, seed, obs_len, action_count, learner, space };
        let mut slots = Vec::with_capacity(num_envs);
        for k in 0..num_envs as u64 {
            slots.push(table.start(k, 0).map_err(|e| SimulationError::new_err(format!("env {k}: {e}")))?);
        }
        let buffers = Buffers {
            obs: vec![0.0; num_envs * obs_len],
            mask: vec![0; num_envs * action_count],
            to_move: vec![0; num_envs],
            reward: vec![0.0; num_envs * players],
            terminated: vec![0; num_envs],
            final_obs: vec![0.0; num_envs * obs_len],
        };
        let threads = threads.min(num_envs);
        let pool = if threads > 1 {
            let built = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
            Some(built.map_err(|e| SimulationError::new_err(format!("cannot start {threads} threads: {e}")))?)
        } else {
            None
        };
        Ok(VectorEnv { table, threads, pool, started: false, state: Mutex::new((slots, buffers)) })
    }

    /// How many games are stepped together.
    #[getter]
    fn num_envs(&self) -> u64 {
        self.table.num_envs
    }
    /// The player count.
    #[getter]
    fn players(&self) -> usize {
        self.table.players
    }
    /// The run seed: env `k`'s `j`-th game has seed `game_seed(seed, k + j·num_envs)`.
    #[getter]
    fn seed(&self) -> u64 {
        self.table.seed
    }
    /// How many threads a step uses.
    #[getter]
    fn num_threads(&self) -> usize {
        self.threads
    }
    /// How many action ids there are (the mask's width).
    #[getter]
    fn action_count(&self) -> usize {
        self.table.action_count
    }
    /// How many numbers an observation has.
    #[getter]
    fn observation_len(&self) -> usize {
        self.table.obs_len
    }

    /// `seed` given: restarts every env at its first game of the run seeded `seed`; none:
    /// every env starts its next game of the run (as a reset without a seed does in the
    /// single environments); the first reset without a seed keeps each at its first game. Returns the batch `(obs, mask, to_move, reward,
    /// terminated, final_obs)` as little-endian `bytes` (float32, uint8, int64, float32,
    /// uint8, float32).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Batch<'py>> {
        if let Some(s) = seed {
            self.table.seed = s;
        }
        let next = seed.is_none() && self.started;
        let (table, pool) = (&self.table, self.pool.as_ref());
        let mut guard = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (slots, buffers) = &mut *guard;
        py.detach(|| -> Result<(), String> {
            for (k, slot) in slots.iter_mut().enumerate() {
                let episode = if next { slot.episode + 1 } else { 0 };
                *slot = table.start(k as u64, episode).map_err(|e| format!("env {k}: {e}"))?;
            }
            buffers.final_obs.fill(0.0);
            buffers.terminated.fill(0);
            table.step_all(slots, &[], pool, buffers.rows())
        })
        .map_err(SimulationError::new_err)?;
        self.started = true;
        Self::batch(py, buffers)
    }

    /// Plays one action id per env (`bytes` of `num_envs` little-endian uint32): each must be
    /// set in that env's mask, else `ValueError` naming the env and the id (and nothing is
    /// played). Returns the batch as `reset` does.
    fn step<'py>(&mut self, py: Python<'py>, actions: &[u8]) -> PyResult<Batch<'py>> {
        let n = self.table.num_envs as usize;
        if actions.len() != n * 4 {
            return Err(PyValueError::new_err(format!(
                "{} bytes of actions: expected {} (one uint32 per env, {n} envs)",
                actions.len(),
                n * 4
            )));
        }
        let ids: Vec<u32> = actions.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let (table, pool) = (&self.table, self.pool.as_ref());
        let mut guard = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (slots, buffers) = &mut *guard;
        for (k, (slot, &id)) in slots.iter().zip(&ids).enumerate() {
            if !slot.ids.contains(&id) {
                return Err(PyValueError::new_err(format!(
                    "env {k}: action id {id} is not legal now (its mask does not set it; {} ids are legal)",
                    slot.ids.len()
                )));
            }
        }
        py.detach(|| table.step_all(slots, &ids, pool, buffers.rows())).map_err(SimulationError::new_err)?;
        Self::batch(py, buffers)
    }

    /// The seed of the game env `k` plays now.
    fn game_seed(&self, k: u64) -> PyResult<u64> {
        let guard = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let slot = guard
            .0
            .get(k as usize)
            .ok_or_else(|| PyValueError::new_err(format!("env {k}: there are {} envs", self.table.num_envs)))?;
        Ok(self.table.game_seed(k, slot.episode))
    }
}
