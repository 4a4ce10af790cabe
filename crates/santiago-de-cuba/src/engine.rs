//! The rules in motion: legal actions and their effects, phase by phase.
//!
//! A turn (S002:L118-132): drive the car (A), then, after stopping at a citizen, the
//! citizen acts and the pawn visits a building whose action may be used (B). Stopping
//! at the port starts a loading round instead. Chance (the demand dice) is rolled from
//! the state's generator inside these functions.

use crate::action::{Action, Gift, Use};
use crate::rules::MAX_BUILDINGS;
use crate::rules::{BuildingEffect, Bundle, CitizenEffect, EmptyDemand, Flower, OwnerVpWhen, Rules};
use crate::state::{Phase, State};
use rulesmith_game::cargo::transfer;
use rulesmith_game::steps::PassRound;
use rulesmith_game::{OptId, Seat};

/// Calls `f` with every legal action, in a stable order.
pub fn each_legal(r: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let me = s.turn.player;
    match s.phase {
        Phase::Over => {}
        Phase::Demand => {
            // Dice are set aside in increasing order, so each choice has one spelling,
            // leaving enough higher dice for the asides still to come.
            let from = 8 - (s.ship.aside.leading_zeros() as usize).min(8);
            let still = (r.dice.len() - usize::from(r.ship_dice)).saturating_sub(s.ship.aside.count_ones() as usize);
            // With `reroll`, the last die set aside may not empty a demand that another
            // choice keeps (else the roller could force a new roll at will).
            let guard = still == 1 && r.empty_demand == EmptyDemand::Reroll;
            let keeps =
                |d: usize| s.ship.dice.as_array().iter().take(r.dice.len()).enumerate().any(|(i, &v)| i != d && v > 0);
            let some_keeps = guard && (from..r.dice.len()).any(keeps);
            for d in from..(r.dice.len() + 1).saturating_sub(still) {
                if some_keeps && !keeps(d) {
                    continue;
                }
                f(Action::KeepAside(d as u8));
            }
        }
        Phase::Drive => {
            // Every distance whose fare (`drive_cost`) the player can pay: the free steps
            // and as many paid ones as the pesos cover.
            let pesos = s.players[me].pesos;
            let paid = pesos.checked_div(u16::from(r.step_cost)).unwrap_or(u16::MAX);
            let most = u16::from(r.max_steps).min(u16::from(r.free_steps).saturating_add(paid));
            // Driving is compulsory (S002:L126); should a ruleset make even the first
            // step cost more than the player has, the player still moves one stop.
            for n in 1..most.max(1) + 1 {
                f(Action::Drive(n as u8));
            }
        }
        Phase::Pickpocket { victim } => {
            let mut any = false;
            each_gift(r, s, victim, &mut |g| {
                any = true;
                f(Action::Give(g));
            });
            if !any {
                f(Action::Skip);
            }
        }
        Phase::ChooseGood => {
            let mut any = false;
            if let Some(CitizenEffect::ChooseGood { except, .. }) = citizen_effect(r, s) {
                let mut left = held_mask(&s.supply) & !except & low_bits(r.goods.len()) as u8;
                while left != 0 {
                    any = true;
                    f(Action::Take(left.trailing_zeros() as u8));
                    left &= left - 1;
                }
            }
            if !any {
                f(Action::Skip);
            }
        }
        Phase::Lawyer => {
            each_lawyer_option(r, s, f);
            f(Action::Skip);
        }
        Phase::Pawn { to } => {
            // The destinations were found when the phase began (`pawn_step`).
            let mut free = to;
            if free == 0 {
                f(Action::Skip);
            }
            while free != 0 {
                f(Action::Pawn(free.trailing_zeros() as u8));
                free &= free - 1;
            }
        }
        Phase::Use { building } => {
            each_use(r, s, me, building, &mut |u| f(Action::Use(building, u)));
            f(Action::Skip);
        }
        Phase::Loading { round } => {
            each_delivery(r, s, round.current(), f);
            f(Action::Pass);
        }
    }
}

/// Pesos to drive `n` stops: the first step is free, each further one costs (S002:L126).
pub fn drive_cost(r: &Rules, n: u8) -> u16 {
    u16::from(n.saturating_sub(r.free_steps)) * u16::from(r.step_cost)
}

/// The citizen the car stopped at this turn, if any.
#[inline]
fn turn_citizen<'r>(r: &'r Rules, s: &State) -> Option<&'r crate::rules::Citizen> {
    // One bounds check for both: none's byte lies past every list.
    r.citizens.get(usize::from(s.turn.citizen.to_bits()))
}

