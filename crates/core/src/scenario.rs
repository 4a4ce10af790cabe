//! Scenario files: set up a position, play actions, check expectations.
//!
//! ```toml
//! description = "Captain must load the ship that takes the most barrels"
//! ruleset = "puerto-rico"        # bundled name or path relative to this file
//! players = 4
//! seed = 7
//!
//! [set]                          # JSON Pointers into the state, applied after setup
//! "/players/0/goods/sugar" = 6
//!
//! [[step]]
//! play = "captain"               # one action or a list, for whoever is to move
//! by = 0                         # optional: the seat that must be to move first
//!
//! [[step]]                       # expectations are checked after the step's plays
//! expect.to_move = 0
//! expect.legal_includes = ["..."]
//! expect.state = { "/players/0/goods/sugar" = 0 }
//! expect.rejects = "ship sugar on 5"
//! ```
//!
//! A scenario file is read with located diagnostics (every unknown key and wrong type
//! at once). Running it needs the game of its ruleset; the runner asks a loader
//! callback for it, so this crate does not depend on the game crates.

use crate::erased::{AnyGame, AnySession};
use crate::game::{GameError, Seat, ToMove};
use crate::ruleset::decode::{self, Table};
use crate::ruleset::{Diagnostics, Kind, LoadFailure, Node, Origin, Sources, node};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The seed of a scenario (and of every command) that does not give one.
pub const DEFAULT_SEED: u64 = crate::sim::DEFAULT_SEED;

/// A parsed scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The file, as it was named when read.
    pub path: PathBuf,
    pub description: String,
    /// The ruleset as written in the file.
    pub ruleset: String,
    /// The ruleset to load: a bundled name, or the path resolved against the file's folder.
    pub ruleset_arg: String,
    /// `None`: the ruleset's default player count (see [`crate::sim::default_players`]).
    pub players: Option<usize>,
    pub seed: u64,
    pub set: Vec<Edit>,
    pub steps: Vec<Step>,
}

/// One `[set]` edit: a JSON Pointer and the value to put there.
#[derive(Clone, Debug, PartialEq)]
pub struct Edit {
    pub pointer: String,
    pub value: Value,
    /// `file:line:col` of the edit, for messages.
    pub location: String,
}

/// One `[[step]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// 1-based, in file order.
    pub number: usize,
    pub location: String,
    pub by: Option<Seat>,
    pub play: Vec<String>,
    pub expect: Expect,
}

/// What must hold after a step's plays. Empty fields are not checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expect {
    pub to_move: Option<Seat>,
    pub over: Option<bool>,
    /// The exact set of legal actions (order does not matter).
    pub legal: Option<Vec<String>>,
    pub legal_includes: Vec<String>,
    pub legal_excludes: Vec<String>,
    /// JSON Pointer → expected value.
    pub state: Vec<(String, Value)>,
    /// Actions that must be refused here.
    pub rejects: Vec<String>,
    pub scores: Option<Vec<i64>>,
    /// The seat(s) ranked first.
    pub winner: Option<Vec<Seat>>,
}

impl Expect {
    /// Whether nothing is expected.
    pub fn is_empty(&self) -> bool {
        *self == Expect::default()
    }
}

/// The result of running a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    /// An expectation or a `play` failed at this step (1-based).
    Fail {
        step: usize,
        message: String,
    },
    /// The scenario cannot be run: unreadable, invalid, unknown ruleset, refused `[set]`.
    Invalid(String),
}

impl Verdict {
    /// The report line: `PASS name` or `FAIL name: step 3: …`.
    pub fn line(&self, name: &str) -> String {
        match self {
            Verdict::Pass => format!("PASS {name}"),
            Verdict::Fail { step, message } => format!("FAIL {name}: step {step}: {message}"),
            // A rendered diagnostic opens with its own `error: `, which this line already says.
            Verdict::Invalid(message) => {
                format!("FAIL {name}: invalid scenario: {}", message.strip_prefix("error: ").unwrap_or(message))
            }
        }
    }
}

/// Why a scenario could not be read: diagnostics with their sources.
pub type ReadError = LoadFailure;

