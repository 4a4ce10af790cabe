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
use rulesmith::core::Seat;
use rulesmith::core::batch::{Batch, BatchError, BatchOptions, Buffers};
use rulesmith::core::bots::BotSpec;
use std::sync::Mutex;

fn py_err(e: BatchError) -> PyErr {
    match e {
        BatchError::Argument(m) => PyValueError::new_err(m),
        BatchError::Game(m) => SimulationError::new_err(m),
    }
}

/// N games of one ruleset stepped together (see the module docs of `rulesmith.vector`).
#[pyclass(module = "rulesmith._rulesmith")]
pub(crate) struct VectorEnv {
    /// Behind a lock so that the class is `Sync`; one call steps at a time.
    batch: Mutex<Batch<'static>>,
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
type PyBatch<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyBytes>>,
);

impl VectorEnv {
    fn lock(&self) -> std::sync::MutexGuard<'_, Batch<'static>> {
        self.batch.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn batch<'py>(py: Python<'py>, b: &Buffers) -> PyResult<PyBatch<'py>> {
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
        Ok(VectorEnv { batch: Mutex::new(batch) })
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

    /// `seed` given: restarts every env at its first game of the run seeded `seed`; none:
    /// every env starts its next game of the run (as a reset without a seed does in the
    /// single environments); the first reset without a seed keeps each at its first game.
    /// Returns the batch `(obs, mask, to_move, reward, terminated, final_obs)` as
    /// little-endian `bytes` (float32, uint8, int64, float32, uint8, float32).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&self, py: Python<'py>, seed: Option<u64>) -> PyResult<PyBatch<'py>> {
        let mut batch = self.lock();
        let b = &mut *batch;
        py.detach(|| b.reset(seed)).map_err(py_err)?;
        Self::batch(py, batch.buffers())
    }

    /// Plays one action id per env (`bytes` of `num_envs` little-endian uint32): each must be
    /// set in that env's mask, else `ValueError` naming the env and the id (and nothing is
    /// played). Returns the batch as `reset` does.
    fn step<'py>(&self, py: Python<'py>, actions: &[u8]) -> PyResult<PyBatch<'py>> {
        let mut batch = self.lock();
        let n = batch.num_envs();
        if actions.len() != n * 4 {
            return Err(PyValueError::new_err(format!(
                "{} bytes of actions: expected {} (one uint32 per env, {n} envs)",
                actions.len(),
                n * 4
            )));
        }
        let ids: Vec<u32> = actions.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let b = &mut *batch;
        py.detach(|| b.step(&ids)).map_err(py_err)?;
        Self::batch(py, batch.buffers())
    }

    /// The seed of the game env `k` plays now.
    fn game_seed(&self, k: u64) -> PyResult<u64> {
        let batch = self.lock();
        batch
            .game_seed(k as usize)
            .ok_or_else(|| PyValueError::new_err(format!("env {k}: there are {} envs", batch.num_envs())))
    }
}
