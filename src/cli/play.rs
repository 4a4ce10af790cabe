//! `play RULESET`: a game in the terminal against bots, on the game's screen, with a
//! numbered menu, undo, save and resume.

mod input;
mod menu;

pub use input::{Input, Lines, colour, stdin_lines};

use super::common::{Failure, bad, failed, load, players_for, say, shown};
use menu::Meaning;
use rulesmith::Ruleset;
use rulesmith::core::bots::{BotSpec, parse_bots};
use rulesmith::core::erased::AnySession;
use rulesmith::core::game::{Seat, ToMove};
use rulesmith::core::record::{HUMAN, Record};
use rulesmith::core::rng::Rng;
use rulesmith::core::sim::bot_rng;
use std::path::{Path, PathBuf};

pub struct PlayArgs {
    pub ruleset: Option<String>,
    pub players: Option<usize>,
    pub seed: u64,
    pub humans: Vec<u8>,
    /// `None`: greedy (a new game) or the record's bots, confirmed only for built-in bots.
    pub bots: Option<String>,
    /// Run the bot programs a resumed record names without `bots` naming them.
    pub trust_bots: bool,
    pub record: Option<PathBuf>,
    pub resume: Option<PathBuf>,
    pub json_view: bool,
    /// Seconds an `exec:` bot may take for one decision.
    pub bot_time_limit: f64,
    /// `--set KEY=VALUE` overrides (with --resume: the record's).
    pub sets: Vec<String>,
}

const HELP: &str = "Type the number of an action, or the action in the game's notation (any case;
a unique beginning is enough; Tab completes on a terminal). Commands:
  ?          the menu of legal actions again     screen the screen again
  undo       back to your previous decision      view   every detail you see, as text
  save FILE  write the game so far               json   the same as JSON
  help       this text                           quit   leave (the record is kept)
With --record FILE the game is saved after each of your decisions.
Resume a saved game with `rulesmith play --resume FILE`.";

/// Commands at the prompt (completed by Tab along with the legal actions).
const COMMANDS: &[&str] = &["?", "help", "screen", "view", "json", "undo", "save", "quit"];

/// Record files read whole by `--resume` are at most this big.
const MAX_RECORD_BYTES: u64 = 64 << 20;

/// Who sits where, and where the game is kept.
struct Table<'r> {
    ruleset: &'r Ruleset,
    source: String,
    players: usize,
    seed: u64,
    seats: Vec<Option<BotSpec>>,
    names: Vec<String>,
    save_to: Option<PathBuf>,
}

impl Table<'_> {
    fn record(&self, s: &dyn AnySession) -> Record {
        Record {
            ruleset: self.ruleset.name().to_string(),
            source: self.source.clone(),
            digest: self.ruleset.digest(),
            overrides: self.ruleset.loaded.overrides.clone(),
            game: self.ruleset.game.game_id().to_string(),
            players: self.players,
            seed: self.seed,
            index: None,
            run_seed: None,
            rotation: None,
            bots: self.names.clone(),
            actions: s.history().to_vec(),
            rounds: s.progress().rounds,
            // `None` marks a game left unfinished; `play --resume` continues it.
            result: s.outcome(),
        }
    }

    /// Writes the record (to a temporary file first, so a failed write never loses the
    /// record written before), never over the ruleset played.
    fn save(&self, s: &dyn AnySession, path: &Path) -> Result<(), Failure> {
        let inputs: Vec<&str> = self.ruleset.loaded.sources.names().collect();
        super::output::check_distinct(&[("the record", path)], &inputs)?;
        write_record(path, &self.record(s))
    }

    fn autosave(&self, s: &dyn AnySession) -> Result<(), Failure> {
        match &self.save_to {
            Some(p) => self.save(s, p),
            None => Ok(()),
        }
    }
}

/// Writes a record file whole ([`super::output`]: a regular file replaced atomically, a
/// symlink's target written, `/dev/null` or a FIFO written through).
pub fn write_record(path: &Path, rec: &Record) -> Result<(), Failure> {
    super::output::write_whole("the record", path, (rec.to_line() + "\n").as_bytes())
}