/// Reads and parses a scenario file.
pub fn read(path: &Path) -> Result<Scenario, ReadError> {
    match crate::input::read_text(path) {
        Ok(text) => parse(path, &text),
        Err(e) => {
            let message = match e {
                crate::input::InputError::Io { path, message } => {
                    format!("cannot read scenario file `{path}`: {message}")
                }
                e => e.to_string(),
            };
            let mut diagnostics = Diagnostics::default();
            diagnostics.error_at(None, message);
            Err(LoadFailure { sources: Sources::default(), diagnostics })
        }
    }
}

/// True if `ruleset` names a file rather than a bundled ruleset (same rule as the loader).
pub fn looks_like_path(ruleset: &str) -> bool {
    ruleset.ends_with(".toml") || ruleset.contains('/') || ruleset.contains('\\')
}

/// Parses a scenario from its text; `path` names it in messages and anchors a relative
/// ruleset path. Reports every problem of the file at once.
pub fn parse(path: &Path, text: &str) -> Result<Scenario, ReadError> {
    let mut sources = Sources::default();
    let file = sources.add(path.display().to_string(), text);
    let mut d = Diagnostics::default();
    let parsed = node::parse(file, text, &mut d).and_then(|tree| decode_scenario(path, &tree, &sources, &mut d));
    match parsed {
        Some(s) if d.is_empty() => Ok(s),
        _ => {
            // In file order, whatever order the checks found them in.
            d.items.sort_by_key(|x| x.origin.map(|o| (o.file, o.start)));
            Err(LoadFailure { sources, diagnostics: d })
        }
    }
}

/// True if a TOML text is a scenario (a top-level `ruleset = "…"` string) rather than a
/// ruleset (a `[ruleset]` table).
pub fn is_scenario_text(text: &str) -> bool {
    matches!(text.parse::<toml::Table>().ok().and_then(|t| t.get("ruleset").cloned()), Some(toml::Value::String(_)))
}

/// True if a TOML text is a ruleset (a top-level `[ruleset]` table).
pub fn is_ruleset_text(text: &str) -> bool {
    matches!(text.parse::<toml::Table>().ok().and_then(|t| t.get("ruleset").cloned()), Some(toml::Value::Table(_)))
}

fn decode_scenario(path: &Path, tree: &Node, sources: &Sources, d: &mut Diagnostics) -> Option<Scenario> {
    let mut t = Table::new(tree, d)?;
    let description = t.str_or(d, "description", "").unwrap_or_default().to_string();
    let ruleset = t.str(d, "ruleset").map(str::to_string);
    let players = match t.get("players") {
        Some(n) => decode::int_in(n, d, 1..=crate::MAX_PLAYERS as i64).map(|p| Some(p as usize)),
        None => Some(None),
    };
    let seed = t.int_or(d, "seed", DEFAULT_SEED as i64, 0..=i64::MAX).map(|s| s as u64);
    let mut set = Vec::new();
    if let Some(mut st) = t.opt_table(d, "set") {
        for e in st.entries_as_map() {
            if check_pointer(&e.key, e.key_origin, d) {
                set.push(Edit {
                    pointer: e.key.clone(),
                    value: json_of(&e.value),
                    location: sources.locate(e.key_origin),
                });
            }
        }
        st.finish(d);
    }
    let mut steps = Vec::new();
    if let Some(items) = t.opt_array(d, "step") {
        for (i, item) in items.iter().enumerate() {
            if let Some(step) = decode_step(i + 1, item, sources, d) {
                steps.push(step);
            }
        }
    }
    t.finish(d);
    let ruleset = ruleset?;
    let ruleset_arg = if looks_like_path(&ruleset) {
        let dir = path.parent().unwrap_or(Path::new(""));
        dir.join(&ruleset).display().to_string()
    } else {
        ruleset.clone()
    };
    Some(Scenario {
        path: path.to_path_buf(),
        description,
        ruleset,
        ruleset_arg,
        players: players?,
        seed: seed?,
        set,
        steps,
    })
}

