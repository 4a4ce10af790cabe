//! Python bindings of rulesmith: the native module `rulesmith._rulesmith`.
//!
//! The Python package (`python/rulesmith`) wraps it in PettingZoo and Gymnasium
//! environments. Everything game-specific goes through the core's object-safe
//! [`AnyGame`](rulesmith::core::erased::AnyGame)/[`AnySession`],
//! so every game and house-ruled ruleset works unchanged.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList};
use rulesmith::core::bots::{BadBotSpec, BotSpec};
use rulesmith::core::encode::SeatRelative;
use rulesmith::core::erased::AnySession;
use rulesmith::core::record::{Record, RulesetId};
use rulesmith::core::rng::{Rng, game_seed};
use rulesmith::core::sim::{DEFAULT_SEED, Report, SimOptions, default_players};
use rulesmith::core::study::{self, Plain, RunError, StudySpec};
use rulesmith::core::{GameError, Seat, ToMove};
use self_cell::self_cell;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

mod errors;
mod vector;
mod version;

use errors::{ActionError, RulesetError, SimulationError};
use version::{Sizes, Version, load, players_arg, share};

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

/// `bots` as `simulate` and `compare` take it: one bot for every seat, or one per seat
/// separated by commas.
fn bots_arg(bots: &str, players: usize) -> PyResult<Vec<BotSpec>> {
    let names: Vec<&str> = bots.split(',').collect();
    let mut specs = Vec::with_capacity(names.len());
    for (seat, name) in names.iter().enumerate() {
        let spec = name.parse().map_err(|e: BadBotSpec| {
            let at = if names.len() > 1 { format!(" seat {seat}:") } else { String::new() };
            PyValueError::new_err(format!("bots={bots:?}:{at} {e}"))
        })?;
        specs.push(spec);
    }
    match specs.len() {
        1 => Ok(vec![specs.remove(0); players]),
        n if n == players => Ok(specs),
        n => Err(PyValueError::new_err(format!(
            "bots={bots:?}: {n} bots for {players} players: give one bot for every seat, or one per seat \
             separated by commas"
        ))),
    }
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
    inner: Arc<Version>,
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
    fn new_game(&self, players: Option<i64>, seed: u64) -> PyResult<Game> {
        let players = match players {
            None => self.default_players(),
            Some(n) => players_arg(&self.inner, n, "new_game")?,
        };
        let mut sizes = (0, 0);
        let session = OwnedSession::try_new(Arc::clone(&self.inner), |v| {
            let mut session = v.game.start(players, seed).map_err(|e| PyValueError::new_err(e.to_string()))?;
            sizes = share(v, players, &mut *session)?;
            Ok::<_, PyErr>(session)
        })?;
        Ok(Game {
            version: Arc::clone(&self.inner),
            source: self.source.clone(),
            seed,
            session: Mutex::new(session),
            ids: None,
            sizes,
            scratch: Vec::new(),
            absolute: Vec::new(),
            relative: None,
            edited: false,
        })
    }
    fn __repr__(&self) -> String {
        format!("Ruleset({:?})", self.source)
    }
}

/// Writes `v` as little-endian `float32` bytes into `buf`.
fn le_bytes(v: &[f32], buf: &mut [u8]) {
    for (chunk, x) in buf.chunks_exact_mut(4).zip(v) {
        chunk.copy_from_slice(&x.to_le_bytes());
    }
}

/// A game's session, which borrows its ruleset.
type Session<'v> = Box<dyn AnySession + Send + 'v>;

self_cell!(
    /// A session together with the ruleset version it borrows, which lives as long as it.
    struct OwnedSession {
        owner: Arc<Version>,
        #[covariant]
        dependent: Session,
    }
);