fn citizen_effect(r: &Rules, s: &State) -> Option<CitizenEffect> {
    turn_citizen(r, s).map(|c| c.effect)
}

/// What El Zorro's victim may give (S002:L176-180); their choice.
fn each_gift(r: &Rules, s: &State, victim: Seat, f: &mut impl FnMut(Gift)) {
    let Some(CitizenEffect::Pickpocket { pesos, vp, goods, except }) = citizen_effect(r, s) else { return };
    let p = &s.players[victim];
    if pesos > 0 && p.pesos >= u16::from(pesos) {
        f(Gift::Pesos);
    }
    if goods > 0 {
        // Goods held and not excepted, in ruleset order; enough of them to give.
        let mut some = held_mask(&p.goods) & !except & low_bits(r.goods.len()) as u8;
        while some != 0 {
            let g = some.trailing_zeros() as u8;
            some &= some - 1;
            if p.goods[g as usize] >= goods {
                f(Gift::Good(g));
            }
        }
    }
    if vp > 0 && p.vp >= u16::from(vp) {
        f(Gift::Vp);
    }
}

fn each_lawyer_option(r: &Rules, s: &State, f: &mut impl FnMut(Action)) {
    let me = s.turn.player;
    let (mut claims, mut own) = lawyer_options(r, s);
    while claims != 0 {
        f(Action::Claim(claims.trailing_zeros() as u8));
        claims &= claims - 1;
    }
    while own != 0 {
        let b = own.trailing_zeros() as u8;
        each_use(r, s, me, b, &mut |u| f(Action::Use(b, u)));
        own &= own - 1;
    }
}

/// Alonso's options as masks of buildings: those the player may claim (none once their
/// property markers are used up), and their own.
fn lawyer_options(r: &Rules, s: &State) -> (u32, u32) {
    let me = s.turn.player;
    let claim_occupied = matches!(citizen_effect(r, s), Some(CitizenEffect::Lawyer { claim_occupied: true }));
    let own = owned_mask(r, s, me);
    if (own.count_ones() as usize) >= usize::from(r.property_markers) {
        return (0, own);
    }
    let free = owner_mask(r, s, OptId::NONE);
    (if claim_occupied { free } else { free & !s.pawn_mask() }, own)
}

/// Whether [`each_lawyer_option`] offers anything.
fn has_lawyer_option(r: &Rules, s: &State) -> bool {
    let (claims, mut own) = lawyer_options(r, s);
    if claims != 0 {
        return true;
    }
    while own != 0 {
        if has_use(r, s, s.turn.player, own.trailing_zeros() as u8) {
            return true;
        }
        own &= own - 1;
    }
    false
}

/// Bit `b` set for each of the ruleset's buildings `seat` owns.
#[inline]
pub(crate) fn owned_mask(r: &Rules, s: &State, seat: Seat) -> u32 {
    owner_mask(r, s, OptId::some(seat))
}

/// Bit `b` set for each of the ruleset's buildings whose owner is `owner` (none: the free
/// ones).
#[inline]
fn owner_mask(r: &Rules, s: &State, owner: OptId) -> u32 {
    // The owners' bytes compared eight at a time: a loop over the buildings compiles to
    // one compare per building wherever both masks are taken.
    equal_bits(&s.owner.map(OptId::to_bits), owner.to_bits()) & low_bits(r.buildings.len())
}

/// Buildings under the citizen's flower, not the pawn's own, without another pawn
/// (S002:L277-281), as a mask (bit `b`: building `b`), found without a branch per
/// building. The pawn's own building is among those with a pawn. [`Phase::Pawn`] keeps
/// it, so a pawn decision computes it once.
pub(crate) fn destinations(r: &Rules, s: &State) -> u16 {
    let Some(c) = turn_citizen(r, s) else { return 0 };
    let Flower::Colour(flower) = c.flower else { return 0 };
    (equal_bits(&s.flower, flower) & low_bits(r.buildings.len()) & !s.pawn_mask()) as u16
}

// `equal_bits` reads the buildings eight at a time into a `u32` mask; a pawn's
// destinations fit a `u16`.
const _: () = assert!(MAX_BUILDINGS % 8 == 0 && MAX_BUILDINGS <= 16);

/// Bit `b` set where `bytes[b] == value`, over the whole fixed array.
#[inline]
fn equal_bits(bytes: &[u8; MAX_BUILDINGS], value: u8) -> u32 {
    let mut m = 0u32;
    for (i, half) in bytes.chunks_exact(8).enumerate() {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(half);
        let differ = u64::from_le_bytes(eight) ^ u64::from(value).wrapping_mul(0x0101_0101_0101_0101);
        m |= u32::from(!nonzero_bits(differ.to_le_bytes())) << (8 * i);
    }
    m
}

