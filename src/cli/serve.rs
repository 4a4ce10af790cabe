//! `serve [RULESET…]`: reads the options, loads the rulesets and records, and starts the
//! web table of `rulesmith-serve`.

use super::common::{Failure, bad, load, note, players_for, say};
use super::play::{ruleset_of, seats_of};
use rulesmith::Ruleset;
use rulesmith::core::bots::{BotSpec, parse_bots};
use rulesmith::core::record::Record;
use rulesmith::core::sim::DEFAULT_SEED;
use rulesmith_serve::{App, Options, Seating, TableSpec};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

pub struct ServeArgs {
    pub rulesets: Vec<String>,
    pub port: u16,
    pub bind: Option<IpAddr>,
    pub players: Option<usize>,
    /// `None`: 1 at hot-seat tables, a secret one from the operating system at tables by
    /// links.
    pub seed: Option<u64>,
    pub humans: Vec<u8>,
    pub bots: Option<String>,
    /// `--allow-host`: names the server answers to besides localhost and IP addresses.
    pub allow_hosts: Vec<String>,
    pub seats: Seating,
    pub record: Option<PathBuf>,
    pub resume: Option<PathBuf>,
    pub replay: Vec<PathBuf>,
    pub bot_time_limit: f64,
    /// Where hints are off.
    pub no_hints: NoHints,
    /// `--hint-iterations`: search iterations of a hint [default: `DEFAULT_HINT_ITERATIONS`].
    pub hint_iterations: Option<u32>,
    /// `--set KEY=VALUE` overrides applied to every ruleset served (not to `--resume` or
    /// `--replay`, whose records name their own).
    pub sets: Vec<String>,
}

/// Where hints are off (`--no-hints`).
#[derive(Debug, Default, PartialEq, Eq)]
pub enum NoHints {
    /// Hints at every table.
    #[default]
    Nowhere,
    /// `--no-hints` alone: at no table.
    Everywhere,
    /// `--no-hints=RULESET,…`: not at the tables of these rulesets (as given to serve, or
    /// by `[ruleset] name`).
    At(Vec<String>),
}

impl NoHints {
    /// From the option's values: none (not given), an empty one (given alone), or names.
    pub fn from_args(values: Vec<String>) -> NoHints {
        if values.is_empty() {
            NoHints::Nowhere
        } else if values.iter().any(String::is_empty) {
            NoHints::Everywhere
        } else {
            NoHints::At(values)
        }
    }

    /// Whether hints are off at the table of the ruleset given as `source`, named `name`.
    fn off(&self, source: &str, name: &str) -> bool {
        match self {
            NoHints::Nowhere => false,
            NoHints::Everywhere => true,
            NoHints::At(names) => names.iter().any(|n| n == source || n == name),
        }
    }
}

/// Games of one `--replay` file offered at most (a simulation's record may hold
/// thousands).
const MAX_REPLAYS_PER_FILE: usize = 32;

/// What the server plays, as the serving crate takes it. The game is leaked: the server
/// runs until the process ends.
fn offered(r: Ruleset, source: &str, overrides: &[String]) -> Arc<rulesmith_serve::Ruleset> {
    Arc::new(rulesmith_serve::Ruleset {
        name: r.name().to_string(),
        source: source.to_string(),
        overrides: overrides.to_vec(),
        digest: r.digest(),
        rules: r.loaded.tree.to_json(),
        game: Box::leak(r.game),
    })
}

fn with_time_limit(seats: Vec<Option<BotSpec>>, limit: f64) -> Vec<Option<BotSpec>> {
    seats
        .into_iter()
        .map(|s| match s {
            Some(BotSpec::Exec(e)) => {
                Some(BotSpec::Exec(Arc::new((*e).clone().with_time_limit(std::time::Duration::from_secs_f64(limit)))))
            }
            other => other,
        })
        .collect()
}

/// Writes a table's session as `play` writes a record, one line a game, the one in play
/// last.
fn saver(path: PathBuf) -> rulesmith_serve::Saver {
    Box::new(move |games| {
        let text: String = games.iter().map(|g| g.to_line() + "\n").collect();
        super::output::write_whole("the record", &path, text.as_bytes()).map_err(|e| e.message)
    })
}