/// A game in progress; usable from any thread.
#[pyclass(module = "rulesmith._rulesmith")]
struct Game {
    version: Arc<Version>,
    source: String,
    seed: u64,
    /// Behind a lock so that a `Game` may be used from any Python thread (PyO3 would
    /// panic on an `unsendable` class used off its thread).
    session: Mutex<OwnedSession>,
    /// The legal actions' ids, until the state changes.
    ids: Option<Vec<u32>>,
    sizes: Sizes,
    /// The observation is written here, then copied into the `bytes` Python gets.
    scratch: Vec<f32>,
    /// The absolute observation, before it is made seat-relative.
    absolute: Vec<f32>,
    /// The seat-relative layout, made on first use.
    relative: Option<Arc<SeatRelative>>,
    /// Changed by `set_state`: the history no longer replays from the seed.
    edited: bool,
}

impl Game {
    /// Runs `f` on the session (not from inside another `with`: the lock is not reentrant).
    fn with<R>(&self, f: impl for<'s> FnOnce(&'s mut (dyn AnySession + Send + 's)) -> R) -> R {
        let mut session = self.session.lock().unwrap_or_else(PoisonError::into_inner);
        session.with_dependent_mut(|_, s| f(&mut **s))
    }

    fn cached_ids(&mut self) -> PyResult<&[u32]> {
        if self.ids.is_none() {
            let mut ids = Vec::new();
            self.with(|s| s.encodings().map_err(GameError::from).and_then(|e| e.legal_ids(&mut ids)))
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
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

    /// The seat-relative layout of this table.
    fn relative(&mut self) -> PyResult<Arc<SeatRelative>> {
        if let Some(r) = &self.relative {
            return Ok(Arc::clone(r));
        }
        let (names, players) =
            self.with(|s| (s.encodings().map(|e| e.observation_names()).unwrap_or_default(), s.players()));
        let r = Arc::new(SeatRelative::new(&names, players).map_err(PyRuntimeError::new_err)?);
        self.relative = Some(Arc::clone(&r));
        Ok(r)
    }

    /// `seat`'s observation as `float32` bytes (`seat` checked), seat-relative or not.
    fn encode<'py>(&mut self, py: Python<'py>, seat: Seat, seat_relative: bool) -> PyResult<Bound<'py, PyBytes>> {
        self.fill(seat, seat_relative)?;
        PyBytes::new_with(py, self.scratch.len() * 4, |buf| {
            le_bytes(&self.scratch, buf);
            Ok(())
        })
    }

    /// Writes `seat`'s observation into `scratch`.
    fn fill(&mut self, seat: Seat, seat_relative: bool) -> PyResult<()> {
        let mut v = std::mem::take(&mut self.scratch);
        v.resize(self.sizes.1, 0.0);
        if seat_relative {
            let r = self.relative()?;
            let mut a = std::mem::take(&mut self.absolute);
            a.resize(self.sizes.1, 0.0);
            self.with(|s| s.encodings().map(|e| e.observation(seat, &mut a)))
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            r.write(seat, &a, &mut v);
            self.absolute = a;
        } else {
            self.with(|s| s.encodings().map(|e| e.observation(seat, &mut v)))
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        }
        self.scratch = v;
        Ok(())
    }

    fn seat_arg(&self, seat: i64) -> PyResult<Seat> {
        let players = self.with(|s| s.players());
        match Seat::try_from(seat) {
            Ok(s) if usize::from(s) < players => Ok(s),
            _ => Err(PyValueError::new_err(format!(
                "seat={seat}: not a seat at this {players}-player table (seats 0 to {})",
                players.saturating_sub(1)
            ))),
        }
    }
}

#[pymethods]
impl Game {
    /// The player count.
    #[getter]
    fn players(&self) -> usize {
        self.with(|s| s.players())
    }
    /// The game's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }
    /// The game id (`puerto-rico`, …).
    #[getter]
    fn game(&self) -> &'static str {
        self.version.game.game_id()
    }
    /// The seat to act, or `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<usize> {
        match self.with(|s| s.to_move()) {
            ToMove::Seat(s) => Some(usize::from(s)),
            ToMove::Terminal => None,
        }
    }
    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.with(|s| s.to_move()) == ToMove::Terminal
    }
    /// The game's own round count.
    #[getter]
    fn rounds(&self) -> u32 {
        self.with(|s| s.progress()).rounds
    }
    /// The legal actions in the game's notation, in its stable order.
    fn legal(&self) -> Vec<String> {
        self.with(|s| s.legal())
    }
    /// Plays an action in notation; `ActionError` names the legal actions.
    fn play(&mut self, action: &str) -> PyResult<()> {
        self.with(|s| s.play(action)).map_err(|e| ActionError::new_err(e.to_string()))?;
        self.ids = None;
        Ok(())
    }
    /// Every action id of this ruleset and player count in notation, in id order: the
    /// action with id `i` is `action_space()[i]`.
    fn action_space(&self) -> PyResult<Vec<String>> {
        self.with(|s| s.encodings().map_err(GameError::from).and_then(|e| e.action_names()))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }
    /// How many action ids there are (`len(action_space())`).
    #[getter]
    fn action_count(&self) -> usize {
        self.sizes.0
    }
    /// The names of the observation's features, in order; `seat_relative=True`: those of
    /// the seat-relative observation (`seatN` parts named `me`, `seat+1`, … by the seat's
    /// place after the observer's).
    #[pyo3(signature = (seat_relative=false))]
    fn observation_names(&mut self, seat_relative: bool) -> PyResult<Vec<String>> {
        if seat_relative {
            return Ok(self.relative()?.names().to_vec());
        }
        self.with(|s| s.encodings().map(|e| e.observation_names())).map_err(|e| PyRuntimeError::new_err(e.to_string()))
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
        let next = self.with(|s| {
            let played = s
                .encodings()
                .map_err(GameError::from)
                .and_then(|e| if known { e.play_legal_id(id) } else { e.play_id(id) });
            played.map(|()| match s.to_move() {
                ToMove::Seat(seat) => Some(usize::from(seat)),
                ToMove::Terminal => None,
            })
        });
        let next = next.map_err(|e| ActionError::new_err(e.to_string()))?;
        self.ids = None;
        Ok(next)
    }
    /// Plays the `index`-th legal action (of `legal()`).
    fn play_index(&mut self, index: usize) -> PyResult<()> {
        self.with(|s| s.encodings().map_err(GameError::from).and_then(|e| e.play_index(index)))
            .map_err(|e| ActionError::new_err(e.to_string()))?;
        self.ids = None;
        Ok(())
    }
    /// `seat`'s observation: `float32` little-endian `bytes` of `observation_len` numbers
    /// (`numpy.frombuffer(..., numpy.float32)`), built from what the seat may see only;
    /// `seat_relative=True`: the seat's own features first (see `observation_names`).
    #[pyo3(signature = (seat, seat_relative=false))]
    fn observation<'py>(&mut self, py: Python<'py>, seat: i64, seat_relative: bool) -> PyResult<Bound<'py, PyBytes>> {
        let seat = self.seat_arg(seat)?;
        self.encode(py, seat, seat_relative)
    }
    /// `(observation(seat, seat_relative), legal_mask() or None)` as `bytearray`s (numpy
    /// arrays over them are the caller's to write to, without a copy): the mask only when
    /// `seat` is to act. One call per decision for the environments.
    #[pyo3(signature = (seat, seat_relative=false))]
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        seat: i64,
        seat_relative: bool,
    ) -> PyResult<(Bound<'py, PyByteArray>, Option<Bound<'py, PyByteArray>>)> {
        let seat = self.seat_arg(seat)?;
        self.fill(seat, seat_relative)?;
        let obs = PyByteArray::new_with(py, self.scratch.len() * 4, |buf| {
            le_bytes(&self.scratch, buf);
            Ok(())
        })?;
        let mask = if self.with(|s| s.to_move()) == ToMove::Seat(seat) {
            let size = self.sizes.0;
            let ids = self.cached_ids()?;
            Some(PyByteArray::new_with(py, size, |buf| {
                for &id in ids {
                    if let Some(b) = buf.get_mut(id as usize) {
                        *b = 1;
                    }
                }
                Ok(())
            })?)
        } else {
            None
        };
        Ok((obs, mask))
    }
    /// What `seat` sees, as a dict (hidden parts hidden).
    fn view<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat_arg(seat)?;
        to_py(py, &self.with(|s| s.view_json(seat)))
    }
    /// The full state as a dict (everything, including hidden parts: for tools, not players).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.with(|s| s.state_json()))
    }
    /// Replaces the state (checked for every invariant).
    /// A key the game does not read, or a state of another player count, is refused (the
    /// game is left as it was): a typo would otherwise be lost, and the action mask and
    /// observation sizes are those of this table.
    fn set_state(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = from_py(py, state)?;
        let (before, players) = self.with(|s| (s.state_json(), s.players()));
        self.with(|s| s.set_state_json(value.clone())).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let restore = |g: &mut Self, message: String| {
            let _ = g.with(|s| s.set_state_json(before.clone()));
            Err(PyValueError::new_err(message))
        };
        let (after, n) = self.with(|s| (s.state_json(), s.players()));
        if n != players {
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
        known.add(&after, "");
        known.add(&before, "");
        if let Ok(fresh) = self.version.game.start(players, self.seed) {
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
        let (players, state, history) = self.with(|s| (s.players(), s.state_json(), s.history().to_vec()));
        let session = OwnedSession::try_new(Arc::clone(&self.version), |v| {
            let mut session = v.game.start(players, self.seed).map_err(err)?;
            share(v, players, &mut *session)?;
            session.set_state_json(state).map_err(err)?;
            *session.history_mut() = history;
            Ok::<_, PyErr>(session)
        })?;
        Ok(Game {
            version: Arc::clone(&self.version),
            source: self.source.clone(),
            seed: self.seed,
            session: Mutex::new(session),
            ids: None,
            sizes: self.sizes,
            scratch: Vec::new(),
            absolute: Vec::new(),
            relative: self.relative.clone(),
            edited: self.edited,
        })
    }
    fn __copy__(&self) -> PyResult<Game> {
        self.clone()
    }
    /// The result once the game is over (scores, tie-breaks, ranks, end), else `None`.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.with(|s| s.outcome()).map(|o| ser_to_py(py, &o)).transpose()
    }
    /// The actions played so far, in notation.
    fn history(&self) -> Vec<String> {
        self.with(|s| s.history().to_vec())
    }
    /// The action a bot (`random`, `greedy`, `mcts:N`, `learned`, `learned:FILE`) would
    /// choose now, or `None` when over.
    #[pyo3(signature = (bot, seed=DEFAULT_SEED))]
    fn bot_action(&self, bot: &str, seed: u64) -> PyResult<Option<String>> {
        let spec: BotSpec = bot.parse().map_err(|e| PyValueError::new_err(format!("bot_action: {e}")))?;
        if spec.is_external() {
            return Err(PyValueError::new_err(format!(
                "bot `{bot}`: a bot program (`exec:`) plays whole games, started by `simulate` or \
                 `rulesmith play`; here choose random, greedy or mcts:N"
            )));
        }
        let mut rng = Rng::from_seed(seed);
        let choice = self
            .with(|s| s.bots().map(|b| b.bot_choice(spec.clone(), &mut rng)))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        if let (None, BotSpec::Learned(l)) = (&choice, &spec)
            && let Some(why) = l.problem()
        {
            return Err(PyValueError::new_err(format!("bot `{bot}`: {why}")));
        }
        Ok(choice)
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
        let (players, actions, rounds, result) =
            self.with(|s| (s.players(), s.history().to_vec(), s.progress().rounds, s.outcome()));
        let bots = bots.unwrap_or_else(|| vec![rulesmith::core::record::HUMAN.to_string(); players]);
        if bots.len() != players {
            return Err(PyValueError::new_err(format!(
                "record: bots has {} names for {players} seats: give one name per seat",
                bots.len()
            )));
        }
        let record = Record {
            ruleset: self.version.name().to_string(),
            source: self.source.clone(),
            digest: self.version.digest(),
            overrides: self.version.loaded.overrides.clone(),
            game: self.version.game.game_id().to_string(),
            players,
            seed: self.seed,
            index: None,
            run_seed: None,
            rotation: None,
            bots,
            actions,
            rounds,
            result,
        };
        ser_to_py(py, &record)
    }
}

