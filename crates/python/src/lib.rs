//! Python bindings of rulesmith: the native module `rulesmith._rulesmith`.
//!
//! The Python package (`python/rulesmith`) wraps it in PettingZoo and Gymnasium
//! environments. Everything game-specific goes through the core's object-safe
//! [`AnyGame`](rulesmith::core::erased::AnyGame)/[`AnySession`],
//! so every game and house-ruled ruleset works unchanged.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use rulesmith::core::bots::{BotSpec, parse_bots};
use rulesmith::core::erased::AnySession;
use rulesmith::core::record::{Record, RulesetId};
use rulesmith::core::rng::{Rng, game_seed};
use rulesmith::core::sim::{DEFAULT_SEED, Report, SimOptions, default_players};
use rulesmith::core::{Seat, ToMove};
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

mod vector;

create_exception!(
    _rulesmith,
    RulesetError,
    PyValueError,
    "A ruleset that does not load: every diagnostic, with file:line:col."
);
create_exception!(_rulesmith, ActionError, PyValueError, "An action that is not legal or does not parse.");
create_exception!(_rulesmith, SimulationError, PyRuntimeError, "A simulation that stopped (a game error).");

fn to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

fn from_py(py: Python<'_>, v: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let text: String = py.import("json")?.call_method1("dumps", (v,))?.extract()?;
    serde_json::from_str(&text).map_err(|e| PyValueError::new_err(format!("not JSON data: {e}")))
}

fn ser_to_py<'py, T: serde::Serialize>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(v).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    to_py(py, &value)
}

/// Most versions of one ruleset source kept in a process (see [`load`]).
const MAX_VERSIONS: usize = 64;

/// Loaded rulesets live as long as the process: games borrow them. Loading the same
/// ruleset again (same source and digest) reuses the first copy; a source edited and
/// loaded again keeps each version, at most [`MAX_VERSIONS`] of them (about 100 KB each),
/// so that a loop reloading a changing file cannot exhaust memory.
fn load(arg: &str) -> PyResult<&'static rulesmith::Ruleset> {
    type Cache = HashMap<String, Vec<(String, &'static rulesmith::Ruleset)>>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let r = rulesmith::load(arg).map_err(|f| RulesetError::new_err(f.render()))?;
    let digest = r.digest();
    let mut cache = CACHE.get_or_init(Default::default).lock().map_err(|_| PyRuntimeError::new_err("poisoned"))?;
    let versions = cache.entry(arg.to_string()).or_default();
    if let Some((_, kept)) = versions.iter().find(|(d, _)| *d == digest) {
        return Ok(*kept);
    }
    if versions.len() >= MAX_VERSIONS {
        return Err(RulesetError::new_err(format!(
            "`{arg}` has been loaded in {MAX_VERSIONS} different versions in this process, the most kept \
             (games hold on to their ruleset); start a new Python process to load more"
        )));
    }
    let kept: &'static rulesmith::Ruleset = Box::leak(Box::new(r));
    versions.push((digest, kept));
    Ok(kept)
}

/// The object keys seen in states, by place: a path whose list indices are `*`
/// (`/players/*/goods`), so a key known at one seat is known at every seat.
#[derive(Default)]
struct KeyShapes(std::collections::HashSet<String>);

impl KeyShapes {
    fn add(&mut self, v: &serde_json::Value, at: &str) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    let here = format!("{at}/{k}");
                    self.add(x, &here);
                    self.0.insert(here);
                }
            }
            serde_json::Value::Array(a) => {
                let here = format!("{at}/*");
                for x in a {
                    self.add(x, &here);
                }
            }
            _ => {}
        }
    }

    /// The JSON Pointer of the first key of `v` not known at its place.
    fn first_unknown(&self, v: &serde_json::Value, at: &str) -> Option<String> {
        self.first_unknown_at(v, at, at)
    }

    fn first_unknown_at(&self, v: &serde_json::Value, shape: &str, pointer: &str) -> Option<String> {
        match v {
            serde_json::Value::Object(m) => m.iter().find_map(|(k, x)| {
                let (s, p) = (format!("{shape}/{k}"), format!("{pointer}/{k}"));
                if self.0.contains(&s) { self.first_unknown_at(x, &s, &p) } else { Some(p) }
            }),
            serde_json::Value::Array(a) => a
                .iter()
                .enumerate()
                .find_map(|(i, x)| self.first_unknown_at(x, &format!("{shape}/*"), &format!("{pointer}/{i}"))),
            _ => None,
        }
    }
}

