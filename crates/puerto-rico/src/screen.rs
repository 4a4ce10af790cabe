//! The play screen: the board as one seat sees it, for an 80×40 terminal.
//!
//! Hidden from the seat, whatever the state holds: the other players' VP chips (kept face
//! down, S000:L332) and the order of the face-down plantation stack (only its count).

use crate::action::Action;
use crate::board;
use crate::goods::Good;
use crate::phases::{privilege, trader};
use crate::rules::{BuildingKind, Rules};
use crate::state::{Phase, State};
use rulesmith_game::Seat;
use rulesmith_game::screen::{Style, marks, pad, wrap};
use std::fmt::Write as _;

/// A good in its colour on the board (`[goods.*] colour`).
pub fn good(rules: &Rules, style: &Style, g: Good) -> String {
    let c = rules.goods.get(g.index()).map_or("", |x| x.colour.name());
    style.colour(c, rules.good_name(g))
}

fn phase_name(rules: &Rules, s: &State) -> String {
    let role = rules.roles.get(s.role as usize).map_or("?", |r| r.id.as_str());
    match s.phase {
        Phase::RoleSelection => "role selection".into(),
        Phase::MayorPrivilege | Phase::Mayor => format!("{role}: placing colonists"),
        Phase::BuildPayment => format!("{role}: paying for a building"),
        Phase::MixedShip => format!("{role}: loading the mixed ship"),
        Phase::CaptainPrivilege => {
            format!("{role}: take the privilege VP or decline it (the end of the game may hinge on it)")
        }
        Phase::CaptainStorage => format!("{role}: storing goods"),
        Phase::ColonistOffer => format!("{role}: a colonist offered"),
        Phase::Window => format!("{role}: {}", rules.extension.get().map_or("moving", |e| e.window_label())),
        Phase::GameOver => "the game is over".into(),
        _ => role.to_string(),
    }
}

/// The whole screen for `seat`, of a state already observed by `seat`.
pub fn draw(rules: &Rules, s: &State, seat: Seat, style: &Style) -> String {
    draw_titled(rules, s, seat, style, "PUERTO RICO", None)
}

/// The screen under another title, and (`doing`) another step and seat to move than the
/// base game's (the expansion's draft comes before the first role).
pub fn draw_titled(
    rules: &Rules,
    s: &State,
    seat: Seat,
    style: &Style,
    title: &str,
    doing: Option<(&str, Seat)>,
) -> String {
    let mut out = String::new();
    let n = s.player_count();
    let (phase, current) = match doing {
        Some((what, who)) => (what.to_string(), who),
        None => (phase_name(rules, s), s.current),
    };
    let to_move = if s.phase == Phase::GameOver {
        "game over".to_string()
    } else if current == seat {
        style.bold("your move")
    } else {
        style.seat(current, &format!("seat {current} to move"))
    };
    let title = [
        style.bold(title),
        format!("round {}", s.round),
        format!("governor {}", style.seat(s.governor, &format!("seat {}", s.governor))),
        phase,
        to_move,
    ];
    wrap("", &title, " · ", &mut out);
    // Roles with the doubloons lying on them.
    let roles: Vec<String> = (0..rules.roles.len())
        .filter(|&r| s.roles.in_play() & (1 << r) != 0)
        .map(|r| {
            let id = &rules.roles[r].id;
            if s.roles.taken() & (1 << r) != 0 {
                style.dim(&format!("{id} (taken)"))
            } else if s.roles.coins()[r] > 0 {
                format!("{id} +{}", s.roles.coins()[r])
            } else {
                id.clone()
            }
        })
        .collect();
    wrap(&style.dim("Roles  "), &roles, "  ", &mut out);
    let _ = writeln!(
        out,
        "{}colonists {} on the ship, {} in supply · VP chips {} · quarries {}",
        style.dim("Supply "),
        s.colonist_ship,
        s.colonist_supply,
        s.vp_chips,
        s.quarry_supply
    );
    let face_up: Vec<String> =
        rules.goods().flat_map(|g| std::iter::repeat_n(good(rules, style, g), s.face_up[g] as usize)).collect();
    let face_up = if face_up.is_empty() { "none".to_string() } else { face_up.join(" ") };
    // Only the count of the face-down stack: its order is hidden from everyone.
    let _ = writeln!(out, "{}{face_up} · {} face down", style.dim("Tiles  "), s.stack.len);
    let goods: Vec<String> = rules
        .goods()
        .map(|g| format!("{} {} (sells {})", good(rules, style, g), s.goods_supply[g], rules.price[g]))
        .collect();
    wrap(&style.dim("Goods  "), &goods, " · ", &mut out);
    let house: Vec<String> = (0..rules.trading_house_spaces as usize)
        .map(|i| {
            s.trading_house.spaces().get(i).copied().flatten().map_or_else(|| style.dim("-"), |g| good(rules, style, g))
        })
        .collect();
    let ships: Vec<String> = s
        .ships()
        .iter()
        .map(|sh| match sh.good() {
            Some(g) => format!("{}/{} {}", sh.load(), sh.capacity(), good(rules, style, g)),
            None => format!("0/{} empty", sh.capacity()),
        })
        .collect();
    let mut items = vec![format!("{}[{}]", style.dim("Trading house "), house.join(" "))];
    items.extend(
        ships.iter().enumerate().map(|(i, x)| if i == 0 { format!("{}{x}", style.dim("Ships ")) } else { x.clone() }),
    );
    wrap("", &items, " · ", &mut out);
    // Buildings left, with cost and VP.
    let left: Vec<String> = (0..rules.buildings.len())
        .filter(|&b| s.in_game(b) && s.buildings.get(b).is_some_and(|&c| c > 0))
        .map(|b| {
            let x = &rules.buildings[b];
            let name = match x.kind {
                BuildingKind::Production { good: g, .. } => {
                    style.colour(rules.goods.get(g.index()).map_or("", |x| x.colour.name()), &x.id)
                }
                BuildingKind::Violet => style.colour("magenta", &x.id),
            };
            format!("{name} ${} ×{}", x.cost, s.buildings[b])
        })
        .collect();
    wrap(&style.dim("Buildings "), &left, "  ", &mut out);
    out.push('\n');
    for p in 0..n {
        player(rules, s, p as Seat, seat, current, style, &mut out);
    }
    out
}

