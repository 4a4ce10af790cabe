//! A local web table for rulesmith's games: play at one screen (hot-seat) or by one
//! secret link per seat, the other seats played by bots, and step through game records,
//! on a drawn SVG board.
//!
//! The page (HTML, CSS and JavaScript, bundled in the binary) draws each game's board from
//! the seat's view JSON ([`rulesmith_core::erased::AnySession::view_json`], what `rulesmith state --seat` prints),
//! so a seat's page carries nothing the seat may not see. Every request is bounded in size
//! and time, every connection in time and number ([`Limits`]); a request not addressed to
//! the server (`Host`), sent by another site's page (`Origin`, `Sec-Fetch-Site`) or, when it
//! changes something, not sent as JSON is refused before any route; a wrong one (an
//! illegal or stale action, an unknown table, seat or token, a malformed body) is refused
//! with a 4xx and a JSON `{"error": …}` naming what is wrong.
//!
//! ```no_run
//! # fn demo(game: &'static dyn rulesmith_core::erased::AnyGame) -> Result<(), Box<dyn std::error::Error>> {
//! use rulesmith_serve::{App, Options, Ruleset, Seating, TableSpec};
//! use std::sync::Arc;
//! let ruleset = Arc::new(Ruleset {
//!     name: "puerto-rico".into(),
//!     source: "puerto-rico".into(),
//!     overrides: vec![],
//!     digest: "…".into(),
//!     rules: serde_json::Value::Null,
//!     game,
//! });
//! let table = TableSpec::new(Arc::clone(&ruleset), 4, 1, vec![None, Some("greedy".parse()?), Some("greedy".parse()?), Some("greedy".parse()?)]);
//! let app = App::new(Options { tables: vec![table], rulesets: vec![ruleset], seating: Seating::HotSeat, ..Options::default() })?;
//! rulesmith_serve::run(app, "127.0.0.1:8163".parse()?, |addr, app| {
//!     for link in app.links() {
//!         println!("{}: http://{addr}{}", link.label, link.path);
//!     }
//! })?;
//! # Ok(())
//! # }
//! ```

mod api;
mod guard;
mod net;
mod refusal;
mod rejection;
mod replay;
mod table;

use rulesmith_core::bots::BotSpec;
use rulesmith_core::erased::AnyGame;
use rulesmith_core::record::Record;
use std::net::SocketAddr;
use std::sync::Arc;

pub use net::Limits;
pub use replay::ReplayLimits;

/// A ruleset the server plays: its names, its digest (records carry it) and its game.
pub struct Ruleset {
    /// `[ruleset] name`.
    pub name: String,
    /// How it was named on the command line (a bundled name or a path), for records.
    pub source: String,
    /// The `--set KEY=VALUE` overrides it was loaded with, in order, for records (a replay
    /// or resume loads it with the same).
    pub overrides: Vec<String>,
    /// The effective ruleset's digest, for records.
    pub digest: String,
    /// The effective ruleset as JSON (`rulesmith show --format json`): public rules the
    /// page reads names from (role cards, buildings).
    pub rules: serde_json::Value,
    /// The game. `'static`: sessions borrow it for as long as the server runs (a binary
    /// leaks the few rulesets it serves).
    pub game: &'static dyn AnyGame,
}

/// How people sit at the tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seating {
    /// One page per table; whoever's seat is to move acts there; undo is allowed.
    #[default]
    HotSeat,
    /// One link per person's seat, with a secret token: a seat's page shows that seat's
    /// view only and acts for that seat only.
    Links,
}

/// One table to open.
pub struct TableSpec {
    /// The rules played.
    pub ruleset: Arc<Ruleset>,
    /// The player count (within the ruleset's range).
    pub players: usize,
    /// The game's seed: the same seed deals the same game.
    pub seed: u64,
    /// Per seat: a bot, or `None` for a person.
    pub seats: Vec<Option<BotSpec>>,
    /// A saved game to continue (its actions are played again first); its ruleset,
    /// players, seed and seats must be this table's.
    pub resume: Option<Record>,
    /// Writes the record (the `play --record` format) after every decision, and once when
    /// the table opens (so a path that cannot be written is found before anyone plays); an
    /// error is a message naming the file.
    pub save: Option<Saver>,
}

/// Keeps a table's record: see [`TableSpec::save`].
pub type Saver = Box<dyn Fn(&Record) -> Result<(), String> + Send + Sync>;

impl TableSpec {
    /// A new game at a table, not saved to a file.
    pub fn new(ruleset: Arc<Ruleset>, players: usize, seed: u64, seats: Vec<Option<BotSpec>>) -> Self {
        TableSpec { ruleset, players, seed, seats, resume: None, save: None }
    }
}