fn sim_options(
    r: &rulesmith::Ruleset,
    players: Option<i64>,
    games: u64,
    seed: u64,
    bots: &str,
    at: &str,
) -> PyResult<SimOptions> {
    let players = match players {
        None => default_players(&r.game.players()),
        Some(n) => players_arg(r, n, at)?,
    };
    let bots = bots_arg(bots, players)?;
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
fn run(py: Python<'_>, r: &rulesmith::Ruleset, opts: &SimOptions, source: &str) -> PyResult<(Report, Vec<Record>)> {
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
    players: Option<i64>,
    games: u64,
    seed: u64,
    bots: &str,
    shard: Option<(u64, u64)>,
    record: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let r = load(ruleset)?;
    let mut opts = sim_options(&r, players, games, seed, bots, "simulate")?;
    if let Some((k, n)) = shard {
        if n == 0 || k >= n {
            return Err(PyValueError::new_err(format!("shard ({k}, {n}): expected 0 <= k < n")));
        }
        opts.shard = Some((k, n));
    }
    opts.record = record;
    let (report, records) = run(py, &r, &opts, ruleset)?;
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

/// The options of the library's studies, from Python's keyword arguments.
#[allow(clippy::too_many_arguments)]
fn study_spec(
    players: Option<usize>,
    games: u64,
    seed: u64,
    bots: Option<&str>,
    rotate_seats: Option<bool>,
    metrics: bool,
    sets: Option<Vec<String>>,
    skill: Option<String>,
    detect: f64,
    check_with: Option<String>,
    check_games: Option<u64>,
) -> StudySpec {
    StudySpec {
        players,
        bots: bots.map(str::to_string),
        rotate_seats,
        no_metrics: !metrics,
        sets: sets.unwrap_or_default(),
        skill,
        detect,
        check_with,
        check_games,
        ..StudySpec::new(games, seed)
    }
}

/// Loads rulesets for a study (the command line's loader, without the cache of [`load`]).
fn study_loader(arg: &str, sets: &[String]) -> Result<rulesmith::Ruleset, RunError> {
    rulesmith::load_with(arg, sets).map_err(|e| RunError::Bad(e.render()))
}

/// A study's error as Python's: bad input a `ValueError`, a game that broke a `SimulationError`.
fn study_error(e: RunError) -> PyErr {
    match e {
        RunError::Bad(m) => PyValueError::new_err(m.trim_end().to_string()),
        RunError::Failed(m) => SimulationError::new_err(m),
    }
}

/// Plays the same games (same seeds and bots) under each ruleset and returns exactly what
/// `rulesmith compare --format json` prints for the same arguments: each ruleset's report,
/// the paired differences from the first, the power, and (`check_with`) each headline
/// figure's verdict under a second line-up. `bots=None`: the command line's default.
#[pyfunction]
#[pyo3(signature = (rulesets, players=None, games=1000, seed=DEFAULT_SEED, bots=None, rotate_seats=None, metrics=true, sets=None, skill=None, detect=2.0, check_with=None, check_games=None))]
#[allow(clippy::too_many_arguments)]
fn compare<'py>(
    py: Python<'py>,
    rulesets: Vec<String>,
    players: Option<i64>,
    games: u64,
    seed: u64,
    bots: Option<&str>,
    rotate_seats: Option<bool>,
    metrics: bool,
    sets: Option<Vec<String>>,
    skill: Option<String>,
    detect: f64,
    check_with: Option<String>,
    check_games: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    if rulesets.len() < 2 {
        return Err(PyValueError::new_err(format!(
            "compare needs two or more rulesets (got {}): the first is compared with each other one; \
             for one ruleset use simulate",
            rulesets.len()
        )));
    }
    let loaded: Vec<Arc<Version>> = rulesets.iter().map(|a| load(a)).collect::<PyResult<_>>()?;
    let lo = loaded.iter().map(|r| *r.game.players().start()).max().unwrap_or(1);
    let hi = loaded.iter().map(|r| *r.game.players().end()).min().unwrap_or(0);
    if lo > hi || loaded.is_empty() {
        return Err(PyValueError::new_err("these rulesets have no player count in common"));
    }
    let players = match players {
        None => None,
        Some(n) => match usize::try_from(n) {
            Ok(p) if (lo..=hi).contains(&p) => Some(p),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "compare: players={n} is not supported by every one of these rulesets (together they seat \
                     {lo} to {hi} players)"
                )));
            }
        },
    };
    let spec =
        study_spec(players, games, seed, bots, rotate_seats, metrics, sets, skill, detect, check_with, check_games);
    let outcome = py.detach(|| study::compare(&rulesets, &spec, &study_loader, &Plain)).map_err(study_error)?;
    to_py(py, &study::to_json(&outcome).map_err(study_error)?)
}