fn player(rules: &Rules, s: &State, p: Seat, seat: Seat, current: Seat, style: &Style, out: &mut String) {
    let pl = &s.players[p];
    let mine = p == seat;
    let name = if mine { format!("seat {p} (you)") } else { format!("seat {p}") };
    let marker = if s.phase != Phase::GameOver && current == p { ">" } else { " " };
    let vp = if mine || s.phase == Phase::GameOver { pl.vp.to_string() } else { style.hidden() };
    let goods: Vec<String> = rules
        .goods()
        .filter(|&g| pl.goods[g] > 0)
        .map(|g| format!("{} {}", good(rules, style, g), pl.goods[g]))
        .collect();
    let goods = if goods.is_empty() { style.dim("no goods") } else { goods.join(" ") };
    let head = format!(
        "{marker}{} {} doubloons · VP {vp} · San Juan {}",
        pad(&style.seat(p, &name), 15),
        pl.doubloons,
        pl.san_juan
    );
    rulesmith_game::screen::head_tail(&head, &goods, out);
    let used: u32 = pl.plantations.total() + u32::from(pl.quarries) + u32::from(pl.extension_tiles);
    let mut island: Vec<String> = rules
        .goods()
        .filter(|&g| pl.plantations[g] > 0)
        .map(|g| {
            format!(
                "{} {}",
                good(rules, style, g),
                marks(pl.plantations_occupied[g] as usize, pl.plantations[g] as usize)
            )
        })
        .collect();
    if pl.quarries > 0 {
        island.push(format!("quarry {}", marks(pl.quarries_occupied as usize, pl.quarries as usize)));
    }
    if let (n @ 1.., Some(ext)) = (pl.extension_tiles, rules.extension.get()) {
        island.push(style.colour("green", &format!("{} ×{n}", ext.island_tile_name())));
    }
    if island.is_empty() {
        island.push(style.dim("empty"));
    }
    wrap(&format!("    island {used}/{}: ", rules.island_spaces), &island, "  ", out);
    let mut spaces = 0u32;
    let city: Vec<String> = pl
        .city
        .iter()
        .filter_map(|cb| {
            let x = rules.buildings.get(cb.building as usize)?;
            spaces += u32::from(x.spaces);
            Some(format!("{} {}", x.id, marks(cb.colonists as usize, x.circles as usize)))
        })
        .collect();
    let city = if city.is_empty() { vec![style.dim("empty")] } else { city };
    wrap(&format!("    city {spaces}/{}: ", rules.city_spaces), &city, "  ", out);
}

/// What an action costs or gives, for the menu of `play`.
pub fn annotate(rules: &Rules, s: &State, a: Action) -> Option<String> {
    let seat = s.current;
    let p = s.players.as_slice().get(seat as usize)?;
    match a {
        Action::Role(r) => {
            let coins = *s.roles.coins().get(r as usize)?;
            (coins > 0).then(|| format!("+{coins} doubloon{}", if coins == 1 { "" } else { "s" }))
        }
        Action::Build(b) => {
            let off = if seat == s.chooser { privilege::privilege(rules, s) } else { 0 };
            let x = rules.buildings.get(b as usize)?;
            let cost = board::build_cost(rules, p, b as usize, off);
            Some(format!("costs {cost}, {} VP", x.vp))
        }
        Action::Sell(g) => Some(format!("+{} doubloons", trader::sale_price(rules, s, seat, g))),
        _ => None,
    }
}
