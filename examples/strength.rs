//! The bot strength table of the book (`docs/strength.md`): per ruleset and player count,
//! `greedy` against random players and `mcts` at a few iteration budgets against greedy players, seats
//! rotated, with 95% intervals and the measured time per decision.
//!
//! `cargo run --release --example strength -- --games N [--rulesets a,b] [--players 2,3]
//! [--budgets 100,400|none] [--seed S]`
//!
//! Each cell seats one tested bot against `P - 1` copies of its opponent, in each of the
//! `P` rotations, on the same `N` seeds (`N × P` games). The figure is the tested bot's win
//! share over all games (a shared win counts its share; a game stopped unfinished at the
//! round cap counts as not won, and the unfinished count is shown). Games run one after
//! another on one thread, so the milliseconds per decision are those of one core (only
//! the tested bot's decisions with more than one legal action are timed; the slowest
//! decision's time on the CPU is shown beside its wall time, which on a loaded machine
//! includes waiting for a core). A benchmark,
//! not a test: nothing is asserted.

use rulesmith::core::bots::{Bot, BotError, BotSpec};
use rulesmith::core::game::{Game, Seat};
use rulesmith::core::rng::{Rng, game_seed};
use rulesmith::core::ruleset::{self, Diagnostics};
use rulesmith::core::sim::{PlayOptions, play_game, wilson};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// What the tested bot spent on its decisions.
#[derive(Default)]
struct Spent {
    total: Duration,
    decisions: u64,
    slowest: Duration,
    /// The slowest decision's time on the CPU (Linux; zero elsewhere): on a loaded machine
    /// the wall time includes waiting for a core, which no bot can help.
    slowest_cpu: Duration,
}

/// This thread's time on a CPU so far (Linux `/proc/thread-self/schedstat`, nanoseconds);
/// `None` where it cannot be read.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok().map(Duration::from_nanos)
}

/// Wraps a bot and times its decisions into a shared [`Spent`].
struct Timed<G: Game> {
    inner: Box<dyn Bot<G>>,
    spent: Rc<RefCell<Spent>>,
}

impl<G: Game> Bot<G> for Timed<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        legal: &[G::Action],
        rng: &mut Rng,
    ) -> Result<G::Action, BotError> {
        let start = Instant::now();
        let cpu_start = cpu_time();
        let action = self.inner.choose(game, state, legal, rng);
        if legal.len() > 1 {
            let took = start.elapsed();
            let on_cpu = cpu_time().zip(cpu_start).map_or(Duration::ZERO, |(b, a)| b.saturating_sub(a));
            let mut s = self.spent.borrow_mut();
            s.total += took;
            s.slowest = s.slowest.max(took);
            s.slowest_cpu = s.slowest_cpu.max(on_cpu);
            s.decisions += 1;
        }
        action
    }
}

/// One cell of the table.
struct Cell {
    games: u64,
    unfinished: u64,
    /// The tested bot's win shares, summed.
    wins: f64,
    spent: Rc<RefCell<Spent>>,
}

impl Cell {
    fn line(&self, ruleset: &str, players: usize, matchup: &str) -> String {
        let share = if self.games > 0 { self.wins / self.games as f64 } else { 0.0 };
        let [lo, hi] = wilson(share, self.games);
        let spent = self.spent.borrow();
        let ms = if spent.decisions > 0 { spent.total.as_secs_f64() * 1e3 / spent.decisions as f64 } else { 0.0 };
        let unfinished = if self.unfinished > 0 { format!(" ({} unfinished)", self.unfinished) } else { String::new() };
        format!(
            "| `{ruleset}` | {players} | {matchup} | {:.1}% [{:.1}, {:.1}] | {}{unfinished} | {ms:.3} | {:.1} | {:.1} |",
            share * 100.0,
            lo * 100.0,
            hi * 100.0,
            self.games,
            spent.slowest.as_secs_f64() * 1e3,
            spent.slowest_cpu.as_secs_f64() * 1e3,
        )
    }
}

