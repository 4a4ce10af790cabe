//! The play screen: the hex map drawn as a map (rows offset by half a hex), the cities
//! with their goods and demands, the privilege row with prices, and each player's money,
//! holds, movement and roads.
//!
//! Hidden from every seat: the order of the face-down privilege deck (only how many
//! cards of each back are left; the backs are public).

use crate::action::{Action, Track};
use crate::purchase;
use crate::rules::{Effect, Rules, TerrainKind};
use crate::state::{Phase, State};
use crate::trolley;
use rulesmith_game::screen::{Style, pad, width, wrap};
use rulesmith_game::{OptId, Seat};
use std::fmt::Write as _;

/// Own roads listed one by one up to this many (then counted, like the others').
const MAX_LISTED_ROADS: usize = 18;

/// Characters per hex on the map (7 of text and a space).
const CELL: usize = 8;

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Capital => "choosing capitals",
        Phase::Privilege => "3C buy a privilege",
        Phase::Upgrade => "3C trolley upgrade",
        Phase::BuyResidents => "3C buy residents",
        Phase::Residents => "3D residents",
        Phase::Trolley => "3E trolley",
        Phase::Over => "the game is over",
    }
}

fn terrain_colour(name: &str) -> &'static str {
    match name {
        "forest" | "grassland" => "green",
        "field" | "desert" => "yellow",
        "mountain" => "white",
        "water" => "blue",
        _ => "magenta",
    }
}

fn roman(n: u8) -> String {
    ["0", "I", "II", "III", "IV", "V", "VI"].get(usize::from(n)).map_or_else(|| n.to_string(), |r| r.to_string())
}

fn half_points(h: u32) -> String {
    if h % 2 == 0 { (h / 2).to_string() } else { format!("{}.5", h / 2) }
}

/// The whole screen for `seat`, of a state already observed by `seat`.
pub fn draw(r: &Rules, s: &State, seat: Seat, style: &Style) -> String {
    let mut out = String::new();
    let to_move = if s.phase == Phase::Over {
        "game over".to_string()
    } else if s.current == seat {
        style.bold("your move")
    } else {
        style.seat(s.current, &format!("seat {} to move", s.current))
    };
    let delivered = s.delivered_total();
    let goal = r.end.delivered.get(usize::from(s.players)).copied().unwrap_or(0);
    let title = [
        style.bold("MUNDO 163"),
        format!("round {}", s.round),
        phase_name(s.phase).to_string(),
        format!("delivered {delivered}/{goal}"),
        to_move,
    ];
    wrap("", &title, " · ", &mut out);
    map(r, s, style, &mut out);
    // Cities: goods left, demands (covered ones ticked).
    let cities: Vec<String> = r
        .cities
        .iter()
        .enumerate()
        .map(|(c, city)| {
            let good = r.goods.get(usize::from(city.goods)).map_or("?", |g| g.as_str());
            let wants: Vec<String> = city
                .demands
                .iter()
                .enumerate()
                .map(|(i, &d)| {
                    let g = r.goods.get(usize::from(d)).map_or("?", |g| g.as_str());
                    if s.covered[c].is_covered(i) { style.dim(&format!("{g}✓")) } else { g.to_string() }
                })
                .collect();
            format!(
                "{} {good}{}→{}",
                style.colour("magenta", &format!("C{}", city.id)),
                s.city_stock[c],
                wants.join(",")
            )
        })
        .collect();
    wrap("", &cities, "  ", &mut out);
    let loose: Vec<String> = (0..r.map.hexes.len())
        .filter_map(|t| {
            let goods: Vec<String> = s
                .loose
                .get(t)?
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n > 0)
                .map(|(g, &n)| {
                    let good = r.goods.get(g).map_or("?", |x| x.as_str());
                    if n == 1 { good.to_string() } else { format!("{n} {good}") }
                })
                .collect();
            (!goods.is_empty()).then(|| format!("{} {}", r.map.hexes[t].name, goods.join(" ")))
        })
        .collect();
    if !loose.is_empty() {
        wrap(&style.dim("Loose "), &loose, " · ", &mut out);
    }
    // The privilege row: the first `free` cost $0, the rest the price.
    let row: Vec<String> = s
        .row()
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let name = r.privileges.get(usize::from(k)).map_or("?", |p| p.id.as_str());
            let price = if i < usize::from(s.free) { 0 } else { r.market.price };
            format!("{name} ${price}")
        })
        .collect();
    let mut row = if row.is_empty() { vec![style.dim("empty")] } else { row };
    // The deck: its order is hidden; the backs are public.
    let mut backs: Vec<(u8, usize)> = Vec::new();
    for &k in s.deck() {
        let b = r.privileges.get(usize::from(k)).map_or(0, |p| p.back);
        match backs.iter_mut().find(|(x, _)| *x == b) {
            Some((_, n)) => *n += 1,
            None => backs.push((b, 1)),
        }
    }
    backs.sort();
    let backs: Vec<String> = backs.iter().map(|(b, n)| format!("{n}×{}", roman(*b))).collect();
    row.push(if backs.is_empty() {
        format!("· {}empty", style.dim("deck "))
    } else {
        format!("· {}{} face down ({}), order {}", style.dim("deck "), s.deck().len(), backs.join(" "), style.hidden())
    });
    wrap(&style.dim("Privileges "), &row, "  ", &mut out);
    for p in 0..usize::from(s.players) {
        player(r, s, p as Seat, seat, style, &mut out);
    }
    out
}

