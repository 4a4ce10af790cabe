//! rulesmith: four trading games played exactly by their rulebooks, from TOML rulesets.
//!
//! This facade knows the bundled rulesets and which game crate decodes which
//! `[ruleset] game`; everything else lives in the crates:
//! - `rulesmith-core`: the game interface, rulesets, simulation, scenarios, records;
//! - `rulesmith-puerto-rico`: base Puerto Rico (2–5 players);
//! - `rulesmith-puerto-rico-expansion`: Puerto Rico with Expansion I (2–5 players);
//! - `rulesmith-santiago-de-cuba`: Santiago de Cuba (2–4 players).
//! - `rulesmith-mundo-163`: 504, World 163 (2–4 players).
//!
//! # Example
//!
//! Load a bundled ruleset and a house rule, drive a game, simulate seeded games between
//! bots and run a scenario, the same way for every game:
//!
//! ```
//! use std::sync::Arc;
//! use rulesmith::core::erased::AnyGame;
//! use rulesmith::core::{bots, scenario, sim::SimOptions};
//!
//! // A bundled name or a path to a file; a house rule `extends` another ruleset.
//! let ruleset = rulesmith::load("puerto-rico")?;
//! let house = rulesmith::load("rulesets/house-rules/puerto-rico-no-hacienda.toml")?;
//! assert_eq!(house.name(), "puerto-rico-no-hacienda");
//! assert_ne!(ruleset.digest(), house.digest());
//!
//! // Drive a game in the game's notation: 4 players, seed 7.
//! let mut game = ruleset.game.start(4, 7)?;
//! assert_eq!(game.legal()[0], "settler");
//! game.play("settler")?;
//! game.play("take quarry")?;
//! assert_eq!(game.history(), ["settler", "take quarry"]);
//!
//! // Seeded games between bots: the figures `rulesmith simulate` reports.
//! let bots = bots::parse_bots("random", 4)?;
//! let opts = SimOptions { players: 4, games: 10, from: 0, seed: 1, bots, shard: None, record: false, progress: None, rotate_seats: false, metrics: true };
//! let tally = house.game.simulate(&opts, &mut |_| {})?;
//! assert_eq!(tally.games, 10);
//!
//! // A scenario, its ruleset loaded by name or path as `rulesmith run` does.
//! let case = scenario::read("tests/scenarios/puerto-rico/captain-largest-ship.toml".as_ref())?;
//! let verdict = scenario::run(&case, &mut |arg| {
//!     rulesmith::load(arg).map(|r| Arc::<dyn AnyGame>::from(r.game)).map_err(|e| e.render())
//! });
//! assert_eq!(verdict, scenario::Verdict::Pass);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use rulesmith_core as core;
use rulesmith_core::erased::{Erase, Visit};
use rulesmith_core::ruleset::{self, Bundled, Diagnostics, LoadFailure, Loaded, Node};

/// One game this build knows, and where its parts are: adding a game is one crate, one
/// ruleset and one entry in [`GAMES`].
#[derive(Clone, Copy, Debug)]
pub struct GameEntry {
    /// `[ruleset] game`; also the web page's board module, `assets/boards/<id>.js`, which
    /// the page loads by the `game` its API reports.
    pub id: &'static str,
    /// Its bundled rulesets, usable by name (also in [`BUNDLED`]).
    pub rulesets: &'static [Bundled],
    /// Its scenario library, from the repository's root.
    pub scenarios: &'static str,
}

/// The registry: each game once, with the function that decodes its ruleset (the loader
/// dispatches on it) and its bundled rulesets, read from `rulesets/<name>.toml`.
macro_rules! registry {
    ($($id:literal => $decode:path, scenarios $scenarios:literal, rulesets [$($name:literal),+];)+) => {
        /// The games this build knows, by `[ruleset] game`.
        pub static GAMES: &[GameEntry] = &[$(GameEntry {
            id: $id,
            rulesets: &[$(bundled!($name)),+],
            scenarios: $scenarios,
        }),+];

        /// The rulesets embedded in the binary, usable by name: every game's, in registry order.
        pub static BUNDLED: &[Bundled] = &[$($(bundled!($name)),+),+];

        /// Decodes `tree` for the registered game `game` and hands the typed game to `visit`;
        /// `Err(visit)` back for a game not registered.
        fn decode_registered<V: Visit>(game: &str, tree: &Node, d: &mut Diagnostics, visit: V) -> Result<Option<V::Out>, V> {
            match game {
                $($id => Ok($decode(tree, d).map(|g| visit.visit(g))),)+
                _ => Err(visit),
            }
        }
    };
}