/// Bit `i` set for each non-zero byte, eight at once without a branch: bit 7 of each
/// byte says non-zero (no carry crosses a byte), and the multiply gathers those bits into
/// the top byte.
#[inline]
fn nonzero_bits(bytes: [u8; 8]) -> u8 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = u64::from_le_bytes(bytes);
    let high = ((x & LOW7).wrapping_add(LOW7) | x) & !LOW7;
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The lowest `n` bits set (`n` at most 32).
#[inline]
pub(crate) fn low_bits(n: usize) -> u32 {
    1u32.checked_shl(n as u32).map_or(u32::MAX, |b| b - 1)
}

/// Bit `g` set for each good `goods` holds some of.
#[inline]
pub(crate) fn held_mask(goods: &crate::rules::Goods) -> u8 {
    nonzero_bits(*goods)
}

/// Bit `d` set for each die on the ship that still wants goods (none while the demand
/// is not placed).
#[inline]
fn open_dice(r: &Rules, s: &State) -> u8 {
    if s.ship.awaiting_demand {
        return 0;
    }
    nonzero_bits(*s.ship.dice.as_array()) & !s.ship.aside & low_bits(r.dice.len()) as u8
}

/// Bit `g` set for each good a die in `dice` (a mask of dice) demands.
#[inline]
fn goods_of(r: &Rules, mut dice: u8) -> u8 {
    let mut m = 0u8;
    while dice != 0 {
        m |= 1 << r.die_good[dice.trailing_zeros() as usize];
        dice &= dice - 1;
    }
    m
}

fn all_demand_met(r: &Rules, s: &State) -> bool {
    !s.ship.awaiting_demand && open_dice(r, s) == 0
}

/// Every way `seat` may use building `b` now (none: nothing would happen).
pub fn each_use(r: &Rules, s: &State, seat: Seat, b: u8, f: &mut impl FnMut(Use)) {
    let Some(building) = r.buildings.get(b as usize) else { return };
    let p = &s.players[seat];
    let held = |g: u8| p.goods[g as usize];
    let supply = |g: u8| s.supply[g as usize];
    let goods = r.goods.len() as u8;
    match building.effect {
        BuildingEffect::Gain(bundle) => {
            if bundle.pesos > 0 || bundle.vp > 0 || (0..goods).any(|g| bundle.goods[g as usize] > 0 && supply(g) > 0) {
                f(Use::Plain);
            }
        }
        BuildingEffect::Convert { from, to } => {
            for n in 1..=held(from).min(supply(to)) {
                f(Use::Count(n));
            }
        }
        BuildingEffect::Exchange { except } => {
            for give in (0..goods).filter(|&g| except & (1 << g) == 0 && held(g) > 0) {
                for get in (0..goods).filter(|&g| g != give && except & (1 << g) == 0 && supply(g) > 0) {
                    f(Use::Exchange { give, get });
                }
            }
        }
        BuildingEffect::Trade { good, pay, .. } => {
            if held(good) >= pay {
                f(Use::Plain);
            }
        }
        BuildingEffect::Sell { goods: sold, .. } => {
            let avail = (0..goods).filter(|&g| sold & (1 << g) != 0 && held(g) > 0).fold(0u8, |m, g| m | (1 << g));
            // Every non-empty subset of `avail`, in increasing order.
            let mut sub = 0u8;
            loop {
                sub = sub.wrapping_sub(avail) & avail;
                if sub == 0 {
                    break;
                }
                f(Use::Sell(sub));
            }
        }
        BuildingEffect::ClearDie => {
            if !s.ship.awaiting_demand {
                for d in 0..r.dice.len() as u8 {
                    if s.on_ship(d) && s.ship.dice.open(usize::from(d)) > 0 {
                        f(Use::Die(d));
                    }
                }
            }
        }
        BuildingEffect::Casino { pesos_per_vp } => {
            let most = (p.pesos / u16::from(pesos_per_vp.max(1))).min(255) as u8;
            for n in 1..=most {
                f(Use::BuyVp(n));
            }
            for n in 1..=p.vp.min(255) as u8 {
                f(Use::SellVp(n));
            }
        }
        BuildingEffect::MoveMarker => {
            f(Use::Right);
            // From the first flag the marker only moves right (S002:L362).
            if s.ship.marker > 0 {
                f(Use::Left);
            }
        }
        BuildingEffect::DeliverFixed { except, .. } => {
            if !s.ship.awaiting_demand {
                for (d, die) in r.dice.iter().enumerate() {
                    let g = die.good;
                    if s.on_ship(d as u8) && s.ship.dice.open(d) > 0 && except & (1 << g) == 0 && held(g) > 0 {
                        f(Use::Ship(g));
                    }
                }
            }
        }
        BuildingEffect::Newspaper { pesos, flip_car_citizen } => {
            if pesos > 0 {
                f(Use::Plain);
            }
            let at_car = s.car_citizen();
            for c in 0..r.citizens.len() as u8 {
                if !s.is_inactive(c) && (flip_car_citizen || at_car != Some(c)) {
                    f(Use::Flip(c));
                }
            }
        }
    }
}