fn decode_step(number: usize, n: &Node, sources: &Sources, d: &mut Diagnostics) -> Option<Step> {
    let before = d.len();
    let mut t = Table::new(n, d)?;
    let by = t.get("by").and_then(|n| seat_of(n, d));
    let play = t.get("play").map(|n| one_or_many(n, d)).unwrap_or_default();
    let expect = match t.opt_table(d, "expect") {
        Some(e) => decode_expect(e, d),
        None => Expect::default(),
    };
    t.finish(d);
    (d.len() == before).then(|| Step { number, location: sources.locate(n.origin), by, play, expect })
}

fn decode_expect(mut t: Table<'_>, d: &mut Diagnostics) -> Expect {
    let mut e = Expect {
        to_move: t.get("to_move").and_then(|n| seat_of(n, d)),
        over: t.get("over").and_then(|n| decode::bool_of(n, d)),
        legal: t.get("legal").map(|n| one_or_many(n, d)),
        legal_includes: t.get("legal_includes").map(|n| one_or_many(n, d)).unwrap_or_default(),
        legal_excludes: t.get("legal_excludes").map(|n| one_or_many(n, d)).unwrap_or_default(),
        rejects: t.get("rejects").map(|n| one_or_many(n, d)).unwrap_or_default(),
        scores: t.get("scores").and_then(|n| decode::ints_of(n, d, i64::from(i32::MIN)..=i64::from(i32::MAX))),
        winner: t.get("winner").and_then(|n| match &n.kind {
            Kind::Array(items) => items.iter().map(|i| seat_of(i, d)).collect(),
            _ => seat_of(n, d).map(|s| vec![s]),
        }),
        state: Vec::new(),
    };
    if let Some(mut st) = t.opt_table(d, "state") {
        for entry in st.entries_as_map() {
            if check_pointer(&entry.key, entry.key_origin, d) {
                e.state.push((entry.key.clone(), json_of(&entry.value)));
            }
        }
        st.finish(d);
    }
    t.finish(d);
    e
}

fn seat_of(n: &Node, d: &mut Diagnostics) -> Option<Seat> {
    decode::int_in(n, d, 0..=crate::MAX_PLAYERS as i64 - 1).map(|s| s as Seat)
}

/// A string or an array of strings.
fn one_or_many(n: &Node, d: &mut Diagnostics) -> Vec<String> {
    match &n.kind {
        Kind::Str(s) => vec![s.clone()],
        Kind::Array(_) => decode::strs_of(n, d).unwrap_or_default().into_iter().map(str::to_string).collect(),
        _ => {
            d.error(n.origin, format!("expected an action (a string) or a list of actions, found {}", n.type_name()));
            Vec::new()
        }
    }
}

/// RFC 6901: empty, or `/`-separated tokens where `~` is followed by `0` or `1`.
fn check_pointer(p: &str, origin: Origin, d: &mut Diagnostics) -> bool {
    let ok = (p.is_empty() || p.starts_with('/')) && {
        let mut chars = p.chars();
        let mut ok = true;
        while let Some(c) = chars.next() {
            if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
                ok = false;
            }
        }
        ok
    };
    if !ok {
        d.error(
            origin,
            format!(
                "`{p}` is not a JSON Pointer: expected a path such as \"/players/0/goods/sugar\" (starting with `/`, `~` written `~0`, `/` inside a key written `~1`)"
            ),
        );
    }
    ok
}

/// A TOML value as JSON (integers stay integers).
fn json_of(n: &Node) -> Value {
    n.to_json()
}

/// Loads the game of a ruleset argument (bundled name or path), e.g. with caching.
pub type Loader<'a> = dyn FnMut(&str) -> Result<Arc<dyn AnyGame>, String> + 'a;

/// A setup or step that could not be carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The scenario itself is wrong (bad input).
    Invalid(String),
    /// A `by` or `play` failed at this step.
    Step { step: usize, message: String },
}

impl From<Problem> for Verdict {
    fn from(p: Problem) -> Self {
        match p {
            Problem::Invalid(m) => Verdict::Invalid(m),
            Problem::Step { step, message } => Verdict::Fail { step, message },
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Invalid(m) => f.write_str(m),
            Problem::Step { step, message } => write!(f, "step {step}: {message}"),
        }
    }
}