/// A loaded, validated ruleset: `Ruleset("puerto-rico")` or `Ruleset("my-house-rules.toml")`.
#[pyclass(frozen, module = "rulesmith._rulesmith")]
struct Ruleset {
    inner: &'static rulesmith::Ruleset,
    source: String,
}

#[pymethods]
impl Ruleset {
    /// Loads a bundled ruleset by name or a TOML file; `RulesetError` lists every problem.
    #[new]
    fn new(source: &str) -> PyResult<Self> {
        Ok(Ruleset { inner: load(source)?, source: source.to_string() })
    }
    /// `[ruleset] name`.
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }
    /// What was loaded: a bundled name or a path.
    #[getter]
    fn source(&self) -> String {
        self.source.clone()
    }
    /// `[ruleset] game`.
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.game.game_id()
    }
    /// The digest of the effective ruleset (as in records).
    #[getter]
    fn digest(&self) -> String {
        self.inner.digest()
    }
    /// `(min, max)` players.
    #[getter]
    fn players(&self) -> (usize, usize) {
        let r = self.inner.game.players();
        (*r.start(), *r.end())
    }
    /// The player count commands use when none is given.
    #[getter]
    fn default_players(&self) -> usize {
        default_players(&self.inner.game.players())
    }
    /// The effective ruleset as TOML.
    fn to_toml(&self) -> String {
        self.inner.loaded.to_toml_string()
    }
    /// A new game right after setup.
    #[pyo3(signature = (players=None, seed=DEFAULT_SEED))]
    fn new_game(&self, players: Option<usize>, seed: u64) -> PyResult<Game> {
        let players = players.unwrap_or_else(|| self.default_players());
        let mut session = self.inner.game.start(players, seed).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let sizes = share(self.inner, players, &mut *session)?;
        Ok(Game {
            ruleset: self.inner,
            source: self.source.clone(),
            seed,
            session: Mutex::new(session),
            ids: None,
            sizes,
            scratch: Vec::new(),
            edited: false,
        })
    }
    fn __repr__(&self) -> String {
        format!("Ruleset({:?})", self.source)
    }
}

/// A table's encoding sizes: `(action ids, observation length)`.
type Sizes = (usize, usize);

/// What every game of a ruleset and player count shares: the sizes and the action space,
/// computed once per process (naming every feature and building a large space is not
/// free, and environments start a game per episode).
#[derive(Clone)]
struct Shared {
    sizes: Sizes,
    space: Arc<dyn Any + Send + Sync>,
}

/// Gives `session` its table's shared action space and returns the sizes.
fn share(r: &'static rulesmith::Ruleset, players: usize, session: &mut dyn AnySession) -> PyResult<Sizes> {
    static CACHE: OnceLock<Mutex<HashMap<(usize, usize), Shared>>> = OnceLock::new();
    // Rulesets live as long as the process (see `load`): the address names one.
    let key = (std::ptr::from_ref(r) as usize, players);
    let mut cache = CACHE.get_or_init(Default::default).lock().map_err(|_| PyRuntimeError::new_err("poisoned"))?;
    if let Some(shared) = cache.get(&key) {
        session.adopt_action_space(shared.space.clone());
        return Ok(shared.sizes);
    }
    let err = |e: rulesmith::core::GameError| PyRuntimeError::new_err(e.to_string());
    let space = session.action_space_handle().map_err(err)?;
    let sizes = (session.action_count().map_err(err)?, session.observation_names().len());
    cache.insert(key, Shared { sizes, space });
    Ok(sizes)
}

/// A game in progress; usable from any thread.
#[pyclass(module = "rulesmith._rulesmith")]
struct Game {
    ruleset: &'static rulesmith::Ruleset,
    source: String,
    seed: u64,
    /// Behind a lock so that a `Game` may be used from any Python thread (PyO3 would
    /// panic on an `unsendable` class used off its thread).
    session: Mutex<Box<dyn AnySession + Send>>,
    /// The legal actions' ids, until the state changes.
    ids: Option<Vec<u32>>,
    sizes: Sizes,
    /// The observation is written here, then copied into the `bytes` Python gets.
    scratch: Vec<f32>,
    /// Changed by `set_state`: the history no longer replays from the seed.
    edited: bool,
}

