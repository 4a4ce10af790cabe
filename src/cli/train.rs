//! `rulesmith train`: a learned player for a ruleset, by self-play and against the built-in
//! bots ([`rulesmith::core::learned::train`]), written as one policy file, with its
//! learning curve as JSON and an HTML page.

use super::common::{Failure, bad, load, note, players_for, say};
use super::output::{check_distinct, write_whole};
use rulesmith::core::bots::BotSpec;
use rulesmith::core::erased::{Complete, Visit};
use rulesmith::core::learned::Policy;
use rulesmith::core::learned::train::{CurvePoint, Event, TrainOptions, train};
use std::path::PathBuf;

/// What `train` was asked.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// The ruleset trained on: a bundled name or a path to a .toml file.
    #[arg(add = crate::ruleset_completer())]
    pub ruleset: String,
    /// Player count trained at [default: 3 if the ruleset seats 3, else as `simulate`].
    #[arg(long)]
    pub players: Option<usize>,
    /// Learner decisions to train for.
    #[arg(long, default_value_t = 1_000_000)]
    pub steps: u64,
    /// The run's seed: the same seed and options train the same policy.
    #[arg(long, default_value_t = rulesmith::core::sim::DEFAULT_SEED)]
    pub seed: u64,
    /// Width of the network's two hidden layers.
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// The bot imitated before PPO (the imitation phase; with --imitate-steps).
    #[arg(long, value_name = "BOT", default_value = "greedy")]
    pub imitate: String,
    /// Labelled decisions of the imitation phase (0: no imitation).
    #[arg(long, value_name = "STEPS", default_value_t = 0)]
    pub imitate_steps: u64,
    /// Weight of the shaping reward (the change of the seat's heuristic margin; 0: none).
    #[arg(long, value_name = "W", default_value_t = 0.0)]
    pub shaping: f32,
    /// PPO's share of opponent seats played by greedy (after the random start).
    #[arg(long, value_name = "SHARE", default_value_t = 0.5)]
    pub greedy_share: f64,
    /// PPO's share of the steps played against random opponents only, at the start.
    #[arg(long, value_name = "SHARE", default_value_t = 0.1)]
    pub random_share: f64,
    /// The temperature the written policy plays at (its logits divided by it at the end;
    /// below 1: sharper).
    #[arg(long, value_name = "T", default_value_t = 1.0)]
    pub temperature: f64,
    /// PPO's learning rate at the start (falling linearly to 0).
    #[arg(long, value_name = "RATE", default_value_t = 1.5e-3)]
    pub learning_rate: f32,
    /// Learner decisions between two points of the learning curve (0: only at the end).
    #[arg(long, value_name = "STEPS", default_value_t = 100_000)]
    pub eval_every: u64,
    /// Games against two greedy players (seats rotated) for each point of the curve.
    #[arg(long, value_name = "GAMES", default_value_t = 90)]
    pub eval_games: u64,
    /// Games against two greedy players for the curve's last point.
    #[arg(long, value_name = "GAMES", default_value_t = 300)]
    pub final_games: u64,
    /// The policy file written.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Also write the run and its learning curve as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also write the learning curve as a self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub set: crate::SetArgs,
    /// The command as typed, for the policy file and the page.
    #[arg(skip)]
    pub command: String,
}

struct Run {
    opts: TrainOptions,
    quiet: bool,
}

impl Visit for Run {
    type Out = Result<(Policy, Vec<CurvePoint>), String>;
    fn visit<G: Complete>(self, game: G) -> Self::Out {
        let quiet = self.quiet;
        let mut report = |e: &Event| {
            if quiet {
                return;
            }
            match e {
                Event::Update { steps, games, win_share, seconds } if *games > 0 => note(&format!(
                    "steps {steps}: learner won {:.1}% of {games} training games, {seconds:.1} s",
                    100.0 * win_share
                )),
                Event::Update { steps, seconds, .. } => note(&format!("steps {steps}: {seconds:.1} s")),
                Event::Imitation { steps, loss, agreement, seconds } if agreement.is_nan() => {
                    note(&format!("imitation {steps}: cross-entropy {loss:.3}, {seconds:.1} s"))
                }
                Event::Imitation { steps, loss, agreement, seconds } => note(&format!(
                    "imitation {steps}: cross-entropy {loss:.3}, own moves the teacher's {:.1}%, {seconds:.1} s",
                    100.0 * agreement
                )),
                Event::Point(p) => note(&format!(
                    "steps {}: {:.1}% [{:.1}, {:.1}] of {} games against greedy",
                    p.steps,
                    100.0 * p.win_share,
                    100.0 * p.low,
                    100.0 * p.high,
                    p.games
                )),
            }
        };
        train(&game, &self.opts, &mut report)
    }
}

