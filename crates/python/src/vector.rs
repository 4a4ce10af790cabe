//! `VectorEnv`: N games stepped per call, in Rust, into buffers that Python reads as numpy
//! arrays without a copy (no numpy crate, no buffer protocol: the abi3 wheel for Python 3.9
//! lacks it; each buffer's address, shape and type go to numpy's `__array_interface__`).
//!
//! Env `k` plays games `k`, `k + N`, `k + 2N`, … of the run seeded `seed` (game seeds
//! `game_seed(seed, k + j·N)`), so with one env the games are those of
//! `rulesmith simulate --seed`. A finished game restarts in the same step (Gymnasium's
//! "same_step" autoreset): the row then shows the next game, and the finished one's reward
//! and final observation are in their own buffers.

use crate::errors::SimulationError;
use crate::version::{Version, load, players_arg, share};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rulesmith::core::batch::{Batch, BatchError, BatchOptions, Reward};
use rulesmith::core::bots::{BadBotSpec, BotSpec};
use rulesmith::core::rng::{Rng, derive_seed};
use self_cell::self_cell;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

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

/// What the calls on a `VectorEnv` change, behind its lock.
struct Inner<'v> {
    /// Its buffers never move (allocated once by `Batch::new`): numpy's arrays view them.
    batch: Batch<'v>,
    /// The ids as the batch takes them, `None` for an env left at its decision (kept: no
    /// allocation a step).
    ids: Vec<Option<u32>>,
    /// `reset` has been called: every row holds a decision.
    started: bool,
    /// `close` has been called.
    closed: bool,
}

impl Inner<'_> {
    /// Refuses a call on a closed env.
    fn open(&self, call: &str) -> PyResult<()> {
        if self.closed {
            return Err(PyRuntimeError::new_err(format!(
                "{call}: this VectorEnv is closed (close() was called); make a new one to play on"
            )));
        }
        Ok(())
    }

    /// Refuses a call that needs the rows' decisions before the first `reset`.
    fn started(&self, call: &str) -> PyResult<()> {
        self.open(call)?;
        if !self.started {
            return Err(PyRuntimeError::new_err(format!(
                "{call}: reset() was not called: call reset() first, which starts every env's game"
            )));
        }
        Ok(())
    }
}

self_cell!(
    /// A batch together with the ruleset version its games borrow, which lives as long as it.
    struct OwnedBatch {
        owner: Arc<Version>,
        #[not_covariant]
        dependent: Inner,
    }
);

/// N games of one ruleset stepped together (see the module docs of `rulesmith.vector`).
#[pyclass(frozen, module = "rulesmith._rulesmith")]
pub(crate) struct VectorEnv {
    /// Behind a lock so that the class is `Sync`; one call at a time. Taken only with the
    /// GIL released (see [`VectorEnv::with`]).
    inner: Mutex<OwnedBatch>,
    /// The next step's action ids, one per env, written by numpy through its address
    /// (atomics: memory another writer changes between calls).
    actions: Box<[AtomicI64]>,
    num_envs: usize,
    players: usize,
    threads: usize,
    action_count: usize,
    observation_len: usize,
}

/// One buffer as numpy's `__array_interface__` describes it: name, address, shape, type
/// string, read-only.
type View = (&'static str, usize, Vec<usize>, &'static str, bool);

impl VectorEnv {
    /// Runs `f` on the batch under its lock, the GIL released from before taking the lock
    /// to the end: a thread that waited for the lock holding the GIL would deadlock with
    /// one that holds the lock and waits for the GIL (two Python threads stepping one env).
    fn with<R: Send>(
        &self,
        py: Python<'_>,
        f: impl for<'v> FnOnce(&mut Inner<'v>) -> PyResult<R> + Send,
    ) -> PyResult<R> {
        py.detach(|| {
            let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
            inner.with_dependent_mut(|_, i| f(i))
        })
    }
}

impl VectorEnv {
    /// The buffers' views (see `views`); `actions` is the address of the action buffer.
    fn buffers(batch: &Batch<'_>, actions: usize) -> Vec<View> {
        let (n, b) = (batch.num_envs(), batch.buffers());
        let (obs, players) = (batch.observation_len(), batch.players());
        vec![
            ("obs", b.obs.as_ptr() as usize, vec![n, obs], "<f4", true),
            // Bytes of 0 or 1: numpy's bool.
            ("mask", b.mask.as_ptr() as usize, vec![n, batch.action_count()], "|b1", true),
            ("to_move", b.to_move.as_ptr() as usize, vec![n], "<i8", true),
            ("reward", b.reward.as_ptr() as usize, vec![n, players], "<f4", true),
            ("terminated", b.terminated.as_ptr() as usize, vec![n], "|b1", true),
            ("truncated", b.truncated.as_ptr() as usize, vec![n], "|b1", true),
            ("final_obs", b.final_obs.as_ptr() as usize, vec![n, obs], "<f4", true),
            ("scores", b.scores.as_ptr() as usize, vec![n, players], "<f4", true),
            ("ranks", b.ranks.as_ptr() as usize, vec![n, players], "<i8", true),
            ("actions", actions, vec![n], "<i8", false),
        ]
    }
}