macro_rules! bundled {
    ($name:literal) => {
        Bundled {
            name: $name,
            path: concat!("rulesets/", $name, ".toml"),
            text: include_str!(concat!("../rulesets/", $name, ".toml")),
        }
    };
}

registry! {
    "puerto-rico" => rulesmith_puerto_rico::decode,
        scenarios "tests/scenarios/puerto-rico", rulesets ["puerto-rico"];
    "puerto-rico-expansion" => rulesmith_puerto_rico_expansion::decode,
        scenarios "tests/scenarios/puerto-rico-expansion", rulesets ["puerto-rico-expansion"];
    "santiago-de-cuba" => rulesmith_santiago_de_cuba::decode,
        scenarios "tests/scenarios/santiago-de-cuba", rulesets ["santiago-de-cuba"];
    "mundo-163" => rulesmith_mundo_163::decode,
        scenarios "tests/scenarios/mundo-163", rulesets ["mundo-163"];
}

/// A loaded, validated ruleset ready to play (the harness's type: its studies load and play them).
pub use rulesmith_core::study::Ruleset;

/// Loads a ruleset by bundled name or path and decodes it for its game.
pub fn load(arg: &str) -> Result<Ruleset, LoadFailure> {
    load_with(arg, &[])
}

/// [`load`] with `--set KEY=VALUE` overrides applied to the merged tree before the game
/// decodes it (see [`rulesmith_core::ruleset::overrides`]): checked as the same edit in a
/// file would be.
pub fn load_with(arg: &str, sets: &[String]) -> Result<Ruleset, LoadFailure> {
    let loaded = ruleset::load_with(arg, BUNDLED, sets)?;
    let d = check_meta(&loaded);
    if !d.is_empty() {
        return Err(LoadFailure { sources: loaded.sources, diagnostics: d });
    }
    match decode_with(&loaded, Erase) {
        Ok(game) => Ok(Ruleset { loaded, game }),
        Err(diagnostics) => Err(LoadFailure { sources: loaded.sources, diagnostics }),
    }
}

/// What `[ruleset]` may not hold: a game changed by `--set` (every other key would be read
/// as another game's, each a problem of its own), and control characters in the name or
/// description, which reports, pages and terminals print back (an escape sequence in a
/// name would drive the reader's terminal).
fn check_meta(loaded: &Loaded) -> Diagnostics {
    let mut d = Diagnostics::default();
    let node = |key: &str| loaded.tree.path(&format!("ruleset.{key}"));
    if let Some(game) = node("game") {
        if loaded.sources.name(usize::from(game.origin.file)) == ruleset::overrides::SOURCE_NAME {
            d.error(
                game.origin,
                "`ruleset.game` cannot be changed by --set: the game decides what every other key of the ruleset \
                 means; load a ruleset of that game instead (`rulesmith rulesets` lists them)",
            );
        }
    }
    let origin = |key: &str| node(key).map(|n| n.origin);
    if loaded.name.chars().any(char::is_control) {
        d.error_at(
            origin("name"),
            format!(
                "`[ruleset] name` {:?} holds a control character: a name is printed back by every command; use letters, digits, `-` and spaces",
                loaded.name
            ),
        );
    }
    // A description may run over lines; nothing else that moves or drives a terminal.
    if loaded.description.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        d.error_at(
            origin("description"),
            "`[ruleset] description` holds a control character other than a line break or tab (a terminal escape?)",
        );
    }
    d
}

/// Decodes a loaded ruleset for its game and hands the typed game to `visit` (the way to
/// a game's type, which only its ruleset tells: [`load`] erases it, the conformance suite
/// runs the test kit's generic checks on it). Every problem is in the diagnostics.
pub fn decode_with<V: Visit>(loaded: &Loaded, visit: V) -> Result<V::Out, Diagnostics> {
    let mut d = Diagnostics::default();
    // Each game crate decodes the whole merged tree (including `[ruleset]`):
    let out = match decode_registered(&loaded.game, &loaded.tree, &mut d, visit) {
        Ok(out) => out,
        // The toy game of `rulesmith_core::testing` (not bundled): lets the binary be
        // tested and learned on a game small enough to follow by hand.
        Err(visit) if loaded.game == rulesmith_core::testing::GAME_ID => {
            rulesmith_core::testing::decode(&loaded.tree, &mut d).map(|g| visit.visit(g))
        }
        Err(_) => {
            let origin = loaded.tree.path("ruleset.game").map(|n| n.origin);
            let known: Vec<&str> = GAMES.iter().map(|g| g.id).collect();
            d.error_at(origin, format!("unknown game `{}`: expected one of {}", loaded.game, known.join(", ")));
            None
        }
    };
    match out {
        Some(out) if d.is_empty() => Ok(out),
        _ => Err(d),
    }
}