/// Whether [`each_use`] offers anything, answered without listing the uses (a test
/// compares the two).
pub fn has_use(r: &Rules, s: &State, seat: Seat, b: u8) -> bool {
    let Some(building) = r.buildings.get(b as usize) else { return false };
    let p = &s.players[seat];
    let goods = low_bits(r.goods.len()) as u8;
    match building.effect {
        BuildingEffect::Gain(bundle) => {
            bundle.pesos > 0 || bundle.vp > 0 || held_mask(&bundle.goods) & held_mask(&s.supply) & goods != 0
        }
        BuildingEffect::Convert { from, to } => p.goods[from as usize] > 0 && s.supply[to as usize] > 0,
        BuildingEffect::Exchange { except } => {
            // One good held and another in the supply: both sides non-empty, and not the
            // same single good.
            let give = held_mask(&p.goods) & goods & !except;
            let get = held_mask(&s.supply) & goods & !except;
            give != 0 && get != 0 && !(give == get && give.count_ones() == 1)
        }
        BuildingEffect::Trade { good, pay, .. } => p.goods[good as usize] >= pay,
        BuildingEffect::Sell { goods: sold, .. } => held_mask(&p.goods) & goods & sold != 0,
        BuildingEffect::ClearDie => open_dice(r, s) != 0,
        BuildingEffect::Casino { pesos_per_vp } => p.pesos >= u16::from(pesos_per_vp.max(1)) || p.vp > 0,
        BuildingEffect::MoveMarker => true,
        BuildingEffect::DeliverFixed { except, .. } => {
            goods_of(r, open_dice(r, s)) & !except & held_mask(&p.goods) != 0
        }
        BuildingEffect::Newspaper { pesos, flip_car_citizen } => {
            let mut active = !u32::from(s.inactive) & low_bits(r.citizens.len());
            if let (false, Some(c)) = (flip_car_citizen, s.car_citizen()) {
                active &= !(1u32.checked_shl(u32::from(c)).unwrap_or(0));
            }
            pesos > 0 || active != 0
        }
    }
}

/// Deliveries `seat` may make in the loading round (S002:L217, L265-271).
/// Dice and substitute goods are walked as bit masks, in index order.
fn each_delivery(r: &Rules, s: &State, seat: Seat, f: &mut impl FnMut(Action)) {
    // The dice on the ship that still want goods (none while the demand is not placed).
    let open = open_dice(r, s);
    if open == 0 {
        return;
    }
    let p = &s.players[seat];
    let mut dice = open;
    while dice != 0 {
        let d = dice.trailing_zeros() as usize;
        dice &= dice - 1;
        let good = r.die_good[d];
        for count in 1..=s.ship.dice.open(d).min(p.goods[usize::from(good)]) {
            f(Action::Deliver { good, count });
        }
    }
    let mut with = held_mask(&p.goods) & r.substitutes;
    while with != 0 {
        let w = with.trailing_zeros() as u8;
        with &= with - 1;
        let mut dice = open;
        while dice != 0 {
            let d = dice.trailing_zeros() as usize;
            dice &= dice - 1;
            for count in 1..=s.ship.dice.open(d).min(p.goods[usize::from(w)]) {
                f(Action::DeliverFor { with: w, good: r.die_good[d], count });
            }
        }
    }
}

/// Whether [`each_delivery`] offers `seat` anything: some die on the ship still wants
/// goods, and the seat holds its good or any substitute good.
fn can_deliver(r: &Rules, s: &State, seat: Seat) -> bool {
    let open = open_dice(r, s);
    if open == 0 {
        return false;
    }
    let held = held_mask(&s.players[seat].goods);
    held & r.substitutes != 0 || held & goods_of(r, open) != 0
}