#[pymethods]
impl VectorEnv {
    /// `num_envs` games of `ruleset` (a bundled name or a TOML path) at `players` seats.
    /// `bots`: one entry per seat, a bot name (it plays that seat within each step) or
    /// `None` (a seat the caller plays); none given: the caller plays every seat.
    /// `seat_relative`: observations with the seat to move's features first;
    /// `reward`: `win_share`, `rank` or `score_margin`.
    #[new]
    #[pyo3(signature = (ruleset, players, num_envs, seed, num_threads=None, bots=None, seat_relative=false, reward="win_share"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        ruleset: &str,
        players: i64,
        num_envs: usize,
        seed: u64,
        num_threads: Option<usize>,
        bots: Option<Vec<Option<String>>>,
        seat_relative: bool,
        reward: &str,
    ) -> PyResult<Self> {
        let r = load(ruleset)?;
        // Checked here too: the core's message names the game, the caller named a ruleset.
        let players = players_arg(&r, players, "VectorEnv")?;
        let Some(reward) = Reward::from_name(reward) else {
            return Err(PyValueError::new_err(format!(
                "reward={reward:?}: expected one of {}",
                Reward::NAMES.map(|n| format!("{n:?}")).join(", ")
            )));
        };
        let mut specs = Vec::new();
        for (i, name) in bots.unwrap_or_default().iter().enumerate() {
            let spec = match name {
                None => None,
                Some(name) => Some(
                    name.parse::<BotSpec>()
                        .map_err(|e: BadBotSpec| PyValueError::new_err(format!("opponents: seat {i}: {e}")))?,
                ),
            };
            specs.push(spec);
        }
        // Games of one table share its action space (built once per ruleset version).
        let space = match r.game.start(players, seed) {
            Ok(mut probe) => {
                share(&r, players, &mut *probe)?;
                probe.encodings().ok().and_then(|e| e.action_space_handle().ok())
            }
            Err(_) => None,
        };
        let opts = BatchOptions {
            players,
            num_envs,
            seed,
            threads: num_threads.unwrap_or(1),
            bots: specs,
            seat_relative,
            reward,
        };
        let owned = OwnedBatch::try_new(r, |r| {
            let batch = Batch::new(&*r.game, opts, space)?;
            Ok::<_, BatchError>(Inner { batch, ids: Vec::with_capacity(num_envs), started: false, closed: false })
        })
        .map_err(py_err)?;
        let sizes = owned.with_dependent(|_, i| {
            let b = &i.batch;
            (b.num_envs(), b.players(), b.threads(), b.action_count(), b.observation_len())
        });
        let (num_envs, players, threads, action_count, observation_len) = sizes;
        let actions = (0..num_envs).map(|_| AtomicI64::new(0)).collect();
        Ok(VectorEnv { inner: Mutex::new(owned), actions, num_envs, players, threads, action_count, observation_len })
    }

    /// How many games are stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }
    /// The player count.
    #[getter]
    fn players(&self) -> usize {
        self.players
    }
    /// The run seed: env `k`'s `j`-th game has seed `game_seed(seed, k + j·num_envs)`.
    #[getter]
    fn seed(&self, py: Python<'_>) -> PyResult<u64> {
        self.with(py, |i| Ok(i.batch.seed()))
    }
    /// How many threads a step uses.
    #[getter]
    fn num_threads(&self) -> usize {
        self.threads
    }
    /// How many action ids there are (the mask's width).
    #[getter]
    fn action_count(&self) -> usize {
        self.action_count
    }
    /// How many numbers an observation has.
    #[getter]
    fn observation_len(&self) -> usize {
        self.observation_len
    }
    /// The seat-relative features' names (`me.…`, `seat+1.…`), or `None` when the
    /// observations are absolute.
    fn seat_relative_names(&self, py: Python<'_>) -> PyResult<Option<Vec<String>>> {
        self.with(py, |i| Ok(i.batch.seat_relative().map(|r| r.names().to_vec())))
    }
    /// The legal ids of env `k`'s decision, in the game's order (those set in its mask
    /// row): cheaper than scanning a wide mask.
    fn legal_ids(&self, py: Python<'_>, k: usize) -> PyResult<Vec<u32>> {
        self.with(py, |i| {
            i.started("legal_ids()")?;
            let n = i.batch.num_envs();
            i.batch.legal_ids(k).map(<[u32]>::to_vec).ok_or_else(|| {
                PyValueError::new_err(format!("legal_ids: env {k} is not an env of this batch (envs 0 to {})", n - 1))
            })
        })
    }

    /// The buffers as numpy views them: `obs`, `mask`, `to_move`, `reward`, `terminated`,
    /// `truncated`, `final_obs`, `scores`, `ranks` (read-only: each reset and step
    /// overwrites them; little-endian float32, bool, int64, float32, bool, bool, float32,
    /// float32, int64) and `actions` (int64, written by the caller before each `step`).
    /// Their addresses hold as long as this object lives.
    fn views(&self, py: Python<'_>) -> PyResult<Vec<View>> {
        let actions = self.actions.as_ptr() as usize;
        self.with(py, |i| Ok(Self::buffers(&i.batch, actions)))
    }

    /// `seed` given: restarts every env at its first game of the run seeded `seed`; none:
    /// every env starts its next game of the run (as a reset without a seed does in the
    /// single environments); the first reset without a seed keeps each at its first game.
    /// Writes the buffers (see `views`).
    #[pyo3(signature = (seed=None))]
    fn reset(&self, py: Python<'_>, seed: Option<u64>) -> PyResult<()> {
        self.with(py, |i| {
            i.open("reset()")?;
            i.batch.reset(seed).map_err(py_err)?;
            i.started = true;
            Ok(())
        })
    }

    /// Plays the action ids in the `actions` buffer, one per env: each must be set in that
    /// env's mask, else `ValueError` naming the env and the id (and nothing is played);
    /// -1 leaves that env at its decision (its rows as they were, no reward).
    /// Writes the buffers (see `views`).
    fn step(&self, py: Python<'_>) -> PyResult<()> {
        let actions = &self.actions;
        self.with(py, |i| {
            i.started("step()")?;
            let count = i.batch.action_count();
            i.ids.clear();
            for (k, a) in actions.iter().enumerate() {
                let id = a.load(Ordering::Relaxed);
                match u32::try_from(id) {
                    Ok(id) if (id as usize) < count => i.ids.push(Some(id)),
                    _ if id == -1 => i.ids.push(None),
                    _ => {
                        return Err(PyValueError::new_err(format!(
                            "env {k}: action id {id} is not an action id (0 to {})",
                            count.saturating_sub(1)
                        )));
                    }
                }
            }
            i.batch.step_some(&i.ids).map_err(py_err)
        })
    }

    /// Draws one uniformly random legal id per env (one of the ids set in its mask row) from
    /// `rng` into the `actions` buffer: a random policy without a numpy call (it reads the
    /// rows' legal ids, what the masks show, and nothing else of the games).
    fn sample_actions(&self, py: Python<'_>, mut rng: PyRefMut<'_, PolicyRng>) -> PyResult<()> {
        let (actions, rng) = (&self.actions, &mut rng.rng);
        self.with(py, |i| {
            i.started("sample_actions()")?;
            for (k, a) in actions.iter().enumerate() {
                let ids = i.batch.legal_ids(k).unwrap_or(&[]);
                let Some(&id) = ids.get(rng.index(ids.len())) else {
                    return Err(PyValueError::new_err(format!("env {k}: no decision to sample")));
                };
                a.store(i64::from(id), Ordering::Relaxed);
            }
            Ok(())
        })
    }

    /// The seed of the game env `k` plays now.
    fn game_seed(&self, py: Python<'_>, k: u64) -> PyResult<u64> {
        self.with(py, |i| {
            i.open("game_seed()")?;
            let n = i.batch.num_envs();
            usize::try_from(k).ok().and_then(|k| i.batch.game_seed(k)).ok_or_else(|| {
                PyValueError::new_err(format!("game_seed: env {k} is not an env of this batch (envs 0 to {})", n - 1))
            })
        })
    }

    /// Ends the env: every later `reset`, `step`, `sample_actions` or `game_seed` raises
    /// `RuntimeError`. Its memory is freed with the object (numpy's arrays may still view it).
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, |i| {
            i.closed = true;
            Ok(())
        })
    }
}
