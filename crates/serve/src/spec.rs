//! What a server is given to offer: its rulesets, tables and replays, how people sit, and
//! why it could not start.

use rulesmith_core::bots::BotSpec;
use rulesmith_core::erased::AnyGame;
use rulesmith_core::record::Record;
use std::net::SocketAddr;
use std::sync::Arc;

/// Search iterations of a hint unless the table says otherwise (`serve --hint-iterations`).
pub const DEFAULT_HINT_ITERATIONS: u32 = 1_000;
/// Most search iterations a hint may take (each one a node of the tree in memory, and the
/// request's thread busy).
pub const MAX_HINT_ITERATIONS: u32 = 50_000;
/// Most games one table plays in a server's run (play again), the earlier ones' records
/// kept for review.
pub const MAX_GAMES: usize = 100;

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
    /// view only and acts for that seat only; and one observer's link per table, its own
    /// secret token, that shows the whole game and never acts.
    Links,
}

/// One table to open.
pub struct TableSpec {
    /// The rules played.
    pub ruleset: Arc<Ruleset>,
    /// The player count (within the ruleset's range).
    pub players: usize,
    /// The game's seed: the same seed deals the same game. Play again deals the next game
    /// from the next seed (hot-seat) or a fresh secret one (links).
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
    /// The session's earlier games at this table (finished, of its ruleset, players and
    /// seats: a session record's lines before the resumed one), listed for review and kept
    /// in its record.
    pub earlier: Vec<Record>,
    /// Search iterations of a hint (the `mcts` bot's root visits, from the seat's view), or
    /// `None`: no hints at this table.
    pub hints: Option<u32>,
}

/// Keeps a table's record, the session's games in order (the one in play last): see
/// [`TableSpec::save`].
pub type Saver = Box<dyn Fn(&[Record]) -> Result<(), String> + Send + Sync>;

impl TableSpec {
    /// A new game at a table, not saved to a file.
    pub fn new(ruleset: Arc<Ruleset>, players: usize, seed: u64, seats: Vec<Option<BotSpec>>) -> Self {
        TableSpec {
            ruleset,
            players,
            seed,
            seats,
            resume: None,
            save: None,
            earlier: Vec::new(),
            hints: Some(DEFAULT_HINT_ITERATIONS),
        }
    }
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