/// Plays an action taken from this very state's legal actions, unchecked (the playout
/// path: simulation and search; `Game::apply` checks first).
pub fn apply_legal(r: &Rules, s: &mut State, a: Action) {
    let me = s.turn.player;
    match (s.phase, a) {
        (Phase::Demand, Action::KeepAside(d)) => {
            s.ship.aside |= 1 << d;
            s.ship.dice.set(usize::from(d), 0);
            if s.ship.aside.count_ones() as usize >= r.dice.len() - usize::from(r.ship_dice) {
                finish_demand(r, s);
            }
        }
        (Phase::Drive, Action::Drive(n)) => drive(r, s, n),
        (Phase::Pickpocket { victim }, Action::Give(g)) => {
            give(r, s, victim, g);
            next_victim(r, s, victim);
        }
        (Phase::Pickpocket { victim }, _) => next_victim(r, s, victim),
        (Phase::ChooseGood, Action::Take(g)) => {
            if let Some(CitizenEffect::ChooseGood { count, .. }) = citizen_effect(r, s) {
                let mut goods = [0; crate::rules::MAX_GOODS];
                goods[g as usize] = count;
                gain(s, me, &Bundle { pesos: 0, vp: 0, goods });
            }
            pawn_step(r, s);
        }
        (Phase::Lawyer, Action::Claim(b)) => {
            s.owner[b as usize] = OptId::some(me);
            pawn_step(r, s);
        }
        (Phase::Lawyer, Action::Use(b, u)) => {
            use_building(r, s, b, u);
            if !s.is_over() {
                pawn_step(r, s);
            }
        }
        (Phase::Pawn { .. }, Action::Pawn(b)) => {
            s.players[me].pawn = OptId::some(b);
            s.turn.visited = true;
            offer_use(r, s, b);
        }
        (Phase::Use { building }, Action::Use(_, u)) => {
            use_building(r, s, building, u);
            if !s.is_over() {
                end_turn(r, s);
            }
        }
        (Phase::Loading { round }, Action::Pass) => {
            let mut round = round;
            round.pass(round.current());
            continue_loading(r, s, round);
        }
        (Phase::Loading { round }, Action::Deliver { good, count }) => {
            let vp = r.value_track.get(s.ship.marker as usize).copied().unwrap_or(0);
            deliver(r, s, round.current(), good, good, count, vp);
            after_delivery(r, s, round);
        }
        (Phase::Loading { round }, Action::DeliverFor { with, good, count }) => {
            let vp = r.goods.get(with as usize).and_then(|g| g.substitute_vp).unwrap_or(0);
            deliver(r, s, round.current(), with, good, count, vp);
            after_delivery(r, s, round);
        }
        // `skip` in the lawyer, pawn (nowhere to go), choose-good and use phases.
        (Phase::Lawyer | Phase::Pawn { .. } | Phase::ChooseGood, _) => pawn_step_or_stay(r, s),
        _ => end_turn(r, s),
    }
}

/// `skip` at the pawn phase means the pawn stays (only offered when there is nowhere
/// to go); elsewhere it moves on to the pawn.
fn pawn_step_or_stay(r: &Rules, s: &mut State) {
    if matches!(s.phase, Phase::Pawn { .. }) {
        stay(r, s);
    } else {
        pawn_step(r, s);
    }
}

/// Sets up a new game's first demand roll (the player right of the start player rolls).
pub fn start_demand(r: &Rules, s: &mut State) {
    // A ruleset whose dice can all show 0 could reroll forever; stop after many tries.
    for _ in 0..1000 {
        s.ship.aside = 0;
        s.ship.awaiting_demand = true;
        for (d, die) in r.dice.iter().enumerate() {
            let i = s.rng.index(die.faces.len());
            s.ship.dice.set(d, die.faces.get(i).copied().unwrap_or(0));
        }
        if r.dice.len() > usize::from(r.ship_dice) {
            s.phase = Phase::Demand;
            return;
        }
        if !place_demand(r, s) {
            return;
        }
    }
    s.ship.awaiting_demand = false;
    begin_turn(s, next_seat(s, s.turn.player));
}

/// The dice are on the ship: play on, or (all zeros) roll again.
fn finish_demand(r: &Rules, s: &mut State) {
    if place_demand(r, s) {
        start_demand(r, s);
    }
}

/// Places the demand. Returns `true` when it must be rolled again (all zeros).
fn place_demand(r: &Rules, s: &mut State) -> bool {
    s.ship.awaiting_demand = false;
    if all_demand_met(r, s) {
        match r.empty_demand {
            EmptyDemand::Reroll => return true,
            EmptyDemand::Departs => {
                depart(r, s);
                if s.is_over() {
                    return false;
                }
                s.turn.roll_pending = false;
                return true;
            }
        }
    }
    begin_turn(s, next_seat(s, s.turn.player));
    false
}