/// Reads the game record of a file (the last record line), bounded in size.
pub fn read_record(path: &Path) -> Result<Record, Failure> {
    let what = path.display();
    let text = rulesmith::core::input::read_text_limited(path, MAX_RECORD_BYTES)
        .map_err(|e| bad(format!("the record: {e}")))?;
    let mut found: Option<(usize, Record)> = None;
    for (line, rec) in rulesmith::core::record::parse_lines(&text) {
        let rec = rec.map_err(|e| bad(format!("{what}:{line}: {e}")))?;
        // A file of several games (a simulation's record): which one to continue is not
        // for us to guess.
        if let Some((first, _)) = &found {
            return Err(bad(format!(
                "`{what}` holds more than one game record (lines {first} and {line}): --resume continues one game; \
                 copy its line to a file of its own"
            )));
        }
        found = Some((line, rec));
    }
    found.map(|(_, r)| r).ok_or_else(|| bad(format!("`{what}` holds no game record")))
}

/// The bots of a new game's other seats unless `--bots` says otherwise.
const DEFAULT_BOTS: &str = "greedy";

/// A record names commands to run (`exec:` bots): they run only when the command line
/// names the same bots (`--bots`) or trusts the record (`--trust-bots`); a save file from
/// elsewhere must not start programs unasked. Built-in bots need no confirmation.
fn confirm_programs(
    seats: &[Option<BotSpec>],
    players: usize,
    given: Option<&str>,
    trusted: bool,
    path: &Path,
) -> Result<(), Failure> {
    let programs: Vec<String> = seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.as_ref().filter(|b| b.is_external()).map(|b| format!("seat {i} `{b}`")))
        .collect();
    if let Some(given) = given {
        let specs = parse_bots(given, players).map_err(super::common::bots_error)?;
        for (i, (seat, g)) in seats.iter().zip(&specs).enumerate() {
            if let Some(b) = seat.as_ref().filter(|b| b.to_string() != g.to_string()) {
                return Err(bad(format!(
                    "--bots {given}: seat {i} is `{g}`, but {} has `{b}` there (give the record's bots, or leave --bots out)",
                    path.display()
                )));
            }
        }
    }
    if programs.is_empty() {
        return Ok(());
    }
    if given.is_none() && !trusted {
        return Err(bad(format!(
            "{} names bot programs to run ({}): rulesmith runs a command named in a file only when you name it \
             too; give --bots with the record's bots, or --trust-bots if you trust the file",
            path.display(),
            programs.join(", ")
        )));
    }
    say(format!(
        "Running the bot programs the record names ({}), as {}.",
        programs.join(", "),
        if given.is_some() { "--bots confirms" } else { "--trust-bots allows" }
    ));
    Ok(())
}

/// The seats' players from a record's `bots` (`human` or a bot).
pub(crate) fn seats_of(rec: &Record, path: &Path) -> Result<Vec<Option<BotSpec>>, Failure> {
    if rec.bots.len() != rec.players {
        return Err(bad(format!("{}: {} seats for {} players", path.display(), rec.bots.len(), rec.players)));
    }
    rec.bots
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if b == HUMAN {
                Ok(None)
            } else {
                b.parse::<BotSpec>().map(Some).map_err(|e| bad(format!("{}: seat {i}: {e}", path.display())))
            }
        })
        .collect()
}

/// Loads the ruleset of a record and checks it is the same ruleset (by digest).
pub fn ruleset_of(rec: &Record, path: &Path) -> Result<Ruleset, Failure> {
    let r = load(&rec.source, &rec.overrides)?;
    if r.digest() != rec.digest {
        return Err(bad(format!(
            "{}: the ruleset `{}` changed since the game was recorded (digest {} now, {} then)",
            path.display(),
            shown(&rec.source),
            r.digest(),
            rec.digest
        )));
    }
    // A record's player count is read from the file: the ruleset must seat that many.
    if !r.game.players().contains(&rec.players) {
        return Err(bad(format!(
            "{}: the record has {} players, but its ruleset `{}` seats {}",
            path.display(),
            rec.players,
            shown(&rec.ruleset),
            super::common::range_text(&r.game.players())
        )));
    }
    Ok(r)
}

/// A human decision point: the history's length and the bots' generator there.
struct Mark {
    at: usize,
    rng: Rng,
}