/// Runs every `*.toml` scenario of `dir` (not recursive, in name order) against one
/// game registered under `ruleset`, and requires each description to cite its source
/// (to contain one of `cites`, e.g. `"S002:L"`). Returns how many files ran and a line per
/// failure (none when all pass): the check a game crate's own scenario test makes.
pub fn run_folder(dir: &Path, ruleset: &str, game: Arc<dyn AnyGame>, cites: &[&str]) -> (usize, Vec<String>) {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect(),
        Err(e) => return (0, vec![format!("cannot read {}: {e}", dir.display())]),
    };
    files.sort();
    let mut load = |arg: &str| {
        if arg == ruleset {
            Ok(game.clone())
        } else {
            Err(format!("unexpected ruleset `{arg}` (expected `{ruleset}`)"))
        }
    };
    let mut failed = Vec::new();
    for f in &files {
        let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let s = match read(f) {
            Ok(s) => s,
            Err(e) => {
                failed.push(format!("FAIL {name}: {}", e.render()));
                continue;
            }
        };
        if !cites.iter().any(|c| s.description.contains(c)) {
            failed.push(format!("FAIL {name}: the description must cite its source ({})", cites.join(" or ")));
        }
        let v = run(&s, &mut load);
        if v != Verdict::Pass {
            failed.push(v.line(&name));
        }
    }
    (files.len(), failed)
}

/// Why a scenario whose steps expect nothing is invalid.
pub const NOTHING_CHECKED: &str =
    "this scenario checks nothing: no `[[step]]` has an `expect` (add one, e.g. `expect.to_move = 0`)";

/// Runs a scenario: setup, `[set]`, then each step's plays and expectations. A scenario
/// whose steps expect nothing is [`Verdict::Invalid`] once its plays have run.
pub fn run(scenario: &Scenario, load: &mut Loader<'_>) -> Verdict {
    let game = match load(&scenario.ruleset_arg) {
        Ok(g) => g,
        // A loader renders its diagnostics as a report of their own (`error: …`); inside this
        // verdict, which already says the scenario is invalid, the label would be said twice.
        Err(e) => {
            let e = e.trim_end();
            return Verdict::Invalid(format!(
                "ruleset `{}`: {}",
                scenario.ruleset,
                e.strip_prefix("error: ").unwrap_or(e)
            ));
        }
    };
    let mut session = match setup(scenario, &*game) {
        Ok(s) => s,
        Err(p) => return p.into(),
    };
    for step in &scenario.steps {
        if let Err(p) = play_step(step, session.as_mut()) {
            return p.into();
        }
        let problems = check(&step.expect, session.as_mut());
        if !problems.is_empty() {
            return Verdict::Fail { step: step.number, message: problems.join("; ") };
        }
    }
    if scenario.steps.iter().all(|s| s.expect.is_empty()) {
        // Its plays were legal, but a file that expects nothing passes whatever they did:
        // a forgotten or misplaced `expect` would hide.
        return Verdict::Invalid(NOTHING_CHECKED.to_string());
    }
    Verdict::Pass
}

/// The position after setup and `[set]`.
pub fn setup<'g>(scenario: &Scenario, game: &'g dyn AnyGame) -> Result<Box<dyn AnySession + 'g>, Problem> {
    let players = scenario.players.unwrap_or_else(|| crate::sim::default_players(&game.players()));
    let mut session = game.start(players, scenario.seed).map_err(|e| Problem::Invalid(e.to_string()))?;
    if !scenario.set.is_empty() {
        apply_edits(&scenario.set, game, players, scenario.seed, session.as_mut()).map_err(Problem::Invalid)?;
    }
    Ok(session)
}

/// The position after setup, `[set]` and every step's plays (expectations are not checked).
pub fn reach<'g>(scenario: &Scenario, game: &'g dyn AnyGame) -> Result<Box<dyn AnySession + 'g>, Problem> {
    let mut session = setup(scenario, game)?;
    for step in &scenario.steps {
        play_step(step, session.as_mut())?;
    }
    Ok(session)
}