/// What the server offers.
#[derive(Default)]
pub struct Options {
    /// The tables, numbered from 0 in this order.
    pub tables: Vec<TableSpec>,
    /// Records to step through, with their (digest-checked) rulesets.
    pub replays: Vec<(Arc<Ruleset>, Record)>,
    /// The rulesets a record sent from the page may be replayed under (matched by digest:
    /// a page never makes the server read a file).
    pub rulesets: Vec<Arc<Ruleset>>,
    /// How people sit at every table.
    pub seating: Seating,
    /// Names the server also answers to (a `Host` or an `Origin` of its page), as
    /// `name` or `name:port`: it always answers to `localhost` and IP addresses at the port
    /// it serves, and refuses every other name (a page of another site that points its
    /// own name at this machine).
    pub hosts: Vec<String>,
    /// Its bounds on connections and on records sent to it.
    pub limits: Limits,
}

/// Why the server could not start, or a table could not open.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A table or record that does not fit (a message naming what and where).
    #[error("{0}")]
    Bad(String),
    /// The system's random source failed (seat tokens and links tables' seeds come from it).
    #[error("cannot draw a secret (a seat token or a seed) from the system's random source: {0}")]
    Random(String),
    /// The address could not be listened on (in use, not this machine's).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why not.
        source: std::io::Error,
    },
    /// The runtime could not start, or serving failed.
    #[error("the web server stopped: {0}")]
    Io(#[from] std::io::Error),
    /// A bot given as text does not read.
    #[error("{0}")]
    Bot(#[from] rulesmith_core::bots::BadBotSpec),
}

/// A page to open, for the person it is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Whom or what it is for (`puerto-rico, seat 1`).
    pub label: String,
    /// The path and query to append to the server's address (`/?table=0&seat=1&token=…`).
    pub path: String,
}

/// The server's tables and replays, shared by its handlers.
#[derive(Clone)]
pub struct App {
    shared: Arc<api::Shared>,
    limits: Limits,
}

impl App {
    /// Opens the tables (a resumed game is played again and checked) and replays.
    pub fn new(options: Options) -> Result<App, Error> {
        let mut tables = Vec::with_capacity(options.tables.len());
        for (id, spec) in options.tables.into_iter().enumerate() {
            tables.push(Arc::new(table::Table::open(id, spec, options.seating)?));
        }
        let mut replays = replay::Replays::new(options.limits.replays);
        for (ruleset, record) in options.replays {
            if let Some(t) = tables.iter().find(|t| t.keeps_secret(record.seed)) {
                return Err(Error::Bad(format!(
                    "a record to replay has table {}'s seed, and that table seats \
                     people by link: its replay would show every hidden holding; give the table another seed",
                    t.id
                )));
            }
            replays.add(ruleset, record).map_err(|e| Error::Bad(e.to_string()))?;
        }
        let shared = api::Shared {
            tables,
            replays: std::sync::Mutex::new(replays),
            rulesets: options.rulesets,
            seating: options.seating,
            hosts: options.hosts,
            uploads: tokio::sync::Semaphore::new(1),
        };
        let app = App { shared: Arc::new(shared), limits: options.limits };
        for t in &app.shared.tables {
            table::Table::start_bots(t);
        }
        Ok(app)
    }

    /// The pages to open: the index, then each table (hot-seat) or each person's seat
    /// (links, with its secret token), then each replay.
    pub fn links(&self) -> Vec<Link> {
        let mut out = vec![Link { label: "all tables and replays".into(), path: "/".into() }];
        for t in &self.shared.tables {
            out.extend(t.links());
        }
        out.extend(lock(&self.shared.replays).links());
        out
    }

    /// The HTTP routes of a server at `served`, with their size and time limits; they
    /// answer only requests addressed to it ([`Options::hosts`]).
    pub fn router(&self, served: SocketAddr) -> axum::Router {
        api::router(Arc::clone(&self.shared), served.port())
    }

    /// The bytes the records sent from pages hold together, about (see
    /// [`ReplayLimits::upload_bytes`]).
    pub fn uploaded_replay_bytes(&self) -> usize {
        lock(&self.shared.replays).uploaded_bytes()
    }

    /// Stops every table's bot programs (`exec:` bots hear the game is over).
    pub fn end_bots(&self) {
        for t in &self.shared.tables {
            t.end_bots();
        }
    }
}

/// Serves `app` on `addr` until the process ends, on a small runtime (one thread for the
/// requests, a few for the bots), within [`Options::limits`]. `bound` is called once
/// listening, with the address really bound (port 0 picks a free port).
pub fn run(app: App, addr: SocketAddr, bound: impl FnOnce(SocketAddr, &App)) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        // Bots think on blocking threads, one table at a time each: few are needed.
        .max_blocking_threads(8)
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|source| Error::Bind { addr, source })?;
        let local = listener.local_addr()?;
        bound(local, &app);
        net::serve(listener, app.router(local), app.limits).await;
        Ok(())
    })
}

/// Random hex for secret tokens, from the operating system (never the game's seeded
/// generator: knowing the seed must not give away the links).
pub(crate) fn token() -> Result<String, Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| Error::Random(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A game's seed from the operating system's random source, for a table seated by links:
/// the seed and the public move log together show every hidden holding, so it must be one
/// no one can guess.
pub fn secret_seed() -> Result<u64, Error> {
    getrandom::u64().map_err(|e| Error::Random(e.to_string()))
}

/// A lock that a panic elsewhere does not make unusable (nothing here panics; the data a
/// lock guards is consistent between statements).
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
