//! `play RULESET`: a game in the terminal against bots.

use super::common::{Failure, bad, failed, load, players_for, say};
use super::view::concise;
use rulesmith::core::bots::{BotSpec, parse_bots};
use rulesmith::core::erased::AnySession;
use rulesmith::core::game::{Seat, ToMove};
use rulesmith::core::record::{HUMAN, Record};
use rulesmith::core::sim::bot_rng;
use std::io::{BufRead, Write};
use std::path::PathBuf;

pub struct PlayArgs {
    pub ruleset: String,
    pub players: Option<usize>,
    pub seed: u64,
    pub humans: Vec<u8>,
    pub bots: String,
    pub record: Option<PathBuf>,
    pub json_view: bool,
}

const HELP: &str = "Type the number of an action or the action itself in the game's notation.\n  \
    ?      list the legal actions\n  view   show your view again\n  json   show your view as JSON\n  \
    quit   leave the game";

fn prompt(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "{text}");
    let _ = out.flush();
}

fn show_view(s: &dyn AnySession, seat: Seat, json: bool) {
    let v = s.view_json(seat);
    if json {
        say(serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        say(concise(&v).trim_end());
    }
}

fn show_legal(legal: &[String]) {
    for (i, a) in legal.iter().enumerate() {
        say(format!("  {:>3}  {a}", i + 1));
    }
}

/// `rulesmith play`: reads moves from stdin; end of input leaves the game.
pub fn play(a: PlayArgs) -> Result<u8, Failure> {
    let r = load(&a.ruleset)?;
    let players = players_for(a.players, &r.game.players(), &a.ruleset)?;
    for &h in &a.humans {
        if h as usize >= players {
            return Err(bad(format!("--human {h}: the game has {players} players (seats 0 to {})", players - 1)));
        }
    }
    let specs: Vec<BotSpec> = parse_bots(&a.bots, players).map_err(super::common::bots_error)?;
    let seats: Vec<Option<BotSpec>> =
        (0..players).map(|s| if a.humans.contains(&(s as u8)) { None } else { specs.get(s).copied() }).collect();
    let mut session = r.game.start(players, a.seed).map_err(|e| bad(e.to_string()))?;
    let mut rng = bot_rng(a.seed);
    let names: Vec<String> = seats.iter().map(|s| s.map_or(HUMAN.to_string(), |b| b.to_string())).collect();
    say(format!(
        "{} ({}), {players} players, seed {}: {}",
        r.name(),
        r.game.game_id(),
        a.seed,
        names.iter().enumerate().map(|(i, n)| format!("seat {i} {n}")).collect::<Vec<_>>().join(", ")
    ));
    say("Type ? for the legal actions, help for the commands.");
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut quit = false;
    'game: while let ToMove::Seat(seat) = session.to_move() {
        match seats.get(seat as usize).copied().flatten() {
            Some(bot) => {
                let Some(choice) = session.bot_choice(bot, &mut rng) else {
                    return Err(failed(format!("seat {seat} is to move but has no legal action (a bug of the game)")));
                };
                session.play(&choice).map_err(|e| bad(format!("seat {seat} ({bot}) chose `{choice}`: {e}")))?;
                say(format!("seat {seat} ({bot}): {choice}"));
            }
            None => {
                say(format!("\n-- seat {seat}, your turn --"));
                show_view(session.as_ref(), seat, a.json_view);
                let legal = session.legal();
                if legal.is_empty() {
                    return Err(failed(format!("seat {seat} is to move but has no legal action (a bug of the game)")));
                }
                show_legal(&legal);
                loop {
                    prompt(&format!("seat {seat}> "));
                    let Some(Ok(line)) = lines.next() else {
                        say("");
                        quit = true;
                        break 'game;
                    };
                    let input = line.trim();
                    match input {
                        "" => continue,
                        "?" | "legal" => show_legal(&legal),
                        "help" | "h" => say(HELP),
                        "view" => show_view(session.as_ref(), seat, false),
                        "json" => show_view(session.as_ref(), seat, true),
                        "quit" | "q" | "exit" => {
                            quit = true;
                            break 'game;
                        }
                        _ => {
                            let action = match input.parse::<usize>() {
                                Ok(n) if (1..=legal.len()).contains(&n) => legal[n - 1].clone(),
                                Ok(n) => {
                                    say(format!("there is no action {n}: choose 1 to {}", legal.len()));
                                    continue;
                                }
                                Err(_) => input.to_string(),
                            };
                            match session.play(&action) {
                                Ok(()) => {
                                    say(format!(
                                        "seat {seat}: {}",
                                        session.history().last().cloned().unwrap_or(action)
                                    ));
                                    break;
                                }
                                Err(e) => say(format!("{e}")),
                            }
                        }
                    }
                }
            }
        }
    }
    let outcome = session.outcome();
    match &outcome {
        Some(o) => {
            say(format!("\nThe game is over ({}).", o.end.replace('_', " ")));
            let mut order: Vec<usize> = (0..o.scores.len()).collect();
            order.sort_by_key(|&s| (o.ranks[s], s));
            for s in order {
                say(format!("  {}. seat {s} ({}): {} points", o.ranks[s] + 1, names[s], o.scores[s]));
            }
        }
        None if quit => say("You left the game."),
        None => {}
    }
    if let Some(path) = &a.record {
        let rec = Record {
            ruleset: r.name().to_string(),
            source: a.ruleset.clone(),
            digest: r.digest(),
            game: r.game.game_id().to_string(),
            players,
            seed: a.seed,
            index: None,
            run_seed: None,
            bots: names,
            actions: session.history().to_vec(),
            rounds: session.progress().rounds,
            result: outcome,
        };
        std::fs::write(path, rec.to_line() + "\n")
            .map_err(|e| bad(format!("cannot write the record `{}`: {e}", path.display())))?;
        say(format!("Recorded to {}.", path.display()));
    }
    Ok(0)
}