/// Plays the same games at every value of a ruleset's key and returns exactly what
/// `rulesmith sweep --format json` prints for the same arguments. `vary`: `KEY=A..B[:STEP]`
/// or `KEY=v1,v2,…` (two: a grid); `base`: one value per key; `figures`: as `--figure`;
/// `shard=(k, n)`: only the seeds of shard `k` (0-based) of `n`, to merge.
#[pyfunction]
#[pyo3(signature = (ruleset, vary, base=None, figures=None, players=None, games=1000, seed=DEFAULT_SEED, bots=None, rotate_seats=None, metrics=true, sets=None, skill=None, detect=2.0, check_with=None, check_games=None, shard=None))]
#[allow(clippy::too_many_arguments)]
fn sweep<'py>(
    py: Python<'py>,
    ruleset: String,
    vary: Vec<String>,
    base: Option<Vec<String>>,
    figures: Option<Vec<String>>,
    players: Option<usize>,
    games: u64,
    seed: u64,
    bots: Option<&str>,
    rotate_seats: Option<bool>,
    metrics: bool,
    sets: Option<Vec<String>>,
    skill: Option<String>,
    detect: f64,
    check_with: Option<String>,
    check_games: Option<u64>,
    shard: Option<(u64, u64)>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some((k, n)) = shard
        && (n == 0 || k >= n)
    {
        return Err(PyValueError::new_err(format!("shard ({k}, {n}): expected 0 <= k < n")));
    }
    let spec =
        study_spec(players, games, seed, bots, rotate_seats, metrics, sets, skill, detect, check_with, check_games);
    let args =
        study::SweepArgs { ruleset, vary, base: base.unwrap_or_default(), figures: figures.unwrap_or_default(), shard };
    let report = py.detach(|| study::sweep(&args, &spec, &study_loader, &Plain)).map_err(study_error)?;
    to_py(py, &study::to_json(&report).map_err(study_error)?)
}

