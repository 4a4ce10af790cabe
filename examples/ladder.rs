//! The strength ladder of the book (`docs/strength.md`): each rung against the rung below,
//! in a rotated 3-player `tournament` (one upper bot against two copies of the lower one, in each of
//! the three seats, on the same seeds), with the upper rung's win share, its 95% interval,
//! how often it finishes ahead of a lower bot, and the rating gap of the tournament's
//! Bradley–Terry fit (Elo scale).
//!
//! `cargo run --release --example ladder -- [--rulesets a,b] [--rungs random,greedy,...]
//! [--games N] [--players P] [--seed S]`
//!
//! Default rungs: `random,greedy,mcts:10ms,mcts:100ms,mcts:1000ms`. To place a bot of
//! your own, put it among the rungs where you expect it (`--rungs
//! greedy,exec:./my-bot,mcts:10ms`): it is played against the rung below and the rung
//! above. Games run on all cores (`RAYON_NUM_THREADS` limits them); time budgets
//! (`mcts:Nms`) depend on the machine and its load, iteration budgets (`mcts:N`) do not.
//! A benchmark, not a test: nothing is asserted.

use rulesmith::core::bots::BotSpec;
use rulesmith::core::tournament::{TournamentOptions, TournamentReport, seatings};

struct Args {
    rulesets: Vec<String>,
    rungs: Vec<String>,
    games: u64,
    players: usize,
    seed: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        rulesets: rulesmith::GAMES.iter().map(|g| g.id.to_string()).collect(),
        rungs: ["random", "greedy", "mcts:10ms", "mcts:100ms", "mcts:1000ms"].map(String::from).to_vec(),
        games: 4,
        players: 3,
        seed: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|_| format!("{flag}: cannot read `{v}`"));
        match flag.as_str() {
            "--rulesets" => a.rulesets = value.split(',').map(|s| s.trim().to_string()).collect(),
            "--rungs" => a.rungs = value.split(',').map(|s| s.trim().to_string()).collect(),
            "--games" => a.games = number(&value)?,
            "--players" => a.players = number(&value)? as usize,
            "--seed" => a.seed = number(&value)?,
            _ => return Err(format!("unknown flag `{flag}`: --rulesets, --rungs, --games, --players, --seed")),
        }
    }
    if a.rungs.len() < 2 {
        return Err("--rungs: name at least two bots, weakest first".into());
    }
    Ok(a)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = args()?;
    let rungs: Vec<BotSpec> = a.rungs.iter().map(|b| b.parse::<BotSpec>()).collect::<Result<_, _>>()?;
    println!(
        "| ruleset | rung vs the rung below | win share [95%] | games | ahead of a lower bot | rating gap | unfinished |"
    );
    println!("|---|---|---|---|---|---|---|");
    for name in &a.rulesets {
        let r = rulesmith::load(name).map_err(|e| e.render())?;
        if !r.game.players().contains(&a.players) {
            return Err(format!("`{name}` does not seat {} players", a.players).into());
        }
        for pair in rungs.windows(2) {
            let (lower, upper) = (&pair[0], &pair[1]);
            // Bot 0 is the upper rung, the others copies of the lower one.
            let mut bots = vec![upper.clone()];
            bots.extend(std::iter::repeat_n(lower.clone(), a.players - 1));
            let opts = TournamentOptions {
                players: a.players,
                games: a.games,
                seed: a.seed,
                bots,
                shard: None,
                progress: None,
            };
            let tables = seatings(opts.bots.len(), a.players)?.len();
            let tally = r.game.tournament(&opts)?;
            let unfinished = tally.unfinished;
            let report = TournamentReport::new(r.name(), &r.digest(), r.game.game_id(), &opts, tables, tally);
            let top = &report.standings[0];
            let lower_rating =
                report.standings[1..].iter().map(|s| s.rating).sum::<f64>() / (report.standings.len() - 1) as f64;
            let ahead: Vec<f64> = report.ahead[0][1..].iter().flatten().copied().collect();
            let ahead = ahead.iter().sum::<f64>() / ahead.len().max(1) as f64;
            println!(
                "| `{name}` | `{upper}` vs `{lower}` | {:.1}% [{:.1}, {:.1}] | {} | {:.1}% | {:+.0} | {unfinished} |",
                100.0 * top.win_share,
                100.0 * top.win_share_ci95[0],
                100.0 * top.win_share_ci95[1],
                top.games,
                100.0 * ahead,
                top.rating - lower_rating,
            );
        }
    }
    Ok(())
}
