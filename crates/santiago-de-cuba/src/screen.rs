//! The play screen: the street of citizens with the car, the ship in port with its dice
//! and value marker, the buildings with owners and pawns, and each player's holdings.
//!
//! Hidden from the seat, whatever the state holds: the other players' goods (counts
//! included), pesos and VP, kept behind their screens (S002:L100); pawns and buildings
//! are open. Once the game is over everything is shown (S002:L408).

use crate::action::Action;
use crate::engine;
use crate::rules::{Flower, Rules};
use crate::state::{Phase, State};
use rulesmith_game::Seat;
use rulesmith_game::screen::{Style, pad, wrap};
use std::fmt::Write as _;

fn phase_name(r: &Rules, s: &State) -> String {
    match s.phase {
        Phase::Demand => "setting dice aside".into(),
        Phase::Drive => "driving the car".into(),
        Phase::Pickpocket { victim } => format!("El Zorro: seat {victim} gives"),
        Phase::ChooseGood => "choosing a good".into(),
        Phase::Lawyer => "the lawyer".into(),
        Phase::Pawn { .. } => "moving the pawn".into(),
        Phase::Use { building } => {
            format!("using {}", r.buildings.get(usize::from(building)).map_or("?", |b| b.id.as_str()))
        }
        Phase::Loading { .. } => "loading the ship".into(),
        Phase::Over => "the game is over".into(),
    }
}

/// The whole screen for `seat`, of a state already observed by `seat`.
pub fn draw(r: &Rules, s: &State, seat: Seat, style: &Style) -> String {
    let mut out = String::new();
    let to_move = match s.phase {
        Phase::Over => "game over".to_string(),
        Phase::Pickpocket { victim } if victim == seat => style.bold("your move"),
        Phase::Pickpocket { victim } => style.seat(victim, &format!("seat {victim} to move")),
        _ if s.turn.player == seat => style.bold("your move"),
        _ => style.seat(s.turn.player, &format!("seat {} to move", s.turn.player)),
    };
    let title = [style.bold("SANTIAGO DE CUBA"), format!("round {}", s.turn.round), phase_name(r, s), to_move];
    wrap("", &title, " · ", &mut out);
    // The street: the port, then each citizen clockwise, the car where it stands.
    let mut stops = vec![if s.car == 0 { style.bold("[CAR] port") } else { "port".to_string() }];
    for (i, &c) in s.street.iter().take(r.citizens.len()).enumerate() {
        let Some(cit) = r.citizens.get(usize::from(c)) else { continue };
        let flower = match cit.flower {
            Flower::Colour(f) => r.flowers.get(usize::from(f)).map_or("?", |f| f.id.as_str()),
            Flower::Transparent => "clear",
        };
        let mut t = format!("{}:{}", cit.id, flower);
        if s.is_inactive(c) {
            t = style.dim(&format!("{t}(down)"));
        }
        if usize::from(s.car) == i + 1 {
            t = style.bold(&format!("[CAR] {t}"));
        }
        stops.push(t);
    }
    wrap(&style.dim("Street "), &stops, " → ", &mut out);
    // The ship: each die's demand, the value marker on the track.
    let dice: Vec<String> = r
        .dice
        .iter()
        .enumerate()
        .map(|(d, die)| {
            let good = r.goods.get(usize::from(die.good)).map_or("?", |g| g.id.as_str());
            if s.on_ship(d as u8) {
                format!("{} {good}", s.ship.dice.open(d))
            } else {
                style.dim(&format!("({good} aside)"))
            }
        })
        .collect();
    let track: Vec<String> = r
        .value_track
        .iter()
        .enumerate()
        .map(|(i, v)| if i == usize::from(s.ship.marker) { style.bold(&format!("[{v}]")) } else { v.to_string() })
        .collect();
    let _ = writeln!(
        out,
        "{}{} of {} ships sailed · value {} VP/good · track {}",
        style.dim("Ship   "),
        s.ship.departed,
        r.ships,
        r.value_track.get(usize::from(s.ship.marker)).copied().unwrap_or(0),
        track.join(" ")
    );
    if s.ship.awaiting_demand {
        let _ = writeln!(out, "       {}", style.dim("demand not rolled yet"));
    } else {
        wrap(&style.dim("Demand "), &dice, " · ", &mut out);
    }
    let supply: Vec<String> =
        r.goods.iter().enumerate().map(|(g, good)| format!("{} {}", good.id, s.supply[g])).collect();
    wrap(&style.dim("Supply "), &supply, " · ", &mut out);
    out.push('\n');
    let _ = writeln!(out, "{}", style.bold("Buildings (flower: owner, pawns)"));
    for (b, x) in r.buildings.iter().enumerate() {
        let flower = r.flowers.get(usize::from(s.flower[b])).map_or("?", |f| f.id.as_str());
        let owner = match s.owner[b].get() {
            None => style.dim("free"),
            Some(o) => style.seat(o, &format!("seat {o}")),
        };
        let pawns: Vec<String> = s
            .players
            .seats()
            .filter(|&p| s.players[p].pawn.get().is_some_and(|pawn| usize::from(pawn) == b))
            .map(|p| style.seat(p, &format!("♟{p}")))
            .collect();
        let row = format!("  {} {} {} {}", pad(&x.id, 14), pad(flower, 7), pad(&owner, 8), pawns.join(" "));
        let _ = writeln!(out, "{}", row.trim_end());
    }
    out.push('\n');
    for p in s.players.seats() {
        let pl = &s.players[p];
        let mine = p == seat || s.is_over();
        let name = if p == seat { format!("seat {p} (you)") } else { format!("seat {p}") };
        let marker = if !s.is_over() && s.turn.player == p { ">" } else { " " };
        let (pesos, vp) =
            if mine { (pl.pesos.to_string(), pl.vp.to_string()) } else { (style.hidden(), style.hidden()) };
        let goods: Vec<String> = r
            .goods
            .iter()
            .enumerate()
            .filter(|&(g, _)| pl.goods[g] > 0)
            .map(|(g, good)| format!("{} {}", good.id, pl.goods[g]))
            .collect();
        let goods = match pl.goods_total() {
            _ if !mine => format!("goods {}", style.hidden()),
            0 => style.dim("no goods"),
            _ => goods.join(" "),
        };
        let head = format!(
            "{marker}{} pesos {pesos} · VP {vp} · buildings {}",
            pad(&style.seat(p, &name), 15),
            s.owned_by(p, r.buildings.len())
        );
        rulesmith_game::screen::head_tail(&head, &goods, &mut out);
    }
    out
}

/// What an action costs or gives, for the menu of `play`.
pub fn annotate(r: &Rules, s: &State, a: Action) -> Option<String> {
    let value = u16::from(r.value_track.get(usize::from(s.ship.marker)).copied().unwrap_or(0));
    match a {
        Action::Drive(n) => {
            let cost = engine::drive_cost(r, n);
            (cost > 0).then(|| format!("costs {cost} peso{}", if cost == 1 { "" } else { "s" }))
        }
        Action::Deliver { count, .. } => Some(format!("+{} VP", value * u16::from(count))),
        Action::DeliverFor { with, count, .. } => {
            let each = r.goods.get(usize::from(with)).and_then(|g| g.substitute_vp).map_or(value, u16::from);
            Some(format!("+{} VP", each * u16::from(count)))
        }
        _ => None,
    }
}