/// Applies `[set]` edits to the state JSON and installs the result, which the game checks.
/// A refusal names the edits that break the state.
fn apply_edits(
    edits: &[Edit],
    game: &dyn AnyGame,
    players: usize,
    seed: u64,
    session: &mut dyn AnySession,
) -> Result<(), String> {
    let original = session.state_json();
    let mut edited = original.clone();
    for e in edits {
        put(&mut edited, e).map_err(|m| format!("[set] {}: {m}", e.location))?;
    }
    let Err(err) = set_checked(session, edited) else {
        return stuck(edits, session);
    };
    // Name the edits without which the state would be valid.
    let mut culprits = Vec::new();
    if edits.len() > 1 {
        if let Ok(mut probe) = game.start(players, seed) {
            for (i, e) in edits.iter().enumerate() {
                let mut others = original.clone();
                let put_all =
                    edits.iter().enumerate().filter(|(j, _)| *j != i).all(|(_, o)| put(&mut others, o).is_ok());
                if put_all && set_checked(probe.as_mut(), others).is_ok() {
                    culprits.push(e);
                }
            }
        }
    }
    let blame = match (edits, culprits.as_slice()) {
        ([only], _) => format!("`{}` = {} ({})", only.pointer, only.value, only.location),
        (_, []) => format!(
            "the edits together ({})",
            edits.iter().map(|e| format!("`{}`", e.pointer)).collect::<Vec<_>>().join(", ")
        ),
        (_, cs) => {
            cs.iter().map(|e| format!("`{}` = {} ({})", e.pointer, e.value, e.location)).collect::<Vec<_>>().join(", ")
        }
    };
    Err(format!("[set] {blame} leaves an impossible state: {}", describe(&err)))
}

/// Every edit must stick: the state read back carries each edited value. A value the
/// state derives (an income from tiles, a count it does not keep) or a reader normalises
/// away is refused, naming what the game derives it from, since a scenario that checks
/// something other than what it says is worse than one refused.
fn stuck(edits: &[Edit], session: &dyn AnySession) -> Result<(), String> {
    let now = session.state_json();
    for e in edits {
        let found = now.pointer(&e.pointer);
        if found.is_some_and(|back| sticks(&e.value, back)) {
            continue;
        }
        let kept = found.map_or_else(|| "nothing".to_string(), compact);
        let why = (session.views().ok())
            .and_then(|v| v.derived(&e.pointer))
            .unwrap_or_else(|| "the game derives it from the rest of the state or does not keep it".to_string());
        return Err(format!(
            "[set] `{}` = {} ({}) does not stick: the state reads back {kept} there; {why}",
            e.pointer, e.value, e.location
        ));
    }
    Ok(())
}

/// Whether the value read back carries the edited one, up to how a reader normalises: a
/// map may gain keys the edit left out at their empty value (the residents of a tile not
/// named: 0), and a list kept as a set may come back in the game's order. Every value
/// the edit names must come back equal.
fn sticks(edit: &Value, back: &Value) -> bool {
    match (edit, back) {
        (Value::Object(e), Value::Object(b)) => {
            e.iter().all(|(k, v)| b.get(k).is_some_and(|w| sticks(v, w)))
                && b.iter().all(|(k, w)| e.contains_key(k) || is_empty(w))
        }
        (Value::Array(e), Value::Array(b)) if e.len() == b.len() => {
            let mut used = vec![false; b.len()];
            e.iter().all(|v| match (0..b.len()).find(|&i| !used[i] && sticks(v, &b[i])) {
                Some(i) => {
                    used[i] = true;
                    true
                }
                None => false,
            })
        }
        (Value::Number(e), Value::Number(b)) => e.as_f64() == b.as_f64(),
        _ => edit == back,
    }
}

/// A value a reader fills in for what an edit left out: 0, false, null, "" or empty.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.values().all(is_empty),
        Value::Bool(true) => false,
    }
}

