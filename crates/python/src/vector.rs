//! `VectorEnv`: N games stepped per call, in Rust, into buffers that Python reads as numpy
//! arrays without a copy (no numpy crate, no buffer protocol: the abi3 wheel for Python 3.9
//! lacks it; each buffer's address, shape and type go to numpy's `__array_interface__`).
//!
//! Env `k` plays games `k`, `k + N`, `k + 2N`, … of the run seeded `seed` (game seeds
//! `game_seed(seed, k + j·N)`), so with one env the games are those of
//! `rulesmith simulate --seed`. A finished game restarts in the same step (Gymnasium's
//! "same_step" autoreset): the row then shows the next game, and the finished one's reward
//! and final observation are in their own buffers.

use super::{SimulationError, load, share};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rulesmith::core::Seat;
use rulesmith::core::batch::{Batch, BatchError, BatchOptions};
use rulesmith::core::bots::BotSpec;
use rulesmith::core::rng::{Rng, derive_seed};
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

fn py_err(e: BatchError) -> PyErr {
    match e {
        BatchError::Argument(m) => PyValueError::new_err(m),
        BatchError::Game(m) => SimulationError::new_err(m),
    }
}

/// A policy's own random generator for [`VectorEnv::sample_actions`]: seeded by the user,
/// never a game's generator (its stream is derived one way from the seed under its own
/// domain, so it shares nothing with the games' or the bots' generators).
#[pyclass(module = "rulesmith._rulesmith")]
pub(crate) struct PolicyRng {
    rng: Rng,
}

#[pymethods]
impl PolicyRng {
    #[new]
    fn new(seed: u64) -> Self {
        PolicyRng { rng: Rng::from_seed(derive_seed("rulesmith policy", &[seed])) }
    }
}

/// N games of one ruleset stepped together (see the module docs of `rulesmith.vector`).
#[pyclass(module = "rulesmith._rulesmith")]
pub(crate) struct VectorEnv {
    /// Behind a lock so that the class is `Sync`; one call steps at a time. Its buffers
    /// never move (allocated once by `Batch::new`): numpy's arrays view them.
    batch: Mutex<Batch<'static>>,
    /// The next step's action ids, one per env, written by numpy through its address
    /// (atomics: memory another writer changes between calls).
    actions: Box<[AtomicI64]>,
    /// The ids as the batch takes them (kept: no allocation a step).
    ids: Mutex<Vec<u32>>,
}

/// One buffer as numpy's `__array_interface__` describes it: name, address, shape, type
/// string, read-only.
type View = (&'static str, usize, Vec<usize>, &'static str, bool);

