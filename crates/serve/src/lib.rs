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
mod hidden;
mod net;
mod refusal;
mod rejection;
mod replay;
mod secret;
mod spec;
mod sync;
mod table;

use rulesmith_core::record::Record;
use std::net::SocketAddr;
use std::sync::Arc;
use sync::lock;

pub use net::Limits;
pub use replay::ReplayLimits;
pub use secret::secret_seed;
pub use spec::{DEFAULT_HINT_ITERATIONS, Error, Link, MAX_GAMES, MAX_HINT_ITERATIONS, Ruleset, Saver};
pub use spec::{Seating, TableSpec};

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
        // Only where a bot is to move: a thread that finds nothing to do would still hold
        // the game a moment, and a person's first request could find the table busy.
        for t in app.shared.tables.iter().filter(|t| t.snapshot().thinking) {
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
