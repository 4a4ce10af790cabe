//! Why do games end (or not) by deliveries? Plays bot games and counts deliveries per
//! round, the actions chosen by kind, and at each `end trolley` what blocked delivering:
//! `cargo run --release -p rulesmith-mundo-163 --example deliveries -- PLAYERS GAMES BOT [RULESET]`
//! (defaults: 2 players, 50 games, greedy, `mundo-163`). `SHOW=1` also prints each stalled trolley and
//! the goods left at the end of each game; `SHOW=2` the value of each legal action there.
#![allow(clippy::expect_used)]
use rulesmith_core::bots::{self, BotSpec};
use rulesmith_core::prelude::*;
use rulesmith_core::{Game, Rng, ToMove};
use rulesmith_mundo_163::trolley::open_demand;
use rulesmith_mundo_163::{Action, Phase};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let bot: BotSpec = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(BotSpec::Greedy);
    let ruleset = args.get(4).map_or("mundo-163", String::as_str);
    let g = match rulesmith_mundo_163::load(ruleset) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let r = &g.rules;
    let mut per_round: BTreeMap<u32, u32> = BTreeMap::new();
    let mut kinds: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut blocks: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut ends: BTreeMap<String, u32> = BTreeMap::new();
    let (mut rounds_sum, mut money_sum, mut turns, mut holds2, mut mp_sum) = (0u64, 0i64, 0u64, 0u64, 0u64);
    let mut buf = Vec::new();
    for seed in 1..=games {
        let mut s = g.new_game(players, seed).expect("new game");
        let mut rng = Rng::from_seed(seed ^ 0x5eed);
        while let ToMove::Seat(_) = g.to_move(&s) {
            g.legal_actions(&s, &mut buf);
            let a = bots::choose(&g, &bot, &s, &buf, &mut rng);
            let kind = match a {
                Action::Capital(_) => "capital",
                Action::BuyPrivilege { .. } => "buy privilege",
                Action::NoPrivilege => "no privilege",
                Action::Upgrade(_) => "upgrade",
                Action::NoUpgrade => "no upgrade",
                Action::BuyResident(_) => "buy resident",
                Action::EndPurchase => "end purchase",
                Action::Move { .. } => "move",
                Action::Step { .. } => "step",
                Action::Road { .. } | Action::FreeRoad { .. } => "road",
                Action::Again(_) => "again",
                Action::EndResidents => "end residents",
                Action::Go(_) => "go",
                Action::Load(_) => "load good",
                Action::LoadResident => "load resident",
                Action::Unload(_) => "unload good",
                Action::UnloadResident => "unload resident",
                Action::EndTrolley => "end trolley",
            };
            *kinds.entry(kind).or_default() += 1;
            if a == Action::EndTrolley && s.phase == Phase::Trolley {
                let p = s.cur();
                turns += 1;
                money_sum += i64::from(p.money);
                holds2 += u64::from(p.holds_level);
                mp_sum += u64::from(p.movement_level);
                let aboard = p.trolley.goods_count();
                let block = if aboard == 0 {
                    "no good aboard"
                } else {
                    let wanted = (0..r.goods.len()).any(|gd| {
                        p.trolley.goods[gd] > 0
                            && (0..r.tiles()).any(|t| open_demand(r, &s, t as u8, gd as u8).is_some())
                    });
                    let own_city = (0..r.goods.len()).any(|gd| {
                        p.trolley.goods[gd] > 0
                            && (0..r.tiles())
                                .any(|t| p.owns(t as u8) && open_demand(r, &s, t as u8, gd as u8).is_some())
                    });
                    if own_city && std::env::var("SHOW").is_ok() && turns < 400 {
                        let own: Vec<&str> =
                            (0..r.tiles()).filter(|&t| p.owns(t as u8)).map(|t| r.tile_name(t as u8)).collect();
                        println!(
                            "seat {} round {} trolley {} half_mp {} goods {:?} own {own:?}",
                            s.current,
                            s.round,
                            p.trolley.tile.get().map_or("-", |t| r.tile_name(t)),
                            p.trolley.half_mp,
                            p.trolley.goods
                        );
                        if std::env::var("SHOW").is_ok_and(|v| v == "2") {
                            for &b in &buf {
                                let mut n = s.clone();
                                if g.apply(&mut n, b).is_ok() {
                                    println!("   {} -> {:.3}", g.format_action(&s, b), g.heuristic(&n, s.current));
                                }
                            }
                        }
                    }
                    if !wanted {
                        "good aboard, no city wants it"
                    } else if own_city {
                        "good aboard, wanted on an own tile, not reached"
                    } else {
                        "good aboard, wanted only on unsettled cities"
                    }
                };
                *blocks.entry(block).or_default() += 1;
            }
            let before = s.delivered_total();
            let round = s.round;
            g.apply(&mut s, a).expect("legal");
            let d = s.delivered_total() - before;
            if d > 0 {
                *per_round.entry(round).or_default() += d;
            }
        }
        if std::env::var("SHOW").is_ok() {
            let n = r.goods.len();
            let mut open = vec![0; n];
            let mut stock = vec![0; n];
            let mut lying = vec![0; n];
            let mut carried = vec![0; n];
            for (ci, c) in r.cities.iter().enumerate() {
                for (i, &d) in c.demands.iter().enumerate() {
                    if !s.covered[ci].is_covered(i) {
                        open[usize::from(d)] += 1;
                    }
                }
                stock[usize::from(c.goods)] += s.city_stock[ci];
            }
            for t in 0..r.tiles() {
                for (gd, l) in lying.iter_mut().enumerate() {
                    *l += s.loose[t][gd];
                }
            }
            for seat in 0..players {
                for (gd, c) in carried.iter_mut().enumerate() {
                    *c += s.player(seat as u8).trolley.goods[gd];
                }
            }
            let pieces: Vec<(u8, u8, u8, u8)> = (0..players)
                .map(|seat| {
                    let p = s.player(seat as u8);
                    (p.settlements_in_storage, p.residents_in_storage, p.holds_level, p.trolley.residents)
                })
                .collect();
            println!("  (settlements, residents) in storage, holds level, residents aboard: {pieces:?}");
            println!("end of game {seed}: open demands {open:?} stock {stock:?} lying {lying:?} carried {carried:?}");
        }
        rounds_sum += u64::from(s.round);
        let end = g.outcome(&s).map(|o| o.end.to_string()).unwrap_or_default();
        *ends.entry(end).or_default() += 1;
    }
    println!(
        "{games} {bot} games, {players} players: ends {ends:?}, mean rounds {:.1}",
        rounds_sum as f64 / games as f64
    );
    println!("deliveries per round (all games): {per_round:?}");
    println!("actions: {kinds:?}");
    println!("at end trolley ({turns} turns): {blocks:?}");
    let t = turns.max(1) as f64;
    println!(
        "mean money at end trolley ${:.0}, mean holds level {:.2}, mean movement level {:.2}",
        money_sum as f64 / t,
        holds2 as f64 / t,
        mp_sum as f64 / t
    );
}