impl Game {
    /// The session (one statement at a time: a second `s()` in the same statement waits).
    fn s(&self) -> std::sync::MutexGuard<'_, Box<dyn AnySession + Send>> {
        self.session.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn cached_ids(&mut self) -> PyResult<&[u32]> {
        if self.ids.is_none() {
            let mut ids = Vec::new();
            self.s().legal_ids(&mut ids).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            self.ids = Some(ids);
        }
        Ok(self.ids.as_deref().unwrap_or_default())
    }

    fn mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let size = self.sizes.0;
        let ids = self.cached_ids()?;
        PyBytes::new_with(py, size, |buf| {
            for &id in ids {
                if let Some(b) = buf.get_mut(id as usize) {
                    *b = 1;
                }
            }
            Ok(())
        })
    }

    /// `seat`'s observation as `float32` bytes (`seat` checked).
    fn encode<'py>(&mut self, py: Python<'py>, seat: Seat) -> PyResult<Bound<'py, PyBytes>> {
        let mut v = std::mem::take(&mut self.scratch);
        v.resize(self.sizes.1, 0.0);
        self.s().observation(seat, &mut v);
        let out = PyBytes::new_with(py, v.len() * 4, |buf| {
            for (chunk, x) in buf.chunks_exact_mut(4).zip(&v) {
                chunk.copy_from_slice(&x.to_le_bytes());
            }
            Ok(())
        });
        self.scratch = v;
        out
    }

    fn seat_arg(&self, seat: usize) -> PyResult<Seat> {
        if seat >= self.s().players() {
            return Err(PyValueError::new_err(format!(
                "seat {seat} is not at this table (seats 0–{})",
                self.s().players() - 1
            )));
        }
        Ok(seat as Seat)
    }
}