/// `steps::next_seat`, here where it inlines (no division, no call).
#[inline]
fn next_seat(s: &State, seat: Seat) -> Seat {
    let next = seat.wrapping_add(1);
    if usize::from(next) >= s.player_count() { 0 } else { next }
}

fn begin_turn(s: &mut State, seat: Seat) {
    if seat == 0 {
        s.turn.round += 1;
    }
    s.turn.player = seat;
    s.turn.citizen = OptId::NONE;
    s.turn.visited = false;
    s.turn.roll_pending = false;
    s.phase = Phase::Drive;
}

/// A. Drive the car (S002:L126). Passing the port moves the value marker (L233);
/// passing an inactive citizen turns it face up (L374).
fn drive(r: &Rules, s: &mut State, n: u8) {
    let me = s.turn.player;
    let stops = r.stops();
    // `steps::stop_after` one stop at a time, without a division or a call per stop.
    let next_stop = |pos: u8| {
        let next = pos.wrapping_add(1);
        if next >= stops { 0 } else { next }
    };
    let mut pos = s.car;
    for i in 1..n {
        pos = next_stop(pos);
        if pos == 0 {
            marker_right(r, s);
            if s.is_over() {
                // The game ends at once at the port (S002:L406): the car stops there and
                // the fare is that of the steps driven to it (money is a tie-break, L412).
                s.players[me].pesos = s.players[me].pesos.saturating_sub(drive_cost(r, i));
                s.car = pos;
                return;
            }
        } else if let Some(&c) = s.street.get(pos as usize - 1) {
            s.inactive &= !(1 << c);
        }
    }
    s.players[me].pesos = s.players[me].pesos.saturating_sub(drive_cost(r, n));
    s.car = next_stop(pos);
    match s.car_citizen() {
        None => start_loading(r, s),
        Some(c) => {
            s.turn.citizen = OptId::some(c);
            if s.is_inactive(c) {
                // Exception 3 (L287): no citizen, no building; the tile turns up again.
                s.inactive &= !(1 << c);
                end_turn(r, s);
            } else {
                citizen_acts(r, s, c);
            }
        }
    }
}

fn citizen_acts(r: &Rules, s: &mut State, c: u8) {
    let me = s.turn.player;
    let Some(effect) = r.citizens.get(c as usize).map(|x| x.effect) else { return };
    match effect {
        CitizenEffect::Gain(b) => {
            gain(s, me, &b);
            pawn_step(r, s);
        }
        CitizenEffect::Pickpocket { .. } => next_victim(r, s, me),
        CitizenEffect::ChooseGood { .. } => {
            s.phase = Phase::ChooseGood;
            if only_skip(r, s) {
                pawn_step(r, s);
            }
        }
        CitizenEffect::Lawyer { .. } => {
            if has_lawyer_option(r, s) {
                s.phase = Phase::Lawyer;
            } else {
                pawn_step(r, s);
            }
        }
    }
}

/// Whether the only legal action now is `skip` (nothing to decide).
fn only_skip(r: &Rules, s: &State) -> bool {
    let mut other = false;
    each_legal(r, s, &mut |a| other |= a != Action::Skip);
    !other
}

/// The next victim of El Zorro after `after`, in turn order; victims with nothing to
/// give are passed over. After the last, the pawn step.
fn next_victim(r: &Rules, s: &mut State, after: Seat) {
    let me = s.turn.player;
    let mut v = next_seat(s, after);
    while v != me {
        let mut any = false;
        each_gift(r, s, v, &mut |_| any = true);
        if any {
            s.phase = Phase::Pickpocket { victim: v };
            return;
        }
        v = next_seat(s, v);
    }
    pawn_step(r, s);
}

fn give(r: &Rules, s: &mut State, victim: Seat, g: Gift) {
    let me = s.turn.player;
    let Some(CitizenEffect::Pickpocket { pesos, vp, goods, .. }) = citizen_effect(r, s) else { return };
    match g {
        Gift::Pesos => {
            s.players[victim].pesos -= u16::from(pesos);
            s.players[me].pesos += u16::from(pesos);
        }
        Gift::Vp => {
            s.players[victim].vp -= u16::from(vp);
            s.players[me].vp += u16::from(vp);
        }
        Gift::Good(x) => {
            let mut from = s.players[victim].goods;
            transfer(&mut from, &mut s.players[me].goods, usize::from(x), u32::from(goods));
            s.players[victim].goods = from;
        }
    }
}