/// The hex map: two text rows per hex row, each row shifted half a hex from the next.
fn map(r: &Rules, s: &State, style: &Style, out: &mut String) {
    let Some(min_x) = r.map.hexes.iter().map(|h| 2 * h.q + h.r).min() else { return };
    let mut rows: Vec<i32> = r.map.hexes.iter().map(|h| h.r).collect();
    rows.sort_unstable();
    rows.dedup();
    for row in rows {
        let mut hexes: Vec<usize> = (0..r.map.hexes.len()).filter(|&t| r.map.hexes[t].r == row).collect();
        hexes.sort_by_key(|&t| r.map.hexes[t].q);
        let (mut top, mut bottom) = (String::new(), String::new());
        let mut col = 0usize;
        for t in hexes {
            let h = &r.map.hexes[t];
            let x = ((2 * h.q + h.r - min_x) as usize) * CELL / 2;
            if x > col {
                top.push_str(&" ".repeat(x - col));
                bottom.push_str(&" ".repeat(x - col));
            }
            let terrain = s.terrain.get(t).and_then(|&i| r.terrains.get(usize::from(i)));
            let (mark, colour) = match (h.city, terrain) {
                (Some(city), _) => {
                    (format!("C{}", r.cities.get(usize::from(city)).map_or("?", |c| c.id.as_str())), "magenta")
                }
                (None, Some(tr)) if tr.kind == TerrainKind::Water => ("~~".to_string(), "blue"),
                (None, Some(tr)) => (tr.name.chars().take(2).collect(), terrain_colour(&tr.name)),
                (None, None) => ("??".to_string(), ""),
            };
            top.push_str(&pad(&format!("{} {}", h.name, style.colour(colour, &mark)), CELL));
            bottom.push_str(&pad(&occupants(s, t as u8, style), CELL));
            col = x + CELL;
        }
        let _ = writeln!(out, "{}", top.trim_end());
        // A row of tiles with nothing on them takes one line.
        if !bottom.trim().is_empty() {
            let _ = writeln!(out, "{}", bottom.trim_end());
        }
    }
}

/// Who is on a tile: `H0` headquarters of seat 0, `S02` settlements of seats 0 and 2,
/// `r3` residents (in the seat's colour when one seat's), `T1` seat 1's trolley.
fn occupants(s: &State, t: u8, style: &Style) -> String {
    let mut text = String::new();
    for (p, pl) in s.p.iter().enumerate() {
        if pl.capital == OptId::some(t) {
            text.push_str(&style.seat(p as Seat, &format!("H{p}")));
        }
    }
    // Settlements of several players (in cities) share one `S`: `S02`.
    let settled: Vec<usize> =
        s.p.iter().enumerate().filter(|(_, pl)| pl.capital != OptId::some(t) && pl.owns(t)).map(|(p, _)| p).collect();
    if !settled.is_empty() {
        text.push('S');
        for p in settled {
            text.push_str(&style.seat(p as Seat, &p.to_string()));
        }
    }
    let owners = text.clone();
    let residents: Vec<(usize, u8)> =
        s.p.iter().enumerate().map(|(p, pl)| (p, pl.residents_on(t))).filter(|&(_, n)| n > 0).collect();
    if !residents.is_empty() {
        let n: u32 = residents.iter().map(|&(_, n)| u32::from(n)).sum();
        let r = format!("r{n}");
        // In the seat's colour when one seat's.
        text.push_str(&match residents.as_slice() {
            [(who, _)] => style.seat(*who as Seat, &r),
            _ => r,
        });
    }
    let trolleys: String =
        s.p.iter()
            .enumerate()
            .filter(|(_, pl)| pl.trolley.tile == OptId::some(t))
            .map(|(p, _)| p.to_string())
            .collect();
    // A crowded city keeps to its cell: the trolleys' seats, then the residents' count,
    // give way (each player's line says where their trolley is).
    let room = CELL - 1;
    if !trolleys.is_empty() {
        let full = format!("T{trolleys}");
        if width(&text) + full.len() <= room {
            text.push_str(&style.bold(&full));
        } else if width(&text) < room {
            text.push_str(&style.bold("T"));
        } else {
            text = format!("{}{}", &owners, style.bold("T"));
        }
    }
    text
}

