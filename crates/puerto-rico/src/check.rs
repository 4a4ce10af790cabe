//! Every invariant of a state: components are conserved and counts are in range.
//! Used after scenario edits (`[set]`) and by the conformance tests.

use crate::board;
use crate::goods::Good;
use crate::rules::{MAX_BUILDINGS, Rules};
use crate::state::{Phase, State};
use rulesmith_game::cargo;

pub fn check(rules: &Rules, s: &State) -> Result<(), String> {
    let n = s.player_count();
    if !(rules.min_players..=rules.max_players).contains(&n) {
        return Err(format!("/players: {n} players, the ruleset allows {}–{}", rules.min_players, rules.max_players));
    }
    let setup = &rules.setup[n];
    for (name, seat) in [("governor", s.governor), ("current", s.current), ("chooser", s.chooser)] {
        if seat as usize >= n {
            return Err(format!("/{name}: seat {seat} does not exist with {n} players"));
        }
    }
    s.rotation.check(n).map_err(|e| format!("/rotation: {e}"))?;
    if matches!(s.phase, Phase::Captain | Phase::MixedShip | Phase::CaptainPrivilege) {
        s.captain.round.check(n).map_err(|e| format!("/captain_round: {e}"))?;
        if s.captain.round.current() != s.current {
            return Err(format!(
                "/captain_round/current: seat {} loads, but seat {} is to move",
                s.captain.round.current(),
                s.current
            ));
        }
    }
    if s.role as usize >= rules.roles.len().max(1) {
        return Err(format!("/role: no role {}", s.role));
    }
    if s.ship_count as usize != setup.ships.len() {
        return Err(format!("/ship_count: {} ships, the setup has {}", s.ship_count, setup.ships.len()));
    }
    // Ships are named by their capacity in the notation: each keeps the setup's.
    for (i, (x, &cap)) in s.ships().iter().zip(&setup.ships).enumerate() {
        if x.capacity() != cap {
            return Err(format!("/ships/{i}/capacity: {}, the setup's ship holds {cap}", x.capacity()));
        }
        x.check(cap).map_err(|e| format!("/ships/{i}: {e}"))?;
    }
    // The role cards used with this player count are fixed for the game (S000:L96-98).
    let in_play =
        rules.roles.iter().enumerate().filter(|(_, r)| r.players & (1 << n) != 0).fold(0u16, |m, (i, _)| m | (1 << i));
    s.roles.check(in_play)?;
    // Each choice this round took one card; the chosen role's card is among them. A board
    // with more cards taken than choices made would leave a chooser with none.
    if s.phase != Phase::GameOver {
        let per_round = setup.roles_per_round;
        if s.roles_chosen >= per_round {
            return Err(format!("/roles_chosen: {}, a round has {per_round} choices", s.roles_chosen));
        }
        let choosing = s.phase == Phase::RoleSelection;
        let taken = s.roles.taken().count_ones();
        let expected = u32::from(s.roles_chosen) + u32::from(!choosing);
        if taken != expected {
            return Err(format!(
                "/roles/taken: {taken} role cards taken, but {expected} were chosen this round (/roles_chosen: {})",
                s.roles_chosen
            ));
        }
        if !choosing && s.roles.taken() & 1u16.checked_shl(u32::from(s.role)).unwrap_or(0) == 0 {
            return Err(format!("/role: role {} is in play, but its card is not taken (/roles/taken)", s.role));
        }
    }

    // Colonists.
    let on_boards: u32 = s.players.iter().map(board::colonists).sum();
    let total = u32::from(s.colonist_supply) + u32::from(s.colonist_ship) + on_boards;
    let expected = u32::from(setup.colonists_supply) + u32::from(setup.colonists_ship);
    if total != expected {
        return Err(format!("colonists: {total} in play (supply, ship, boards), expected {expected}"));
    }
    for (i, p) in s.players.iter().enumerate() {
        for g in rules.goods() {
            if p.plantations_occupied[g] > p.plantations[g] {
                return Err(format!(
                    "/players/{i}/plantations_occupied/{}: more than the plantations",
                    rules.good_name(g)
                ));
            }
        }
        if p.quarries_occupied > p.quarries {
            return Err(format!("/players/{i}/quarries_occupied: more than the quarries"));
        }
        // Counted wide: an edited state may hold any count (board::island_used is u8).
        let island = p.plantations.0.iter().map(|&c| u32::from(c)).sum::<u32>()
            + u32::from(p.quarries)
            + u32::from(p.extension_tiles);
        if island > u32::from(rules.island_spaces) {
            return Err(format!("/players/{i}: {island} island tiles, the island has {} spaces", rules.island_spaces));
        }
        let city: u32 =
            p.city.iter().map(|b| rules.buildings.get(b.building as usize).map_or(1, |x| u32::from(x.spaces))).sum();
        if city > u32::from(rules.city_spaces) {
            return Err(format!("/players/{i}/city: more buildings than the {} city spaces", rules.city_spaces));
        }
        let mut seen = [false; MAX_BUILDINGS];
        for (ci, b) in p.city.iter().enumerate() {
            let Some(x) = rules.buildings.get(b.building as usize) else {
                return Err(format!("/players/{i}/city/{ci}: unknown building"));
            };
            if std::mem::replace(&mut seen[b.building as usize], true) {
                return Err(format!("/players/{i}/city/{ci}: `{}` twice (each building once per player)", x.id));
            }
            if b.colonists > x.circles {
                return Err(format!(
                    "/players/{i}/city/{ci}/colonists: {} on `{}`, which has {} circles",
                    b.colonists, x.id, x.circles
                ));
            }
        }
    }

    // Goods: supply + players + ships + trading house (the core's conservation check).
    let ships = s.ships();
    let places = [Place::Supply, Place::Players, Place::Ships, Place::TradingHouse];
    let count = |place: &Place, k: usize| -> u32 {
        let g = Good::at(k);
        match place {
            Place::Supply => u32::from(s.goods_supply[g]),
            Place::Players => s.players.iter().map(|p| u32::from(p.goods[g])).sum(),
            Place::Ships => ships.iter().filter(|x| x.good() == Some(g)).map(|x| u32::from(x.load())).sum(),
            Place::TradingHouse => s.trading_house.count(g),
        }
    };
    cargo::conserved(rules.good_count(), |k| u32::from(setup.barrels.0[k]), &places, count).map_err(
        |(k, total, expected)| {
            format!("goods: {total} barrels of {} in play, expected {expected}", rules.good_name(Good::at(k)))
        },
    )?;
    for x in ships {
        if let Some(g) = x.good() {
            if ships.iter().filter(|y| y.good() == Some(g)).count() > 1 {
                return Err(format!("/ships: {} on two ships", rules.good_name(g)));
            }
        }
    }
    s.trading_house.check(usize::from(rules.trading_house_spaces)).map_err(|e| format!("/trading_house: {e}"))?;

    // Plantations (held by the extension too: forests) and quarries.
    let stack = s.stack.counts();
    for g in rules.goods() {
        let owned: u32 = s.players.iter().map(|p| u32::from(p.plantations[g])).sum();
        let drawn = u32::from(s.pending.settler.drawn == Some(g));
        let total = u32::from(stack[g])
            + u32::from(s.face_up[g])
            + u32::from(s.discards[g])
            + owned
            + u32::from(s.held_tiles[g])
            + drawn;
        if total != u32::from(setup.plantations[g]) {
            return Err(format!(
                "plantations: {total} {} tiles in play, expected {}",
                rules.good_name(g),
                setup.plantations[g]
            ));
        }
    }
    // Tiles only an extension places and holds (the expansion checks its own; see
    // `crate::extension`).
    if rules.extension.get().is_none() {
        if let Some(i) = s.players.iter().position(|p| p.extension_tiles > 0) {
            return Err(format!(
                "/players/{i}/extension_tiles: island tiles of an extension, but the ruleset has none"
            ));
        }
        if s.held_tiles.total() > 0 {
            return Err("/held_tiles: tiles held by an extension, but the ruleset has none".into());
        }
    }
    if s.pending.settler.drawn.is_some() && s.phase != Phase::Settler {
        return Err("/pending/drawn: a drawn tile outside the settler phase".into());
    }
    let quarries: u32 = s.players.iter().map(|p| u32::from(p.quarries)).sum::<u32>() + u32::from(s.quarry_supply);
    if quarries != u32::from(setup.quarries) {
        return Err(format!("quarries: {quarries} in play, expected {}", setup.quarries));
    }

    // Buildings (none of those out of this game).
    for (i, b) in rules.buildings.iter().enumerate() {
        let owned = s.players.iter().filter(|p| p.city.has(i as u8)).count() as u32;
        let copies = if s.in_game(i) { b.copies[n] } else { 0 };
        if u32::from(s.buildings[i]) + owned != u32::from(copies) {
            let out = if s.in_game(i) { "" } else { " (out of this game)" };
            return Err(format!(
                "/buildings/{}: {} on the board and {owned} built, the game has {copies}{out}",
                b.id, s.buildings[i]
            ));
        }
    }
    if rules.buildings.len() < 64 && s.out_of_game >> rules.buildings.len() != 0 {
        return Err("/out_of_game: buildings the ruleset does not have".into());
    }
    match s.phase {
        Phase::BuildPayment if s.pending.payment.build.is_none_or(|b| usize::from(b) >= rules.buildings.len()) => {
            return Err("/pending/build: no such building".into());
        }
        Phase::MixedShip if s.pending.mixed.mixed_building.is_none_or(|b| usize::from(b) >= rules.buildings.len()) => {
            return Err("/pending/mixed_building: no such building".into());
        }
        Phase::MixedShip if usize::from(s.pending.mixed.mixed_good) > rules.good_count() => {
            return Err("/pending/mixed_good: past the last good".into());
        }
        _ => {}
    }
    if s.buildings.iter().skip(rules.buildings.len()).any(|&c| c != 0) {
        return Err("/buildings: counts for buildings the ruleset does not have".into());
    }

    // VP: chips taken so far are with the players (more on paper once they ran out).
    let vp: u32 = s.players.iter().map(|p| u32::from(p.vp)).sum();
    let taken = u32::from(setup.vp_chips).checked_sub(u32::from(s.vp_chips));
    match taken {
        None => return Err(format!("/vp_chips: {} chips, the game has {}", s.vp_chips, setup.vp_chips)),
        Some(t) if (s.vp_chips > 0 && vp != t) || vp < t => {
            return Err(format!("VP: players hold {vp} VP but {t} chips were taken"));
        }
        _ => {}
    }
    // The groups: a plantation per good, the quarries, then the city (`phases::mayor`).
    let groups = |s: &State| rules.good_count() + 1 + s.players[s.current].city.len as usize;
    if s.phase == Phase::Mayor && s.mayor.group as usize > groups(s) {
        return Err("/mayor_group: past the player's last group".into());
    }
    if s.mayor.left != crate::phases::mayor::left(rules, s) {
        return Err(format!(
            "the mayor's circles left ({}) differ from the board's ({})",
            s.mayor.left,
            crate::phases::mayor::left(rules, s)
        ));
    }
    match (s.phase == Phase::ColonistOffer, s.colonist_offer) {
        (true, None) => return Err("/colonist_offer: the colonist_offer phase needs an offer".into()),
        (false, Some(_)) => return Err("/colonist_offer: an offer outside the colonist_offer phase".into()),
        (true, Some(crate::state::Offer::Building(b))) if !s.players[s.current].city.has(b) => {
            return Err("/colonist_offer/building: not in the current player's city".into());
        }
        _ => {}
    }
    // An offer resumes the phase it interrupted: the settler's or the builder's.
    match (s.phase == Phase::ColonistOffer, s.pending.resume) {
        (true, Some(Phase::Settler | Phase::Builder)) | (false, None) => {}
        (true, _) => return Err("/pending/resume: an offer resumes the `settler` or `builder` phase".into()),
        (false, Some(_)) => return Err("/pending/resume: a phase to resume outside the colonist_offer phase".into()),
    }
    Ok(())
}

/// Where barrels lie, for the conservation check.
enum Place {
    Supply,
    Players,
    Ships,
    TradingHouse,
}