/// Takes a bundle from the supply; goods only as far as the supply lasts (L194).
fn gain(s: &mut State, seat: Seat, b: &Bundle) {
    let p = &mut s.players[seat];
    p.pesos = p.pesos.saturating_add(u16::from(b.pesos));
    p.vp = p.vp.saturating_add(u16::from(b.vp));
    // Most bundles hold one good or none: the others would move nothing.
    let mut some = held_mask(&b.goods);
    while some != 0 {
        let g = some.trailing_zeros() as usize;
        transfer(&mut s.supply, &mut p.goods, g, u32::from(b.goods[g]));
        some &= some - 1;
    }
}

/// B. After the citizen: move the pawn, or stay where the rules say so.
fn pawn_step(r: &Rules, s: &mut State) {
    let Some(c) = turn_citizen(r, s) else {
        end_turn(r, s);
        return;
    };
    if c.flower == Flower::Transparent {
        // Exception 1 (L285): El Zorro; the pawn stays and may use its building.
        stay(r, s);
        return;
    }
    let to = destinations(r, s);
    if to != 0 {
        s.phase = Phase::Pawn { to };
    } else {
        // Exception 4 (L288): every building of the colour is taken.
        stay(r, s);
    }
}

/// The pawn stays and may use its building again (exceptions 1 and 4); no building
/// before the pawn's first visit (L187).
fn stay(r: &Rules, s: &mut State) {
    match s.players[s.turn.player].pawn.get() {
        None => end_turn(r, s),
        Some(pawn) => offer_use(r, s, pawn),
    }
}

fn offer_use(r: &Rules, s: &mut State, b: u8) {
    if has_use(r, s, s.turn.player, b) {
        s.phase = Phase::Use { building: b };
    } else {
        end_turn(r, s);
    }
}

/// The building's action (S002:L306-374), by effect kind.
fn use_building(r: &Rules, s: &mut State, b: u8, u: Use) {
    let me = s.turn.player;
    let Some(effect) = r.buildings.get(b as usize).map(|x| x.effect) else { return };
    match (effect, u) {
        (BuildingEffect::Gain(bundle), _) => gain(s, me, &bundle),
        (BuildingEffect::Convert { from, to }, Use::Count(n)) => {
            move_goods(s, me, from, n, true);
            move_goods(s, me, to, n, false);
        }
        (BuildingEffect::Exchange { .. }, Use::Exchange { give, get }) => {
            move_goods(s, me, give, 1, true);
            move_goods(s, me, get, 1, false);
        }
        (BuildingEffect::Trade { good, pay, gain: bundle }, _) => {
            move_goods(s, me, good, pay, true);
            gain(s, me, &bundle);
        }
        (BuildingEffect::Sell { vp, .. }, Use::Sell(mask)) => {
            for g in 0..r.goods.len() as u8 {
                if mask & (1 << g) != 0 {
                    move_goods(s, me, g, 1, true);
                    s.players[me].vp += u16::from(vp);
                }
            }
        }
        (BuildingEffect::ClearDie, Use::Die(d)) => {
            s.ship.dice.set(usize::from(d), 0);
            if all_demand_met(r, s) {
                depart(r, s);
            }
        }
        (BuildingEffect::Casino { pesos_per_vp }, Use::BuyVp(n)) => {
            s.players[me].pesos -= u16::from(n) * u16::from(pesos_per_vp);
            s.players[me].vp += u16::from(n);
        }
        (BuildingEffect::Casino { pesos_per_vp }, Use::SellVp(n)) => {
            s.players[me].vp -= u16::from(n);
            s.players[me].pesos += u16::from(n) * u16::from(pesos_per_vp);
        }
        (BuildingEffect::MoveMarker, Use::Right) => marker_right(r, s),
        (BuildingEffect::MoveMarker, _) => s.ship.marker = s.ship.marker.saturating_sub(1),
        (BuildingEffect::DeliverFixed { vp, .. }, Use::Ship(g)) => {
            move_goods(s, me, g, 1, true);
            if let Some(d) = r.die_of_good(g) {
                s.ship.dice.cover(usize::from(d), 1);
            }
            s.players[me].vp += u16::from(vp);
            if all_demand_met(r, s) {
                depart(r, s);
            }
        }
        (BuildingEffect::Newspaper { pesos, .. }, u) => {
            s.players[me].pesos += u16::from(pesos);
            if let Use::Flip(c) = u {
                s.inactive |= 1 << c;
            }
        }
        _ => {}
    }
}

