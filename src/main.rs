//! The `rulesmith` command line: parses arguments and prints; the libraries decide.

mod cli;

use clap::{Args, CommandFactory, Parser, Subcommand};
use clap_complete::engine::{ArgValueCompleter, CompletionCandidate, PathCompleter, ValueCompleter};
use cli::common::{Failure, Format};
use rulesmith::core::sim::DEFAULT_SEED;
use rulesmith::core::study::DEFAULT_BOTS;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "rulesmith",
    version,
    about = "Simulate, play and check Puerto Rico, its Expansion I, Santiago de Cuba and Mundo 163 from TOML rulesets",
    after_help = "A RULESET is a bundled name (see `rulesmith rulesets`) or a path to a .toml file.\n\
                  Exit codes: 0 success, 1 a check failed, 2 bad input."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--format`, on the commands that print a report or a list (not on those that draw screens
/// for a person, print JSON only, or print a script or a page).
#[derive(Args, Clone, Copy)]
struct FormatArg {
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The values of a RULESET argument offered by shell completion: the bundled rulesets' names,
/// then `.toml` files and folders (a RULESET may be either).
fn ruleset_completer() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &std::ffi::OsStr| {
        let typed = current.to_string_lossy();
        let mut offered: Vec<CompletionCandidate> = rulesmith::BUNDLED
            .iter()
            .filter(|b| b.name.starts_with(typed.as_ref()))
            .map(|b| CompletionCandidate::new(b.name))
            .collect();
        offered.extend(
            PathCompleter::file()
                .filter(|p: &std::path::Path| p.is_dir() || p.extension().is_some_and(|e| e == "toml"))
                .complete(current),
        );
        offered
    })
}

#[derive(Subcommand)]
enum Command {
    /// List the bundled rulesets: name, game, player range, description.
    Rulesets {
        #[command(flatten)]
        out: FormatArg,
    },
    /// Print the effective (merged) ruleset as TOML (`--format json`: as JSON).
    Show {
        /// A bundled ruleset's name or a path to a .toml file.
        #[arg(add = ruleset_completer())]
        ruleset: String,
        #[command(flatten)]
        set: SetArgs,
        #[command(flatten)]
        out: FormatArg,
    },
    /// Check ruleset files: an `ok` line per file, or every problem with its location.
    Validate {
        /// Rulesets to check: bundled names or paths to .toml files.
        #[arg(required = true, value_name = "RULESET", add = ruleset_completer())]
        rulesets: Vec<String>,
        #[command(flatten)]
        set: SetArgs,
        #[command(flatten)]
        out: FormatArg,
    },
    /// The effective differences between two rulesets, key by key.
    Diff {
        /// The ruleset compared from (a bundled name or a .toml path).
        #[arg(value_name = "RULESET_A", add = ruleset_completer())]
        a: String,
        /// The ruleset compared to: what it changes is shown.
        #[arg(value_name = "RULESET_B", add = ruleset_completer())]
        b: String,
        #[command(flatten)]
        set: SetArgs,
        #[command(flatten)]
        out: FormatArg,
    },
    /// Run seeded games between bots and print a report.
    Simulate {
        /// The ruleset played: a bundled name or a path to a .toml file.
        #[arg(add = ruleset_completer())]
        ruleset: String,
        #[command(flatten)]
        run: RunArgs,
        /// Write every game as one JSON line to this file (for `rulesmith replay`).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// Play only shard K of N (1-based): games i with i mod N = K-1. Shards of a run
        /// play exactly the games of the unsplit run; merge their JSON reports with `merge`.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        #[command(flatten)]
        out: FormatArg,
    },
    /// The same games (same seeds, same bots) under each ruleset, side by side.
    Compare {
        /// Two or more rulesets (bundled names or .toml paths), each playing the same games.
        #[arg(required = true, num_args = 2.., value_name = "RULESET", add = ruleset_completer())]
        rulesets: Vec<String>,
        #[command(flatten)]
        run: RunArgs,
        /// Also play one STRONG player against WEAK ones (`mcts:200,greedy`), seats rotated,
        /// and report STRONG's win share per ruleset or value: whether a rule makes the game
        /// more a matter of skill (fair share: 1 / players).
        #[arg(long, value_name = "STRONG,WEAK")]
        skill: Option<String>,
        #[command(flatten)]
        check: CheckArgs,
        #[command(flatten)]
        out: FormatArg,
    },
    /// The same games at every value of a ruleset's key (`--vary KEY=A..B[:STEP]` or
    /// `KEY=v1,v2,…`; two make a grid), each paired with the base value's games.
    Sweep {
        /// The ruleset swept: a bundled name or a path to a .toml file.
        #[arg(add = ruleset_completer())]
        ruleset: String,
        /// KEY=A..B[:STEP] (integers, or reals if a bound or STEP has a point) or
        /// KEY=v1,v2,… (TOML values); KEY as for --set. Twice: a grid of both.
        #[arg(long, required = true, value_name = "KEY=VALUES")]
        vary: Vec<String>,
        /// The value the others are compared with, one per --vary in order [default: the
        /// ruleset's own value; played as well if not among the values].
        #[arg(long, value_name = "VALUE")]
        base: Vec<String>,
        /// Also tabulate and plot this figure, named as in the JSON's `figures` (e.g.
        /// `building: harbor built share`, `score: margin of victory mean`). Repeatable.
        #[arg(long, value_name = "NAME")]
        figure: Vec<String>,
        /// Play only shard K of N (1-based) of the seeds, at every value; merge the JSON
        /// outputs (`--format json`) with `merge`.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        #[command(flatten)]
        run: RunArgs,
        /// Also play one STRONG player against WEAK ones (`mcts:200,greedy`), seats rotated,
        /// and report STRONG's win share per ruleset or value: whether a rule makes the game
        /// more a matter of skill (fair share: 1 / players).
        #[arg(long, value_name = "STRONG,WEAK")]
        skill: Option<String>,
        #[command(flatten)]
        check: CheckArgs,
        #[command(flatten)]
        out: FormatArg,
    },
    /// The value of a ruleset's key that brings a figure closest to a target: a coarse pass
    /// over the range, then games where they decide the answer.
    Tune {
        /// The ruleset tuned: a bundled name or a path to a .toml file.
        #[arg(add = ruleset_completer())]
        ruleset: String,
        /// KEY=A..B[:STEP]: integers (bisection, STEP 1 unless given) or reals with a
        /// decimal point (interpolation, STEP the resolution [default: (B−A)/64]).
        #[arg(long, value_name = "KEY=A..B")]
        vary: String,
        /// FIGURE=VALUE: a figure named as in `sweep --format json` (`rounds=15`,
        /// `seat 0 win share=25%`, `building: harbor owner − non-owner win share=0`).
        #[arg(long, value_name = "FIGURE=VALUE")]
        target: String,
        /// Games per value and per evaluation (the confirming pass plays 4 ×), and the
        /// rest of the run options as for `sweep`.
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        check: CheckArgs,
        #[command(flatten)]
        out: FormatArg,
    },
    /// Bots round robin over rotated seatings: win shares with intervals, who finishes
    /// ahead of whom, and a rating.
    Tournament {
        /// The ruleset played: a bundled name or a path to a .toml file.
        #[arg(add = ruleset_completer())]
        ruleset: String,
        /// Two or more bots, comma-separated (`greedy,random,mcts:200`); bot kinds as for
        /// `simulate --bots`.
        #[arg(long)]
        bots: String,
        /// Players per table [default: as many as bots if the ruleset seats them].
        #[arg(long)]
        players: Option<usize>,
        /// Seeds played by every seating.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// The run's seed: every game's seed derives from it and the game's index.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        /// Worker threads [default: one per core]. Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// Play only shard K of N (1-based) of the seeds; merge the JSON reports with `merge`.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        #[command(flatten)]
        set: SetArgs,
        #[command(flatten)]
        out: FormatArg,
    },
    /// Merge the JSON reports of the shards of one simulation (or tournament, or sweep) into one report.
    Merge {
        /// JSON reports (`--format json`) of the shards, in any order.
        #[arg(required = true, value_name = "REPORT")]
        reports: Vec<PathBuf>,
        #[command(flatten)]
        out: FormatArg,
    },
    /// Play in the terminal against bots.
    Play {
        /// The ruleset (not needed with --resume).
        #[arg(required_unless_present = "resume", add = ruleset_completer())]
        ruleset: Option<String>,
        /// Player count [default: 4 if the ruleset seats 4, else its minimum].
        #[arg(long)]
        players: Option<usize>,
        /// The game's seed: the same seed deals the same game.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        /// The seats played at the keyboard (0-based) [default: 0]; `--human` alone: none.
        #[arg(long, value_name = "SEAT", num_args = 0..)]
        human: Option<Vec<u8>>,
        /// The bots of the other seats: one for all, or one per seat [default: greedy]; bot
        /// kinds as for `simulate --bots`. With --resume: the record's bots, to run the bot
        /// programs (`exec:`) it names.
        #[arg(long)]
        bots: Option<String>,
        /// Write the game as a JSON line to this file (after every decision of yours, so
        /// leaving or Ctrl-C keeps it; an unfinished game has `"result": null`).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// Continue a game saved with --record or `save` (its ruleset, seats and seed).
        /// Bot programs (`exec:`) the record names run only if --bots names the same, or
        /// with --trust-bots.
        #[arg(long, value_name = "RECORD", conflicts_with_all = ["players", "seed", "human"])]
        resume: Option<PathBuf>,
        /// With --resume: run the bot programs (`exec:`) the record names without naming
        /// them in --bots (only for a record you trust: it names commands to run).
        #[arg(long, requires = "resume")]
        trust_bots: bool,
        /// Show the full view as JSON instead of the concise summary.
        #[arg(long)]
        json_view: bool,
        /// Seconds an `exec:` bot may take for one decision before the session stops with
        /// an error (the game so far is kept).
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        bot_time_limit: f64,
        #[command(flatten)]
        set: SetArgs,
    },
    /// A local web table: play any ruleset in the browser (hot-seat or one secret link per
    /// seat, against bots) and step through records. Prints the addresses to open.
    Serve {
        /// Rulesets to open a table for [default: every bundled ruleset].
        #[arg(value_name = "RULESET", add = ruleset_completer())]
        rulesets: Vec<String>,
        /// The port to listen on (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8163)]
        port: u16,
        /// Listen on this address instead of 127.0.0.1 (e.g. 0.0.0.0 to let others on
        /// the network join: anyone who can reach the port can open the hot-seat table).
        #[arg(long, value_name = "ADDR")]
        bind: Option<std::net::IpAddr>,
        /// Player count [default: 4 if the ruleset seats 4, else its minimum].
        #[arg(long)]
        players: Option<usize>,
        /// The games' seed: the same seed deals the same game [default: 1 at hot-seat
        /// tables; at tables by links, one drawn from the operating system and kept secret,
        /// since the seed and the public move log show every hidden holding].
        #[arg(long)]
        seed: Option<u64>,
        /// The seats people play (0-based) [default: 0]; `--human` alone: none (bots only).
        #[arg(long, value_name = "SEAT", num_args = 0..)]
        human: Option<Vec<u8>>,
        /// The bots of the other seats: one for all, or one per seat [default: greedy].
        #[arg(long)]
        bots: Option<String>,
        /// Also answer requests addressed to this name (`NAME` or `NAME:PORT`, repeatable),
        /// e.g. a name on the local network or a TLS proxy's; localhost and IP addresses
        /// at the served port are always answered, any other name refused.
        #[arg(long, value_name = "NAME")]
        allow_host: Vec<String>,
        /// How people sit: `hot-seat` (one page, whoever is to move acts; undo) or `links`
        /// (one secret link per person's seat, showing that seat's view only).
        #[arg(long, value_enum, default_value_t = SeatsArg::HotSeat)]
        seats: SeatsArg,
        /// Write the session's games as JSON lines to this file after every decision (the
        /// `play --record` format, one line a game, the one in play last; one RULESET).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// Continue a game saved by `play` or `serve` (its ruleset, seats and seed), saving
        /// to the same file; of a session's file, the last game (the earlier ones are kept
        /// and listed for review).
        #[arg(long, value_name = "RECORD", conflicts_with_all = ["players", "seed", "human", "bots", "record"])]
        resume: Option<PathBuf>,
        /// Offer a record file's games to step through (repeatable; at most 32 games a file).
        #[arg(long, value_name = "RECORD")]
        replay: Vec<PathBuf>,
        /// Seconds an `exec:` bot may take for one decision.
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        bot_time_limit: f64,
        /// No hints (a person may otherwise ask what the tree search would choose, from
        /// their seat's view): `--no-hints` alone at every table; `--no-hints=RULESET` (the
        /// `=` needed; repeatable or a comma list) at those tables only, each named as
        /// given to serve or by its `[ruleset] name`.
        #[arg(
            long,
            value_name = "RULESET",
            num_args = 0..=1,
            require_equals = true,
            value_delimiter = ',',
            default_missing_value = "",
            action = clap::ArgAction::Append
        )]
        no_hints: Vec<String>,
        /// Search iterations of a hint (1 to 50000) [default: 1000].
        #[arg(long, value_name = "N")]
        hint_iterations: Option<u32>,
        #[command(flatten)]
        set: SetArgs,
    },
    /// Step through a recorded game on the play screens (`--step N` or `--round R`:
    /// print the screen there).
    ShowGame {
        /// A record file written by `simulate --record` or `play --record`.
        record: PathBuf,
        /// The game of the record file: its index in a simulation, else its line (1-based).
        #[arg(long, value_name = "K")]
        game: Option<u64>,
        /// With `--rotate-seats` records: which rotation of the game's seed (0: the bots as
        /// listed, the default; 1, 2, …: each further rotation).
        #[arg(long, value_name = "R")]
        rotation: Option<u32>,
        /// Print the screen after this many decisions (0: after setup).
        #[arg(long, value_name = "N", conflicts_with = "round")]
        step: Option<usize>,
        /// Print the screen at the first decision of this round.
        #[arg(long, value_name = "R")]
        round: Option<u32>,
        /// Whose view to draw [default: the first human seat, else seat 0].
        #[arg(long)]
        seat: Option<u8>,
    },
    /// Run scenario files or folders of them (recursively): PASS or FAIL per scenario.
    Run {
        /// Scenario .toml files, or folders searched recursively for them.
        #[arg(required = true, value_name = "SCENARIO")]
        scenarios: Vec<PathBuf>,
        #[command(flatten)]
        out: FormatArg,
    },
    /// The legal actions of the player to move after a scenario's steps, or after setup.
    Legal {
        /// A scenario file, or a ruleset (then the position right after setup).
        #[arg(add = ruleset_completer())]
        target: String,
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        set: SetArgs,
        #[command(flatten)]
        out: FormatArg,
    },
    /// The full state after a scenario's steps, or after setup, as JSON.
    State {
        /// A scenario file, or a ruleset (then the position right after setup).
        #[arg(add = ruleset_completer())]
        target: String,
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        set: SetArgs,
        /// Show only what this seat may see.
        #[arg(long)]
        seat: Option<u8>,
    },
    /// Re-run recorded games and verify they reproduce exactly.
    Replay {
        /// A record file written by `simulate --record` or `play --record`.
        record: PathBuf,
        /// Replay against this ruleset instead of the one named in the record.
        #[arg(long, add = ruleset_completer())]
        ruleset: Option<String>,
        /// Also run the bots again and check they choose the recorded actions.
        #[arg(long)]
        check_bots: bool,
        #[command(flatten)]
        out: FormatArg,
    },
    /// Train a learned player for a ruleset (masked PPO by self-play and against the built-in
    /// bots, on one thread, reproducible from --seed) and write it as one policy file for
    /// `--bots learned:FILE`. Progress on stderr; the learning curve (win share against
    /// greedy) as JSON and an HTML page.
    Train(cli::train::TrainArgs),
    /// Print the shell completion script for SHELL (load it from your shell's startup file).
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), or write one page per command into a folder.
    Man {
        /// Write `rulesmith.1` and a `rulesmith-COMMAND.1` per command into this folder.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

#[derive(Args)]
struct RunArgs {
    /// Player count [default: 4 if the ruleset seats 4, else its minimum].
    #[arg(long)]
    players: Option<usize>,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The run's seed: every game's seed derives from it and the game's index, so a run
    /// reproduces exactly.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// One bot for all seats, or a comma-separated list, one per seat: `random`, `greedy`,
    /// `greedy:N%` (greedy with a random move N times in a hundred), `mcts:N` (N search
    /// iterations a decision; `mcts` is `mcts:4000`), `mcts:Nms` (N milliseconds a decision:
    /// a time budget, which does not reproduce), `learned` (the ruleset's bundled trained
    /// policy), `learned:FILE` (a policy from `rulesmith train`), or `exec:PROGRAM [ARGS]`
    /// (your program, speaking JSON lines; see docs/bots.md).
    /// [default: random for `simulate`; greedy for `compare`, `sweep` and `tune`]
    #[arg(long, value_name = "SPEC")]
    bots: Option<String>,
    /// Worker threads, 1–1024 [default: one per core]. Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Seconds an `exec:` bot may take for one decision before the run stops with an error.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    bot_time_limit: f64,
    /// Also write the report as a self-contained HTML page with plots (no network needed).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Play each seed once per rotation of the bot list, so a bot's result does not depend
    /// on its seat; the report adds results per bot. `compare` does this by default when
    /// the bots differ by seat.
    #[arg(long, overrides_with = "no_rotate_seats")]
    rotate_seats: bool,
    /// Do not rotate seats (turns off `compare`'s default).
    #[arg(long)]
    no_rotate_seats: bool,
    /// Write one CSV row per game to this file (`compare`: per game per ruleset): seed,
    /// seats, bots, scores, ranks, end, length and the game's per-seat metrics.
    #[arg(long, value_name = "FILE")]
    games_csv: Option<PathBuf>,
    /// Skip the designer metrics: the fastest runs (about 9% fewer instructions for
    /// random Puerto Rico games); the report then has no metrics section.
    #[arg(long)]
    no_metrics: bool,
    #[command(flatten)]
    set: SetArgs,
    /// The difference in seat 0's win share, in percentage points, for which the report's
    /// power line states the games needed: 80% power at 5% two-sided (`simulate`); in
    /// `compare` and `sweep`, 80% power for the `*` the report prints, after its correction.
    #[arg(long, value_name = "PP", default_value_t = 2.0)]
    detect: f64,
}

/// `--check-with BOTS [--check-games N]` of `compare`, `sweep` and `tune`.
#[derive(Args, Clone, Default)]
pub struct CheckArgs {
    /// Replay the run with a second line-up (same syntax as --bots, e.g. `mcts:200`) and
    /// give each headline figure a verdict: holds (same sign, still significant), weaker
    /// (no longer significant) or flips (opposite sign, significant); `tune` answers under
    /// both line-ups. See docs/designer.md.
    #[arg(long, value_name = "BOTS")]
    check_with: Option<String>,
    /// Seeds the replay plays per ruleset or value [default: --games].
    #[arg(long, value_name = "N", requires = "check_with")]
    check_games: Option<u64>,
}

/// `--set KEY=VALUE`, on every command that loads a ruleset.
#[derive(Args, Clone, Default)]
pub struct SetArgs {
    /// Override one value of the effective ruleset before it is checked and played: KEY is
    /// a dotted path as `rulesmith show` prints it (a component by its id:
    /// `buildings.harbor.cost=6`; other arrays by index: `setup.ships.4.0=4`), VALUE is TOML
    /// (quote a string: `'ruleset.name="mine"'`). Repeatable, applied in order; reports and
    /// records name the overrides.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

#[derive(Args)]
struct PositionArgs {
    /// With a ruleset: player count [default: 4 if the ruleset seats 4, else its minimum].
    #[arg(long)]
    players: Option<usize>,
    /// With a ruleset: the seed [default: 1].
    #[arg(long)]
    seed: Option<u64>,
}

/// Which standard streams were closed when the process started. Read before Rust's runtime
/// reopens closed standard descriptors on /dev/null, after which a closed stdout would
/// swallow the report with exit 0 (`rulesmith simulate … >&-`).
#[cfg(target_os = "linux")]
mod closed_at_start {
    use std::sync::atomic::{AtomicU8, Ordering};

    static CLOSED: AtomicU8 = AtomicU8::new(0);

    extern "C" fn probe() {
        for (bit, path) in [(1u8, "/proc/self/fd/1"), (2, "/proc/self/fd/2")] {
            // Without /proc there is nothing to read: no check rather than a false alarm.
            let proc_mounted = std::path::Path::new("/proc/self/fd/0").exists();
            if proc_mounted && std::fs::symlink_metadata(path).is_err() {
                CLOSED.fetch_or(bit, Ordering::Relaxed);
            }
        }
    }

    // Runs before `main` and before the runtime's start-up, as a C constructor.
    #[allow(unsafe_code)]
    #[unsafe(link_section = ".init_array")]
    #[used]
    static PROBE: extern "C" fn() = probe;

    /// "stdout" or "stderr" if it was closed at start-up.
    pub fn closed() -> Option<&'static str> {
        let c = CLOSED.load(Ordering::Relaxed);
        if c & 1 != 0 {
            Some("stdout")
        } else if c & 2 != 0 {
            Some("stderr")
        } else {
            None
        }
    }
}

fn main() -> ExitCode {
    cli::common::install_panic_hook();
    // `COMPLETE=SHELL rulesmith -- WORDS…`, as the script of `rulesmith completions SHELL`
    // calls it: print the completions of the last word and exit; otherwise nothing.
    clap_complete::CompleteEnv::with_factory(Cli::command).complete();
    // Its only child processes are `exec:` bots: what they leave behind, even outside
    // their process group, comes back to it and is ended with them.
    rulesmith::core::bots::exec::adopt_orphans();
    #[cfg(target_os = "linux")]
    if let Some(stream) = closed_at_start::closed() {
        cli::common::error(&format!(
            "{stream} is closed: the output would be lost; redirect it to a file or /dev/null"
        ));
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match dispatch(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Failure { code, message }) => {
            cli::common::error(&message);
            ExitCode::from(code)
        }
    }
}

/// `serve --seats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SeatsArg {
    /// One page; whoever's seat is to move acts there.
    HotSeat,
    /// One secret link per person's seat.
    Links,
}