fn player(r: &Rules, s: &State, p: Seat, seat: Seat, style: &Style, out: &mut String) {
    let pl = s.player(p);
    let name = if p == seat { format!("seat {p} (you)") } else { format!("seat {p}") };
    let marker = if s.phase != Phase::Over && s.current == p { ">" } else { " " };
    let holds = r.trolley.holds.get(usize::from(pl.holds_level)).copied().unwrap_or(0);
    let movement = r.trolley.movement.get(usize::from(pl.movement_level)).copied().unwrap_or(0);
    let cargo: Vec<String> = pl
        .trolley
        .goods
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(g, n)| format!("{n} {}", r.goods.get(g).map_or("?", |x| x.as_str())))
        .chain((pl.trolley.residents > 0).then(|| format!("{} resident", pl.trolley.residents)))
        .collect();
    let cargo = if cargo.is_empty() { "empty".to_string() } else { cargo.join(" ") };
    let moves = if s.current == p && s.phase == Phase::Trolley {
        format!(" ({} left)", half_points(u32::from(pl.trolley.half_mp)))
    } else {
        String::new()
    };
    let at = pl.trolley.tile.get().and_then(|t| r.map.hexes.get(usize::from(t))).map_or("-", |h| h.name.as_str());
    let _ = writeln!(
        out,
        "{marker}{} ${} · trolley at {at} · movement {movement}{moves} · delivered {}",
        pad(&style.seat(p, &name), 15),
        pl.money,
        pl.delivered_count()
    );
    let privileges: Vec<String> = r
        .privileges
        .iter()
        .enumerate()
        .filter(|&(k, _)| pl.has_privilege(k as u8))
        .map(|(_, x)| x.id.clone())
        .collect();
    let roads: Vec<String> = r
        .edges
        .iter()
        .enumerate()
        .filter(|&(e, _)| pl.has_road(e as u8))
        .map(|(_, &(a, b))| {
            let n = |t: u8| r.map.hexes.get(usize::from(t)).map_or("?", |h| h.name.as_str());
            format!("{}-{}", n(a), n(b))
        })
        .collect();
    // One token per privilege and road, so that long lists wrap between them.
    let mut items = vec![
        format!("{holds} holds: {cargo} ·"),
        format!("in storage {} residents, {} settlements ·", pl.residents_in_storage, pl.settlements_in_storage),
    ];
    if !privileges.is_empty() {
        items.push(style.dim("privileges"));
        items.extend(privileges);
    }
    // Your own roads one by one; the others' by count (`view` lists every road), so that
    // a late game still fits the screen.
    if p == seat && !roads.is_empty() && roads.len() <= MAX_LISTED_ROADS {
        items.push(style.dim("roads"));
        items.extend(roads);
    } else if !roads.is_empty() {
        items.push(format!("{} {}", style.dim("roads"), roads.len()));
    }
    wrap("    ", &items, " ", out);
}

/// What a privilege does, in a few words.
fn effect(r: &Rules, e: &Effect) -> String {
    let terrain = |t: &u8| r.terrains.get(usize::from(*t)).map_or("?", |x| x.name.as_str());
    match e {
        Effect::CitySettlementIncome { money } => format!("+${money} per city settled in a turn"),
        Effect::UpgradeDiscount { money } => format!("upgrades ${money} less"),
        Effect::RoadCost { terrain: t, residents } => format!("roads at {} cost {residents}", terrain(t)),
        Effect::VictoryPoints { vp } => format!("{vp} VP"),
        Effect::ResidentPrice { money } => format!("residents ${money}"),
        Effect::ExtraMovement { half } => format!("+{} MP", half_points(u32::from(*half))),
        Effect::TrolleyEnterCost { terrain: t, half } => {
            format!("trolley enters {} for {} MP", terrain(t), half_points(u32::from(*half)))
        }
        Effect::ExtraResidentAction => "a resident acts twice a turn".into(),
        Effect::FreeRoad => "a free road a turn".into(),
    }
}

/// What an action costs or gives, for the menu of `play`.
pub fn annotate(r: &Rules, s: &State, a: Action) -> Option<String> {
    let p = s.cur();
    match a {
        Action::BuyPrivilege { kind, .. } => {
            let effects: Vec<String> =
                r.privileges.get(usize::from(kind))?.effects.iter().map(|e| effect(r, e)).collect();
            Some(effects.join(", "))
        }
        Action::Upgrade(track) => purchase::upgrade_cost(r, p, track).map(|c| {
            let what = match track {
                Track::Movement => "movement",
                Track::Cargo => "holds",
            };
            format!("${c}, more {what}")
        }),
        Action::BuyResident(_) => Some(format!("${}", purchase::resident_price(r, p))),
        Action::Go(to) => {
            let from = p.trolley.tile.get()?;
            trolley::enter_cost(r, s, p, from, to).map(|h| format!("{} MP", half_points(u32::from(h))))
        }
        _ => None,
    }
}
