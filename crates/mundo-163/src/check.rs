//! Every invariant of a state: components conserved, counts in range, the turn
//! structure consistent. Used after scenario edits and by the conformance tests.

use crate::purchase::{effects, resident_tiles, tile_limit};
use crate::residents::{open_roads, road_component};
use crate::rules::{Effect, MAX_CITIES, MAX_DECK, MAX_ROW, MAX_TILES, Rules, TerrainKind};
use crate::state::{End, Phase, RESIDENT_BIT, State};
use crate::trolley::{capacity, holds_needed};
use rulesmith_game::GameError;
use rulesmith_game::cargo;

fn fail(msg: String) -> Result<(), GameError> {
    Err(GameError::InvalidState(msg))
}

macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            return fail(format!($($arg)*));
        }
    };
}

pub fn check(rules: &Rules, s: &State) -> Result<(), GameError> {
    let n = usize::from(s.players);
    ensure!(
        (rules.min_players()..=rules.max_players()).contains(&n) && s.p.len() == n,
        "{} players (with {} player records); this ruleset allows {} to {}",
        n,
        s.p.len(),
        rules.min_players(),
        rules.max_players()
    );
    ensure!(usize::from(s.current) < n, "current player {} does not exist", s.current);
    ensure!((s.phase == Phase::Over) == (s.end != End::None), "the game is over exactly when it has an end reason");
    ensure!((s.phase == Phase::Capital) == (s.round == 0), "round is 0 exactly while capitals are chosen");
    let tiles = rules.tiles();

    // Map.
    for t in 0..MAX_TILES {
        let ti = s.terrain[t];
        if t >= tiles {
            ensure!(ti == 0 && s.loose[t].iter().all(|&g| g == 0), "tile {t} is not on the map");
            continue;
        }
        let name = rules.tile_name(t as u8);
        let Some(terrain) = rules.terrains.get(usize::from(ti)) else {
            return fail(format!("tile {name} has an unknown terrain"));
        };
        let printed = rules.terrains.get(usize::from(rules.map.hexes[t].terrain)).map(|x| x.kind);
        ensure!(
            Some(terrain.kind) == printed,
            "tile {name} must stay a {} tile",
            match printed {
                Some(TerrainKind::City) => "city",
                Some(TerrainKind::Water) => "water",
                _ => "land",
            }
        );
        ensure!(
            terrain.kind != TerrainKind::Water || s.loose[t].iter().all(|&g| g == 0),
            "goods lie on water tile {name}"
        );
        ensure!(s.loose[t][rules.goods.len()..].iter().all(|&g| g == 0), "unknown goods on tile {name}");
    }
    for c in 0..MAX_CITIES {
        match rules.cities.get(c) {
            Some(city) => {
                ensure!(
                    s.city_stock[c] <= rules.map.goods_per_city,
                    "city {} holds {} goods; at most {}",
                    city.id,
                    s.city_stock[c],
                    rules.map.goods_per_city
                );
                ensure!(
                    s.covered[c].check(city.demands.len()).is_ok(),
                    "city {} has covered spaces it does not have",
                    city.id
                );
            }
            None => ensure!(s.city_stock[c] == 0 && s.covered[c].bits() == 0, "city slot {c} is not in the ruleset"),
        }
    }

    // Goods: every good is on a city, lying on a tile, on a trolley or delivered; every
    // delivered good covers one demand space of its type.
    let total = |g: usize| {
        rules.cities.iter().filter(|c| usize::from(c.goods) == g).count() as u32 * u32::from(rules.map.goods_per_city)
    };
    let count = |place: &GoodsPlace, g: usize| -> u32 {
        match place {
            GoodsPlace::Cities => rules
                .cities
                .iter()
                .enumerate()
                .filter(|(_, c)| usize::from(c.goods) == g)
                .map(|(i, _)| u32::from(s.city_stock[i]))
                .sum(),
            GoodsPlace::Lying => (0..tiles).map(|t| u32::from(s.loose[t][g])).sum(),
            GoodsPlace::Trolleys => s.p.iter().map(|p| u32::from(p.trolley.goods[g])).sum(),
            GoodsPlace::Delivered => s.p.iter().map(|p| u32::from(p.delivered[g])).sum(),
        }
    };
    let places = [GoodsPlace::Cities, GoodsPlace::Lying, GoodsPlace::Trolleys, GoodsPlace::Delivered];
    if let Err((g, found, expected)) = cargo::conserved(rules.goods.len(), total, &places, count) {
        let [stock, lying, carried, delivered] = places.map(|p| count(&p, g));
        return fail(format!(
            "goods {}: {expected} in the game but {stock} on cities + {lying} lying + {carried} on trolleys + {delivered} delivered = {found}",
            rules.goods[g].as_str()
        ));
    }
    for g in 0..rules.goods.len() {
        let name = rules.goods[g].as_str();
        let delivered = count(&GoodsPlace::Delivered, g);
        let covered: u32 = rules
            .cities
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.demands
                    .iter()
                    .enumerate()
                    .filter(|&(k, &d)| usize::from(d) == g && s.covered[i].is_covered(k))
                    .count() as u32
            })
            .sum();
        ensure!(
            covered == delivered,
            "goods {name}: {delivered} delivered but {covered} demand spaces of that type covered"
        );
    }

    // Privileges: deck stacked by back (lowest on top), row in draw order.
    ensure!(usize::from(s.deck_len) <= MAX_DECK, "deck too large");
    ensure!(usize::from(s.row_len) <= MAX_ROW && s.free <= s.row_len, "privilege row malformed");
    ensure!(
        s.deck[usize::from(s.deck_len)..].iter().all(|&k| k == 0)
            && s.row[usize::from(s.row_len)..].iter().all(|&k| k == 0),
        "cards beyond the deck or row"
    );
    let types = rules.privileges.len();
    let back = |k: u8| rules.privileges.get(usize::from(k)).map(|p| p.back);
    ensure!(s.deck().iter().chain(s.row()).all(|&k| usize::from(k) < types), "unknown privilege in the deck or row");
    ensure!(s.deck().windows(2).all(|w| back(w[0]) >= back(w[1])), "the deck must be stacked by back, I on top");
    ensure!(s.row().windows(2).all(|w| back(w[0]) <= back(w[1])), "the row must be in draw order (backs rising)");
    if let (Some(&last_row), Some(&top)) = (s.row().last(), s.deck().last()) {
        ensure!(back(last_row) <= back(top), "the row holds a higher back than the deck's top card");
    }
    if let Some(max) = s.row().iter().filter_map(|&k| back(k)).max() {
        let lower = s.row().iter().filter(|&&k| back(k) < Some(max)).count();
        ensure!(usize::from(s.free) >= lower, "cards of a lower back in the row must cost $0");
    }
    let pool_per_type = usize::from(rules.market.full_sets[n]) + usize::from(rules.market.random_extra[n] > 0);
    let mut in_play = 0;
    for k in 0..types {
        let owned = s.p.iter().filter(|p| p.has_privilege(k as u8)).count();
        let count = s.deck().iter().chain(s.row()).filter(|&&x| usize::from(x) == k).count() + owned;
        ensure!(
            count <= pool_per_type,
            "privilege {}: {count} cards, the game has {pool_per_type}",
            rules.privileges[k].id
        );
        in_play += count;
    }
    ensure!(
        in_play == rules.deck_size(n),
        "{in_play} privilege cards in the deck, row and hands; the game has {}",
        rules.deck_size(n)
    );

    // Players.
    let water = |t: usize| rules.terrains.get(usize::from(s.terrain[t])).is_none_or(|x| x.kind == TerrainKind::Water);
    let map_bits: u64 = if tiles >= 64 { u64::MAX } else { (1u64 << tiles) - 1 };
    let mut capital_goods = 0u32;
    for (seat, p) in s.p.iter().enumerate() {
        ensure!(p.money >= 0, "player {seat} has negative money");
        ensure!(
            usize::from(p.movement_level) < rules.trolley.movement.len(),
            "player {seat}: movement level out of range"
        );
        ensure!(usize::from(p.holds_level) < rules.trolley.holds.len(), "player {seat}: cargo level out of range");
        ensure!(types >= 32 || p.privileges >> types == 0, "player {seat} owns an unknown privilege");
        // Capitals: chosen from the last seat to the first.
        let chosen = s.phase != Phase::Capital || seat > usize::from(s.current);
        if !chosen {
            ensure!(
                p.capital.is_none() && p.trolley.tile.is_none() && p.settlements == 0 && p.network == 0,
                "player {seat} has not chosen a capital yet and cannot have pieces on the map"
            );
        } else {
            let city = p.capital.get().and_then(|t| rules.city_at(t));
            let (Some(capital), Some(c)) = (p.capital.get(), city.and_then(|c| rules.cities.get(usize::from(c))))
            else {
                return fail(format!("player {seat}'s capital must be a city"));
            };
            ensure!(capital_goods & (1 << c.goods) == 0, "two capitals offer {}", rules.goods[usize::from(c.goods)]);
            capital_goods |= 1 << c.goods;
            ensure!(p.settlements & (1 << capital) == 0, "player {seat} has a settlement on the own capital");
        }
        // Settlements.
        ensure!(p.settlements & !map_bits == 0, "player {seat} has a settlement off the map");
        for t in 0..tiles {
            ensure!(!(p.settlements & (1 << t) != 0 && water(t)), "player {seat} has a settlement on water");
        }
        let placed = p.settlements.count_ones();
        ensure!(
            placed + u32::from(p.settlements_in_storage) == u32::from(rules.setup.settlements[n]),
            "player {seat}: {placed} settlements placed + {} in storage, the game gives {}",
            p.settlements_in_storage,
            rules.setup.settlements[n]
        );
        // Residents.
        let mut on_board = 0u32;
        for t in 0..MAX_TILES {
            let here = u32::from(p.active[t]) + u32::from(p.moved[t]) + u32::from(p.exhausted[t]);
            on_board += here;
            if here == 0 {
                continue;
            }
            let name = if t < tiles { rules.tile_name(t as u8) } else { "?" };
            ensure!(t < tiles && p.owns(t as u8), "player {seat} has residents on {name} without a settlement there");
            if rules.purchase.limits_always {
                ensure!(
                    here <= u32::from(tile_limit(rules, p, t as u8)),
                    "player {seat} has {here} residents on {name}; at most {}",
                    tile_limit(rules, p, t as u8)
                );
            }
            let current = seat == usize::from(s.current);
            ensure!(
                p.moved[t] == 0 || (current && s.phase == Phase::Residents),
                "player {seat}: residents moved along roads only exist during the player's 3 D"
            );
            ensure!(
                p.active[t] == 0 || (current && matches!(s.phase, Phase::BuyResidents | Phase::Residents)),
                "player {seat}: active residents only exist during the player's 3 C (bought) and 3 D"
            );
        }
        ensure!(p.tiles == resident_tiles(rules, p), "player {seat}: resident tiles cache is stale");
        let total = on_board + u32::from(p.trolley.residents) + u32::from(p.residents_in_storage);
        ensure!(
            total == u32::from(rules.setup.residents[n]),
            "player {seat}: {on_board} residents on the map + {} on the trolley + {} in storage, the game gives {}",
            p.trolley.residents,
            p.residents_in_storage,
            rules.setup.residents[n]
        );
        // Roads: between own tiles, one network reaching the capital.
        let mut network = 0u64;
        for (e, &(a, b)) in rules.edges.iter().enumerate() {
            if p.has_road(e as u8) {
                ensure!(
                    p.owns(a) && p.owns(b),
                    "player {seat}'s road {}-{} needs own settlements at both ends",
                    rules.tile_name(a),
                    rules.tile_name(b)
                );
                network |= 1 << a | 1 << b;
            }
        }
        for e in rules.edges.len()..(p.roads.len() * 64) {
            ensure!(!p.has_road(e as u8), "player {seat} has a road off the map");
        }
        ensure!(p.network == network, "player {seat}: road network cache is stale");
        ensure!(p.open_roads == open_roads(rules, p), "player {seat}: open road edges cache is stale");
        if network != 0 {
            let capital = p.capital.get();
            let at_capital = capital.is_some_and(|c| network & (1 << c.min(63)) != 0);
            ensure!(at_capital, "player {seat}'s roads must start at the capital");
            let one_network = capital.is_some_and(|c| road_component(rules, p, c) == network);
            ensure!(one_network, "player {seat}'s roads must form one network");
        }
        // Trolley.
        let tr = &p.trolley;
        if chosen {
            ensure!(
                tr.tile.get().map(usize::from).is_some_and(|t| t < tiles && !water(t)),
                "player {seat}'s trolley is not on land"
            );
            ensure!(
                // With `unload_at_end`, residents sent back to storage may leave it on
                // another tile; from there it still enters only own tiles.
                !rules.trolley.needs_own_tile
                    || rules.trolley.unload_at_end
                    || tr.residents > 0
                    || tr.tile.get().is_some_and(|t| p.owns(t)),
                "player {seat}'s trolley without residents must stand on an own tile"
            );
        }
        ensure!(tr.goods[rules.goods.len()..].iter().all(|&g| g == 0), "player {seat}'s trolley carries unknown goods");
        ensure!(
            holds_needed(rules, u32::from(tr.goods_count()), u32::from(tr.residents)) <= capacity(rules, p),
            "player {seat}'s trolley carries more than its cargo holds"
        );
        let extra: u32 = effects(rules, p)
            .map(|e| match e {
                Effect::ExtraMovement { half } => u32::from(*half),
                _ => 0,
            })
            .sum();
        let max_half = 2 * u32::from(rules.trolley.movement[usize::from(p.movement_level)]) + extra;
        let trolley_turn = seat == usize::from(s.current) && s.phase == Phase::Trolley;
        ensure!(
            u32::from(tr.half_mp) <= if trolley_turn { max_half } else { 0 },
            "player {seat}'s trolley has movement left outside its 3 E"
        );
        ensure!(p.delivered[rules.goods.len()..].iter().all(|&g| g == 0), "player {seat} delivered unknown goods");
    }

    // Turn.
    let t = &s.turn;
    ensure!(t.purchase_from.get().is_none_or(|from| usize::from(from) < tiles), "purchase_from is not a tile");
    let goods_bits: u16 = ((1u32 << rules.goods.len()) - 1) as u16 | RESIDENT_BIT;
    ensure!(t.loaded_here & !goods_bits == 0 && t.unloaded_here & !goods_bits == 0, "unknown loaded/unloaded marks");
    ensure!(t.loaded_here & t.unloaded_here == 0, "a type cannot be both loaded and unloaded at one stop");
    ensure!(t.trolley_moves <= rules.trolley.max_moves, "more trolley moves than allowed");
    if s.end == End::DeliveredGoods {
        ensure!(
            s.delivered_total() >= u32::from(rules.end.delivered[n]),
            "the game ended by deliveries with only {} delivered",
            s.delivered_total()
        );
    }
    Ok(())
}

/// Where goods lie, for the conservation check.
#[derive(Clone, Copy)]
enum GoodsPlace {
    Cities,
    Lying,
    Trolleys,
    Delivered,
}