#[pymethods]
impl Game {
    /// The player count.
    #[getter]
    fn players(&self) -> usize {
        self.s().players()
    }
    /// The game's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }
    /// The game id (`puerto-rico`, …).
    #[getter]
    fn game(&self) -> &'static str {
        self.ruleset.game.game_id()
    }
    /// The seat to act, or `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<usize> {
        match self.s().to_move() {
            ToMove::Seat(s) => Some(usize::from(s)),
            ToMove::Terminal => None,
        }
    }
    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.s().to_move() == ToMove::Terminal
    }
    /// The game's own round count.
    #[getter]
    fn rounds(&self) -> u32 {
        self.s().progress().rounds
    }
    /// The legal actions in the game's notation, in its stable order.
    fn legal(&self) -> Vec<String> {
        self.s().legal()
    }
    /// Plays an action in notation; `ActionError` names the legal actions.
    fn play(&mut self, action: &str) -> PyResult<()> {
        self.s().play(action).map_err(|e| ActionError::new_err(e.to_string()))?;
        self.ids = None;
        Ok(())
    }
    /// Every action id of this ruleset and player count in notation, in id order: the
    /// action with id `i` is `action_space()[i]`.
    fn action_space(&self) -> PyResult<Vec<String>> {
        self.s().action_names().map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }
    /// How many action ids there are (`len(action_space())`).
    #[getter]
    fn action_count(&self) -> usize {
        self.sizes.0
    }
    /// The names of the observation's features, in order.
    fn observation_names(&self) -> Vec<String> {
        self.s().observation_names()
    }
    /// How many numbers an observation has (`len(observation_names())`).
    #[getter]
    fn observation_len(&self) -> usize {
        self.sizes.1
    }
    /// The ids of the legal actions, in the order of `legal()`.
    fn legal_ids(&mut self) -> PyResult<Vec<u32>> {
        Ok(self.cached_ids()?.to_vec())
    }
    /// The legal-action mask: `bytes`, one per action id (1 legal, 0 not).
    fn legal_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.mask(py)
    }
    /// The notation of the action with this id (legal now or not), or `None` past the space.
    fn action_of(&self, id: u32) -> PyResult<Option<String>> {
        Ok(self.action_space()?.get(id as usize).cloned())
    }
    /// Plays the legal action with this id; `ActionError` if it is not legal now. Returns
    /// the seat to move next, `None` once the game is over (one call per decision for the
    /// environments).
    fn play_id(&mut self, id: u32) -> PyResult<Option<usize>> {
        // Legal ids already listed for this state need no second look at the rules.
        let known = self.ids.as_ref().is_some_and(|ids| ids.contains(&id));
        let mut s = self.s();
        let played = if known { s.play_legal_id(id) } else { s.play_id(id) };
        played.map_err(|e| ActionError::new_err(e.to_string()))?;
        let next = match s.to_move() {
            ToMove::Seat(seat) => Some(usize::from(seat)),
            ToMove::Terminal => None,
        };
        drop(s);
        self.ids = None;
        Ok(next)
    }
    /// Plays the `index`-th legal action (of `legal()`).
    fn play_index(&mut self, index: usize) -> PyResult<()> {
        self.s().play_index(index).map_err(|e| ActionError::new_err(e.to_string()))?;
        self.ids = None;
        Ok(())
    }
    /// `seat`'s observation: `float32` little-endian `bytes` of `observation_len` numbers
    /// (`numpy.frombuffer(..., numpy.float32)`), built from what the seat may see only.
    fn observation<'py>(&mut self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyBytes>> {
        let seat = self.seat_arg(seat)?;
        self.encode(py, seat)
    }
    /// `(observation(seat), legal_mask() or None)`: the mask only when `seat` is to act.
    /// One call per decision for the environments.
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>)> {
        let seat = self.seat_arg(seat)?;
        let obs = self.encode(py, seat)?;
        let mask = if self.s().to_move() == ToMove::Seat(seat) { Some(self.mask(py)?) } else { None };
        Ok((obs, mask))
    }
    /// What `seat` sees, as a dict (hidden parts hidden).
    fn view<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat_arg(seat)?;
        to_py(py, &self.s().view_json(seat))
    }
    /// The full state as a dict (everything, including hidden parts: for tools, not players).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.s().state_json())
    }
    /// Replaces the state (checked for every invariant).
    /// A key the game does not read, or a state of another player count, is refused (the
    /// game is left as it was): a typo would otherwise be lost, and the action mask and
    /// observation sizes are those of this table.
    fn set_state(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = from_py(py, state)?;
        let before = self.s().state_json();
        let players = self.s().players();
        self.s().set_state_json(value.clone()).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let restore = |g: &mut Self, message: String| {
            let _ = g.s().set_state_json(before.clone());
            Err(PyValueError::new_err(message))
        };
        if self.s().players() != players {
            let n = self.s().players();
            return restore(
                self,
                format!(
                    "this state is of a {n}-player game, but this game has {players} players: \
                     load it into a game of {n} (`Ruleset.new_game(players={n})`)"
                ),
            );
        }
        // Every key given must be one the game reads: what it writes back, or what any
        // state of this game (this one before, or right after setup) holds at that place.
        let mut known = KeyShapes::default();
        known.add(&self.s().state_json(), "");
        known.add(&before, "");
        if let Ok(fresh) = self.ruleset.game.start(players, self.seed) {
            known.add(&fresh.state_json(), "");
        }
        if let Some(at) = known.first_unknown(&value, "") {
            return restore(self, format!("{at}: unknown key (this game's state has no such field)"));
        }
        self.ids = None;
        self.edited = true;
        Ok(())
    }
    /// An independent copy of this game.
    fn clone(&self) -> PyResult<Game> {
        let err = |e: rulesmith::core::GameError| PyRuntimeError::new_err(e.to_string());
        let mut session = self.ruleset.game.start(self.s().players(), self.seed).map_err(err)?;
        share(self.ruleset, self.s().players(), &mut *session)?;
        session.set_state_json(self.s().state_json()).map_err(err)?;
        *session.history_mut() = self.s().history().to_vec();
        Ok(Game {
            ruleset: self.ruleset,
            source: self.source.clone(),
            seed: self.seed,
            session: Mutex::new(session),
            ids: None,
            sizes: self.sizes,
            scratch: Vec::new(),
            edited: self.edited,
        })
    }
    fn __copy__(&self) -> PyResult<Game> {
        self.clone()
    }
    /// The result once the game is over (scores, tie-breaks, ranks, end), else `None`.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.s().outcome().map(|o| ser_to_py(py, &o)).transpose()
    }
    /// The actions played so far, in notation.
    fn history(&self) -> Vec<String> {
        self.s().history().to_vec()
    }
    /// The action a bot (`random`, `greedy`, `mcts:N`) would choose now, or `None` when over.
    #[pyo3(signature = (bot, seed=DEFAULT_SEED))]
    fn bot_action(&self, bot: &str, seed: u64) -> PyResult<Option<String>> {
        let spec: BotSpec = bot.parse().map_err(|e| PyValueError::new_err(format!("{e}")))?;
        if spec.is_external() {
            return Err(PyValueError::new_err(format!(
                "bot `{bot}`: a bot program (`exec:`) plays whole games, started by `simulate` or \
                 `rulesmith play`; here choose random, greedy or mcts:N"
            )));
        }
        let mut rng = Rng::from_seed(seed);
        Ok(self.s().bot_choice(spec, &mut rng))
    }
    /// The game as a record (what `rulesmith replay` reads): `bots` names each seat's player.
    #[pyo3(signature = (bots=None))]
    fn record<'py>(&self, py: Python<'py>, bots: Option<Vec<String>>) -> PyResult<Bound<'py, PyAny>> {
        if self.edited {
            return Err(PyValueError::new_err(
                "this game was changed with set_state: its actions no longer replay from its seed, \
                 so it has no record (record a game played from new_game with play)",
            ));
        }
        let session = self.s();
        let players = session.players();
        let bots = bots.unwrap_or_else(|| vec![rulesmith::core::record::HUMAN.to_string(); players]);
        if bots.len() != players {
            return Err(PyValueError::new_err(format!("{} bots for {players} seats", bots.len())));
        }
        let record = Record {
            ruleset: self.ruleset.name().to_string(),
            source: self.source.clone(),
            digest: self.ruleset.digest(),
            overrides: self.ruleset.loaded.overrides.clone(),
            game: self.ruleset.game.game_id().to_string(),
            players,
            seed: self.seed,
            index: None,
            run_seed: None,
            rotation: None,
            bots,
            actions: session.history().to_vec(),
            rounds: session.progress().rounds,
            result: session.outcome(),
        };
        ser_to_py(py, &record)
    }
}