pub fn train_command(a: &TrainArgs) -> Result<u8, Failure> {
    if a.steps == 0 || a.steps > 1_000_000_000 {
        return Err(bad(format!("--steps {}: train for 1 to 1000000000 learner decisions", a.steps)));
    }
    if a.hidden == 0 || a.hidden > rulesmith::core::learned::policy::MAX_HIDDEN {
        return Err(bad(format!(
            "--hidden {}: a hidden layer is 1 to {} wide",
            a.hidden,
            rulesmith::core::learned::policy::MAX_HIDDEN
        )));
    }
    if a.final_games == 0 || a.final_games > 100_000 || a.eval_games > 100_000 {
        return Err(bad("--eval-games and --final-games: 1 to 100000 games (--eval-games may be 0)"));
    }
    if a.imitate_steps > 1_000_000_000 {
        return Err(bad(format!("--imitate-steps {}: imitate for 0 to 1000000000 decisions", a.imitate_steps)));
    }
    for (flag, share) in [("--greedy-share", a.greedy_share), ("--random-share", a.random_share)] {
        if !(0.0..=1.0).contains(&share) {
            return Err(bad(format!("{flag} {share}: a share is 0 to 1")));
        }
    }
    if !(a.shaping.is_finite() && (0.0..=10.0).contains(&a.shaping)) {
        return Err(bad(format!("--shaping {}: a weight is 0 to 10", a.shaping)));
    }
    if !(a.learning_rate.is_finite() && a.learning_rate > 0.0 && a.learning_rate <= 1.0) {
        return Err(bad(format!("--learning-rate {}: a rate is over 0 and at most 1", a.learning_rate)));
    }
    if !(a.temperature.is_finite() && (0.01..=100.0).contains(&a.temperature)) {
        return Err(bad(format!("--temperature {}: a temperature is 0.01 to 100", a.temperature)));
    }
    let teacher: BotSpec = a.imitate.parse().map_err(|e| bad(format!("--imitate {}: {e}", a.imitate)))?;
    // A timed search or another process would make the run depend on the machine.
    if matches!(teacher, BotSpec::Exec(_) | BotSpec::Learned(_) | BotSpec::MctsTime(_)) {
        return Err(bad(format!(
            "--imitate {}: imitate a built-in bot that decides the same on every machine (greedy, greedy:N%, mcts:N, random)",
            a.imitate
        )));
    }
    let ruleset = load(&a.ruleset, &a.set.set)?;
    let range = ruleset.game.players();
    let players = match a.players {
        Some(p) => players_for(Some(p), &range, ruleset.name())?,
        // Three players (the table of the shipped policies) where the ruleset seats three.
        None if range.contains(&3) => 3,
        None => players_for(None, &range, ruleset.name())?,
    };
    let mut outputs: Vec<(&str, &std::path::Path)> = vec![("the policy file", &a.out)];
    if let Some(j) = &a.json {
        outputs.push(("the JSON curve", j));
    }
    if let Some(h) = &a.html {
        outputs.push(("the HTML page", h));
    }
    check_distinct(&outputs, &[a.ruleset.as_str()])?;
    let opts = TrainOptions {
        players,
        seed: a.seed,
        steps: a.steps,
        hidden: a.hidden,
        imitate_steps: a.imitate_steps,
        teacher,
        shaping: a.shaping,
        greedy_share: a.greedy_share,
        random_share: a.random_share,
        learning_rate: a.learning_rate,
        temperature: a.temperature,
        eval_every: a.eval_every,
        eval_games: a.eval_games,
        final_eval_games: a.final_games,
        ruleset: ruleset.name().to_string(),
        digest: ruleset.digest(),
        command: a.command.clone(),
        ..TrainOptions::default()
    };
    let run = Run { opts, quiet: a.quiet };
    let (policy, curve) = rulesmith::decode_with(&ruleset.loaded, run)
        .map_err(|d| bad(d.render(&ruleset.loaded.sources)))?
        .map_err(|e| bad(format!("cannot train on `{}`: {e}", ruleset.name())))?;
    let bytes = policy.to_bytes();
    // What is written must read back as `learned:FILE` reads it.
    Policy::from_bytes(&bytes).map_err(|e| bad(format!("the trained policy does not read back: {e}")))?;
    write_whole("the policy file", &a.out, &bytes)?;
    let json = serde_json::json!({
        "ruleset": ruleset.name(),
        "digest": ruleset.digest(),
        "players": players,
        "seed": a.seed,
        "steps": a.steps,
        "hidden": a.hidden,
        "imitate": if a.imitate_steps > 0 { Some(&a.imitate) } else { None },
        "imitate_steps": a.imitate_steps,
        "shaping": a.shaping,
        "temperature": a.temperature,
        "command": a.command,
        "policy": a.out.display().to_string(),
        "policy_bytes": bytes.len(),
        "curve": curve,
    });
    if let Some(j) = &a.json {
        let text = serde_json::to_string_pretty(&json).map_err(|e| bad(format!("cannot write JSON: {e}")))? + "\n";
        write_whole("the JSON curve", j, text.as_bytes())?;
    }
    if let Some(h) = &a.html {
        let page =
            rulesmith_report_html::training_page(&json).map_err(|e| bad(format!("cannot render the page: {e}")))?;
        write_whole("the HTML page", h, page.as_bytes())?;
    }
    if let Some(p) = curve.last() {
        say(format!(
            "wrote {} ({} bytes): won {:.1}% [{:.1}, {:.1}] of {} seat-rotated {players}-player games against {} greedy",
            a.out.display(),
            bytes.len(),
            100.0 * p.win_share,
            100.0 * p.low,
            100.0 * p.high,
            p.games,
            players - 1
        ));
    }
    Ok(0)
}