/// `rulesmith play`.
pub fn play(a: PlayArgs) -> Result<u8, Failure> {
    // Ctrl-C (or SIGTERM) while bots think ends the session at once: the bot programs are
    // ended, the record keeps every decision saved so far, exit 130 (143).
    let kept = match a.record.as_ref().or(a.resume.as_ref()) {
        Some(p) => format!(
            "; the game so far is kept in {} (continue with `rulesmith play --resume {}`)",
            p.display(),
            p.display()
        ),
        None => "; the game was not saved (use --record FILE to keep it)".to_string(),
    };
    super::output::stop_on_signals_saying(kept);
    let mut lines = stdin_lines();
    play_with(a, lines.as_mut(), colour())
}

/// The play loop on any input; output goes to stdout.
pub fn play_with(a: PlayArgs, lines: &mut dyn Lines, colour: bool) -> Result<u8, Failure> {
    let resumed = match &a.resume {
        Some(p) => Some(read_record(p)?),
        None => None,
    };
    let (r, source, players, seed, seats) = match (&resumed, &a.resume) {
        (Some(rec), Some(path)) => {
            let r = ruleset_of(rec, path)?;
            // A RULESET beside --resume must be the record's: the game continues under the
            // rules it was dealt by, never another ruleset's.
            if let Some(given) = a.ruleset.as_deref().filter(|g| *g != rec.source) {
                let other = load(given, &rec.overrides)?;
                if other.digest() != r.digest() {
                    return Err(bad(format!(
                        "{}: the record is a game of the ruleset `{}` (`{}`), not of `{}` (`{given}`): give no RULESET with --resume, or the record's",
                        path.display(),
                        shown(&rec.ruleset),
                        shown(&rec.source),
                        shown(other.name()),
                    )));
                }
            }
            let seats = seats_of(rec, path)?;
            confirm_programs(&seats, rec.players, a.bots.as_deref(), a.trust_bots, path)?;
            (r, rec.source.clone(), rec.players, rec.seed, seats)
        }
        _ => {
            let Some(source) = a.ruleset.clone() else {
                return Err(bad("give a RULESET to play, or --resume RECORD"));
            };
            let r = load(&source, &a.sets)?;
            let players = players_for(a.players, &r.game.players(), &source)?;
            for &h in &a.humans {
                if h as usize >= players {
                    return Err(bad(format!(
                        "--human {h}: the game has {players} players (seats 0 to {})",
                        players - 1
                    )));
                }
            }
            let bots = a.bots.as_deref().unwrap_or(DEFAULT_BOTS);
            let specs: Vec<BotSpec> = parse_bots(bots, players).map_err(super::common::bots_error)?;
            let seats = (0..players)
                .map(|s| if a.humans.contains(&(s as u8)) { None } else { specs.get(s).cloned() })
                .collect();
            (r, source, players, a.seed, seats)
        }
    };
    let limit = a.bot_time_limit;
    if !(limit.is_finite() && (0.001..=86_400.0).contains(&limit)) {
        return Err(bad(format!("--bot-time-limit {limit}: give seconds from 0.001 to 86400")));
    }
    let seats: Vec<Option<BotSpec>> = seats
        .into_iter()
        .map(|s| match s {
            Some(BotSpec::Exec(e)) => Some(BotSpec::Exec(std::sync::Arc::new(
                (*e).clone().with_time_limit(std::time::Duration::from_secs_f64(limit)),
            ))),
            other => other,
        })
        .collect();
    let names: Vec<String> = seats.iter().map(|s| s.as_ref().map_or(HUMAN.to_string(), ToString::to_string)).collect();
    let table = Table {
        ruleset: &r,
        source,
        players,
        seed,
        seats,
        names,
        save_to: a.record.clone().or_else(|| a.resume.clone()),
    };
    let mut session = r.game.start(players, seed).map_err(|e| bad(e.to_string()))?;
    let mut rng = bot_rng(seed);
    let mut marks: Vec<Mark> = Vec::new();
    say(format!(
        "{} ({}), {players} players, seed {seed}: {}",
        r.name(),
        r.game.game_id(),
        table.names.iter().enumerate().map(|(i, n)| format!("seat {i} {n}")).collect::<Vec<_>>().join(", ")
    ));
    for set in &r.loaded.overrides {
        say(format!("--set {set}"));
    }
    if let (Some(rec), Some(path)) = (&resumed, &a.resume) {
        // Play the record again: the record decides every move. Built-in bots choose
        // again, unchecked, so that their generator is where it was; a bot program
        // (`exec:`) is not asked: it is started when it next has a move.
        for (i, action) in rec.actions.iter().enumerate() {
            let ToMove::Seat(seat) = session.to_move() else {
                return Err(bad(format!("{}: action {} `{action}`: the game is already over", path.display(), i + 1)));
            };
            match table.seats.get(seat as usize).cloned().flatten() {
                Some(bot) if bot.is_external() => {}
                Some(bot) => {
                    let _ = session.bots().map(|b| b.bot_choice(bot, &mut rng));
                }
                None => marks.push(Mark { at: i, rng: rng.clone() }),
            }
            session.play(action).map_err(|e| bad(format!("{}: action {}: {e}", path.display(), i + 1)))?;
        }
        // The result the record claims must be the game's: a `result` on a game whose
        // actions stop before its end (or another result) is an edited or corrupt record.
        match (&rec.result, session.outcome()) {
            (Some(_), None) => {
                return Err(bad(format!(
                    "{}: the record has a result, but its {} actions stop before the end of the game",
                    path.display(),
                    rec.actions.len()
                )));
            }
            (Some(claimed), Some(o)) if *claimed != o => {
                return Err(bad(format!("{}: the record's result is not the result of its actions", path.display())));
            }
            _ => {}
        }
        say(format!("Resumed after {} decisions from {}.", rec.actions.len(), path.display()));
    }
    // Check the record can be written before the first decision.
    table.autosave(session.as_ref())?;
    say("Type ? for the menu, help for the commands.");
    let mut left = false;
    'game: while let ToMove::Seat(seat) = session.to_move() {
        // A house rule can make a game that never ends: the ruleset's own limit stops it.
        if session.history().len() as u64 >= r.game.decision_limit() {
            table.autosave(session.as_ref())?;
            let limit = r.game.decision_limit();
            return Err(failed(format!("the game did not end within {limit} decisions; stopped")));
        }
        match table.seats.get(seat as usize).cloned().flatten() {
            Some(bot) => {
                // Every bot keeps its instance for the session (a bot program runs once
                // per seat). One that crashes, falls silent or answers nonsense ends the
                // session with exit 2, the game so far saved.
                let choice = match session
                    .bots()
                    .map_err(|e| e.to_string())
                    .and_then(|b| b.bot_move(seat, &bot, &mut rng).map_err(|e| e.to_string()))
                {
                    Ok(choice) => choice,
                    Err(e) => {
                        table.autosave(session.as_ref())?;
                        if let Ok(b) = session.bots() {
                            b.end_bots();
                        }
                        return Err(bad(format!("{e}; the game so far is {}", kept(&table))));
                    }
                };
                session.play(&choice).map_err(|e| bad(format!("seat {seat} ({bot}) chose `{choice}`: {e}")))?;
                say(format!("seat {seat} ({bot}): {choice}"));
            }
            None => {
                if marks.last().is_none_or(|m| m.at != session.history().len()) {
                    marks.push(Mark { at: session.history().len(), rng: rng.clone() });
                }
                table.autosave(session.as_ref())?;
                let legal = session.views().map_err(|e| bad(e.to_string()))?.legal_annotated();
                if legal.is_empty() {
                    return Err(failed(format!("seat {seat} is to move but has no legal action (a bug of the game)")));
                }
                let names: Vec<String> = legal.iter().map(|(a, _)| a.clone()).collect();
                let mut words = names.clone();
                words.extend(COMMANDS.iter().map(|c| c.to_string()));
                say("");
                if a.json_view {
                    say(serde_json::to_string_pretty(&session.view_json(seat)).unwrap_or_default());
                } else {
                    say(screen(session.as_ref(), seat, colour).trim_end());
                }
                say("");
                say(menu::render(&legal).trim_end());
                loop {
                    let line = match lines.read(&format!("seat {seat}> "), &words) {
                        Input::Line(l) => l,
                        Input::End | Input::Interrupted => {
                            left = true;
                            break 'game;
                        }
                        Input::Bad(why) => {
                            table.autosave(session.as_ref())?;
                            return Err(bad(format!("{why}; the game so far is {}", kept(&table))));
                        }
                    };
                    let typed = menu::normalise(&line);
                    match typed.as_str() {
                        "" => continue,
                        "?" | "legal" | "menu" => say(menu::render(&legal).trim_end()),
                        "help" | "h" => say(HELP),
                        "screen" | "s" => say(screen(session.as_ref(), seat, colour).trim_end()),
                        "view" => say(super::view::concise(&session.view_json(seat)).trim_end()),
                        "json" => say(serde_json::to_string_pretty(&session.view_json(seat)).unwrap_or_default()),
                        "quit" | "q" | "exit" => {
                            left = true;
                            break 'game;
                        }
                        "undo" => {
                            if marks.len() < 2 {
                                say("Nothing to undo: this is your first decision.");
                                continue;
                            }
                            marks.pop();
                            if let Some(m) = marks.last() {
                                session.rewind(m.at).map_err(|e| failed(format!("cannot undo: {e}")))?;
                                rng = m.rng.clone();
                            }
                            say(format!("Back to your decision {}.", marks.len()));
                            continue 'game;
                        }
                        t if t == "save" || t.starts_with("save ") => {
                            let file = line.trim().get(4..).unwrap_or("").trim();
                            let path = if file.is_empty() { table.save_to.clone() } else { Some(PathBuf::from(file)) };
                            match path {
                                Some(p) => match table.save(session.as_ref(), &p) {
                                    Ok(()) => say(format!(
                                        "Saved to {}; continue it with `rulesmith play --resume {}`.",
                                        p.display(),
                                        p.display()
                                    )),
                                    Err(e) => say(e.message),
                                },
                                None => say("Save where? Type `save FILE`."),
                            }
                        }
                        _ => {
                            let action = match menu::meaning(&line, &names) {
                                Meaning::Action(a) => a,
                                Meaning::OutOfRange(n) => {
                                    say(format!("There is no action {n}: choose 1 to {}.", names.len()));
                                    continue;
                                }
                                Meaning::Ambiguous(some) => {
                                    say(format!("`{}` could be: {} …", line.trim(), some.join(", ")));
                                    continue;
                                }
                                Meaning::Other { suggestion } => {
                                    // The game may read other spellings of a legal action.
                                    if session.play(line.trim()).is_ok() {
                                        let done = session.history().last().cloned().unwrap_or_default();
                                        say(format!("seat {seat}: {done}"));
                                        table.autosave(session.as_ref())?;
                                        continue 'game;
                                    }
                                    match suggestion {
                                        Some(s) => {
                                            say(format!("`{}` is not legal now. Did you mean `{s}`?", line.trim()))
                                        }
                                        None => {
                                            say(format!("`{}` is not legal now; type ? for the menu.", line.trim()))
                                        }
                                    }
                                    continue;
                                }
                            };
                            match session.play(&action) {
                                Ok(()) => {
                                    say(format!("seat {seat}: {action}"));
                                    // Saved before the bots think: Ctrl-C while they do
                                    // keeps this decision.
                                    table.autosave(session.as_ref())?;
                                    continue 'game;
                                }
                                Err(e) => say(e.to_string()),
                            }
                        }
                    }
                }
            }
        }
    }
    table.autosave(session.as_ref())?;
    if let Ok(b) = session.bots() {
        b.end_bots();
    }
    match session.outcome() {
        Some(o) => {
            let seat = table.seats.iter().position(Option::is_none).unwrap_or(0) as Seat;
            say("");
            say(screen(session.as_ref(), seat, colour).trim_end());
            say(format!("\nThe game is over ({}).", o.end.replace('_', " ")));
            let mut order: Vec<usize> = (0..o.scores.len()).collect();
            order.sort_by_key(|&s| (o.ranks[s], s));
            for s in order {
                say(format!("  {}. seat {s} ({}): {} points", o.ranks[s] + 1, table.names[s], o.scores[s]));
            }
        }
        None if left => say(format!("You left the game; it is {}.", kept(&table))),
        None => {}
    }
    if let Some(p) = &table.save_to {
        say(format!("Recorded to {}.", p.display()));
    }
    Ok(0)
}

/// Where the game so far is kept, for messages.
fn kept(t: &Table) -> String {
    match &t.save_to {
        Some(p) => format!("saved in {} (continue with `rulesmith play --resume {}`)", p.display(), p.display()),
        None => "not saved (use --record FILE to keep it)".to_string(),
    }
}

/// The position drawn for `seat`, or which capability the game lacks to draw it.
pub(crate) fn screen(session: &dyn AnySession, seat: Seat, colour: bool) -> String {
    session.views().map_or_else(|e| e.to_string(), |v| v.screen(seat, colour))
}