fn dispatch(cli: Cli) -> Result<u8, Failure> {
    match cli.command {
        Command::Rulesets { out } => cli::rulesets::list(out.format),
        Command::Show { ruleset, set, out } => cli::rulesets::show(&ruleset, &set.set, out.format),
        Command::Validate { rulesets, set, out } => cli::rulesets::validate(&rulesets, &set.set, out.format),
        Command::Diff { a, b, set, out } => cli::rulesets::diff(&a, &b, &set.set, out.format),
        Command::Simulate { ruleset, run, record, shard, out } => {
            cli::simulate::simulate(&ruleset, &run.into(), record.as_deref(), shard.as_deref(), out.format)
        }
        Command::Compare { rulesets, run, skill, check, out } => cli::simulate::compare(
            &rulesets,
            &cli::simulate::RunSpec {
                bots: Some(run.bots.clone().unwrap_or_else(|| DEFAULT_BOTS.into())),
                skill,
                check_with: check.check_with,
                check_games: check.check_games,
                ..run.into()
            },
            out.format,
        ),
        Command::Sweep { ruleset, vary, base, figure, shard, run, skill, check, out } => cli::sweep::sweep(
            &cli::sweep::SweepArgs { ruleset, vary, base, figures: figure, shard },
            &cli::simulate::RunSpec {
                bots: Some(run.bots.clone().unwrap_or_else(|| DEFAULT_BOTS.into())),
                skill,
                check_with: check.check_with,
                check_games: check.check_games,
                ..run.into()
            },
            out.format,
        ),
        Command::Tune { ruleset, vary, target, run, check, out } => cli::sweep::tune(
            &rulesmith::core::study::TuneArgs { ruleset, vary, target },
            &cli::simulate::RunSpec {
                bots: Some(run.bots.clone().unwrap_or_else(|| DEFAULT_BOTS.into())),
                check_with: check.check_with,
                check_games: check.check_games,
                ..run.into()
            },
            out.format,
        ),
        Command::Merge { reports, out } => cli::sweep::merge_any(&reports, out.format),
        Command::Train(mut args) => {
            args.command =
                std::iter::once("rulesmith".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
            cli::train::train_command(&args)
        }
        Command::Tournament { ruleset, bots, players, games, seed, threads, shard, set, out } => {
            cli::tournament::tournament(
                &cli::tournament::TournamentArgs { ruleset, bots, players, games, seed, threads, shard, sets: set.set },
                out.format,
            )
        }
        Command::Play {
            ruleset,
            players,
            seed,
            human,
            bots,
            record,
            resume,
            trust_bots,
            json_view,
            bot_time_limit,
            set,
        } => cli::play::play(cli::play::PlayArgs {
            ruleset,
            players,
            seed,
            humans: human.unwrap_or_else(|| vec![0]),
            bots,
            trust_bots,
            record,
            resume,
            json_view,
            bot_time_limit,
            sets: set.set,
        }),
        Command::Serve {
            rulesets,
            port,
            bind,
            players,
            seed,
            human,
            bots,
            allow_host,
            seats,
            record,
            resume,
            replay,
            bot_time_limit,
            no_hints,
            hint_iterations,
            set,
        } => cli::serve::serve(cli::serve::ServeArgs {
            rulesets,
            port,
            bind,
            players,
            seed,
            humans: human.unwrap_or_else(|| vec![0]),
            bots,
            allow_hosts: allow_host,
            seats: match seats {
                SeatsArg::HotSeat => rulesmith_serve::Seating::HotSeat,
                SeatsArg::Links => rulesmith_serve::Seating::Links,
            },
            record,
            resume,
            replay,
            bot_time_limit,
            no_hints: cli::serve::NoHints::from_args(no_hints),
            hint_iterations,
            sets: set.set,
        }),
        Command::ShowGame { record, game, rotation, step, round, seat } => {
            cli::show_game::show_game(&record, cli::show_game::At { game, rotation, step, round, seat })
        }
        Command::Run { scenarios, out } => cli::scenarios::run(&scenarios, out.format),
        Command::Legal { target, position, set, out } => {
            cli::scenarios::legal(&target, position.players, position.seed, &set.set, out.format)
        }
        Command::State { target, position, set, seat } => {
            cli::scenarios::state(&target, position.players, position.seed, &set.set, seat)
        }
        Command::Replay { record, ruleset, check_bots, out } => {
            cli::replay::replay(&record, ruleset.as_deref(), check_bots, out.format)
        }
        Command::Completions { shell } => cli::manual::completions(shell, Cli::command()),
        Command::Man { out } => cli::manual::man(Cli::command(), out.as_deref()),
    }
}

impl From<RunArgs> for cli::simulate::RunSpec {
    fn from(a: RunArgs) -> Self {
        cli::simulate::RunSpec {
            players: a.players,
            games: a.games,
            seed: a.seed,
            bots: a.bots,
            threads: a.threads,
            bot_time_limit: a.bot_time_limit,
            html: a.html,
            rotate_seats: if a.rotate_seats {
                Some(true)
            } else if a.no_rotate_seats {
                Some(false)
            } else {
                None
            },
            games_csv: a.games_csv,
            no_metrics: a.no_metrics,
            sets: a.set.set,
            skill: None,
            detect: a.detect,
            check_with: None,
            check_games: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every command, argument and option says what it is in `--help`, and so in the
    /// completions and man pages generated from the same definitions.
    #[test]
    fn every_argument_has_help() {
        let mut cmd = Cli::command();
        cmd.build();
        let mut missing = Vec::new();
        let mut stack = vec![(String::from("rulesmith"), cmd)];
        while let Some((path, cmd)) = stack.pop() {
            if cmd.get_about().is_none() && path != "rulesmith help" {
                missing.push(path.clone());
            }
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if id != "help" && id != "version" && arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                stack.push((format!("{path} {}", sub.get_name()), sub.clone()));
            }
        }
        assert!(missing.is_empty(), "no help text: {missing:?}");
    }

    /// `--help` offers only what a command accepts: `--skill` on `compare` and `sweep` (the
    /// others refused it), `--format` on the commands that print a report or a list, not on
    /// those that draw screens (`play`, `serve`, `show-game`), print JSON only (`state`) or a
    /// script or a page (`completions`, `man`), which ignored or refused it; nothing global.
    #[test]
    fn help_offers_only_what_each_command_accepts() {
        let mut cmd = Cli::command();
        cmd.build();
        let table = [
            // command, --skill, --format
            ("rulesets", false, true),
            ("show", false, true),
            ("validate", false, true),
            ("diff", false, true),
            ("simulate", false, true),
            ("compare", true, true),
            ("sweep", true, true),
            ("tune", false, true),
            ("tournament", false, true),
            ("merge", false, true),
            ("play", false, false),
            ("serve", false, false),
            ("show-game", false, false),
            ("run", false, true),
            ("legal", false, true),
            ("state", false, false),
            ("replay", false, true),
            ("train", false, false),
            ("completions", false, false),
            ("man", false, false),
        ];
        let named: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).filter(|n| *n != "help").collect();
        assert_eq!(named.len(), table.len(), "a command missing from this table: {named:?}");
        for (name, skill, format) in table {
            let sub = cmd.find_subcommand(name).unwrap_or_else(|| panic!("no command {name}"));
            let has = |id: &str| sub.get_arguments().any(|a| a.get_id() == id);
            assert_eq!(has("skill"), skill, "{name} --skill");
            assert_eq!(has("format"), format, "{name} --format");
            for arg in sub.get_arguments() {
                assert!(!arg.is_global_set(), "{name}: --{} is global", arg.get_id());
            }
        }
    }
}