fn sim_options(
    r: &rulesmith::Ruleset,
    players: Option<usize>,
    games: u64,
    seed: u64,
    bots: &str,
) -> PyResult<SimOptions> {
    let range = r.game.players();
    let players = players.unwrap_or_else(|| default_players(&range));
    if !range.contains(&players) {
        return Err(PyValueError::new_err(format!(
            "{players} players is not supported by `{}` (it allows {}–{})",
            r.name(),
            range.start(),
            range.end()
        )));
    }
    let bots = parse_bots(bots, players).map_err(PyValueError::new_err)?;
    Ok(SimOptions {
        players,
        games,
        from: 0,
        seed,
        bots,
        shard: None,
        record: false,
        progress: None,
        rotate_seats: false,
        metrics: true,
    })
}

/// Plays the games of one ruleset (without the GIL) and returns its report.
fn run(
    py: Python<'_>,
    r: &'static rulesmith::Ruleset,
    opts: &SimOptions,
    source: &str,
) -> PyResult<(Report, Vec<Record>)> {
    let id = RulesetId {
        name: r.name().to_string(),
        source: source.to_string(),
        digest: r.digest(),
        game: r.game.game_id().to_string(),
        overrides: r.loaded.overrides.clone(),
    };
    let (tally, seconds, records) = py
        .detach(|| {
            let start = Instant::now();
            let mut records = Vec::new();
            let tally = r.game.simulate(opts, &mut |g| {
                if opts.record {
                    records.push(Record::of_sim(&id, opts.players, opts.seed, &opts.bots, g));
                }
            });
            tally.map(|t| (t, start.elapsed().as_secs_f64(), records))
        })
        .map_err(|e| SimulationError::new_err(format!("simulation of `{}` stopped: {e}", r.name())))?;
    Ok((Report::new(r.name(), &r.digest(), r.game.game_id(), opts, tally, seconds), records))
}

/// Plays seeded games between bots, like `rulesmith simulate --format json`; returns
/// the report as a dict (with `records`, one dict per game, when `record=True`).
/// `shard=(k, n)` plays only games `i` with `i % n == k` (0-based `k`).
#[pyfunction]
#[pyo3(signature = (ruleset, players=None, games=1000, seed=DEFAULT_SEED, bots="random", shard=None, record=false))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    ruleset: &str,
    players: Option<usize>,
    games: u64,
    seed: u64,
    bots: &str,
    shard: Option<(u64, u64)>,
    record: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let r = load(ruleset)?;
    let mut opts = sim_options(r, players, games, seed, bots)?;
    if let Some((k, n)) = shard {
        if n == 0 || k >= n {
            return Err(PyValueError::new_err(format!("shard ({k}, {n}): expected 0 <= k < n")));
        }
        opts.shard = Some((k, n));
    }
    opts.record = record;
    let (report, records) = run(py, r, &opts, ruleset)?;
    let out = ser_to_py(py, &report)?;
    if record {
        let list = PyList::empty(py);
        for rec in &records {
            list.append(ser_to_py(py, rec)?)?;
        }
        out.set_item("records", list)?;
    }
    Ok(out)
}