/// Plays `tested` against `P - 1` copies of `opponent` in every rotation on `games` seeds.
fn cell<G: rulesmith::core::erased::Complete>(
    game: &G,
    players: usize,
    games: u64,
    seed: u64,
    tested: &BotSpec,
    opponent: &BotSpec,
) -> Cell {
    let spent = Rc::new(RefCell::new(Spent::default()));
    let mut c = Cell { games: 0, unfinished: 0, wins: 0.0, spent: Rc::clone(&spent) };
    for i in 0..games {
        for at in 0..players {
            let mut seats: Vec<Box<dyn Bot<G>>> = (0..players)
                .map(|s| -> Box<dyn Bot<G>> {
                    if s == at {
                        Box::new(Timed { inner: tested.instantiate::<G>(s as Seat), spent: Rc::clone(&spent) })
                    } else {
                        opponent.instantiate::<G>(s as Seat)
                    }
                })
                .collect();
            c.games += 1;
            match play_game(
                game,
                &mut seats,
                &PlayOptions { index: i, ..PlayOptions::new(players, game_seed(seed, i)) },
            ) {
                Ok(r) if r.outcome.unfinished => c.unfinished += 1,
                Ok(r) => c.wins += r.outcome.win_shares().get(at).copied().unwrap_or(0.0),
                Err(e) => eprintln!("game {i}: {e}"),
            }
        }
    }
    c
}

struct Args {
    games: u64,
    seed: u64,
    rulesets: Vec<String>,
    players: Vec<usize>,
    budgets: Vec<String>,
}

fn list<T: std::str::FromStr>(flag: &str, v: &str) -> Result<Vec<T>, String> {
    v.split(',').map(|x| x.trim().parse::<T>().map_err(|_| format!("{flag}: cannot read `{x}`"))).collect()
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        games: 10,
        seed: 1,
        rulesets: rulesmith::GAMES.iter().map(|g| g.id.to_string()).collect(),
        players: vec![2, 3, 4],
        budgets: vec!["mcts:200".into(), "mcts".into(), "mcts:5000".into()],
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--games" => a.games = value.parse().map_err(|_| format!("--games: cannot read `{value}`"))?,
            "--seed" => a.seed = value.parse().map_err(|_| format!("--seed: cannot read `{value}`"))?,
            "--rulesets" => a.rulesets = list(&flag, &value)?,
            "--players" => a.players = list(&flag, &value)?,
            "--budgets" if value == "none" => a.budgets.clear(),
            "--budgets" => {
                a.budgets = value
                    .split(',')
                    .map(|b| {
                        let b = b.trim();
                        if b == "mcts" || b.starts_with("mcts:") { b.to_string() } else { format!("mcts:{b}") }
                    })
                    .collect()
            }
            _ => return Err(format!("unknown flag `{flag}`: --games, --seed, --rulesets, --players, --budgets")),
        }
    }
    Ok(a)
}

fn rows<G: rulesmith::core::erased::Complete>(game: &G, name: &str, a: &Args, budgets: &[BotSpec]) {
    let range = game.players();
    for &p in a.players.iter().filter(|p| range.contains(p)) {
        let c = cell(game, p, a.games, a.seed, &BotSpec::Greedy, &BotSpec::Random);
        println!("{}", c.line(name, p, "greedy vs random"));
        for (b, text) in budgets.iter().zip(&a.budgets) {
            let c = cell(game, p, a.games, a.seed, b, &BotSpec::Greedy);
            let label = if text == "mcts" { format!("mcts ({b}) vs greedy") } else { format!("{b} vs greedy") };
            println!("{}", c.line(name, p, &label));
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = args()?;
    let budgets: Vec<BotSpec> = a.budgets.iter().map(|b| b.parse::<BotSpec>()).collect::<Result<_, _>>()?;
    println!(
        "| ruleset | players | bots (one against the rest) | win share [95%] | games | ms/decision | slowest ms | slowest ms on CPU |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for name in &a.rulesets {
        let loaded = ruleset::load(name, rulesmith::BUNDLED).map_err(|e| e.render())?;
        let mut d = Diagnostics::default();
        let bad = |d: &Diagnostics| d.render(&loaded.sources);
        match name.as_str() {
            "puerto-rico" => {
                let g = rulesmith_puerto_rico::decode(&loaded.tree, &mut d).ok_or_else(|| bad(&d))?;
                rows(&g, name, &a, &budgets)
            }
            "puerto-rico-expansion" => {
                let g = rulesmith_puerto_rico_expansion::decode(&loaded.tree, &mut d).ok_or_else(|| bad(&d))?;
                rows(&g, name, &a, &budgets)
            }
            "santiago-de-cuba" => {
                let g = rulesmith_santiago_de_cuba::decode(&loaded.tree, &mut d).ok_or_else(|| bad(&d))?;
                rows(&g, name, &a, &budgets)
            }
            "mundo-163" => {
                let g = rulesmith_mundo_163::decode(&loaded.tree, &mut d).ok_or_else(|| bad(&d))?;
                rows(&g, name, &a, &budgets)
            }
            other => {
                return Err(format!(
                    "unknown ruleset `{other}`: {}",
                    rulesmith::GAMES.iter().map(|g| g.id).collect::<Vec<_>>().join(", ")
                )
                .into());
            }
        }
    }
    Ok(())
}