impl VectorEnv {
    fn lock(&self) -> std::sync::MutexGuard<'_, Batch<'static>> {
        self.batch.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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
            // Checked here too: the core's message names the game, the caller named a ruleset.
            return Err(PyValueError::new_err(format!(
                "{players} players is not supported by `{}` (it allows {}–{})",
                r.name(),
                range.start(),
                range.end()
            )));
        }
        let learner = match seat {
            None => None,
            Some(s) if s >= players => {
                return Err(PyValueError::new_err(format!("seat {s} is not at a {players}-player table")));
            }
            Some(s) => {
                let names = opponents.unwrap_or_else(|| vec!["random".to_string(); players]);
                let mut specs = Vec::new();
                for (i, name) in names.iter().enumerate() {
                    if i == s {
                        specs.push(BotSpec::Random);
                        continue;
                    }
                    let spec: BotSpec =
                        name.parse().map_err(|e| PyValueError::new_err(format!("opponent `{name}`: {e}")))?;
                    specs.push(spec);
                }
                Some((s as Seat, specs))
            }
        };
        // Games of one table share its action space (built once per process).
        let space = match r.game.start(players, seed) {
            Ok(mut probe) => {
                share(r, players, &mut *probe)?;
                probe.action_space_handle().ok()
            }
            Err(_) => None,
        };
        let opts = BatchOptions { players, num_envs, seed, threads: num_threads.unwrap_or(1), learner };
        let batch = Batch::new(&*r.game, opts, space).map_err(py_err)?;
        let actions = (0..num_envs).map(|_| AtomicI64::new(0)).collect();
        Ok(VectorEnv { batch: Mutex::new(batch), actions, ids: Mutex::new(Vec::with_capacity(num_envs)) })
    }

    /// How many games are stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.lock().num_envs()
    }
    /// The player count.
    #[getter]
    fn players(&self) -> usize {
        self.lock().players()
    }
    /// The run seed: env `k`'s `j`-th game has seed `game_seed(seed, k + j·num_envs)`.
    #[getter]
    fn seed(&self) -> u64 {
        self.lock().seed()
    }
    /// How many threads a step uses.
    #[getter]
    fn num_threads(&self) -> usize {
        self.lock().threads()
    }
    /// How many action ids there are (the mask's width).
    #[getter]
    fn action_count(&self) -> usize {
        self.lock().action_count()
    }
    /// How many numbers an observation has.
    #[getter]
    fn observation_len(&self) -> usize {
        self.lock().observation_len()
    }

    /// The buffers as numpy views them: `obs`, `mask`, `to_move`, `reward`, `terminated`,
    /// `final_obs` (read-only: each reset and step overwrites them; little-endian float32,
    /// uint8, int64, float32, uint8 (0 or 1), float32) and `actions` (int64, written by the
    /// caller before each `step`). Their addresses hold as long as this object lives.
    fn views(&self) -> Vec<View> {
        let batch = self.lock();
        let (n, b) = (batch.num_envs(), batch.buffers());
        let (obs, players) = (batch.observation_len(), batch.players());
        vec![
            ("obs", b.obs.as_ptr() as usize, vec![n, obs], "<f4", true),
            ("mask", b.mask.as_ptr() as usize, vec![n, batch.action_count()], "|u1", true),
            ("to_move", b.to_move.as_ptr() as usize, vec![n], "<i8", true),
            ("reward", b.reward.as_ptr() as usize, vec![n, players], "<f4", true),
            ("terminated", b.terminated.as_ptr() as usize, vec![n], "|b1", true),
            ("final_obs", b.final_obs.as_ptr() as usize, vec![n, obs], "<f4", true),
            ("actions", self.actions.as_ptr() as usize, vec![n], "<i8", false),
        ]
    }

    /// `seed` given: restarts every env at its first game of the run seeded `seed`; none:
    /// every env starts its next game of the run (as a reset without a seed does in the
    /// single environments); the first reset without a seed keeps each at its first game.
    /// Writes the buffers (see `views`).
    #[pyo3(signature = (seed=None))]
    fn reset(&self, py: Python<'_>, seed: Option<u64>) -> PyResult<()> {
        let mut batch = self.lock();
        let b = &mut *batch;
        py.detach(|| b.reset(seed)).map_err(py_err)
    }

    /// Plays the action ids in the `actions` buffer, one per env: each must be set in that
    /// env's mask, else `ValueError` naming the env and the id (and nothing is played).
    /// Writes the buffers (see `views`).
    fn step(&self, py: Python<'_>) -> PyResult<()> {
        let mut batch = self.lock();
        let mut ids = self.ids.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        ids.clear();
        let count = batch.action_count();
        for (k, a) in self.actions.iter().enumerate() {
            let id = a.load(Ordering::Relaxed);
            match u32::try_from(id) {
                Ok(id) if (id as usize) < count => ids.push(id),
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "env {k}: action id {id} is not an action id (0 to {})",
                        count.saturating_sub(1)
                    )));
                }
            }
        }
        let b = &mut *batch;
        py.detach(|| b.step(&ids)).map_err(py_err)
    }

    /// Draws one uniformly random legal id per env (one of the ids set in its mask row) from
    /// `rng` into the `actions` buffer: a random policy without a numpy call (it reads the
    /// rows' legal ids, what the masks show, and nothing else of the games).
    fn sample_actions(&self, mut rng: PyRefMut<'_, PolicyRng>) -> PyResult<()> {
        let batch = self.lock();
        let rng = &mut rng.rng;
        for (k, a) in self.actions.iter().enumerate() {
            let ids = batch.legal_ids(k).unwrap_or(&[]);
            let Some(&id) = ids.get(rng.index(ids.len())) else {
                return Err(PyValueError::new_err(format!("env {k}: no decision to sample (call reset first)")));
            };
            a.store(i64::from(id), Ordering::Relaxed);
        }
        Ok(())
    }

    /// The seed of the game env `k` plays now.
    fn game_seed(&self, k: u64) -> PyResult<u64> {
        let batch = self.lock();
        batch
            .game_seed(k as usize)
            .ok_or_else(|| PyValueError::new_err(format!("env {k}: there are {} envs", batch.num_envs())))
    }
}