/// Plays the same games (same seeds and bots) under each ruleset, like
/// `rulesmith compare --format json`; returns `{players, games, seed, bots, rulesets: [report…]}`.
#[pyfunction]
#[pyo3(signature = (rulesets, players=None, games=1000, seed=DEFAULT_SEED, bots="random"))]
fn compare<'py>(
    py: Python<'py>,
    rulesets: Vec<String>,
    players: Option<usize>,
    games: u64,
    seed: u64,
    bots: &str,
) -> PyResult<Bound<'py, PyAny>> {
    if rulesets.len() < 2 {
        return Err(PyValueError::new_err(format!(
            "compare needs two or more rulesets (got {}): the first is compared with each other one; \
             for one ruleset use simulate",
            rulesets.len()
        )));
    }
    let loaded: Vec<&'static rulesmith::Ruleset> = rulesets.iter().map(|a| load(a)).collect::<PyResult<_>>()?;
    let lo = loaded.iter().map(|r| *r.game.players().start()).max().unwrap_or(1);
    let hi = loaded.iter().map(|r| *r.game.players().end()).min().unwrap_or(0);
    if lo > hi || loaded.is_empty() {
        return Err(PyValueError::new_err("these rulesets have no player count in common"));
    }
    let players = players.unwrap_or_else(|| default_players(&(lo..=hi)));
    let mut reports = Vec::new();
    let mut opts = None;
    for (r, source) in loaded.iter().zip(&rulesets) {
        let o = sim_options(r, Some(players), games, seed, bots)?;
        reports.push(run(py, r, &o, source)?.0);
        opts = Some(o);
    }
    let bots: Vec<String> = opts.map(|o| o.bots.iter().map(ToString::to_string).collect()).unwrap_or_default();
    let out = PyDict::new(py);
    out.set_item("players", players)?;
    out.set_item("games", games)?;
    out.set_item("seed", seed)?;
    out.set_item("bots", bots)?;
    let list = PyList::empty(py);
    for rep in &reports {
        list.append(ser_to_py(py, rep)?)?;
    }
    out.set_item("rulesets", list)?;
    Ok(out.into_any())
}

/// Merges the reports of a run's shards (dicts from `simulate(..., shard=...)`) into the
/// report of the whole run, with the core's merge (like `rulesmith merge`).
#[pyfunction]
fn merge<'py>(py: Python<'py>, reports: Vec<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
    let mut parsed = Vec::new();
    for (i, r) in reports.iter().enumerate() {
        let mut value = from_py(py, r)?;
        if let Some(obj) = value.as_object_mut() {
            obj.remove("records");
        }
        let rep: Report = rulesmith::core::game::from_json(&value).map_err(|e| {
            let why = rulesmith::core::sim::report_read_error(&value.to_string(), &e);
            PyValueError::new_err(format!("report {i} is not a report of `simulate`: {why}"))
        })?;
        parsed.push((format!("report {i}"), rep));
    }
    let merged = rulesmith::core::sim::merge_reports(&parsed).map_err(PyValueError::new_err)?;
    ser_to_py(py, &merged)
}

/// The seed of game `index` of a run seeded `run_seed` (what `simulate` gives that game).
#[pyfunction(name = "game_seed")]
fn py_game_seed(run_seed: u64, index: u64) -> u64 {
    game_seed(run_seed, index)
}

/// The bundled rulesets' names.
#[pyfunction]
fn bundled() -> Vec<&'static str> {
    rulesmith::BUNDLED.iter().map(|b| b.name).collect()
}

#[pymodule]
fn _rulesmith(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Ruleset>()?;
    m.add_class::<Game>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_class::<vector::PolicyRng>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(py_game_seed, m)?)?;
    m.add_function(wrap_pyfunction!(bundled, m)?)?;
    m.add("RulesetError", m.py().get_type::<RulesetError>())?;
    m.add("ActionError", m.py().get_type::<ActionError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    m.add("DEFAULT_SEED", DEFAULT_SEED)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