/// Sets an edited state, refusing one in which the game goes on but nobody can: the seat
/// to move must be one of the players and have a legal action. (Only for `[set]`: a
/// seat's view, read back elsewhere, may hide what the legal actions depend on.)
fn set_checked(session: &mut dyn AnySession, value: Value) -> Result<(), GameError> {
    session.set_state_json(value)?;
    if let crate::ToMove::Seat(seat) = session.to_move() {
        let players = session.players();
        if usize::from(seat) >= players {
            return Err(GameError::InvalidState(format!("seat {seat} is to move, but there are {players} players")));
        }
        if session.legal().is_empty() {
            return Err(GameError::InvalidState(format!(
                "seat {seat} is to move but has no legal action, and the game is not over"
            )));
        }
    }
    Ok(())
}

fn describe(e: &GameError) -> String {
    match e {
        GameError::InvalidState(m) => m.clone(),
        other => other.to_string(),
    }
}

/// Replaces the value at an existing pointer (a typo must not silently add a key).
fn put(doc: &mut Value, e: &Edit) -> Result<(), String> {
    match doc.pointer_mut(&e.pointer) {
        Some(slot) => {
            *slot = e.value.clone();
            Ok(())
        }
        None => Err(format!("`{}`: {}", e.pointer, missing(doc, &e.pointer))),
    }
}

/// Explains a pointer that addresses nothing: the longest prefix that exists and what it holds.
fn missing(doc: &Value, pointer: &str) -> String {
    let mut prefix = pointer;
    while let Some(cut) = prefix.rfind('/') {
        prefix = &prefix[..cut];
        if let Some(v) = doc.pointer(prefix) {
            let shown = if prefix.is_empty() { "the state" } else { prefix };
            return match v {
                Value::Object(m) => format!(
                    "no such value in the state; `{shown}` has keys {}",
                    m.keys().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                ),
                Value::Array(a) => format!("no such value in the state; `{shown}` is a list of {} items", a.len()),
                other => format!("no such value in the state; `{shown}` is {}", compact(other)),
            };
        }
    }
    "no such value in the state".to_string()
}

fn play_step(step: &Step, session: &mut dyn AnySession) -> Result<(), Problem> {
    let fail = |message: String| Problem::Step { step: step.number, message };
    if let Some(by) = step.by {
        match session.to_move() {
            ToMove::Seat(s) if s == by => {}
            ToMove::Seat(s) => return Err(fail(format!("expected seat {by} to move, found seat {s}"))),
            ToMove::Terminal => return Err(fail(format!("expected seat {by} to move, found the game over"))),
        }
    }
    let many = step.play.len() > 1;
    for (i, action) in step.play.iter().enumerate() {
        let which = if many { format!("play {} of {} ", i + 1, step.play.len()) } else { "play ".to_string() };
        if let Err(e) = session.play(action) {
            let msg = match e {
                GameError::Over => format!("{which}`{action}`: the game is over"),
                e => format!("{which}`{action}` refused: {e}"),
            };
            return Err(fail(msg));
        }
    }
    Ok(())
}

