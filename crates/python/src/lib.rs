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
use rulesmith::core::encode::{DEFAULT_ACTION_IDS, DEFAULT_OBSERVATION_LEN, assign_ids};
use rulesmith::core::erased::AnySession;
use rulesmith::core::record::{Record, RulesetId};
use rulesmith::core::rng::{Rng, game_seed};
use rulesmith::core::sim::{DEFAULT_SEED, Report, SimOptions, default_players};
use rulesmith::core::{Seat, ToMove};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

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

/// Loaded rulesets live as long as the process: games borrow them. Loading the same
/// ruleset again (same source and digest) reuses the first copy, so memory stays bounded.
fn load(arg: &str) -> PyResult<&'static rulesmith::Ruleset> {
    static CACHE: OnceLock<Mutex<HashMap<(String, String), &'static rulesmith::Ruleset>>> = OnceLock::new();
    let r = rulesmith::load(arg).map_err(|f| RulesetError::new_err(f.render()))?;
    let key = (arg.to_string(), r.digest());
    let mut cache = CACHE.get_or_init(Default::default).lock().map_err(|_| PyRuntimeError::new_err("poisoned"))?;
    Ok(*cache.entry(key).or_insert_with(|| Box::leak(Box::new(r))))
}

/// A loaded, validated ruleset: `Ruleset("puerto-rico")` or `Ruleset("my-house-rules.toml")`.
#[pyclass(frozen, module = "rulesmith._rulesmith")]
struct Ruleset {
    inner: &'static rulesmith::Ruleset,
    source: String,
}

#[pymethods]
impl Ruleset {
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
        let session = self.inner.game.start(players, seed).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Game { ruleset: self.inner, source: self.source.clone(), seed, session, cache: None })
    }
    fn __repr__(&self) -> String {
        format!("Ruleset({:?})", self.source)
    }
}

/// The legal actions of the current state with their ids in one id space.
struct Legal {
    size: u32,
    notations: Vec<String>,
    ids: Vec<u32>,
}

/// A game in progress. Not shared between threads.
#[pyclass(unsendable, module = "rulesmith._rulesmith")]
struct Game {
    ruleset: &'static rulesmith::Ruleset,
    source: String,
    seed: u64,
    session: Box<dyn AnySession>,
    /// The legal actions and ids, until the state changes.
    cache: Option<Legal>,
}

impl Game {
    fn cached_legal(&mut self, size: u32) -> PyResult<&Legal> {
        if size == 0 {
            return Err(PyValueError::new_err("the action id space needs at least one id"));
        }
        if self.cache.as_ref().is_none_or(|c| c.size != size) {
            let mut notations = self.cache.take().map(|c| c.notations).unwrap_or_default();
            self.session.legal_into(&mut notations);
            let mut ids = Vec::with_capacity(notations.len());
            assign_ids(&notations, size, &mut ids);
            self.cache = Some(Legal { size, notations, ids });
        }
        let legal = self.cache.as_ref().ok_or_else(|| PyRuntimeError::new_err("no legal actions cached"))?;
        if legal.notations.len() > size as usize {
            return Err(PyValueError::new_err(format!(
                "{} legal actions do not fit in an id space of {size}: use a bigger one",
                legal.notations.len()
            )));
        }
        Ok(legal)
    }

    fn seat_arg(&self, seat: usize) -> PyResult<Seat> {
        if seat >= self.session.players() {
            return Err(PyValueError::new_err(format!(
                "seat {seat} is not at this table (seats 0–{})",
                self.session.players() - 1
            )));
        }
        Ok(seat as Seat)
    }
}