/// The value of a ruleset's key that brings a figure closest to a target, as
/// `rulesmith tune --format json` reports it for the same arguments: `vary`
/// `KEY=A..B[:STEP]`, `target` `FIGURE=VALUE` (`rounds=15`, `seat 0 win share=25%`).
#[pyfunction]
#[pyo3(signature = (ruleset, vary, target, players=None, games=1000, seed=DEFAULT_SEED, bots=None, rotate_seats=None, metrics=true, sets=None, detect=2.0, check_with=None, check_games=None))]
#[allow(clippy::too_many_arguments)]
fn tune<'py>(
    py: Python<'py>,
    ruleset: String,
    vary: String,
    target: String,
    players: Option<usize>,
    games: u64,
    seed: u64,
    bots: Option<&str>,
    rotate_seats: Option<bool>,
    metrics: bool,
    sets: Option<Vec<String>>,
    detect: f64,
    check_with: Option<String>,
    check_games: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let spec =
        study_spec(players, games, seed, bots, rotate_seats, metrics, sets, None, detect, check_with, check_games);
    let args = study::TuneArgs { ruleset, vary, target };
    let report = py.detach(|| study::tune(&args, &spec, &study_loader, &Plain)).map_err(study_error)?;
    to_py(py, &study::to_json(&report).map_err(study_error)?)
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
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(tune, m)?)?;
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