/// Notation compared loosely: case and runs of spaces do not matter.
fn norm(a: &str) -> String {
    a.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

fn list(items: &[String]) -> String {
    if items.is_empty() { "none".to_string() } else { format!("[{}]", items.join(", ")) }
}

fn to_move_text(t: ToMove) -> String {
    match t {
        ToMove::Seat(s) => format!("seat {s}"),
        ToMove::Terminal => "the game over".to_string(),
    }
}

/// Checks a step's expectations; every mismatch is described.
fn check(e: &Expect, session: &mut dyn AnySession) -> Vec<String> {
    let mut out = Vec::new();
    let to_move = session.to_move();
    if let Some(want) = e.to_move {
        if to_move != ToMove::Seat(want) {
            out.push(format!("expected seat {want} to move, found {}", to_move_text(to_move)));
        }
    }
    if let Some(want) = e.over {
        let over = to_move == ToMove::Terminal;
        if over != want {
            out.push(if want {
                format!("expected the game to be over, found {} to move", to_move_text(to_move))
            } else {
                "expected the game to go on, found it over".to_string()
            });
        }
    }
    let legal = session.legal();
    let legal_norm: Vec<String> = legal.iter().map(|a| norm(a)).collect();
    if let Some(want) = &e.legal {
        let want_norm: Vec<String> = want.iter().map(|a| norm(a)).collect();
        let missing: Vec<String> = want_norm.iter().filter(|a| !legal_norm.contains(a)).cloned().collect();
        let extra: Vec<String> = legal_norm.iter().filter(|a| !want_norm.contains(a)).cloned().collect();
        if !missing.is_empty() || !extra.is_empty() {
            out.push(format!(
                "expected legal {}, found {} (missing: {}; not expected: {})",
                list(want),
                list(&legal),
                list(&missing),
                list(&extra)
            ));
        }
    }
    for a in &e.legal_includes {
        if !legal_norm.contains(&norm(a)) {
            out.push(format!("expected `{a}` to be legal, found legal {}", list(&legal)));
        }
    }
    for a in &e.legal_excludes {
        if legal_norm.contains(&norm(a)) {
            out.push(format!("expected `{a}` not to be legal, but it is"));
        }
    }
    if !e.state.is_empty() {
        let state = session.state_json();
        for (pointer, want) in &e.state {
            match state.pointer(pointer) {
                Some(found) if json_eq(found, want) => {}
                Some(found) => out.push(format!("expected {pointer} = {}, found {}", compact(want), compact(found))),
                None => out.push(format!("expected {pointer} = {}, found {}", compact(want), missing(&state, pointer))),
            }
        }
    }
    let outcome = session.outcome();
    if let Some(want) = &e.scores {
        match &outcome {
            Some(o) => {
                let found: Vec<i64> = o.scores.iter().map(|&s| i64::from(s)).collect();
                if &found != want {
                    out.push(format!("expected scores {want:?}, found {found:?}"));
                }
            }
            None => out.push(format!("expected scores {want:?}, found the game still going on")),
        }
    }
    if let Some(want) = &e.winner {
        match &outcome {
            Some(o) => {
                let found = o.winners();
                if &found != want {
                    out.push(format!("expected winner {}, found {}", seats(want), seats(&found)));
                }
            }
            None => out.push(format!("expected winner {}, found the game still going on", seats(want))),
        }
    }
    // Last: an accepted `rejects` action changes the state (the scenario fails anyway).
    for a in &e.rejects {
        if !out.is_empty() {
            break;
        }
        match session.play(a) {
            Ok(()) => out.push(format!("expected `{a}` to be refused, but it was accepted")),
            Err(GameError::Unparsable { reason, .. }) => out.push(format!(
                "expected `{a}` to be refused as illegal, but it is not an action of this game ({reason})"
            )),
            Err(_) => {}
        }
    }
    out
}

fn seats(s: &[Seat]) -> String {
    match s {
        [one] => format!("seat {one}"),
        many => format!("seats {}", many.iter().map(ToString::to_string).collect::<Vec<_>>().join(" and ")),
    }
}

/// JSON on one line.
pub fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// JSON equality where `1` equals `1.0`.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(x), Some(y), _, _) => x == y,
            (_, _, Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Every `.toml` file under the given files and folders (folders recursively, sorted),
/// each file once: folders and files are told apart by their canonical path, so a symlink
/// loop (`ln -s . loop`) is walked once and a linked file is not counted twice.
pub fn collect_files(args: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut walk = Walk::default();
    for a in args {
        let meta = std::fs::metadata(a).map_err(|e| format!("cannot read `{}`: {e}", a.display()))?;
        if meta.is_dir() {
            walk.dir(a)?;
        } else {
            walk.file(a);
        }
    }
    Ok(walk.out)
}

#[derive(Default)]
struct Walk {
    seen: std::collections::HashSet<PathBuf>,
    out: Vec<PathBuf>,
}

impl Walk {
    /// True the first time a path (by its canonical form) is met.
    fn first(&mut self, p: &Path) -> bool {
        self.seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()))
    }

    fn file(&mut self, p: &Path) {
        if self.first(p) {
            self.out.push(p.to_path_buf());
        }
    }

    fn dir(&mut self, dir: &Path) -> Result<(), String> {
        if !self.first(dir) {
            return Ok(());
        }
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read folder `{}`: {e}", dir.display()))?;
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                self.dir(&p)?;
            } else if p.extension().is_some_and(|e| e == "toml") {
                self.file(&p);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