#[pymethods]
impl Game {
    #[getter]
    fn players(&self) -> usize {
        self.session.players()
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }
    #[getter]
    fn game(&self) -> &'static str {
        self.ruleset.game.game_id()
    }
    /// The seat to act, or `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<usize> {
        match self.session.to_move() {
            ToMove::Seat(s) => Some(usize::from(s)),
            ToMove::Terminal => None,
        }
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.session.to_move() == ToMove::Terminal
    }
    /// The game's own round count.
    #[getter]
    fn rounds(&self) -> u32 {
        self.session.progress().rounds
    }
    /// The legal actions in the game's notation, in its stable order.
    fn legal(&self) -> Vec<String> {
        self.session.legal()
    }
    /// Plays an action in notation; `ActionError` names the legal actions.
    fn play(&mut self, action: &str) -> PyResult<()> {
        self.session.play(action).map_err(|e| ActionError::new_err(e.to_string()))?;
        self.cache = None;
        Ok(())
    }
    /// The ids of the legal actions (same order as `legal()`) in an id space of `size`.
    #[pyo3(signature = (size=DEFAULT_ACTION_IDS))]
    fn legal_ids(&mut self, size: u32) -> PyResult<Vec<u32>> {
        Ok(self.cached_legal(size)?.ids.clone())
    }
    /// The legal-action mask (one byte per id: 1 legal, 0 not) as `bytes` of length `size`.
    #[pyo3(signature = (size=DEFAULT_ACTION_IDS))]
    fn legal_mask<'py>(&mut self, py: Python<'py>, size: u32) -> PyResult<Bound<'py, PyBytes>> {
        let legal = self.cached_legal(size)?;
        PyBytes::new_with(py, size as usize, |buf| {
            for &id in &legal.ids {
                if let Some(b) = buf.get_mut(id as usize) {
                    *b = 1;
                }
            }
            Ok(())
        })
    }
    /// The notation of the legal action with this id, or `None` if none has it.
    #[pyo3(signature = (id, size=DEFAULT_ACTION_IDS))]
    fn action_of(&mut self, id: u32, size: u32) -> PyResult<Option<String>> {
        let legal = self.cached_legal(size)?;
        Ok(legal.ids.iter().position(|&i| i == id).and_then(|k| legal.notations.get(k).cloned()))
    }
    /// Plays the legal action with this id; `ActionError` if no legal action has it.
    #[pyo3(signature = (id, size=DEFAULT_ACTION_IDS))]
    fn play_id(&mut self, id: u32, size: u32) -> PyResult<()> {
        let legal = self.cached_legal(size)?;
        let Some(k) = legal.ids.iter().position(|&i| i == id) else {
            return Err(ActionError::new_err(format!("no legal action has id {id} (legal ids: {:?})", legal.ids)));
        };
        self.session.play_index(k).map_err(|e| ActionError::new_err(e.to_string()))?;
        self.cache = None;
        Ok(())
    }
    /// Plays the `index`-th legal action (of `legal()`).
    fn play_index(&mut self, index: usize) -> PyResult<()> {
        self.session.play_index(index).map_err(|e| ActionError::new_err(e.to_string()))?;
        self.cache = None;
        Ok(())
    }
    /// `seat`'s observation vector (`float32`, little-endian `bytes` of `size` floats):
    /// built from the seat's view only.
    #[pyo3(signature = (seat, size=DEFAULT_OBSERVATION_LEN))]
    fn observation<'py>(&self, py: Python<'py>, seat: usize, size: usize) -> PyResult<Bound<'py, PyBytes>> {
        let seat = self.seat_arg(seat)?;
        let mut v = vec![0f32; size];
        self.session.encode_view(seat, &mut v);
        PyBytes::new_with(py, size * 4, |buf| {
            for (chunk, x) in buf.chunks_exact_mut(4).zip(&v) {
                chunk.copy_from_slice(&x.to_le_bytes());
            }
            Ok(())
        })
    }
    /// `(observation(seat, observation_len), legal_mask(action_ids) or None)`: the mask
    /// only when `seat` is to act. One call per decision for the environments.
    #[pyo3(signature = (seat, observation_len=DEFAULT_OBSERVATION_LEN, action_ids=DEFAULT_ACTION_IDS))]
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        seat: usize,
        observation_len: usize,
        action_ids: u32,
    ) -> PyResult<(Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>)> {
        let obs = self.observation(py, seat, observation_len)?;
        let mask = if self.session.to_move() == ToMove::Seat(seat as Seat) {
            Some(self.legal_mask(py, action_ids)?)
        } else {
            None
        };
        Ok((obs, mask))
    }
    /// What `seat` sees, as a dict (hidden parts hidden).
    fn view<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat_arg(seat)?;
        to_py(py, &self.session.view_json(seat))
    }
    /// The full state as a dict (everything, including hidden parts: for tools, not players).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.session.state_json())
    }
    /// Replaces the state (checked for every invariant).
    fn set_state(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = from_py(py, state)?;
        self.session.set_state_json(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.cache = None;
        Ok(())
    }
    /// An independent copy of this game.
    fn clone(&self) -> PyResult<Game> {
        let err = |e: rulesmith::core::GameError| PyRuntimeError::new_err(e.to_string());
        let mut session = self.ruleset.game.start(self.session.players(), self.seed).map_err(err)?;
        session.set_state_json(self.session.state_json()).map_err(err)?;
        *session.history_mut() = self.session.history().to_vec();
        Ok(Game { ruleset: self.ruleset, source: self.source.clone(), seed: self.seed, session, cache: None })
    }
    fn __copy__(&self) -> PyResult<Game> {
        self.clone()
    }
    /// The result once the game is over (scores, tie-breaks, ranks, end), else `None`.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.session.outcome().map(|o| ser_to_py(py, &o)).transpose()
    }
    /// The actions played so far, in notation.
    fn history(&self) -> Vec<String> {
        self.session.history().to_vec()
    }
    /// The action a bot (`random`, `greedy`, `mcts:N`) would choose now, or `None` when over.
    #[pyo3(signature = (bot, seed=DEFAULT_SEED))]
    fn bot_action(&self, bot: &str, seed: u64) -> PyResult<Option<String>> {
        let spec: BotSpec = bot.parse().map_err(|e| PyValueError::new_err(format!("{e}")))?;
        let mut rng = Rng::from_seed(seed);
        Ok(self.session.bot_choice(spec, &mut rng))
    }
    /// The game as a record (what `rulesmith replay` reads): `bots` names each seat's player.
    #[pyo3(signature = (bots=None))]
    fn record<'py>(&self, py: Python<'py>, bots: Option<Vec<String>>) -> PyResult<Bound<'py, PyAny>> {
        let players = self.session.players();
        let bots = bots.unwrap_or_else(|| vec![rulesmith::core::record::HUMAN.to_string(); players]);
        if bots.len() != players {
            return Err(PyValueError::new_err(format!("{} bots for {players} seats", bots.len())));
        }
        let record = Record {
            ruleset: self.ruleset.name().to_string(),
            source: self.source.clone(),
            digest: self.ruleset.digest(),
            game: self.ruleset.game.game_id().to_string(),
            players,
            seed: self.seed,
            index: None,
            run_seed: None,
            bots,
            actions: self.session.history().to_vec(),
            rounds: self.session.progress().rounds,
            result: self.session.outcome(),
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
    Ok(SimOptions { players, games, seed, bots, shard: None, record: false, progress: None, rotate_seats: false })
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
        let rep: Report = serde_json::from_value(value)
            .map_err(|e| PyValueError::new_err(format!("report {i} is not a report of `simulate`: {e}")))?;
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
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(py_game_seed, m)?)?;
    m.add_function(wrap_pyfunction!(bundled, m)?)?;
    m.add("RulesetError", m.py().get_type::<RulesetError>())?;
    m.add("ActionError", m.py().get_type::<ActionError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    m.add("DEFAULT_ACTION_IDS", DEFAULT_ACTION_IDS)?;
    m.add("DEFAULT_OBSERVATION_LEN", DEFAULT_OBSERVATION_LEN)?;
    m.add("DEFAULT_SEED", DEFAULT_SEED)?;
    Ok(())
}