/// A session's record file: its games, the last one to continue (a file `play` wrote holds
/// that one only).
fn read_session(path: &std::path::Path) -> Result<(Vec<Record>, Record), Failure> {
    let text = rulesmith::core::input::read_text_limited(path, MAX_SESSION_BYTES)
        .map_err(|e| bad(format!("--resume {}: {e}", path.display())))?;
    let mut games = Vec::new();
    for (line, rec) in rulesmith::core::record::parse_lines(&text) {
        if games.len() == rulesmith_serve::MAX_GAMES {
            return Err(bad(format!(
                "{}: more than {} games; a table plays at most that many",
                path.display(),
                rulesmith_serve::MAX_GAMES
            )));
        }
        games.push(rec.map_err(|e| bad(format!("{}:{line}: {e}", path.display())))?);
    }
    let last = games.pop().ok_or_else(|| bad(format!("`{}` holds no game record", path.display())))?;
    Ok((games, last))
}

/// Most bytes of a session's record file read by `--resume`.
const MAX_SESSION_BYTES: u64 = 64 << 20;

/// `rulesmith serve`.
pub fn serve(a: ServeArgs) -> Result<u8, Failure> {
    if let Some(n) = a.hint_iterations.filter(|n| !(1..=rulesmith_serve::MAX_HINT_ITERATIONS).contains(n)) {
        return Err(bad(format!(
            "--hint-iterations {n}: give 1 to {} search iterations",
            rulesmith_serve::MAX_HINT_ITERATIONS
        )));
    }
    if let (Some(n), NoHints::Everywhere) = (a.hint_iterations, &a.no_hints) {
        return Err(bad(format!(
            "--hint-iterations {n} with --no-hints: hints are off at every table (`--no-hints=RULESET` turns them off at one)"
        )));
    }
    let iterations = a.hint_iterations.unwrap_or(rulesmith_serve::DEFAULT_HINT_ITERATIONS);
    let hints = |source: &str, name: &str| (!a.no_hints.off(source, name)).then_some(iterations);
    // Each table's ruleset as given and by name, for `--no-hints=RULESET`.
    let mut served: Vec<(String, String)> = Vec::new();
    let limit = a.bot_time_limit;
    if !(limit.is_finite() && (0.001..=86_400.0).contains(&limit)) {
        return Err(bad(format!("--bot-time-limit {limit}: give seconds from 0.001 to 86400")));
    }
    let mut tables = Vec::new();
    let mut rulesets: Vec<Arc<rulesmith_serve::Ruleset>> = Vec::new();
    if let Some(path) = &a.resume {
        let (earlier, rec) = read_session(path)?;
        let r = ruleset_of(&rec, path)?;
        let seats = seats_of(&rec, path)?;
        if seats.iter().any(|s| s.as_ref().is_some_and(BotSpec::is_external)) {
            return Err(bad(format!(
                "{} names bot programs (`exec:`): `serve --resume` runs built-in bots only; continue it with `rulesmith play --resume`",
                path.display()
            )));
        }
        let ruleset = offered(r, &rec.source, &rec.overrides);
        rulesets.push(Arc::clone(&ruleset));
        served.push((rec.source.clone(), ruleset.name.clone()));
        tables.push(TableSpec {
            hints: hints(&rec.source, &ruleset.name),
            ruleset,
            players: rec.players,
            seed: rec.seed,
            seats,
            resume: Some(rec),
            save: Some(saver(path.clone())),
            earlier,
        });
    }
    let names: Vec<String> = if a.rulesets.is_empty() && a.resume.is_none() && a.replay.is_empty() {
        rulesmith::BUNDLED.iter().map(|b| b.name.to_string()).collect()
    } else {
        a.rulesets.clone()
    };
    if let Some(path) = &a.record {
        if names.len() != 1 {
            return Err(bad("--record FILE keeps one game: give one RULESET with it"));
        }
        let inputs: Vec<&str> =
            names.iter().map(String::as_str).chain(a.replay.iter().filter_map(|p| p.to_str())).collect();
        super::output::check_distinct(&[("the record", path)], &inputs)?;
    }
    if let (Some(seed), Seating::Links) = (a.seed, a.seats) {
        note(&format!(
            "warning: --seed {seed} at tables by links: keep the seed secret until the games are over; \
             with the move log every page shows, it reveals every hidden holding (pesos, victory points, goods, \
             the order of face-down stacks and decks)"
        ));
    }
    for source in &names {
        let r = match load(source, &a.sets) {
            Ok(r) => r,
            // Which of the rulesets refuses an edit given for all of them.
            Err(e) if !a.sets.is_empty() && names.len() > 1 => {
                return Err(bad(format!("ruleset `{source}` with --set: {}", e.message)));
            }
            Err(e) => return Err(e),
        };
        let players = players_for(a.players, &r.game.players(), source)?;
        let seed = match (a.seed, a.seats) {
            (Some(seed), _) => seed,
            // Unguessable, and one per table (a finished table's record must not give away
            // another's): anyone who knew it could read every seat's hidden holdings from the
            // public move log (`rulesmith state --seed`, or a replay).
            (None, Seating::Links) => rulesmith_serve::secret_seed().map_err(|e| bad(e.to_string()))?,
            (None, Seating::HotSeat) => DEFAULT_SEED,
        };
        for &h in &a.humans {
            if usize::from(h) >= players {
                return Err(bad(format!("--human {h}: {source} has {players} players (seats 0 to {})", players - 1)));
            }
        }
        let specs = parse_bots(a.bots.as_deref().unwrap_or("greedy"), players).map_err(super::common::bots_error)?;
        let seats =
            (0..players).map(|s| if a.humans.contains(&(s as u8)) { None } else { specs.get(s).cloned() }).collect();
        let ruleset = offered(r, source, &a.sets);
        rulesets.push(Arc::clone(&ruleset));
        served.push((source.clone(), ruleset.name.clone()));
        tables.push(TableSpec {
            hints: hints(source, &ruleset.name),
            ruleset,
            players,
            seed,
            seats: with_time_limit(seats, limit),
            resume: None,
            save: a.record.clone().map(saver),
            earlier: Vec::new(),
        });
    }
    if let NoHints::At(off) = &a.no_hints {
        if let Some(n) = off.iter().find(|n| !served.iter().any(|(source, name)| source == *n || name == *n)) {
            let tables: Vec<&str> = served.iter().map(|(source, _)| source.as_str()).collect();
            return Err(bad(format!(
                "--no-hints={n}: no table plays that ruleset (the tables: {})",
                if tables.is_empty() { "none".to_string() } else { tables.join(", ") }
            )));
        }
    }
    let mut replays = Vec::new();
    for path in &a.replay {
        for rec in read_records(path)? {
            let ruleset = match rulesets.iter().find(|r| r.digest == rec.digest) {
                Some(r) => Arc::clone(r),
                None => {
                    let r = offered(ruleset_of(&rec, path)?, &rec.source, &rec.overrides);
                    rulesets.push(Arc::clone(&r));
                    r
                }
            };
            replays.push((ruleset, rec));
        }
    }
    // Ctrl-C (or SIGTERM) ends the bot programs with the server; the record file, if
    // any, holds every decision already made.
    let kept = match a.record.as_ref().or(a.resume.as_ref()) {
        Some(p) => format!(
            "; the game so far is kept in {} (continue with `rulesmith serve --resume {}`)",
            p.display(),
            p.display()
        ),
        None => String::new(),
    };
    super::output::stop_on_signals_saying(kept);
    let options =
        Options { tables, replays, rulesets, seating: a.seats, hosts: a.allow_hosts, limits: Default::default() };
    let app = App::new(options).map_err(|e| bad(e.to_string()))?;
    let ip = a.bind.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let addr = SocketAddr::new(ip, a.port);
    let seating = a.seats;
    let kept_where = match a.record.as_ref().or(a.resume.as_ref()) {
        Some(p) => format!("every decision is kept in {}", p.display()),
        None => "the games are kept only with --record".to_string(),
    };
    rulesmith_serve::run(app, addr, |local, app| {
        let host = match local.ip() {
            IpAddr::V6(v6) => format!("[{v6}]:{}", local.port()),
            IpAddr::V4(v4) => format!("{v4}:{}", local.port()),
        };
        say(format!("rulesmith serve: listening on http://{host}/ (Ctrl-C stops; {kept_where})"));
        if seating == Seating::Links {
            say("Each person opens their own seat's link (its token is secret: it shows that seat's hidden values); \
                 the observer's link shows every hidden holding: give it to no player:");
        }
        for link in app.links() {
            say(format!("  {}: http://{host}{}", link.label, link.path));
        }
    })
    .map_err(|e| bad(e.to_string()))?;
    Ok(0)
}

fn read_records(path: &std::path::Path) -> Result<Vec<Record>, Failure> {
    let text = rulesmith::core::input::read_text_limited(path, 64 << 20)
        .map_err(|e| bad(format!("--replay {}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (line, rec) in rulesmith::core::record::parse_lines(&text) {
        if out.len() == MAX_REPLAYS_PER_FILE {
            say(format!("{}: replaying its first {MAX_REPLAYS_PER_FILE} games", path.display()));
            break;
        }
        out.push(rec.map_err(|e| bad(format!("{}:{line}: {e}", path.display())))?);
    }
    if out.is_empty() {
        return Err(bad(format!("--replay {}: no game record in it", path.display())));
    }
    Ok(out)
}