/// Moves goods between a player and the supply (`to_supply`: from the player).
fn move_goods(s: &mut State, seat: Seat, g: u8, n: u8, to_supply: bool) {
    let (g, p) = (g as usize, &mut s.players[seat]);
    if to_supply {
        transfer(&mut p.goods, &mut s.supply, g, u32::from(n));
    } else {
        transfer(&mut s.supply, &mut p.goods, g, u32::from(n));
    }
}

/// The value marker moves one flag right; past the last flag the ship leaves (L227, L233, L362).
fn marker_right(r: &Rules, s: &mut State) {
    s.ship.marker += 1;
    if usize::from(s.ship.marker) >= r.value_track.len() {
        depart(r, s);
    }
}

/// The ship leaves (L378-402): the next one arrives with the marker on the first flag;
/// the player whose turn it is rolls its demand at the end of the turn. The game ends
/// at once when the last ship leaves (L406).
fn depart(r: &Rules, s: &mut State) {
    s.ship.departed += 1;
    s.ship.marker = 0;
    s.ship.dice = Default::default();
    s.ship.aside = 0;
    s.ship.awaiting_demand = true;
    if s.ship.departed >= r.ships {
        s.phase = Phase::Over;
        return;
    }
    s.turn.roll_pending = true;
}

/// The port (L215-229): a loading round from the player who stopped there.
fn start_loading(r: &Rules, s: &mut State) {
    let mut round = PassRound::new(s.turn.player, s.player_count());
    let first = round.first(|p| can_deliver(r, s, p));
    match first {
        Some(_) => s.phase = Phase::Loading { round },
        None => all_passed(r, s),
    }
}

fn deliver(r: &Rules, s: &mut State, seat: Seat, with: u8, good: u8, count: u8, vp_each: u8) {
    move_goods(s, seat, with, count, true);
    if let Some(d) = r.die_of_good(good) {
        s.ship.dice.cover(usize::from(d), count);
    }
    s.players[seat].vp += u16::from(count) * u16::from(vp_each);
}

fn after_delivery(r: &Rules, s: &mut State, round: PassRound) {
    if all_demand_met(r, s) {
        depart(r, s);
        if !s.is_over() {
            end_turn(r, s);
        }
        return;
    }
    continue_loading(r, s, round);
}

/// The next player still in the round; those who cannot deliver must pass (L223).
fn continue_loading(r: &Rules, s: &mut State, mut round: PassRound) {
    match round.next(|p| can_deliver(r, s, p)) {
        Some(_) => s.phase = Phase::Loading { round },
        None => all_passed(r, s),
    }
}

/// Everybody passed with demand left: the marker moves right (L227).
fn all_passed(r: &Rules, s: &mut State) {
    marker_right(r, s);
    if !s.is_over() {
        end_turn(r, s);
    }
}

/// The end of a turn: the owner of another player's visited building gains VP
/// (L211, L290), then the new demand if this player made a ship leave (L400).
fn end_turn(r: &Rules, s: &mut State) {
    let me = s.turn.player;
    if let Some(pawn) = s.players[me].pawn.get() {
        let counts = match r.owner_vp_when {
            OwnerVpWhen::Visit => s.turn.visited,
            OwnerVpWhen::EveryTurn => true,
        };
        if counts
            && let Some(owner) = s.owner[pawn as usize].get()
            && owner != me
            && usize::from(owner) < s.player_count()
        {
            s.players[owner].vp += u16::from(r.owner_vp);
        }
    }
    if s.turn.roll_pending {
        s.turn.roll_pending = false;
        start_demand(r, s);
    } else {
        begin_turn(s, next_seat(s, me));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_masks_match_a_plain_loop() {
        let mut rng = rulesmith_game::Rng::from_seed(11);
        for _ in 0..5000 {
            let mut bytes = [0u8; MAX_BUILDINGS];
            for b in &mut bytes {
                // Mostly small values and zeros, sometimes the high bit.
                *b = match rng.index(4) {
                    0 => 0,
                    1 => rng.index(256) as u8,
                    _ => rng.index(3) as u8,
                };
            }
            let value = rng.index(3) as u8;
            let plain = bytes.iter().enumerate().fold(0u32, |m, (i, &b)| m | u32::from(b == value) << i);
            assert_eq!(equal_bits(&bytes, value), plain, "{bytes:?} == {value}");
            let mut eight = [0u8; 8];
            eight.copy_from_slice(&bytes[..8]);
            let plain = eight.iter().enumerate().fold(0u8, |m, (i, &b)| m | u8::from(b != 0) << i);
            assert_eq!(nonzero_bits(eight), plain, "{eight:?}");
        }
    }
}
